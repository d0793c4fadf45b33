package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
)

// Convolutions, pooling and maxout, matmul and fc. Batch norm is in k_batchnorm.go, other products in
// k_products.go.

func registerNN[T tensor.Float](r registry[T]) {
	r["pd_op.conv2d"] = kConv2D[T]
	r["pd_op.depthwise_conv2d"] = kConv2D[T]
	r["pd_op.fused_conv2d_add_act"] = kFusedConv2DAddAct[T]
	r["pd_op.conv2d_transpose"] = kConv2DTranspose[T]
	r["pd_op.depthwise_conv2d_transpose"] = kConv2DTranspose[T]
	r["pd_op.pool2d"] = kPool2D[T]
	r["pd_op.matmul"] = kMatmul[T]
	r["pd_op.fc"] = kFC[T]
	r["pd_op.batch_norm"] = kBatchNorm[T]
	r["pd_op.batch_norm_"] = kBatchNorm[T]
	r["pd_op.maxout"] = kMaxout[T]
}

// convParams reads the conv2d attributes shared by conv2d, depthwise_conv2d and fused_conv2d_add_act.
func (c *call[T]) convParams() tensor.ConvParams {
	p := tensor.ConvParams{
		PaddingAlgorithm: c.attrString("padding_algorithm", tensor.PaddingExplicit),
		Groups:           c.attrInt("groups", 1),
		DataFormat:       c.attrString("data_format", tensor.NCHW),
	}
	p.Strides, _ = c.attrInts("strides")
	p.Paddings, _ = c.attrInts("paddings")
	p.Dilations, _ = c.attrInts("dilations")
	return p
}

func kConv2D[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, w, err := c.pair()
	if err != nil {
		return nil, err
	}
	if err := c.convWork(x, w, c.convParams()); err != nil {
		return nil, err
	}
	return c.one(tensor.Conv2D(x, w, c.convParams()))
}

// convWork fails when a convolution would exceed Options.MaxMACs (shape errors are left to the kernel).
func (c *call[T]) convWork(x, w *tensor.Tensor[T], p tensor.ConvParams) error {
	out, err := tensor.ConvOutputShape(x.Shape, w.Shape, p)
	if err != nil || len(w.Shape) != 4 || w.Shape[0] == 0 {
		return nil
	}
	n, err := NumElements(out)
	if err != nil {
		return err
	}
	return c.work(int64(n) * int64(len(w.Data)/w.Shape[0]))
}

// work fails when an op's multiply-accumulates exceed Options.MaxMACs.
func (c *call[T]) work(macs int64) error {
	if macs > c.m.opts.maxMACs() || macs < 0 {
		return &LimitError{Value: macs, Limit: c.m.opts.maxMACs(), Option: "MaxMACs"}
	}
	return nil
}

// matmulWork fails when a matmul would exceed Options.MaxMACs (shape errors are left to the kernel).
func (c *call[T]) matmulWork(xs, ys []int, tx, ty bool) error {
	if len(xs) == 0 || len(ys) == 0 {
		return nil
	}
	if len(xs) == 1 {
		xs, tx = []int{1, xs[0]}, false
	}
	if len(ys) == 1 {
		ys, ty = []int{ys[0], 1}, false
	}
	m, k := xs[len(xs)-2], xs[len(xs)-1]
	if tx {
		m, k = k, m
	}
	n := ys[len(ys)-1]
	if ty {
		n = ys[len(ys)-2]
	}
	batch, err := tensor.BroadcastShape(xs[:len(xs)-2], ys[:len(ys)-2])
	if err != nil {
		return nil
	}
	macs := int64(m) * int64(k) * int64(n)
	for _, d := range batch {
		macs *= int64(d)
	}
	return c.work(macs)
}

// kFusedConv2DAddAct is act(conv2d(input, filter) + bias + residual_data). The bias must hold one value per output
// channel (any shape with C_out elements, such as [C_out] or [1, C_out, 1, 1]); split_channels is not supported.
//
// force_backend "gpu" selects Paddle's cutlass kernel (paddle/phi/kernels/fusion/cutlass/
// fused_conv2d_add_act_kernel.cu), which takes NHWC input only and reads the filter as [C_out, kh, kw, C_in/groups]
// (the layout Paddle's layout pass gives the filter of an NHWC fused convolution): it is evaluated so, and an
// input in another layout is an error, as the kernel's is. The cuDNN kernel ("gpudnn", or no force_backend) reads
// the filter as conv2d does, [C_out, C_in/groups, kh, kw].
func kFusedConv2DAddAct[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, w, err := c.pair()
	if err != nil {
		return nil, err
	}
	if sc, ok := c.attrInts("split_channels"); ok && len(sc) > 0 {
		return nil, unsupported("split_channels %v", sc)
	}
	if c.attrString("force_backend", "") == "gpu" {
		if f := c.attrString("data_format", tensor.NCHW); f != "NHWC" {
			return nil, fmt.Errorf("force_backend \"gpu\" (cutlass) takes NHWC input only, not %s", f)
		}
		if len(w.Shape) != 4 {
			return nil, fmt.Errorf("filter of shape %v: the cutlass kernel reads [C_out, kh, kw, C_in/groups]", w.Shape)
		}
		if w, err = tensor.Transpose(w, []int{0, 3, 1, 2}); err != nil {
			return nil, err
		}
	}
	bias, err := c.optIn(2)
	if err != nil {
		return nil, err
	}
	if bias != nil {
		if len(w.Shape) != 4 || len(bias.Data) != w.Shape[0] {
			return nil, unsupported("bias of shape %v (only one value per output channel is evaluated)", bias.Shape)
		}
		bias = &tensor.Tensor[T]{Shape: []int{len(bias.Data)}, Data: bias.Data}
	}
	residual, err := c.optIn(3)
	if err != nil {
		return nil, err
	}
	if err := c.convWork(x, w, c.convParams()); err != nil {
		return nil, err
	}
	act := c.attrString("activation", "relu")
	return c.one(tensor.FusedConv2DAddAct(x, w, bias, residual, c.convParams(), act, c.attrFloat("fuse_alpha", 0)))
}

func kConv2DTranspose[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, w, err := c.pair()
	if err != nil {
		return nil, err
	}
	cp := c.convParams()
	p := tensor.ConvTransposeParams{Strides: cp.Strides, Paddings: cp.Paddings, PaddingAlgorithm: cp.PaddingAlgorithm,
		Dilations: cp.Dilations, Groups: cp.Groups, DataFormat: cp.DataFormat}
	p.OutputPadding, _ = c.attrInts("output_padding")
	if len(c.args) > 2 && c.args[2] != nil {
		if p.OutputSize, err = c.ints(2); err != nil {
			return nil, err
		}
	}
	return c.one(tensor.Conv2DTranspose(x, w, p))
}

// kPool2D is pool2d with the window size from operand 1. Attributes without a schema default take Paddle's
// Python defaults (strides 1, no padding, exclusive true).
func kPool2D[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	k, err := c.ints(1)
	if err != nil {
		return nil, err
	}
	typ := c.attrString("pooling_type", "")
	if typ == "" {
		return nil, fmt.Errorf("no pooling_type attribute")
	}
	p := tensor.PoolParams{
		KernelSize:       k,
		CeilMode:         c.attrBool("ceil_mode", false),
		Exclusive:        c.attrBool("exclusive", true),
		GlobalPooling:    c.attrBool("global_pooling", false),
		Adaptive:         c.attrBool("adaptive", false),
		PaddingAlgorithm: c.attrString("padding_algorithm", tensor.PaddingExplicit),
		PoolingType:      typ,
		DataFormat:       c.attrString("data_format", tensor.NCHW),
	}
	p.Strides, _ = c.attrInts("strides")
	p.Paddings, _ = c.attrInts("paddings")
	return c.one(tensor.Pool2D(x, p))
}

func kMatmul[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.pair()
	if err != nil {
		return nil, err
	}
	tx, ty := c.attrBool("transpose_x", false), c.attrBool("transpose_y", false)
	if err := c.matmulWork(x.Shape, y.Shape, tx, ty); err != nil {
		return nil, err
	}
	return c.one(tensor.Matmul(x, y, tx, ty))
}

// kFC is Paddle's fc: input flattened to 2-D at in_num_col_dims, times w ([K, N]), plus bias, then the activation
// ("" or "relu"); the result keeps input's leading dims.
func kFC[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, w, err := c.pair()
	if err != nil {
		return nil, err
	}
	if c.attrBool("padding_weights", false) {
		// w is [K+4, N+4]; the last 4 rows and columns are padding.
		if len(w.Shape) != 2 || w.Shape[0] < 4 || w.Shape[1] < 4 {
			return nil, fmt.Errorf("fc: padded weights %v", w.Shape)
		}
		k, n, ld := w.Shape[0]-4, w.Shape[1]-4, w.Shape[1]
		data := make([]T, k*n)
		for i := range k {
			copy(data[i*n:(i+1)*n], w.Data[i*ld:i*ld+n])
		}
		w = &tensor.Tensor[T]{Shape: []int{k, n}, Data: data}
	}
	act := c.attrString("activation_type", "")
	if act != "" && act != "relu" {
		return nil, unsupported("activation_type %q", act)
	}
	k := c.attrInt("in_num_col_dims", 1)
	if k < 1 || k >= len(x.Shape) || len(w.Shape) != 2 {
		return nil, fmt.Errorf("fc: in_num_col_dims %d with input %v and w %v", k, x.Shape, w.Shape)
	}
	rows, cols := 1, 1
	for _, d := range x.Shape[:k] {
		rows *= d
	}
	for _, d := range x.Shape[k:] {
		cols *= d
	}
	if err := c.matmulWork([]int{rows, cols}, w.Shape, false, false); err != nil {
		return nil, err
	}
	y, err := tensor.Matmul(&tensor.Tensor[T]{Shape: []int{rows, cols}, Data: x.Data}, w, false, false)
	if err != nil {
		return nil, err
	}
	if b, err := c.optIn(2); err != nil {
		return nil, err
	} else if b != nil {
		if y, err = tensor.Add(y, b); err != nil {
			return nil, err
		}
	}
	if act == "relu" {
		if y, err = tensor.Relu(y); err != nil {
			return nil, err
		}
	}
	y.Shape = append(append([]int{}, x.Shape[:k]...), w.Shape[1])
	return c.one(y, nil)
}

// kMaxout is the maximum over groups of consecutive channels: out[n, c, …] = max_g x[n, c·groups+g, …] (channel
// axis 1; Paddle's kernel indexes the channel-last form differently, which is not implemented).
func kMaxout[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 4 {
		return nil, fmt.Errorf("input of rank %d, want 4", len(x.Shape))
	}
	if a := c.attrInt("axis", 1); a != 1 {
		return nil, unsupported("maxout along axis %d", a)
	}
	g := c.attrInt("groups", 0)
	ch := x.Shape[1]
	if g <= 0 || ch%g != 0 {
		return nil, fmt.Errorf("%d channels do not split into groups of %d", ch, g)
	}
	fea := x.Shape[2] * x.Shape[3]
	oc := ch / g
	out := make([]T, x.Shape[0]*oc*fea)
	for b := range x.Shape[0] {
		for co := range oc {
			for f := range fea {
				m := math.Inf(-1)
				for k := range g {
					m = math.Max(m, float64(x.Data[(b*ch+co*g+k)*fea+f]))
				}
				out[(b*oc+co)*fea+f] = T(m)
			}
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{x.Shape[0], oc, x.Shape[2], x.Shape[3]}, Data: out}, nil)
}
