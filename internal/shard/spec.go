package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxTotal is the largest shard count accepted: more shards than this is a typing error, not a plan.
const MaxTotal = 100000

// Spec is one shard of Total: Index counts from 0 (Index < Total). The zero Spec is no sharding.
type Spec struct {
	Index, Total int
}

// All reports whether s is no sharding at all (every program runs).
func (s Spec) All() bool { return s.Total <= 1 }

// String writes s as the command line takes it: K/N with K counted from 1.
func (s Spec) String() string {
	if s.Total == 0 {
		return "1/1"
	}
	return fmt.Sprintf("%d/%d", s.Index+1, s.Total)
}

// Parse reads K/N with K counted from 1 (1 ≤ K ≤ N ≤ MaxTotal).
func Parse(text string) (Spec, error) {
	k, n, ok := strings.Cut(strings.TrimSpace(text), "/")
	if !ok {
		return Spec{}, fmt.Errorf("shard %q: want K/N, shard K of N counted from 1 (1/4 … 4/4)", text)
	}
	ki, err1 := strconv.Atoi(k)
	ni, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil {
		return Spec{}, fmt.Errorf("shard %q: K and N must be whole numbers (K/N, shard K of N counted from 1)", text)
	}
	return New(ki-1, ni, fmt.Sprintf("shard %q", text), "K counted from 1")
}

// New returns shard index (counted from 0) of total, or an error naming what in (a flag, a variable) gave them;
// counting says how the index was counted, for the message.
func New(index, total int, what, counting string) (Spec, error) {
	switch {
	case total < 1:
		return Spec{}, fmt.Errorf("%s: the shard count must be at least 1, not %d", what, total)
	case total > MaxTotal:
		return Spec{}, fmt.Errorf("%s: the shard count %d is more than %d", what, total, MaxTotal)
	case index < 0 || index >= total:
		return Spec{}, fmt.Errorf("%s: the shard is out of range for %d shard(s) (%s)", what, total, counting)
	}
	return Spec{Index: index, Total: total}, nil
}
