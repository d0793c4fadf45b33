package graphnet

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/ir"
)

// The files of a graph folder.
const (
	ModelFile      = "model.py"
	WeightMetaFile = "weight_meta.py"
	InputMetaFile  = "input_meta.py"
	GraphNetJSON   = "graph_net.json"
)

// Source is a graph in memory: its files' contents and the folder they are from (used in messages, and as the
// program's File).
type Source struct {
	// Dir is the graph folder ("" for a graph that never was in one).
	Dir string
	// Model, WeightMeta and InputMeta are the contents of model.py, weight_meta.py and input_meta.py.
	Model      []byte
	WeightMeta []byte
	InputMeta  []byte
	// JSON is graph_net.json, or nil when the folder has none.
	JSON []byte
}

// IsGraph reports whether dir is a graph folder (it holds model.py).
func IsGraph(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, ModelFile))
	return err == nil && info.Mode().IsRegular()
}

// IsSample reports whether dir is a GraphNet graph folder, or a sample folder whose subgraph_N folders are graphs.
func IsSample(dir string) bool {
	graphs, err := Graphs(dir)
	return err == nil && len(graphs) > 0
}

// Graphs lists the graph folders of path: path itself when it is a graph folder, otherwise its subgraph_N folders
// that are graphs, in the order of N. It is an error when path is neither.
func Graphs(path string) ([]string, error) {
	if IsGraph(path) {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	type sub struct {
		n   int
		dir string
	}
	var subs []sub
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "subgraph_")
		if !ok || !e.IsDir() {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 {
			continue
		}
		dir := filepath.Join(path, e.Name())
		if IsGraph(dir) {
			subs = append(subs, sub{n, dir})
		}
	}
	if len(subs) == 0 {
		return nil, &Error{Pos: diag.Position{Filename: path}, Msg: "not a GraphNet graph (no " + ModelFile + ") nor a sample (no subgraph_N folders holding one)"}
	}
	sort.Slice(subs, func(i, j int) bool { return subs[i].n < subs[j].n })
	out := make([]string, len(subs))
	for i, s := range subs {
		out[i] = s.dir
	}
	return out, nil
}

// Read reads the graph folder dir into a program of ctx (see Decode).
func Read(ctx *ir.Context, dir string) (*ir.Program, error) {
	src := Source{Dir: dir}
	for _, f := range []struct {
		name     string
		dst      *[]byte
		optional bool
	}{{ModelFile, &src.Model, false}, {WeightMetaFile, &src.WeightMeta, false}, {InputMetaFile, &src.InputMeta, false},
		{GraphNetJSON, &src.JSON, true}} {
		b, err := fileio.ReadFile(filepath.Join(dir, f.name), 0) // a FIFO would block: regular files only
		if err != nil {
			if f.optional && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, &Error{Pos: diag.Position{Filename: filepath.Join(dir, f.name)}, Msg: errText(err)}
		}
		*f.dst = b
	}
	return Decode(ctx, src)
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var nr *fileio.NotRegularError
	if errors.As(err, &nr) {
		return strings.TrimPrefix(nr.Error(), nr.Name+": ")
	}
	return err.Error()
}

// Decode builds a program from a graph: a builtin.parameter op per weight and a pd_op.data op per input (in the
// order of forward's parameters, named as GraphNet names them, with their metadata in Program.Params and
// Program.Feeds), one op per statement of forward, and a pd_op.fetch per returned value. Every op is checked
// against the catalog of ctx; the first problem is returned as an *Error.
func Decode(ctx *ir.Context, src Source) (*ir.Program, error) {
	file := func(name string) string {
		if src.Dir == "" {
			return name
		}
		return filepath.Join(src.Dir, name)
	}
	if src.JSON != nil {
		if err := checkGraphNetJSON(file(GraphNetJSON), src.JSON); err != nil {
			return nil, err
		}
		if desc, ok := programDesc(src.JSON); ok && wrapsModel(src.Model) {
			p, err := decodeProgramDesc(ctx, src, desc, file)
			if err != nil {
				return nil, err
			}
			return p, nil
		}
	}
	mem := getArena()
	defer mem.release() // the syntax tree is not needed once the program is built
	body, err := parseModule(file(ModelFile), src.Model, mem)
	if err != nil {
		return nil, err
	}
	weights, err := parseMeta(file(WeightMetaFile), src.WeightMeta)
	if err != nil {
		return nil, err
	}
	inputs, err := parseMeta(file(InputMetaFile), src.InputMeta)
	if err != nil {
		return nil, err
	}
	b := newBuilder(ctx, file(ModelFile))
	fwd, err := b.forward(body)
	if err != nil {
		return nil, err
	}
	if err := b.params(fwd, weights, inputs, file(WeightMetaFile), file(InputMetaFile)); err != nil {
		return nil, err
	}
	if err := b.body(fwd); err != nil {
		return nil, err
	}
	b.finish()
	if src.Dir != "" {
		b.prog.File = file(ModelFile) // positions are in model.py
	}
	return b.prog, nil
}

// checkGraphNetJSON checks that graph_net.json describes a Paddle graph.
func checkGraphNetJSON(file string, data []byte) *Error {
	var meta map[string]any
	if err := json.Unmarshal(data, &meta); err != nil {
		return &Error{Pos: diag.Position{Filename: file}, Msg: "not valid JSON: " + err.Error()}
	}
	if fw, ok := meta["framework"]; ok && fw != "paddle" {
		return &Error{Pos: diag.Position{Filename: file}, Msg: "the graph is for framework " + strconv.Quote(jsonText(fw)) + ", not paddle"}
	}
	return nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}
