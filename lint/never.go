package lint

import (
	"fmt"

	"github.com/pirdrr/drr/diag"
)

func runNeverFires(pass *Pass) {
	type group struct {
		first *ruleFacts
		n     int
		dead  int
	}
	groups := map[string]*group{}
	var names []string
	for _, rf := range pass.facts.rules {
		g := groups[rf.r.Name]
		if g == nil {
			g = &group{first: rf}
			groups[rf.r.Name] = g
			names = append(names, rf.r.Name)
		}
		g.n++
		if rf.dead != "" {
			if g.dead == 0 || g.first.dead == "" {
				g.first = rf
			}
			g.dead++
		}
	}
	for _, name := range names {
		g := groups[name]
		if g.dead == 0 || g.dead < g.n {
			continue
		}
		rf := g.first
		msg := "can never fire: " + rf.dead
		if rf.r.Instance != "" {
			if g.n == 1 {
				msg = fmt.Sprintf("can never fire (its only instance, %s): %s", rf.r.ID(), rf.dead)
			} else {
				msg = fmt.Sprintf("can never fire: none of its %d instances can (%s: %s)", g.n, rf.r.ID(), rf.dead)
			}
		}
		pos := rf.deadPos
		if pos == (diag.Position{}) {
			pos = rf.r.Pos
		}
		pass.Reportf(pos, name, "%s", msg)
	}
}
