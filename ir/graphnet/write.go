package graphnet

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/ir"
)

// WriteOptions says how to write a graph folder.
type WriteOptions struct {
	// ModelName is graph_net.json's model_name. Empty means the name of what the program was read from (the graph
	// folder whose model.py is Program.File, its parent for a subgraph_N folder, or the file's name without its
	// extension), or else the name of the folder written.
	ModelName string
}

// Encode returns the files of a graph folder for p: model.py with one statement per op (as GraphNet writes them,
// with the signature comment before each, and del after each value's last use), weight_meta.py and
// input_meta.py from the parameter and data ops and the program's Params and Feeds, and graph_net.json. The
// program's top-level block must hold only ops of the catalog without regions; its outputs are its pd_op.fetch and
// builtin.shadow_output ops, but for a shadow_output of a parameter itself (Paddle's executor keep-alive of a weight
// nothing reads, add_shadow_output_after_dead_parameter's): the weight stays an argument of forward, which does not
// return it, so that the graph returns what the captured model returned.
func Encode(p *ir.Program, opts WriteOptions) (Source, error) {
	w := newWriter(p)
	if err := w.collect(); err != nil {
		return Source{}, err
	}
	model, err := w.model()
	if err != nil {
		return Source{}, err
	}
	name := opts.ModelName
	if name == "" {
		name = modelName(p.File)
	}
	return Source{
		Model:      model,
		WeightMeta: w.metaFile(w.weights),
		InputMeta:  w.metaFile(w.inputs),
		JSON: []byte(fmt.Sprintf("{\n    \"framework\": \"paddle\",\n    \"model_name\": %s,\n"+
			"    \"num_devices_required\": 1,\n    \"num_nodes_required\": 1\n}", pyString(name))),
	}, nil
}

// modelName derives a model name from the folder or file a program was read from.
func modelName(dir string) string {
	if dir == "" {
		return "model"
	}
	dir, _, _ = strings.Cut(dir, programDescSuffix)
	dir = filepath.Clean(dir)
	if b := filepath.Base(dir); b == ModelFile || b == GraphNetJSON {
		dir = filepath.Dir(dir) // a program read from a graph folder: its File is the folder's model.py
	}
	base := filepath.Base(dir)
	if strings.HasPrefix(base, "subgraph_") {
		base = filepath.Base(filepath.Dir(dir))
	} else if ext := filepath.Ext(base); programFileExt[ext] && ext != base {
		base = strings.TrimSuffix(base, ext) // a program read from a file (model.json), not a folder (ernie-3.0)
	}
	if base == "." || base == string(filepath.Separator) || base == "" {
		return "model"
	}
	return base
}

// programFileExt are the extensions of the program files pirdrr reads.
var programFileExt = map[string]bool{".json": true, ".pir": true, ".txt": true, ".pdmodel": true}

// Write encodes p and writes the graph folder dir (created if needed): model.py, weight_meta.py, input_meta.py
// and graph_net.json, each replaced atomically with its mode kept (0644 for a new file); any other file of dir
// stays as it is. Nothing is written when p cannot be encoded.
func Write(p *ir.Program, dir string, opts WriteOptions) error {
	if opts.ModelName == "" && p.File == "" {
		opts.ModelName = modelName(dir)
	}
	src, err := Encode(p, opts)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{ModelFile, src.Model}, {WeightMetaFile, src.WeightMeta}, {InputMetaFile, src.InputMeta}, {GraphNetJSON, src.JSON}} {
		err := fileio.WriteAtomic(filepath.Join(dir, f.name), func(w io.Writer) error {
			_, err := w.Write(f.data)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// writer holds what Encode learns of a program: its inputs (parameter and data ops), its statements, its outputs,
// and the Python name of each value.
type writer struct {
	p       *ir.Program
	ctx     *ir.Context
	weights []*inputTensor
	inputs  []*inputTensor
	stmts   []*ir.Op
	outputs []*ir.Value
	names   map[*ir.Value]string
	taken   map[string]bool
	counter map[string]int
}

// inputTensor is a forward parameter: a weight or an input.
type inputTensor struct {
	op   *ir.Op
	name string // the Python name
	v    *ir.Variable
}

func newWriter(p *ir.Program) *writer {
	// The names model.py uses besides the values': they must not be shadowed.
	taken := map[string]bool{"self": true, "paddle": true, "float": true, "isinstance": true, "list": true,
		"tuple": true, "super": true}
	return &writer{p: p, ctx: p.Ctx, names: map[*ir.Value]string{}, taken: taken, counter: map[string]int{}}
}

func (w *writer) errorf(op *ir.Op, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if op != nil {
		msg = op.Name() + ": " + msg
	}
	e := &Error{Pos: diag.Position{Filename: w.p.File}, Msg: msg}
	if op != nil {
		e.Pos = op.Loc.In(w.p.File)
	}
	return e
}

// collect sorts the ops of the program into inputs, statements and outputs, and names the inputs.
func (w *writer) collect() error {
	type fetched struct {
		col int64
		i   int
		v   *ir.Value
	}
	var outs []fetched
	var weightOps, dataOps []*ir.Op
	for op := range w.p.Body().Ops() {
		if op.NumRegions() > 0 {
			return w.errorf(op, "ops with regions (control flow) cannot be written as a GraphNet graph")
		}
		switch op.Name() {
		case ir.ParameterOpName, ir.GetParameterOpName, opData:
			if op.NumResults() != 1 || op.NumOperands() != 0 {
				return w.errorf(op, "an input op needs one result and no operands")
			}
			if _, ok := op.Result(0).Type().(*ir.TensorType); !ok {
				return w.errorf(op, "an input must be a tensor, not %s", op.Result(0).Type())
			}
			if op.Name() == opData {
				dataOps = append(dataOps, op)
			} else {
				weightOps = append(weightOps, op)
			}
		case opFetch, opShadowOutput:
			if op.NumOperands() != 1 || op.Operand(0) == nil {
				return w.errorf(op, "an output op needs one operand")
			}
			if op.Name() == opShadowOutput && publishesParameter(op) {
				continue
			}
			col, ok := ir.AsInt(op.Attr("col"))
			if !ok {
				col = int64(len(outs))
			}
			outs = append(outs, fetched{col, len(outs), op.Operand(0)})
		default:
			w.stmts = append(w.stmts, op)
		}
	}
	if len(outs) == 0 {
		return w.errorf(nil, "the program has no outputs (pd_op.fetch or builtin.shadow_output), so its forward would return nothing")
	}
	sort.SliceStable(outs, func(i, j int) bool { return outs[i].col < outs[j].col })
	for _, o := range outs {
		w.outputs = append(w.outputs, o.v)
	}
	// Inputs keep their names when those are Python identifiers; others become parameter_N and data_N, with the
	// program's name recorded as original_name.
	for _, op := range weightOps {
		name, _ := ir.AsString(op.Attr("parameter_name"))
		w.weights = append(w.weights, &inputTensor{op: op, name: name, v: w.p.Params[name]})
	}
	for _, op := range dataOps {
		name, _ := ir.AsString(op.Attr("name"))
		var v *ir.Variable
		if w.p.Feeds != nil {
			v = w.p.Feeds[name]
		}
		w.inputs = append(w.inputs, &inputTensor{op: op, name: name, v: v})
	}
	for _, list := range []struct {
		ins    []*inputTensor
		prefix string
	}{{w.weights, "parameter_"}, {w.inputs, "data_"}} {
		for _, in := range list.ins {
			if isIdentifier(in.name) && !w.taken[in.name] {
				w.taken[in.name] = true
				continue
			}
			orig := in.name
			in.name = w.fresh(strings.TrimSuffix(list.prefix, "_"))
			if in.v == nil || in.v.OriginalName == "" {
				v := &ir.Variable{Name: in.name, Type: in.op.Result(0).Type(), OriginalName: orig}
				if in.v != nil {
					v.Data, v.Stats = in.v.Data, in.v.Stats
				}
				in.v = v
			}
		}
	}
	for _, in := range append(append([]*inputTensor(nil), w.weights...), w.inputs...) {
		w.names[in.op.Result(0)] = in.name
	}
	return nil
}

// fresh returns an unused name base_N.
func (w *writer) fresh(base string) string {
	for {
		n := w.counter[base]
		w.counter[base] = n + 1
		name := base + "_" + strconv.Itoa(n)
		if !w.taken[name] {
			w.taken[name] = true
			return name
		}
	}
}

func isIdentifier(s string) bool {
	if s == "" || isKeyword(s) || !isNameStart(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameChar(s[i]) || s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// publishesParameter reports whether a shadow output's operand is the result of a parameter op: a weight kept alive
// for Paddle's executor, not something the model computes.
func publishesParameter(op *ir.Op) bool {
	d := op.Operand(0).DefiningOp()
	return d != nil && (d.Name() == ir.ParameterOpName || d.Name() == ir.GetParameterOpName)
}
