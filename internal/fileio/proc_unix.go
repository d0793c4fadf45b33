//go:build unix

package fileio

import (
	"errors"
	"io/fs"
	"syscall"
)

// running reports whether a process with this id runs (or may: only "no such process" says it does not).
func running(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// links returns the number of hard links of a file (1 when the system does not say).
func links(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
