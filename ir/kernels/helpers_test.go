package kernels_test

import (
	"testing"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

func pirtextParse(ctx *ir.Context, src string) (*ir.Program, diag.Diagnostics, error) {
	return pirtext.Parse(ctx, "p.pir", []byte(src), pirtext.ReadOptions{})
}

func parseProgram(tb testing.TB, ctx *ir.Context, src string) *ir.Program {
	tb.Helper()
	p, _, err := pirtextParse(ctx, src)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
