package drrcli

import (
	"flag"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/ir/pirfile"
)

// sizeFlag is a size in bytes given as 64M, 1G, 100000 (-max-file-size); 0 means the defaults.
type sizeFlag int64

func (s *sizeFlag) String() string {
	if *s == 0 {
		return ""
	}
	return fileio.FormatSize(int64(*s))
}

func (s *sizeFlag) Set(v string) error {
	n, err := fileio.ParseSize(v)
	if err != nil {
		return err
	}
	*s = sizeFlag(n)
	return nil
}

// registerMaxFileSize declares -max-file-size, the size limit of every file a command reads.
func registerMaxFileSize(fs *flag.FlagSet, s *sizeFlag) {
	fs.Var(s, "max-file-size", "the size limit of each file read, as `size` (64M, 2G, …; default: 64 MiB for rule files, 1 GiB for programs and standard input)")
}

// useMaxFileSize makes s, if given, the size limit of what this invocation reads: rule files, programs and
// standard input.
func (c *CLI) useMaxFileSize(s sizeFlag) {
	if s == 0 {
		return
	}
	c.maxFileSize = int64(s)
	if c.Formats != nil {
		c.Formats.MaxFileSize = c.maxFileSize
	}
}

// loadOptions are the options rule files are loaded with: the checker's, and -max-file-size.
func (c *CLI) loadOptions(check drr.CheckOptions) drr.LoadOptions {
	return drr.LoadOptions{CheckOptions: check, MaxFileSize: c.maxFileSize}
}

// ruleFileLimit and programLimit are the size limits of a rule file and of a program (or standard input).
func (c *CLI) ruleFileLimit() int64 {
	if c.maxFileSize > 0 {
		return c.maxFileSize
	}
	return drr.DefaultMaxFileSize
}

func (c *CLI) programLimit() int64 {
	if c.maxFileSize > 0 {
		return c.maxFileSize
	}
	return pirfile.DefaultMaxFileSize
}

// readStdin reads standard input within limit.
func (c *CLI) readStdin(limit int64) ([]byte, error) {
	return fileio.ReadAll(c.Stdin, "standard input", limit)
}
