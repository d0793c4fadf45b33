//go:build !amd64 || purego

package feeds

// laneState and laneParams are those of lanes_amd64.go; without the assembly they are never filled.
type (
	laneState  [5][8]uint64
	laneParams [21]float64
)

// drawLanes is nil: on this architecture (or with the purego build tag) every draw takes the portable loop.
var drawLanes func(st *laneState, dst []float32, n int, mask uint64, par *laneParams) int
