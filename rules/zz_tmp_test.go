package rules

import (
	"fmt"
	"sort"
	"testing"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

func TestZZReasons(t *testing.T) {
	for _, f := range []string{"/work/shared/corpus/pir_json/nanaikaros__PP-OCRv5_server_det_infer.inference.json", "/work/shared/corpus/pir_json/Paddle2ONNX__ifelse__model.json"} {
		ctx := ir.NewContext()
		ctx.LoadDefaultDialects()
		p, _, err := pirfile.Load(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		rw := ir.NewRewriter(ctx, nil)
		WrapValueSemantics(p, rw)
		n, _ := MaximizeValueSemantics(p, rw)
		reasons := map[string]int{}
		for op := range p.Walk() {
			if op.Name() == "pd_op.to_tensor" {
				_, ea := analyzeBlockSlice(op)
				_, eb := analyzeViewSubgraph(op)
				reasons[fmt.Sprintf("A: %v | B: %v", ea, eb)]++
			}
		}
		var ks []string
		for k := range reasons {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		t.Log(f, "removed", n)
		for _, k := range ks {
			t.Log(reasons[k], k)
		}
	}
}
