//go:build !linux

package pirtext

import "os"

// openSource reads the file at path whole (see file_linux.go for the mapped version).
func openSource(path string) (src []byte, release func(lo, hi int), done func(), err error) {
	src, err = os.ReadFile(path)
	return src, nil, func() {}, err
}
