package rewriter

import "time"

// Reading the clock costs 30–100 ns on the machines we measure on, more than a match attempt at a typical op, so
// the driver does not time every event: a sampler times the first sampleFirst events of its kind exactly, then one
// in sampleEvery, and scales the sampled total up to the number of events. Rules that fire a few times are timed
// exactly; for rules that fire thousands of times the estimate is a sum over hundreds of samples.
const (
	sampleFirst = 64
	sampleEvery = 16
)

// sampler estimates the total time of a kind of event from timed samples.
type sampler struct {
	events int64         // events seen
	timed  int64         // events timed
	sum    time.Duration // time of the timed events
}

// want counts an event and reports whether to time it.
func (s *sampler) want() bool {
	s.events++
	return s.events <= sampleFirst || s.events%sampleEvery == 0
}

// add records the time of an event want chose.
func (s *sampler) add(d time.Duration) {
	s.timed++
	s.sum += d
}

// total estimates the time of all events.
func (s *sampler) total() time.Duration {
	if s.timed == 0 {
		return 0
	}
	if s.timed == s.events {
		return s.sum
	}
	return time.Duration(float64(s.sum) * float64(s.events) / float64(s.timed))
}
