package graphnet

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirjson"
)

// TestPaddleJSON checks that a program read from GraphNet has what Paddle's own inference programs have, so that
// the PIR JSON writer turns it into a file Paddle 3.x loads. Paddle cannot run here, so the check is structural:
// GraphNet captures of PP-OCR models against the inference.json files PaddleOCR exported for PP-OCRv5. For every
// op name both programs use (parameter, data and fetch ops included), the ops must carry the same attributes
// with the same kinds; and the program must write as PIR JSON and read back equal.
func TestPaddleJSON(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	for _, pair := range []struct{ graph, export string }{
		{"graphnet_samples/PaddleX/PP-OCRv4_mobile_det", "pir_json/nanaikaros__PP-OCRv5_mobile_det_infer.inference.json"},
		{"graphnet_samples/PaddleX/PP-OCRv4_mobile_rec", "pir_json/nanaikaros__korean_PP-OCRv5_mobile_rec_infer.inference.json"},
		{"graphnet_samples/PaddleX/ch_SVTRv2_rec", "pir_json/nanaikaros__korean_PP-OCRv5_mobile_rec_infer.inference.json"},
	} {
		t.Run(filepath.Base(pair.graph), func(t *testing.T) {
			exportFile := corpus.Path(t, pair.export)
			data, err := os.ReadFile(exportFile)
			require.NoError(t, err)
			real, err := pirjson.Read(ctx, exportFile, data, pirjson.ReadOptions{})
			require.NoError(t, err)
			dirs, err := Graphs(corpus.Path(t, pair.graph))
			require.NoError(t, err)
			var graphs []*ir.Program
			for _, dir := range dirs {
				p, err := Read(ctx, dir)
				require.NoError(t, err)
				graphs = append(graphs, p)
			}

			want, got := attrShapes(real), attrShapes(graphs...)
			var common []string
			for name := range got {
				if _, ok := want[name]; ok {
					common = append(common, name)
				}
			}
			sort.Strings(common)
			require.Subset(t, common, []string{"builtin.parameter", "pd_op.data", "pd_op.fetch", "pd_op.conv2d", "pd_op.full"})
			for _, name := range common {
				assert.Equal(t, want[name], got[name], "attributes of %s", name)
			}
			t.Logf("%d op kinds in common: %s", len(common), strings.Join(common, " "))

			for _, p := range graphs {
				js, err := pirjson.Marshal(p, pirjson.WriteOptions{})
				require.NoError(t, err)
				q, err := pirjson.Read(ctx, "graph.json", js, pirjson.ReadOptions{})
				require.NoError(t, err)
				require.NoError(t, ir.Equal(p, q, ir.EqualOptions{}))
				assert.True(t, bytes.Contains(js, []byte(`"#":"1.fetch"`)))
			}
		})
	}
}

// attrShapes returns, per op name, its attribute names with their kinds ("name:kind", arrays as the kinds of
// their elements; an empty array says nothing about them), leaving out struct_name, which only Paddle's exporter
// writes (the layer path of each op, for visualization).
func attrShapes(ps ...*ir.Program) map[string]string {
	kinds := map[string]map[string]map[string]bool{} // op name -> attribute name -> kinds
	for _, p := range ps {
		addShapes(kinds, p)
	}
	out := map[string]string{}
	for name, attrs := range kinds {
		var parts []string
		for a, ks := range attrs {
			var list []string
			for k := range ks {
				if k != "[]" || len(ks) == 1 {
					list = append(list, k)
				}
			}
			sort.Strings(list)
			parts = append(parts, a+":"+strings.Join(list, ","))
		}
		sort.Strings(parts)
		out[name] = strings.Join(parts, " ")
	}
	return out
}

func addShapes(kinds map[string]map[string]map[string]bool, p *ir.Program) {
	for op := range p.Walk() {
		attrs := kinds[op.Name()]
		if attrs == nil {
			attrs = map[string]map[string]bool{}
			kinds[op.Name()] = attrs
		}
		for _, a := range op.Attrs() {
			if a.Name == "struct_name" {
				continue
			}
			if attrs[a.Name] == nil {
				attrs[a.Name] = map[string]bool{}
			}
			addKinds(attrs[a.Name], a.Value)
		}
	}
}

func addKinds(set map[string]bool, a ir.Attribute) {
	arr, ok := a.(*ir.ArrayAttr)
	if !ok {
		set[a.Kind().String()] = true
		return
	}
	if len(arr.Elems) == 0 {
		set["[]"] = true
	}
	for _, e := range arr.Elems {
		set["["+e.Kind().String()+"]"] = true
	}
}
