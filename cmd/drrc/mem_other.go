//go:build !linux

package main

// totalMemory returns 0: the machine's memory is read on Linux only (see mem_linux.go).
func totalMemory() uint64 { return 0 }
