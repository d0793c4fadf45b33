// Command gen writes the sample model, internal/sample/tinyresnet.json, and its weights, tinyresnet.pdiparams, drawn
// from sample.Seed (run by go generate in internal/sample).
package main

import (
	"fmt"
	"os"

	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pdiparams"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/ir/pirjson"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		return err
	}
	p, err := sample.Build(ctx)
	if err != nil {
		return err
	}
	data, err := pirjson.Marshal(p, pirjson.WriteOptions{})
	if err != nil {
		return err
	}
	if err := pirfile.WriteFile(sample.Name, data); err != nil {
		return err
	}
	if err := sample.FillWeights(p, sample.Seed); err != nil {
		return err
	}
	return pdiparams.WriteFile(sample.WeightsName, p)
}
