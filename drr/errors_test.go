package drr

import (
	"testing"

	"github.com/pirdrr/drr/diag"
	"github.com/stretchr/testify/assert"
)

func TestTooManyErrors(t *testing.T) {
	src := ""
	for i := 0; i < 80; i++ {
		src += "bogus\n"
	}
	_, err := Parse("t.drr", []byte(src))
	ds := err.(diag.Diagnostics)
	assert.Len(t, ds, maxDiagnostics)
	assert.Equal(t, "too many errors", ds[len(ds)-1].Message)
}
