package rewriter

import (
	"time"

	"github.com/pirdrr/drr/drr/rule"
)

// initStats prepares the per-rule statistics: one RuleStats per rule instance, found by rule index, summed into
// one RuleStats per rule name when the run ends (finishStats); and the instances rooted at each op kind, found by
// OpInfo ID.
func (d *Driver) initStats() {
	ctx := d.Program.Ctx
	byName := map[string]*RuleStats{}
	n := len(d.Set.Rules)
	d.ruleStat = make([]*RuleStats, n)
	d.nameStat = make([]*RuleStats, n)
	d.instances = map[*RuleStats][]*RuleStats{}
	d.rewriteT = make([]sampler, n)
	d.rootStats = nil
	d.anyRoot = nil
	d.byRule = nil
	for i, r := range d.Set.Rules {
		if r.Index != i {
			// A set built by hand with stale indexes: find its rules by pointer.
			if d.byRule == nil {
				d.byRule = map[*rule.Rule]int{}
			}
			d.byRule[r] = i
		}
		rs, ok := byName[r.Name]
		if !ok {
			rs = &RuleStats{Name: r.Name}
			byName[r.Name] = rs
			d.stats.Rules = append(d.stats.Rules, rs)
		}
		inst := &RuleStats{Name: r.ID()}
		d.ruleStat[i], d.nameStat[i] = inst, rs
		d.instances[rs] = append(d.instances[rs], inst)
		if r.Instance != "" {
			rs.Instances = append(rs.Instances, inst)
		}
		if name := r.Pattern.Ops[r.Pattern.Root].Name; name != "" {
			id := ctx.OpInfo(name).ID
			for len(d.rootStats) <= id {
				d.rootStats = append(d.rootStats, nil)
			}
			d.rootStats[id] = append(d.rootStats[id], inst)
		} else {
			d.anyRoot = append(d.anyRoot, inst)
		}
	}
	d.matchT = make([]sampler, len(d.rootStats))
	if len(d.anyRoot) > 0 {
		// Every op kind is tried against these rules.
		d.growRoots(ctx.NumOpInfos() - 1)
	}
}

// growRoots makes room for op kind id in the per-kind tables.
func (d *Driver) growRoots(id int) {
	for len(d.rootStats) <= id {
		d.rootStats = append(d.rootStats, nil)
		d.matchT = append(d.matchT, sampler{})
	}
}

// indexOf returns the position of rule r in the driver's set.
func (d *Driver) indexOf(r *rule.Rule) int {
	if d.byRule != nil {
		if i, ok := d.byRule[r]; ok {
			return i
		}
	}
	return r.Index
}

// finishStats turns the sampled times into the instances' Time and MatchTime and sums the instances of each rule
// name into its statistics (FirstFailure excepted: the name's is the first failure of any instance in time).
func (d *Driver) finishStats() {
	for i, rs := range d.ruleStat {
		rs.Time += d.rewriteT[i].total()
	}
	for id, rules := range d.rootStats {
		if id >= len(d.matchT) {
			break
		}
		share := len(rules) + len(d.anyRoot)
		if share == 0 {
			continue
		}
		t := d.matchT[id].total() / time.Duration(share)
		for _, rs := range rules {
			rs.MatchTime += t
		}
		for _, rs := range d.anyRoot {
			rs.MatchTime += t
		}
	}
	for _, rs := range d.stats.Rules {
		for _, inst := range d.instances[rs] {
			rs.Tried += inst.Tried
			rs.Matched += inst.Matched
			rs.Applied += inst.Applied
			rs.Failed += inst.Failed
			rs.Time += inst.Time
			rs.MatchTime += inst.MatchTime
		}
	}
}
