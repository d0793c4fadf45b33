package ir

import "iter"

// OpList is an append-only list of ops kept in runs, so that appending never copies what the list holds: a
// reader's list of the parameter ops it meets (687,000 at gen.py's 1M blocks) grew by append through 28 MB of
// copies for 5.5 MB of pointers, all of it garbage that drrc apply, which collects none at that size, kept.
// The runs start small and grow to opListRun ops. The zero OpList is empty and ready to use.
type OpList struct {
	runs [][]*Op
	n    int
}

// opListRun is the capacity of an OpList's runs once it is large (32 KiB of pointers).
const opListRun = 4096

// Append adds op at the end of the list.
func (l *OpList) Append(op *Op) {
	k := len(l.runs) - 1
	if k < 0 || len(l.runs[k]) == cap(l.runs[k]) {
		size := 64
		if k >= 0 {
			size = min(2*cap(l.runs[k]), opListRun)
		}
		l.runs = append(l.runs, make([]*Op, 0, size))
		k++
	}
	l.runs[k] = append(l.runs[k], op)
	l.n++
}

// Len returns the number of ops in the list.
func (l *OpList) Len() int { return l.n }

// All iterates over the ops in the order they were appended.
func (l *OpList) All() iter.Seq[*Op] {
	return func(yield func(*Op) bool) {
		for _, run := range l.runs {
			for _, op := range run {
				if !yield(op) {
					return
				}
			}
		}
	}
}

// Backward iterates over the ops from the last appended to the first.
func (l *OpList) Backward() iter.Seq[*Op] {
	return func(yield func(*Op) bool) {
		for k := len(l.runs) - 1; k >= 0; k-- {
			run := l.runs[k]
			for i := len(run) - 1; i >= 0; i-- {
				if !yield(run[i]) {
					return
				}
			}
		}
	}
}
