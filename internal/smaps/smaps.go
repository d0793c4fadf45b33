// Package smaps reads what Linux says of this process's memory mappings in /proc/self/smaps, for tests that check
// how memory was mapped (ir's allocator and its page advice, pirtext's source mapped ahead of the parser).
package smaps

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ErrUnavailable is returned where /proc/self/smaps cannot be read (not Linux, or no /proc): tests skip then.
var ErrUnavailable = errors.New("/proc/self/smaps is not available")

// Field returns the values of field name ("Rss", "VmFlags", …) of the mapping of this process that holds addr.
func Field(addr uintptr, name string) ([]string, error) {
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	in := false
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(f[0], "-"); ok && !strings.HasSuffix(f[0], ":") {
			start, err1 := strconv.ParseUint(lo, 16, 64)
			end, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= start && uint64(addr) < end
			continue
		}
		if in && f[0] == name+":" {
			return f[1:], nil
		}
	}
	return nil, fmt.Errorf("no mapping of /proc/self/smaps holds %#x, or it has no %s", addr, name)
}

// Bytes returns a field counted in kB ("Rss", "AnonHugePages", …) of the mapping that holds addr, in bytes.
func Bytes(addr uintptr, name string) (int64, error) {
	f, err := Field(addr, name)
	if err != nil {
		return 0, err
	}
	if len(f) != 2 || f[1] != "kB" {
		return 0, fmt.Errorf("%s of the mapping at %#x is %q, not a size in kB", name, addr, strings.Join(f, " "))
	}
	kb, err := strconv.ParseInt(f[0], 10, 64)
	return kb << 10, err
}
