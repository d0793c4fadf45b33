package feeds

import (
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

// Options configures random data: the shapes given to dynamic input dims and the ranges values are drawn from.
// The zero value is usable: batch 1, other dynamic input dims 32, DefaultParamRange.
type Options struct {
	// Options configures the evaluation the feed is for; its MaxElements bounds the drawn inputs and parameters
	// too (a larger one is an error, not an out-of-memory crash).
	interp.Options
	// Batch is the size given to a dynamic (-1) dimension 0 of a program input (default 1).
	Batch int
	// RecordedBatch gives a dynamic dimension 0 the recorded sample's size (ir.Program.Feeds) even when nothing in
	// the program fixes it, instead of Batch. Package compare sets it itself and tries again when a program
	// cannot be evaluated at Batch (a dim 0 that was no batch: Faster R-CNN's 2,622 proposals, of which topk
	// takes 1,000).
	RecordedBatch bool
	// DynamicSize is the size given to the other dynamic dimensions of program inputs (default 32).
	DynamicSize int
	// InputShapes gives the shape of program inputs by name (the name attribute of pd_op.data / pd_op.feed),
	// overriding their declared types. Set IgnoreDeclaredShapes too when the override contradicts static dims.
	InputShapes map[string][]int
	// ParamRange chooses the interval random parameter values are drawn from (see Random). Nil means
	// DefaultParamRange.
	ParamRange func(ParamInfo) (lo, hi float64)
	// InputScale widens the default distribution of floating-point inputs (those without recorded data or
	// statistics) to [-InputScale, InputScale) (0 means 1), and with it the quantization scales that cover them
	// (ParamInfo.InputScale): drrc verify's rule mode checks every instance once more at 8, so that inputs cross
	// the thresholds of relu6, hard_sigmoid, hard_swish and clip.
	InputScale float64
}

// ParamInfo describes a parameter whose values are to be generated.
type ParamInfo struct {
	// Name is the parameter name.
	Name string
	// Shape and DType come from the parameter's type.
	Shape []int
	DType ir.DType
	// Variance is true when, in one of the programs being fed, the parameter feeds the variance operand of a batch
	// norm or reaches a sqrt, rsqrt or log through add, scale, reshape-like and copy ops (the weight math of a
	// folded batch norm): its values must be positive.
	Variance bool
	// QuantScale is true when the parameter is the scale operand of a quantize_linear or dequantize_linear: an
	// abs-max, positive, which quantization clips its input to.
	QuantScale bool
	// InputScale is Options.InputScale (at least 1): the inputs' values are drawn from [-InputScale, InputScale).
	InputScale float64
}

// BatchSize is Batch with its default: the size a dynamic dim 0 of an input takes.
func (o Options) BatchSize() int {
	if o.Batch > 0 {
		return o.Batch
	}
	return 1
}

func (o Options) inputScale() float64 {
	if o.InputScale > 0 {
		return o.InputScale
	}
	return 1
}

func (o Options) dynamicSize() int {
	if o.DynamicSize > 0 {
		return o.DynamicSize
	}
	return 32
}
