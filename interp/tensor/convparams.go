package tensor

import "fmt"

// Padding algorithms accepted by the convolution and pooling kernels.
const (
	PaddingExplicit = "EXPLICIT"
	PaddingSame     = "SAME"
	PaddingValid    = "VALID"
)

// Data formats accepted by the layout-aware kernels.
const (
	NCHW = "NCHW"
	NHWC = "NHWC"
)

// ConvParams holds the attributes of Paddle's conv2d. Zero values select
// Paddle's defaults: nil Strides and Dilations mean [1, 1], nil Paddings
// means no padding, Groups 0 means 1, an empty PaddingAlgorithm means
// "EXPLICIT" and an empty DataFormat means "NCHW".
type ConvParams struct {
	// Strides is [stride_h, stride_w]; every stride must be positive.
	Strides []int
	// Paddings is [pad_h, pad_w] (symmetric) or
	// [pad_top, pad_bottom, pad_left, pad_right]; values must be >= 0. It is
	// ignored by "SAME" and "VALID".
	Paddings []int
	// PaddingAlgorithm is "EXPLICIT", "SAME" or "VALID". "SAME" produces
	// ceil(in/stride) outputs per spatial axis, splits the needed padding
	// with the extra element on the bottom/right, and (as Paddle's
	// UpdatePaddingAndDilation does) forces the dilation to 1. "VALID" uses
	// no padding.
	PaddingAlgorithm string
	// Dilations is [dilation_h, dilation_w]; every dilation must be positive.
	Dilations []int
	// Groups splits input and output channels into that many groups
	// (depthwise convolution is Groups == input channels).
	Groups int
	// DataFormat is "NCHW" (also accepted: "AnyLayout") or "NHWC". It applies
	// to the input and output; the filter is always [C_out, C_in/groups,
	// K_h, K_w] (OIHW).
	DataFormat string
}

// ConvTransposeParams holds the attributes of Paddle's conv2d_transpose, with
// the same defaults as ConvParams. The filter layout is [C_in,
// C_out/groups, K_h, K_w].
type ConvTransposeParams struct {
	// Strides is [stride_h, stride_w] (the upsampling factors).
	Strides []int
	// Paddings is [pad_h, pad_w] or [top, bottom, left, right]; padding
	// crops the full transposed-convolution output.
	Paddings []int
	// PaddingAlgorithm is "EXPLICIT", "SAME" or "VALID", resolved against
	// the input's spatial size exactly as for conv2d (SAME forces dilation 1).
	PaddingAlgorithm string
	// Dilations is [dilation_h, dilation_w].
	Dilations []int
	// Groups splits channels into independent groups.
	Groups int
	// DataFormat is "NCHW" or "NHWC" for input and output.
	DataFormat string
	// OutputPadding, when non-empty, is [extra_h, extra_w] added to the
	// inferred output size; each must be in [0, max(stride, dilation)).
	OutputPadding []int
	// OutputSize, when non-empty, is the requested [out_h, out_w]; each must
	// lie in [inferred, inferred+stride). It takes precedence over
	// OutputPadding.
	OutputSize []int
}

// convAttrs is the normalized form of the shared convolution attributes.
type convAttrs struct {
	sh, sw, dh, dw int
	pads           [4]int // top, bottom, left, right
	algo           string
	groups         int
	nhwc           bool
}

func parseDataFormat(op, f string) (nhwc bool, err error) {
	switch f {
	case "", NCHW, "AnyLayout":
		return false, nil
	case NHWC:
		return true, nil
	}
	return false, fmt.Errorf("tensor: %s: unsupported data_format %q (want NCHW or NHWC)", op, f)
}

// maxAttr bounds stride, dilation and padding attributes so that shape
// arithmetic cannot overflow (Paddle's attributes are int32 anyway).
const maxAttr = 1 << 30

func pair(op, name string, v []int, def int) (int, int, error) {
	switch len(v) {
	case 0:
		return def, def, nil
	case 2:
		if v[0] <= 0 || v[1] <= 0 || v[0] > maxAttr || v[1] > maxAttr {
			return 0, 0, fmt.Errorf("tensor: %s: %s must be in [1, %d], got %v", op, name, maxAttr, v)
		}
		return v[0], v[1], nil
	}
	return 0, 0, fmt.Errorf("tensor: %s: %s must have 2 values, got %v", op, name, v)
}

// parsePaddings expands 2 or 4 explicit paddings to [top, bottom, left,
// right].
func parsePaddings(op string, v []int) ([4]int, error) {
	var p [4]int
	switch len(v) {
	case 0:
	case 2:
		p = [4]int{v[0], v[0], v[1], v[1]}
	case 4:
		p = [4]int{v[0], v[1], v[2], v[3]}
	default:
		return p, fmt.Errorf("tensor: %s: paddings must have 2 or 4 values, got %v", op, v)
	}
	for _, x := range p {
		if x < 0 || x > maxAttr {
			return p, fmt.Errorf("tensor: %s: paddings must be in [0, %d], got %v", op, maxAttr, v)
		}
	}
	return p, nil
}

func parseAlgo(op, a string) (string, error) {
	switch a {
	case "", PaddingExplicit:
		return PaddingExplicit, nil
	case PaddingSame, PaddingValid:
		return a, nil
	}
	return "", fmt.Errorf("tensor: %s: unsupported padding_algorithm %q (want EXPLICIT, SAME or VALID)", op, a)
}

func parseConvAttrs(op string, strides, paddings []int, algo string, dilations []int, groups int, format string) (convAttrs, error) {
	var a convAttrs
	var err error
	if a.sh, a.sw, err = pair(op, "strides", strides, 1); err != nil {
		return a, err
	}
	if a.dh, a.dw, err = pair(op, "dilations", dilations, 1); err != nil {
		return a, err
	}
	if a.pads, err = parsePaddings(op, paddings); err != nil {
		return a, err
	}
	if a.algo, err = parseAlgo(op, algo); err != nil {
		return a, err
	}
	switch {
	case groups == 0:
		a.groups = 1
	case groups < 0:
		return a, fmt.Errorf("tensor: %s: groups must be positive, got %d", op, groups)
	default:
		a.groups = groups
	}
	a.nhwc, err = parseDataFormat(op, format)
	return a, err
}

// samePadding returns the (before, after) padding "SAME" uses for one
// spatial axis: the output is ceil(in/stride) and the total padding
// max((out-1)*stride + k - in, 0) is split with the odd element after.
func samePadding(in, stride, k int) (int, int) {
	out := (in + stride - 1) / stride
	sum := max((out-1)*stride+k-in, 0)
	return sum / 2, sum - sum/2
}

// updatePadding applies the padding algorithm to attributes for an input of
// spatial size (h, w) and kernel (kh, kw), mirroring Paddle's
// UpdatePaddingAndDilation. Unknown (negative) sizes leave SAME paddings at
// zero; callers report such outputs as unknown.
func (a *convAttrs) updatePadding(h, w, kh, kw int, forceDilation bool) {
	switch a.algo {
	case PaddingSame:
		if h >= 0 && kh >= 0 {
			a.pads[0], a.pads[1] = samePadding(h, a.sh, kh)
		}
		if w >= 0 && kw >= 0 {
			a.pads[2], a.pads[3] = samePadding(w, a.sw, kw)
		}
		if forceDilation {
			a.dh, a.dw = 1, 1
		}
	case PaddingValid:
		a.pads = [4]int{}
	}
}

// convOutSize is Paddle's ConvOutSize (C++ truncating division).
func convOutSize(in, k, dilation, padBefore, padAfter, stride int) int {
	dk := dilation*(k-1) + 1
	return (in+padBefore+padAfter-dk)/stride + 1
}
