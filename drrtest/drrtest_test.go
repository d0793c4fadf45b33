package drrtest

import (
	"flag"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected sections of the golden archives")

func TestDriverGoldens(t *testing.T) {
	Run(t, "../testdata/driver", Options{Update: *update})
}
