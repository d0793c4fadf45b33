package graphnet

import (
	"encoding/json"
	"fmt"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// Some GraphNet samples are not captures: their model.py builds a model and calls it (forward(self, *args,
// **kwargs) runs paddle.vision.models.squeezenet1_1), and graph_net.json carries the program instead, as
// "protocol": "PIR" with "program_desc" holding the whole program printed by Paddle (its newest text syntax). Such a
// graph is read from program_desc.

// programDescSuffix names the program of graph_net.json's program_desc in positions: the file
// "DIR/graph_net.json#program_desc", whose lines are those of the program text.
const programDescSuffix = "#program_desc"

// programDesc returns the program text graph_net.json carries, if it has one.
func programDesc(data []byte) (string, bool) {
	var meta struct {
		Protocol    string  `json:"protocol"`
		ProgramDesc *string `json:"program_desc"`
	}
	if json.Unmarshal(data, &meta) != nil || meta.ProgramDesc == nil {
		return "", false
	}
	return *meta.ProgramDesc, true
}

// wrapsModel reports whether model.py is a wrapper rather than a capture: its forward method takes *args or
// **kwargs instead of naming the graph's inputs. It reads the tokens of forward's parameter list only, so a file
// whose body the parser would refuse (if, for, raise, f-strings) is still recognized.
func wrapsModel(src []byte) bool {
	lex := newLexer("", string(src), nil)
	prev := [2]token{}
	for {
		t := lex.next()
		if t.kind == tEOF || lex.err != nil {
			return false
		}
		if t.kind == tOp && t.text == "(" && prev[1].kind == tName && prev[1].text == "forward" &&
			prev[0].kind == tName && prev[0].text == "def" {
			for depth := 1; depth > 0; {
				t = lex.next()
				switch {
				case t.kind == tEOF || lex.err != nil:
					return false
				case t.kind == tOp && (t.text == "(" || t.text == "[" || t.text == "{"):
					depth++
				case t.kind == tOp && (t.text == ")" || t.text == "]" || t.text == "}"):
					depth--
				case depth == 1 && t.kind == tOp && (t.text == "*" || t.text == "**"):
					return true
				}
			}
			return false
		}
		prev[0], prev[1] = prev[1], t
	}
}

// decodeProgramDesc reads a graph from the program text of graph_net.json. Paddle's print has no outputs, so the
// sinks (results of ops none of whose results is used, inputs, parameters and constants aside) get a pd_op.fetch
// each, as the returned values of a capture do. The classes of weight_meta.py and input_meta.py that name a
// parameter or an input of the program give it its statistics and data; their other statements are skipped.
func decodeProgramDesc(ctx *ir.Context, src Source, desc string, file func(string) string) (*ir.Program, error) {
	name := file(GraphNetJSON) + programDescSuffix
	p, _, err := pirtext.Parse(ctx, name, []byte(desc), pirtext.ReadOptions{})
	if err != nil {
		if pe, ok := err.(*pirtext.Error); ok {
			return nil, &Error{Pos: pe.Pos, Msg: pe.Msg}
		}
		return nil, &Error{Pos: diag.Position{Filename: name}, Msg: err.Error()}
	}
	if p.NumOps() == 0 {
		return nil, &Error{Pos: diag.Position{Filename: file(GraphNetJSON)}, Msg: "program_desc holds no ops"}
	}
	weights, werr := parseMetaClasses(file(WeightMetaFile), src.WeightMeta)
	if werr != nil {
		return nil, werr
	}
	inputs, ierr := parseMetaClasses(file(InputMetaFile), src.InputMeta)
	if ierr != nil {
		return nil, ierr
	}
	for _, m := range weights {
		if v := p.Params[m.name]; v != nil {
			v.Stats, v.Data, v.OriginalName = m.stats, m.data, m.originalName
		}
	}
	for op := range p.Body().Ops() {
		if op.Name() != opData || op.NumResults() != 1 {
			continue
		}
		dataName, _ := ir.AsString(op.Attr("name"))
		for _, m := range inputs {
			if m.name == dataName {
				if p.Feeds == nil {
					p.Feeds = map[string]*ir.Variable{}
				}
				p.Feeds[m.name] = &ir.Variable{Name: m.name, Type: op.Result(0).Type(), Data: m.data, Stats: m.stats,
					OriginalName: m.originalName}
			}
		}
	}
	if n := fetchSinks(p); n == 0 {
		return nil, &Error{Pos: diag.Position{Filename: file(GraphNetJSON)}, Msg: "program_desc has no outputs: every result is used, or only inputs and constants are left unused"}
	}
	return p, nil
}

// fetchSinks gives each tensor result of a sink of p's top-level block (ir.SinkTensors) a pd_op.fetch
// (fetch_name_i, col i), in program order, and returns their number.
func fetchSinks(p *ir.Program) int {
	sinks := ir.SinkTensors(p.Body())
	c := p.Ctx
	b := ir.NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	trueA := c.Array(c.Bool(true))
	for i, v := range sinks {
		sg := false
		if a, ok := v.DefiningOp().Attr("stop_gradient").(*ir.ArrayAttr); ok && v.Index() < len(a.Elems) {
			sg, _ = ir.AsBool(a.Elems[v.Index()])
		}
		b.Create(ir.OpSpec{Name: opFetch, Operands: []*ir.Value{v}, Results: []ir.Type{v.Type()},
			Attrs: []ir.NamedAttr{{Name: "name", Value: c.Str(fmt.Sprintf("%s%d", fetchNamePrefix, i))},
				{Name: "col", Value: c.Int32(int32(i))}, {Name: "persistable", Value: trueA},
				{Name: "stop_gradient", Value: c.Array(c.Bool(sg))}}})
	}
	return len(sinks)
}
