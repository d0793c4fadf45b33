package shard

import (
	"hash/fnv"
	"sort"
	"time"
)

// Item is one program to place in a shard.
type Item struct {
	// Key names the program stably (Key).
	Key string
	// Duration is the program's duration in a previous run; 0 when none was recorded.
	Duration time.Duration
}

// Hash is the hash a key is placed by: FNV-1a, 64 bits (stable across Go versions and machines, unlike maphash).
func Hash(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}

// Assign returns the shard (from 0) of every item among total shards (total < 1 counts as 1). Every process that
// gives the same items in the same order gets the same answer.
//
// Without recorded durations an item's shard is its key's hash modulo total. With some, the items without one are
// still placed by hash, each counted at the median recorded duration, and then the items with one are dealt
// longest first (ties by key, then by position) to the shard with the least load so far (ties to the lowest
// index): the greedy LPT schedule, within 4/3 of the best makespan.
func Assign(items []Item, total int) []int {
	total = max(total, 1)
	out := make([]int, len(items))
	var known []int
	for i, it := range items {
		if it.Duration > 0 {
			known = append(known, i)
			continue
		}
		out[i] = int(Hash(it.Key) % uint64(total))
	}
	if len(known) == 0 {
		return out
	}
	sort.SliceStable(known, func(a, b int) bool {
		x, y := items[known[a]], items[known[b]]
		if x.Duration != y.Duration {
			return x.Duration > y.Duration
		}
		return x.Key < y.Key
	})
	median := items[known[len(known)/2]].Duration
	load := make([]time.Duration, total)
	for i, it := range items {
		if it.Duration <= 0 {
			load[out[i]] += median
		}
	}
	for _, i := range known {
		best := 0
		for s := 1; s < total; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		out[i] = best
		load[best] += items[i].Duration
	}
	return out
}

// Select returns the positions in items of the items of shard s, in order; every position for a Spec that does
// not shard.
func Select(items []Item, s Spec) []int {
	var out []int
	if s.All() {
		for i := range items {
			out = append(out, i)
		}
		return out
	}
	for i, shard := range Assign(items, s.Total) {
		if shard == s.Index {
			out = append(out, i)
		}
	}
	return out
}
