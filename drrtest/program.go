package drrtest

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
	"github.com/pirdrr/drr/ir/pirfile"
)

// An archive holds its input and expected output programs in one of three forms: a PIR text section (input.pir,
// output.pir), a PIR JSON section (input.json, output.json), or a GraphNet graph, whose folder cannot live in an
// archive and is kept as one section per file under input/ and output/:
//
//	-- input/model.py --        the graph's files (input/graph_net.json is optional)
//	-- input/weight_meta.py --
//	-- input/input_meta.py --
//	-- output/model.py --       the expected graph: model.py, weight_meta.py and input_meta.py (graph_net.json,
//	-- output/weight_meta.py -- which only names the model, is not compared)
//	-- output/input_meta.py --
//
// The expected output is in the form of the output sections the archive has, else in the input's form.
type form int

const (
	formPIR form = iota
	formJSON
	formGraphNet
)

// graphnetFiles are the files of a GraphNet graph that an archive compares, in section order.
var graphnetFiles = []string{graphnet.ModelFile, graphnet.WeightMetaFile, graphnet.InputMetaFile}

// sections returns the names of the sections that hold a program of this form, for prefix input or output.
func (f form) sections(prefix string) []string {
	switch f {
	case formJSON:
		return []string{prefix + ".json"}
	case formGraphNet:
		out := make([]string, len(graphnetFiles))
		for i, name := range graphnetFiles {
			out[i] = prefix + "/" + name
		}
		return out
	}
	return []string{prefix + ".pir"}
}

// formOf returns the form of the program sections with the prefix (input, output), and whether there are any.
func formOf(ar *txtar.Archive, prefix string) (form, bool) {
	for _, f := range ar.Files {
		switch {
		case f.Name == prefix+".pir":
			return formPIR, true
		case f.Name == prefix+".json":
			return formJSON, true
		case strings.HasPrefix(f.Name, prefix+"/"):
			return formGraphNet, true
		}
	}
	return formPIR, false
}

// errNoInput is the error of an archive without an input program.
var errNoInput = errors.New("no input program: an input.pir or input.json section, or input/model.py, input/weight_meta.py and input/input_meta.py for a GraphNet graph")

// readInput reads the archive's input program. A malformed program is returned as a failed run (readErr), an
// archive without a usable input section as an error.
func readInput(ctx *ir.Context, ar *txtar.Archive) (p *ir.Program, in form, readErr, err error) {
	in, ok := formOf(ar, "input")
	if !ok {
		return nil, in, nil, errNoInput
	}
	if in != formGraphNet {
		name := in.sections("input")[0]
		data, _ := section(ar, name)
		p, _, readErr = pirfile.Parse(ctx, name, []byte(data), pirfile.ByExtension(name))
		return p, in, readErr, nil
	}
	src := graphnet.Source{Dir: "input"}
	files := map[string]*[]byte{graphnet.ModelFile: &src.Model, graphnet.WeightMetaFile: &src.WeightMeta,
		graphnet.InputMetaFile: &src.InputMeta, graphnet.GraphNetJSON: &src.JSON}
	for _, f := range ar.Files {
		name, isInput := strings.CutPrefix(f.Name, "input/")
		if !isInput {
			continue
		}
		dst, known := files[name]
		if !known {
			return nil, in, nil, fmt.Errorf("section %s: a GraphNet graph's files are %s and %s", f.Name,
				strings.Join(graphnetFiles, ", "), graphnet.GraphNetJSON)
		}
		*dst = f.Data
	}
	for _, name := range graphnetFiles {
		if *files[name] == nil {
			return nil, in, nil, fmt.Errorf("the GraphNet input has no section input/%s", name)
		}
	}
	p, readErr = graphnet.Decode(ctx, src)
	return p, in, readErr, nil
}

// renderOutput returns the sections of p in form f, named with prefix ("output", or "RUN:output" for a named run).
func renderOutput(p *ir.Program, f form, prefix string) ([]gotSection, error) {
	names := f.sections(prefix)
	switch f {
	case formGraphNet:
		src, err := graphnet.Encode(p, graphnet.WriteOptions{ModelName: "output"})
		if err != nil {
			return nil, err
		}
		data := [][]byte{src.Model, src.WeightMeta, src.InputMeta}
		var out []gotSection
		for i, name := range names {
			out = append(out, gotSection{name: name, text: string(data[i])})
		}
		return out, nil
	case formJSON:
		out, err := pirfile.Marshal(p, pirfile.PIRJSON, pirfile.Options{})
		if err != nil {
			return nil, err
		}
		return []gotSection{{name: names[0], text: string(out) + "\n"}}, nil
	}
	out, err := pirfile.Marshal(p, pirfile.PIRText, pirfile.Options{})
	if err != nil {
		return nil, err
	}
	return []gotSection{{name: names[0], text: string(out)}}, nil
}
