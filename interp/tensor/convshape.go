package tensor

import "fmt"

// convGeom is a fully resolved 2-D convolution (NCHW view).
type convGeom struct {
	n, cin, h, w    int
	cout, kh, kw    int
	groups          int
	sh, sw, dh, dw  int
	pt, pb, pl, pr  int
	oh, ow          int
	nhwc            bool
	cinG, coutG, kK int // per-group channels and the GEMM depth cinG*kh*kw
}

// ConvOutputShape infers the output shape of conv2d from the input shape
// (NCHW or NHWC per p.DataFormat) and the OIHW filter shape, following
// Paddle's ConvInferMeta. Negative dimensions mean "unknown": an unknown
// batch or filter count is propagated as -1, and an output spatial
// dimension is -1 when the corresponding input or filter dimension is
// unknown. Channel constraints are checked only when both sides are known.
func ConvOutputShape(input, filter []int, p ConvParams) ([]int, error) {
	const op = "conv2d"
	a, err := parseConvAttrs(op, p.Strides, p.Paddings, p.PaddingAlgorithm, p.Dilations, p.Groups, p.DataFormat)
	if err != nil {
		return nil, err
	}
	if len(input) != 4 || len(filter) != 4 {
		return nil, fmt.Errorf("tensor: %s: input %v and filter %v must both be 4-D", op, input, filter)
	}
	n, cin, h, w := input[0], input[1], input[2], input[3]
	if a.nhwc {
		cin, h, w = input[3], input[1], input[2]
	}
	cout, fcin, kh, kw := filter[0], filter[1], filter[2], filter[3]
	if cin >= 0 && fcin >= 0 && cin != fcin*a.groups {
		return nil, fmt.Errorf("tensor: %s: input channels %d != filter channels %d * groups %d (input %v, filter %v, data_format %q)",
			op, cin, fcin, a.groups, input, filter, p.DataFormat)
	}
	if cout >= 0 && cout%a.groups != 0 {
		return nil, fmt.Errorf("tensor: %s: output channels %d not divisible by groups %d", op, cout, a.groups)
	}
	a.updatePadding(h, w, kh, kw, true)
	spatial := func(in, k, d, pb, pa, s int) (int, error) {
		if in < 0 || k < 0 {
			return -1, nil
		}
		if k == 0 {
			return 0, fmt.Errorf("tensor: %s: filter spatial size must be positive, got %v", op, filter)
		}
		o := convOutSize(in, k, d, pb, pa, s)
		if o <= 0 {
			return 0, fmt.Errorf("tensor: %s: non-positive output size %d (input %d, kernel %d, dilation %d, paddings %d+%d, stride %d)",
				op, o, in, k, d, pb, pa, s)
		}
		return o, nil
	}
	oh, err := spatial(h, kh, a.dh, a.pads[0], a.pads[1], a.sh)
	if err != nil {
		return nil, err
	}
	ow, err := spatial(w, kw, a.dw, a.pads[2], a.pads[3], a.sw)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		n = -1
	}
	if cout < 0 {
		cout = -1
	}
	if a.nhwc {
		return []int{n, oh, ow, cout}, nil
	}
	return []int{n, cout, oh, ow}, nil
}

// resolveConv validates concrete conv2d operands and computes the geometry.
func resolveConv(op string, input, filter []int, p ConvParams) (*convGeom, error) {
	if len(input) != 4 || len(filter) != 4 {
		return nil, fmt.Errorf("tensor: %s: input %v and filter %v must both be 4-D", op, input, filter)
	}
	for _, d := range input {
		if d <= 0 {
			return nil, fmt.Errorf("tensor: %s: input dimensions must be positive, got %v", op, input)
		}
	}
	for _, d := range filter {
		if d <= 0 {
			return nil, fmt.Errorf("tensor: %s: filter dimensions must be positive, got %v", op, filter)
		}
	}
	outShape, err := ConvOutputShape(input, filter, p)
	if err != nil {
		return nil, err
	}
	a, _ := parseConvAttrs(op, p.Strides, p.Paddings, p.PaddingAlgorithm, p.Dilations, p.Groups, p.DataFormat)
	g := &convGeom{nhwc: a.nhwc, groups: a.groups}
	g.n, g.cin, g.h, g.w = input[0], input[1], input[2], input[3]
	if a.nhwc {
		g.cin, g.h, g.w = input[3], input[1], input[2]
	}
	g.cout, g.kh, g.kw = filter[0], filter[2], filter[3]
	a.updatePadding(g.h, g.w, g.kh, g.kw, true)
	g.sh, g.sw, g.dh, g.dw = a.sh, a.sw, a.dh, a.dw
	g.pt, g.pb, g.pl, g.pr = a.pads[0], a.pads[1], a.pads[2], a.pads[3]
	if a.nhwc {
		g.oh, g.ow = outShape[1], outShape[2]
	} else {
		g.oh, g.ow = outShape[2], outShape[3]
	}
	g.cinG, g.coutG = g.cin/g.groups, g.cout/g.groups
	if err := checkAlloc(op, []int{g.n, g.cout, g.oh, g.ow}, []int{g.cinG, g.kh, g.kw, g.oh, g.ow}); err != nil {
		return nil, err
	}
	g.kK = g.cinG * g.kh * g.kw
	return g, nil
}
