package graphview

import (
	"io"
	"testing"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

// BenchmarkLayout builds and lays out PP-OCRv5 server (the largest model of pir_json, 513 drawn ops), whole and
// collapsed, and a random program of 5,000 ops; then writes the HTML page.
func BenchmarkLayout(b *testing.B) {
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		b.Fatal(err)
	}
	ocr, _, err := pirfile.Load(ctx, corpus.Path(b, "pir_json/nanaikaros__PP-OCRv5_server_det_infer.inference.json"))
	if err != nil {
		b.Fatal(err)
	}
	random := parse(b, randomProgram(3, 5000))
	for _, bench := range []struct {
		name string
		p    *ir.Program
		opts Options
	}{
		{"ocr_server", ocr, Options{}},
		{"ocr_server_collapsed", ocr, Options{Collapse: true}},
		{"random5000", random, Options{}},
	} {
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g := Build(bench.p, bench.opts)
				g.Layout()
				if err := WriteHTML(io.Discard, "bench", g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLayoutSegFormer builds and lays out SegFormer-B5 subgraph_1 (4,376 ops, the largest graph of the corpus)
// whole and collapsed: the layout time that the first render of the page waits for.
func BenchmarkLayoutSegFormer(b *testing.B) {
	p := loadCorpus(b, "graphnet_samples/PaddleX/SegFormer-B5/subgraph_1")
	for _, collapse := range []bool{false, true} {
		b.Run(map[bool]string{false: "whole", true: "collapsed"}[collapse], func(b *testing.B) {
			for b.Loop() {
				g := Build(p, Options{Collapse: collapse})
				g.Layout()
			}
		})
	}
}
