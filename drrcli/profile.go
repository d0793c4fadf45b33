package drrcli

import (
	"os"
	"runtime/pprof"
)

// startCPUProfile starts writing a CPU profile to path (for go tool pprof) and returns the function that stops it
// and closes the file; with path "" it does nothing.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
