package pirfile

import (
	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
)

// GraphNet is a GraphNet graph folder (package graphnet): model.py, weight_meta.py, input_meta.py and
// graph_net.json, as Paddle's GraphNet dataset captures models. A folder is a graph when it holds model.py; a
// sample folder whose subgraph_N/ folders are graphs is not itself a program, and Expand lists its graphs in the
// order of N. Written graphs refuse what Paddle cannot run, pirdrr's value tensors included (Options.Internal does
// not change that: GraphNet has no spelling for them).
var GraphNet = &Format{
	Name:     "graphnet",
	Doc:      "a GraphNet graph folder: model.py, weight_meta.py, input_meta.py",
	Dir:      true,
	Files:    []string{graphnet.ModelFile, graphnet.WeightMetaFile, graphnet.InputMetaFile, graphnet.GraphNetJSON},
	SniffDir: graphnet.IsGraph,
	ReadDir: func(ctx *ir.Context, dir string) (*ir.Program, diag.Diagnostics, error) {
		p, err := graphnet.Read(ctx, dir)
		if err != nil {
			return nil, nil, err
		}
		return p, nil, nil
	},
	WriteDir: func(dir string, p *ir.Program, opts Options) error {
		if err := loadable(p, "graphnet"); err != nil {
			return err
		}
		return graphnet.Write(p, dir, graphnet.WriteOptions{ModelName: modelNameFor(p, opts)})
	},
}

func init() { standard = append(standard, GraphNet) }

// modelNameFor is graph_net.json's model_name for a written program: graphnet's own choice (the folder the
// program was read from) when the program has a file, else the name of the output.
func modelNameFor(p *ir.Program, opts Options) string {
	if p.File != "" {
		return ""
	}
	return opts.Name
}
