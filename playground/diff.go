package playground

// The diff between two stages, op by op. A text diff of two printed programs is useless after a rewrite: value
// ids are numbered in print order, so one op more or less renumbers every line after it. Ops are compared by what
// graphview.OpKey says of them (name, attributes, operand and result types), and each side's line is shown with
// its own ids.

// diffLine is a line of a diff: an op of both stages (' '), of the older only ('-') or of the newer only ('+').
type diffLine struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
	// Key is the op's key in the stage the line is from (the older for '-', the newer otherwise).
	Key string `json:"key"`
}

// diffHunk is a run of changes with up to diffContext ops of context around it; A and B are the positions (in
// program order, 0-based) of its first op in the older and the newer stage.
type diffHunk struct {
	A     int        `json:"a"`
	B     int        `json:"b"`
	Lines []diffLine `json:"lines"`
}

const diffContext = 3

// maxEdits bounds the work of the diff (Myers' algorithm costs (N+M)·D time and, keeping its frontiers for the way
// back, D² memory for D edits: 8 MB at most): past it, the part between the common prefix and suffix is shown as
// removed and added whole.
const maxEdits = 1000

// editScript returns the edit operations turning a into b: ' ' (keep a[i] = b[j]), '-' (drop a[i]), '+' (insert
// b[j]), shortest first (Myers, "An O(ND) difference algorithm", 1986), after trimming the common prefix and
// suffix.
func editScript(a, b []string) []byte {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	mid := myers(a[pre:len(a)-suf], b[pre:len(b)-suf])
	out := make([]byte, 0, pre+len(mid)+suf)
	for range pre {
		out = append(out, ' ')
	}
	out = append(out, mid...)
	for range suf {
		out = append(out, ' ')
	}
	return out
}

// myers is the greedy forward algorithm with the V arrays of every step kept for the way back.
func myers(a, b []string) []byte {
	n, m := len(a), len(b)
	whole := func() []byte {
		out := make([]byte, 0, n+m)
		for range n {
			out = append(out, '-')
		}
		for range m {
			out = append(out, '+')
		}
		return out
	}
	if n == 0 || m == 0 {
		return whole()
	}
	maxD := min(n+m, maxEdits)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int // trace[d][k+d] is v[off+k] before step d, for -d <= k <= d
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m, d)
			}
		}
	}
	return whole()
}

// backtrack walks the kept frontiers back from (n, m) and returns the edit script in order.
func backtrack(trace [][]int, n, m, d int) []byte {
	var rev []byte
	x, y := n, m
	for ; d > 0; d-- {
		v := func(k int) int { return trace[d][k+d] } // the frontier before step d
		k := x - y
		var prevK int
		if k == -d || k != d && v(k-1) < v(k+1) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		px := v(prevK)
		py := px - prevK
		for x > px && y > py {
			rev = append(rev, ' ')
			x, y = x-1, y-1
		}
		if x == px {
			rev = append(rev, '+')
		} else {
			rev = append(rev, '-')
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		rev = append(rev, ' ')
		x, y = x-1, y-1
	}
	out := make([]byte, len(rev))
	for i, c := range rev {
		out[len(rev)-1-i] = c
	}
	return out
}

// hunks groups an edit script into hunks with context; texts and keys give each side's op lines and keys.
func hunks(script []byte, aText, bText, aKeys, bKeys []string) []diffHunk {
	type pos struct{ a, b int }
	at := make([]pos, len(script)+1) // the positions before each edit
	i, j := 0, 0
	for e, c := range script {
		at[e] = pos{i, j}
		switch c {
		case ' ':
			i, j = i+1, j+1
		case '-':
			i++
		case '+':
			j++
		}
	}
	at[len(script)] = pos{i, j}
	out := []diffHunk{} // no change is an empty list, never null: the page reads its length
	for e := 0; e < len(script); {
		if script[e] == ' ' {
			e++
			continue
		}
		start := max(e-diffContext, 0)
		end := e
		for end < len(script) {
			if script[end] != ' ' {
				end++
				continue
			}
			run := end
			for run < len(script) && script[run] == ' ' {
				run++
			}
			if run-end > 2*diffContext || run == len(script) {
				end = min(end+diffContext, len(script))
				break
			}
			end = run
		}
		h := diffHunk{A: at[start].a, B: at[start].b}
		for k := start; k < end; k++ {
			p := at[k]
			switch script[k] {
			case ' ':
				h.Lines = append(h.Lines, diffLine{Kind: " ", Text: bText[p.b], Key: bKeys[p.b]})
			case '-':
				h.Lines = append(h.Lines, diffLine{Kind: "-", Text: aText[p.a], Key: aKeys[p.a]})
			case '+':
				h.Lines = append(h.Lines, diffLine{Kind: "+", Text: bText[p.b], Key: bKeys[p.b]})
			}
		}
		out = append(out, h)
		e = end
	}
	return out
}
