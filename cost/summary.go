package cost

import (
	"sort"
)

// Interval is an estimated time in seconds: Low assumes only the bytes that must move do (weights, inputs,
// outputs), High that every byte an op reads and writes goes through device memory (XLA's estimate). Both add the
// kernels' launch overhead.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Add returns the sum of two intervals.
func (i Interval) Add(j Interval) Interval { return Interval{i.Low + j.Low, i.High + j.High} }

// Sub returns i minus j, end by end.
func (i Interval) Sub(j Interval) Interval { return Interval{i.Low - j.Low, i.High - j.High} }

// Summary is what a program costs per inference on a device: the figures every report of pirdrr shows.
type Summary struct {
	// Device is the profile's name; DynamicDim the size dynamic dims counted as.
	Device     string `json:"device"`
	DynamicDim int64  `json:"dynamic_dim"`
	// Ops counts every op, nested ones included (Program.NumOps).
	Ops int `json:"ops"`
	// RuntimeOps counts the compute ops that run on every inference, LoadTimeOps those that compute from weights
	// and constants only (constant folding evaluates them once). Sources, sinks and plumbing are in neither.
	RuntimeOps  int `json:"runtime_ops"`
	LoadTimeOps int `json:"load_time_ops"`
	// Kernels, FLOPs, bytes and Time are those of the runtime ops (per inference; the costlier branch of an if,
	// one iteration of a while).
	Kernels      int      `json:"kernels"`
	FLOPs        int64    `json:"flops"`
	BytesRead    int64    `json:"bytes_read"`
	BytesWritten int64    `json:"bytes_written"`
	Time         Interval `json:"time_s"`
	// Uncosted counts the compute ops the model could not cost (their figures are missing from the sums);
	// UncostedOps names their kinds, sorted.
	Uncosted    int      `json:"uncosted"`
	UncostedOps []string `json:"uncosted_ops,omitempty"`
	// DynamicOps counts the compute ops whose types had dynamic dims.
	DynamicOps int `json:"dynamic_ops,omitempty"`
}

// Bytes returns the bytes moved per inference.
func (s Summary) Bytes() int64 { return s.BytesRead + s.BytesWritten }

// Add returns the sum of two summaries (the subgraphs of a GraphNet sample): counts, bytes and times add up.
func (s Summary) Add(t Summary) Summary {
	out := Summary{Device: s.Device, DynamicDim: s.DynamicDim}
	if out.Device == "" {
		out.Device, out.DynamicDim = t.Device, t.DynamicDim
	}
	out.Ops = s.Ops + t.Ops
	out.RuntimeOps = s.RuntimeOps + t.RuntimeOps
	out.LoadTimeOps = s.LoadTimeOps + t.LoadTimeOps
	out.Kernels = s.Kernels + t.Kernels
	out.FLOPs = s.FLOPs + t.FLOPs
	out.BytesRead = s.BytesRead + t.BytesRead
	out.BytesWritten = s.BytesWritten + t.BytesWritten
	out.Time = s.Time.Add(t.Time)
	out.Uncosted = s.Uncosted + t.Uncosted
	out.UncostedOps = mergeNames(s.UncostedOps, t.UncostedOps)
	out.DynamicOps = s.DynamicOps + t.DynamicOps
	return out
}

func mergeNames(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	seen := map[string]bool{}
	var out []string
	for _, n := range append(append([]string(nil), a...), b...) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// summarize sums the analyzed ops (those a streaming analysis has not summed already).
func (a *analyzer) summarize() Summary {
	for i := range a.ops {
		a.sum.add(&a.ops[i])
	}
	return a.sum.summary()
}

// summing accumulates a Summary op record by op record.
type summing struct {
	s        Summary
	uncosted map[string]bool
}

// add counts one op record.
func (m *summing) add(c *OpCost) {
	s := &m.s
	if c.Op.Name() != "builtin.module" {
		s.Ops++
	}
	if !c.Counted() {
		return
	}
	if c.Dynamic {
		s.DynamicOps++
	}
	if c.Err != nil {
		s.Uncosted++
		if m.uncosted == nil {
			m.uncosted = map[string]bool{}
		}
		m.uncosted[c.Op.Name()] = true
	}
	if !c.Runtime {
		s.LoadTimeOps++
		return
	}
	s.RuntimeOps++
	if c.Branch {
		return
	}
	s.Kernels += c.Work.Kernels
	s.FLOPs += c.Work.FLOPs
	s.BytesRead += c.Work.Read
	s.BytesWritten += c.Work.Written
	s.Time = s.Time.Add(c.Time)
}

// summary returns the sums, the uncosted op kinds sorted.
func (m *summing) summary() Summary {
	s := m.s
	s.UncostedOps = nil
	for n := range m.uncosted {
		s.UncostedOps = append(s.UncostedOps, n)
	}
	sort.Strings(s.UncostedOps)
	return s
}

// TypeRow is one op kind's share of a program's cost (a row of the per-op-type table).
type TypeRow struct {
	Op string `json:"op"`
	// Count counts the ops of the kind, Runtime and LoadTime those of them that are runtime and load-time compute
	// ops.
	Count    int `json:"count"`
	Runtime  int `json:"runtime"`
	LoadTime int `json:"load_time"`
	// Kernels, FLOPs, Bytes and Time are the runtime ops' (as in Summary).
	Kernels int      `json:"kernels"`
	FLOPs   int64    `json:"flops"`
	Bytes   int64    `json:"bytes"`
	Time    Interval `json:"time_s"`
	// Uncosted counts the ops of the kind the model could not cost.
	Uncosted int `json:"uncosted,omitempty"`
}

// Table is the per-op-type table: one row per op kind, the costliest runtime kinds first (by the estimate's upper
// end, then by name).
type Table []TypeRow

// ByType returns the report's per-op-type table.
func (r *Report) ByType() Table {
	rows := map[string]*TypeRow{}
	for i := range r.Ops {
		c := &r.Ops[i]
		name := c.Op.Name()
		if name == "builtin.module" {
			continue
		}
		row := rows[name]
		if row == nil {
			row = &TypeRow{Op: name}
			rows[name] = row
		}
		row.Count++
		if !c.Counted() {
			continue
		}
		if c.Err != nil {
			row.Uncosted++
		}
		if !c.Runtime {
			row.LoadTime++
			continue
		}
		row.Runtime++
		if c.Branch {
			continue
		}
		row.Kernels += c.Work.Kernels
		row.FLOPs += c.Work.FLOPs
		row.Bytes += c.Work.Bytes()
		row.Time = row.Time.Add(c.Time)
	}
	var t Table
	for _, row := range rows {
		t = append(t, *row)
	}
	t.sort()
	return t
}

// Merge returns the sum of two tables, row by row.
func (t Table) Merge(u Table) Table {
	at := map[string]int{}
	var out Table
	for _, src := range []Table{t, u} {
		for _, row := range src {
			k, ok := at[row.Op]
			if !ok {
				k = len(out)
				at[row.Op] = k
				out = append(out, TypeRow{Op: row.Op})
			}
			r := &out[k]
			r.Count += row.Count
			r.Runtime += row.Runtime
			r.LoadTime += row.LoadTime
			r.Kernels += row.Kernels
			r.FLOPs += row.FLOPs
			r.Bytes += row.Bytes
			r.Time = r.Time.Add(row.Time)
			r.Uncosted += row.Uncosted
		}
	}
	out.sort()
	return out
}

func (t Table) sort() {
	sort.Slice(t, func(i, j int) bool {
		if t[i].Time.High != t[j].Time.High {
			return t[i].Time.High > t[j].Time.High
		}
		return t[i].Op < t[j].Op
	})
}
