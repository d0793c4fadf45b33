package rules_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/drrtest"
)

// transformerDir holds the golden archives of the example set examples/transformer/transformer.drr (issue 29): a
// layer norm written out (DeBERTa, both forms), a weightless RMS norm (RoFormer v2), matmul + bias + tanh-gelu into
// fused_gemm_epilogue (GPT-2) and softmax + mask, each with a negative case. The archives import the shipped file
// (import "../transformer.drr"), so they test it and not a copy. -update rewrites their outputs and stats; their
// ops sections are requirements.
const transformerDir = "../examples/transformer/testdata"

func TestTransformerExamples(t *testing.T) {
	drrtest.Run(t, transformerDir, drrtest.Options{Update: *update})
}

// TestTransformerExamplesPreserveValues runs each archive's input and output in the reference interpreter on the
// same random inputs and weights and requires equal outputs, within their float32 budgets.
func TestTransformerExamplesPreserveValues(t *testing.T) {
	files, err := drrtest.Files(transformerDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no archive in %s", transformerDir)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			var input, output string
			for _, sec := range txtar.Parse(data).Files {
				switch sec.Name {
				case "input.pir":
					input = string(sec.Data)
				case "output.pir":
					output = string(sec.Data)
				}
			}
			if input == "" || output == "" {
				t.Fatal("the archive needs an input.pir and an output.pir")
			}
			rep, err := compare.Programs(parse(t, input), parse(t, output), compare.Options{Runs: 2})
			if err != nil {
				if rep != nil && errors.Is(err, compare.ErrMismatch) {
					t.Fatalf("%v\n%s", err, rep)
				}
				t.Fatal(err)
			}
			if len(rep.Outputs) == 0 {
				t.Fatal("no outputs compared")
			}
		})
	}
}
