//go:build !unix

package fileio

const nonblock = 0
