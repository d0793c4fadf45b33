package graphview

import (
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Repeated blocks. A repeat is a run of count consecutive repetitions of length ops each (in program order, in one
// block) where repetition k is repetition 0 op for op: the same op names with the same numbers of operands,
// results and regions, and the same wiring inside the repetition (operand q of its j-th op is the result of its
// i-th op exactly when it is so in repetition 0). What comes from outside a repetition may differ (the previous
// repetition's output, a residual input), and so may attributes and types (the channels of a ResNet stage).

// repeat is a run of repetitions in the op list of Build.
type repeat struct{ start, length, count int }

const (
	minRepeatOps = 3   // shorter repetitions (a pair of reshapes) are not worth a box
	maxRepeatOps = 600 // the longest repetition looked for (a transformer layer has 30–100 ops)
)

// findRepeats finds non-overlapping repeats greedily from the start: at each op, the repeat that starts there and
// covers the most ops (ties: the shortest repetition); then it continues after it. Ops marked with classes (a
// rule's matches, a diff's new ops) repeat only where their classes repeat too, so that a mark is never hidden in
// a repetition that is not drawn.
func findRepeats(ops []*ir.Op, index map[*ir.Op]int, classes map[*ir.Op][]string) []repeat {
	n := len(ops)
	if n < 2*minRepeatOps {
		return nil
	}
	// Tokens: equal ops share a token, so that runs compare by rolling hashes.
	tokens := make([]uint64, n)
	ids := map[string]uint64{}
	for i, op := range ops {
		k := op.Name() + "/" + strconv.Itoa(op.NumOperands()) + "/" + strconv.Itoa(op.NumResults()) + "/" + strconv.Itoa(op.NumRegions()) +
			"/" + strings.Join(classes[op], ",")
		id, ok := ids[k]
		if !ok {
			id = uint64(len(ids)) + 1
			ids[k] = id
		}
		tokens[i] = id
	}
	const base = 1_000_003
	prefix := make([]uint64, n+1) // prefix[i] = hash of tokens[:i]
	pow := make([]uint64, n+1)
	pow[0] = 1
	for i, t := range tokens {
		prefix[i+1] = prefix[i]*base + t
		pow[i+1] = pow[i] * base
	}
	hash := func(i, l int) uint64 { return prefix[i+l] - prefix[i]*pow[l] }
	// def[i][q] is the index of the op that defines operand q of op i (-1: not drawn, or none).
	def := make([][]int, n)
	for i, op := range ops {
		def[i] = make([]int, op.NumOperands())
		for q, v := range op.Operands() {
			def[i][q] = -1
			if v == nil {
				continue
			}
			src := v.DefiningOp()
			if src == nil && v.OwnerBlock() != nil {
				src = v.OwnerBlock().ParentOp()
			}
			if j, ok := index[src]; ok {
				def[i][q] = j
			}
		}
	}
	same := func(start, l, k int) bool { // is repetition k of the run at start like repetition 0?
		base0, basek := start, start+k*l
		for j := 0; j < l; j++ {
			a, b := ops[base0+j], ops[basek+j]
			if tokens[base0+j] != tokens[basek+j] || a.Block() != b.Block() {
				return false
			}
			for q := range def[base0+j] {
				da, db := def[base0+j][q], def[basek+j][q]
				inA := da >= base0 && da < base0+l
				inB := db >= basek && db < basek+l
				if inA != inB || inA && da-base0 != db-basek {
					return false
				}
			}
		}
		return true
	}
	var out []repeat
	for i := 0; i < n; {
		best := repeat{}
		for l := minRepeatOps; l <= maxRepeatOps && i+2*l <= n; l++ {
			h := hash(i, l)
			if hash(i+l, l) != h {
				continue
			}
			k := 1
			for i+(k+1)*l <= n && hash(i+k*l, l) == h && same(i, l, k) {
				k++
			}
			if k >= 2 && k*l > best.count*best.length {
				best = repeat{start: i, length: l, count: k}
			}
		}
		if best.count < 2 {
			i++
			continue
		}
		out = append(out, best)
		i += best.count * best.length
	}
	return out
}
