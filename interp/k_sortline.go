package interp

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/pirdrr/drr/interp/tensor"
)

// Ordering a line for topk and argsort. The order is one total order on (value, index): NaN first (largest,
// descending) or last, then by value, equal values (±0 among them) in index order — the order a stable sort by
// value gives. Each value becomes its rank bits (rankBits), an unsigned integer whose order is the value's, so
// that a comparison is one integer comparison without NaN tests. A float32 line (every line of a float32 model)
// packs the 32 rank bits and the index into one uint64, which slices.Sort orders without a comparison function;
// topk then selects the k first keys (selectFirst) and sorts only those. Mask-RT-DETR-L's query ranking, a topk
// of a quarter of 37,632 values per line, spent 40 % of its verify time in a comparison sort of whole lines.

// lineOrder holds the scratch keys of one goroutine's lines.
type lineOrder struct {
	packed []uint64
	pairs  []rankPair
}

// rankPair is the key of a value of a float64 line, or of a line too long to pack its index in 32 bits.
type rankPair struct {
	rank uint64
	i    int
}

// rankBits maps v to an integer whose unsigned order is v's rank in the line: ascending values with NaN last,
// or, when largest, descending values with NaN first; -0 and +0 rank alike.
func rankBits(v float64, largest bool) uint64 {
	var k uint64
	switch b := math.Float64bits(v); {
	case v != v:
		k = math.MaxUint64
	case v == 0:
		k = 1 << 63
	case b>>63 != 0:
		k = ^b
	default:
		k = b | 1<<63
	}
	if largest {
		k = ^k
	}
	return k
}

// rankBits32 is rankBits for a float32 value, in 32 bits.
func rankBits32(v float32, largest bool) uint32 {
	var k uint32
	switch b := math.Float32bits(v); {
	case v != v:
		k = math.MaxUint32
	case v == 0:
		k = 1 << 31
	case b>>31 != 0:
		k = ^b
	default:
		k = b | 1<<31
	}
	if largest {
		k = ^k
	}
	return k
}

// orderLine writes into idx the indices of the first len(idx) elements, in order, of the line of n values at
// data[base], data[base+inner], ….
func orderLine[T tensor.Float](o *lineOrder, data []T, base, n, inner int, largest bool, idx []int) {
	k := len(idx)
	if f32, ok := any(data).([]float32); ok && n <= 1<<32 {
		if cap(o.packed) < n {
			o.packed = make([]uint64, n)
		}
		keys := o.packed[:n]
		for i := range keys {
			keys[i] = uint64(rankBits32(f32[base+i*inner], largest))<<32 | uint64(i)
		}
		if k < n {
			selectFirst(keys, k)
			keys = keys[:k]
		}
		slices.Sort(keys)
		for j := range idx {
			idx[j] = int(uint32(keys[j]))
		}
		return
	}
	if cap(o.pairs) < n {
		o.pairs = make([]rankPair, n)
	}
	keys := o.pairs[:n]
	for i := range keys {
		keys[i] = rankPair{rankBits(float64(data[base+i*inner]), largest), i}
	}
	slices.SortFunc(keys, func(a, b rankPair) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	for j := range idx {
		idx[j] = keys[j].i
	}
}

// selectFirst moves the k smallest of the distinct keys a into a[:k], in no particular order: quickselect with a
// median-of-three pivot, which sorts what is left once its partitions stop shrinking (at most about 2·log2 n
// rounds, so never quadratic).
func selectFirst(a []uint64, k int) {
	lo, hi := 0, len(a) // the k-th smallest lies in a[lo:hi]; a[:lo] holds smaller keys, a[hi:] larger ones
	for rounds := 2 * bits.Len(uint(len(a))); hi-lo > 16; rounds-- {
		if rounds == 0 {
			break
		}
		mid := lo + (hi-lo)/2
		// Order a[lo], a[mid], a[hi-1], then keep the median at hi-1 as the pivot.
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi-1] < a[lo] {
			a[hi-1], a[lo] = a[lo], a[hi-1]
		}
		if a[hi-1] > a[mid] {
			a[hi-1], a[mid] = a[mid], a[hi-1]
		}
		p := a[hi-1]
		i := lo
		for j := lo; j < hi-1; j++ {
			if a[j] < p {
				a[i], a[j] = a[j], a[i]
				i++
			}
		}
		a[i], a[hi-1] = a[hi-1], a[i] // a[lo:i] < p = a[i] < a[i+1:hi]
		switch {
		case i == k || i+1 == k:
			return
		case i < k:
			lo = i + 1
		default:
			hi = i
		}
	}
	if lo < k && k < hi {
		slices.Sort(a[lo:hi])
	}
}
