package pirtext

import (
	"os"
	"syscall"
)

// openSource maps the file at path. release(lo, hi) gives the whole pages of src[lo:hi] back to the system (they
// are read from the file again if touched), and done unmaps the file. Files that cannot be mapped (empty, not
// regular) are read whole.
func openSource(path string) (src []byte, release func(lo, hi int), done func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, nil, err
	}
	size := info.Size()
	if !info.Mode().IsRegular() || size == 0 || int64(int(size)) != size {
		src, err := os.ReadFile(path)
		return src, nil, func() {}, err
	}
	src, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		src, err := os.ReadFile(path)
		return src, nil, func() {}, err
	}
	_ = syscall.Madvise(src, syscall.MADV_SEQUENTIAL)
	page := os.Getpagesize()
	release = func(lo, hi int) {
		lo = (lo + page - 1) / page * page
		hi = hi / page * page
		if lo < hi {
			_ = syscall.Madvise(src[lo:hi], syscall.MADV_DONTNEED)
		}
	}
	return src, release, func() { _ = syscall.Munmap(src) }, nil
}
