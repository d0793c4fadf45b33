package lint

import (
	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
)

// DeadInstances returns, for every rule of set that no program can make fire (each family instance judged on its
// own, unlike NeverFires, which reports a family only when all its instances are dead), why and where, as
// NeverFires would say it. Rule verification uses it: a rule instance that can never fire has nothing to
// verify, and saying so is not the same as skipping it.
func DeadInstances(set *rule.Set) map[*rule.Rule]Finding {
	out := map[*rule.Rule]Finding{}
	if set == nil {
		return out
	}
	for _, rf := range newLintFacts(set).rules {
		if rf.dead == "" {
			continue
		}
		pos := rf.deadPos
		if pos == (diag.Position{}) {
			pos = rf.r.Pos
		}
		out[rf.r] = Finding{Pos: pos, Rule: rf.r.Name, Message: "can never fire: " + rf.dead}
	}
	return out
}
