//go:build unix

package fileio

import "syscall"

// nonblock opens FIFOs without waiting for the other end.
const nonblock = syscall.O_NONBLOCK
