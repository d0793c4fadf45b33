package drrcli

import (
	"errors"
	"io"
	"os"
	"time"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

// verdictGate holds whether a program may be written, decided on another goroutine while the program is printed
// (drrc apply judges and prints a large result at once: both only read it).
type verdictGate struct {
	ch     chan bool
	done   bool
	writes bool
	waited time.Duration // how long the writer waited for the verdict
}

// wait returns the verdict, waiting for it the first time.
func (g *verdictGate) wait() bool {
	if !g.done {
		g.writes, g.done = <-g.ch, true
	}
	return g.writes
}

// waitTime returns how long the writer waited for the verdict (0 for a nil gate).
func (g *verdictGate) waitTime() time.Duration {
	if g == nil {
		return 0
	}
	return g.waited
}

// errJudgedNotWritten is what a gated format's writer returns when the verdict is not to write: the temporary
// file is removed and the output left as it was; the judgement has recorded why.
var errJudgedNotWritten = errors.New("not written")

// gate returns f with a writer that, once the program is printed, waits for the verdict and fails if it is not to
// write, so that the atomic write never renames its temporary file over the output. A nil gate returns f.
func (g *verdictGate) gate(f *pirfile.Format) *pirfile.Format {
	if g == nil {
		return f
	}
	gated := *f
	gated.Write = func(w io.Writer, p *ir.Program, opts pirfile.Options) error {
		if err := f.Write(w, p, opts); err != nil {
			return err
		}
		t := time.Now()
		ok := g.wait()
		g.waited = time.Since(t)
		if !ok {
			return errJudgedNotWritten
		}
		return nil
	}
	return &gated
}

// writesUndoably reports whether writing program format f to path can be undone until its last step: a file
// format written to a regular file or a new one (pirfile writes those atomically), not standard output, a device
// or a folder.
func writesUndoably(path string, f *pirfile.Format) bool {
	if path == "-" || f.Dir || f.Write == nil {
		return false
	}
	info, err := os.Stat(path)
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	return info.Mode().IsRegular()
}
