package feeds

import (
	"bytes"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Random data. Every tensor is drawn from its own generator, seeded from the feed seed and the tensor's name, so
// that a parameter gets the same values in every program that reads it (whatever else the programs contain) and
// equal seeds give equal feeds. Values are rounded to the declared element type, so the same numbers result whether
// they are fed directly or stored in ir.Variable.Data (FillRandomWeights).

// Random returns random inputs and parameters for the given programs (typically a program before and after a
// rewrite): every input (pd_op.data / pd_op.feed, by name) and every parameter that some program reads without data in
// its ir.Variable. An input the program recorded (ir.Program.Feeds) is fed its recorded data when that fits its shape,
// else drawn from its recorded statistics; other inputs are drawn uniformly from [-1, 1) (integers from {0, …, 7},
// booleans 0/1). An integer input or parameter the programs index with (embedding ids, gather indices, one_hot's
// classes, …: indexBound) is drawn within [0, bound) instead, the smallest size it indexes along (and within its
// recorded range where that meets it). Input shapes are those of Options.InputShapes or the declared type (dims the type leaves dynamic taken
// from pd_op.data's shape attribute, or from the recorded sample's type, when they have them), other dynamic dims
// replaced by Options.Batch (dim 0) and Options.DynamicSize; a recorded sample's batch size is kept only when the
// program fixes it (recorded data, or a type with that static batch). A parameter with recorded statistics
// (ir.Variable.Stats, as the GraphNet reader sets them) is drawn normal with the recorded mean and deviation, clipped
// to the recorded range (integers uniform over the range); other parameters from Options.ParamRange
// (DefaultParamRange). A parameter some program has data for is fed that data, so that programs lacking it use the same
// values; a parameter several programs hold the same data for is decoded into the feed once. Programs must agree on the
// shapes and types of inputs and parameters they share.
func Random(seed uint64, opts Options, progs ...*ir.Program) (*interp.Feed, error) {
	return randomFeed(seed, opts, progs, nil, -1)
}

// Lazy is Random with the random parameters drawn when a program first reads them (Feed.Drawer): the same numbers,
// straight into the evaluation's precision, so that a model whose weights do not fit in memory at once can run,
// each weight existing from its first to its last reader. A comparison evaluates two programs on one feed, one
// after the other, and both read (nearly) every weight: a draw of the first program is kept for the second, which
// takes it as borrowed data (copied before any write, by either program), as long as the kept draws stay within
// keep bytes (0 keeps none); beyond that the second program draws the weight again. Keeping halves the draws of a
// model whose weights fit (a transformer's verification spent most of its time drawing weights).
//
// decoded, when not nil, caches the parameter data the programs hold, decoded (it does not depend on the seed):
// pass the same map to the feeds of every run.
func Lazy(seed uint64, opts Options, keep int, decoded map[string]*interp.Tensor, progs ...*ir.Program) (*interp.Feed, error) {
	return randomFeed(seed, opts, progs, decoded, max(keep, 0))
}

// randomFeed is Random with a cache of decoded parameter data; with keep ≥ 0 the feed draws its random parameters
// lazily (Lazy), keeping up to keep bytes of draws.
func randomFeed(seed uint64, opts Options, progs []*ir.Program, cache map[string]*interp.Tensor, keep int) (*interp.Feed, error) {
	f := &interp.Feed{Inputs: map[string]*interp.Tensor{}, Params: map[string]*interp.Tensor{}, Seed: seed}
	var lazy *lazyParams
	inputs, err := collectInputs(opts, progs)
	if err != nil {
		return nil, err
	}
	for _, in := range inputs {
		if f.Inputs[in.name], err = in.draw(seed); err != nil {
			return nil, err
		}
	}
	params, err := collectParams(progs)
	if err != nil {
		return nil, err
	}
	for _, p := range params {
		if len(p.datas) > 0 && (p.lacking || len(p.datas) > 1 && p.sameData()) {
			t := cache[p.name]
			if t == nil {
				if t, err = p.decode(opts); err != nil {
					return nil, err
				}
				if cache != nil {
					cache[p.name] = t
				}
			}
			f.Params[p.name] = t
			continue
		}
		if !p.lacking {
			continue
		}
		if keep >= 0 {
			if lazy == nil {
				lazy = &lazyParams{seed: seed, opts: opts, params: map[string]*paramInfo{}, keepLimit: keep}
				f.Drawer = lazy
			}
			lazy.params[p.name] = p
			continue
		}
		t, err := randomParam(seed, opts, p)
		if err != nil {
			return nil, err
		}
		f.Params[p.name] = t
	}
	return f, nil
}

// lazyParams are the random parameters of a feed drawn when first read (Lazy): the feed's interp.ParamDrawer.
type lazyParams struct {
	seed   uint64
	opts   Options
	params map[string]*paramInfo

	// keepLimit bounds the bytes of kept draws (Lazy's keep); 0 keeps none.
	keepLimit int

	mu        sync.Mutex
	kept      map[string]keptDraw // the draws of the program that read them first, by name
	keptBytes int
}

// keptDraw is a draw kept for the next reader: its elements ([]T of the evaluation's precision) and their size.
type keptDraw struct {
	data  any
	bytes int
}

// DrawParam draws a lazy parameter straight into a buffer of the evaluation's precision (the values Random would
// give it, rounded to its element type), or takes the draw kept for it. ok is false when the feed does not draw
// the parameter.
func (lp *lazyParams) DrawParam(name string, prec interp.Precision) (interp.Drawn, bool, error) {
	if prec == interp.Float32 {
		return drawParam[float32](lp, name)
	}
	return drawParam[float64](lp, name)
}

// drawParam is DrawParam in the precision T.
func drawParam[T tensor.Float](lp *lazyParams, name string) (interp.Drawn, bool, error) {
	p := lp.params[name]
	if p == nil {
		return interp.Drawn{}, false, nil
	}
	shape, dt, d, err := p.distribution(lp.opts)
	if err != nil {
		return interp.Drawn{}, true, err
	}
	n, err := interp.NumElements(shape)
	if err != nil {
		return interp.Drawn{}, true, err
	}
	size := n * int(unsafe.Sizeof(T(0)))
	lp.mu.Lock()
	if k, ok := lp.kept[name]; ok {
		delete(lp.kept, name)
		lp.keptBytes -= k.bytes
		if data, ok := k.data.([]T); ok && len(data) == n {
			lp.mu.Unlock()
			return interp.Drawn{DType: dt, Shape: shape, Data: data, Borrowed: true}, true, nil
		}
	}
	lp.mu.Unlock()
	data := make([]T, n)
	drawInto(data, tensor.NamedSeed(lp.seed, "param:"+name), dt, d)
	keep := false
	lp.mu.Lock()
	if lp.keptBytes+size <= lp.keepLimit {
		if lp.kept == nil {
			lp.kept = map[string]keptDraw{}
		}
		lp.kept[name] = keptDraw{data: data, bytes: size}
		lp.keptBytes += size
		keep = true
	}
	lp.mu.Unlock()
	return interp.Drawn{DType: dt, Shape: shape, Data: data, Borrowed: keep}, true, nil
}

// FillRandomWeights stores random data (as Random would generate it for this seed) in ir.Variable.Data for
// every parameter p reads that has no data, creating the Variable if p.Params lacks it. It returns the number of
// parameters filled. Use it to give a program without weights concrete ones, e.g. before folding its weights (package rules' fold_constants).
func FillRandomWeights(p *ir.Program, seed uint64, opts Options) (int, error) {
	params, err := collectParams([]*ir.Program{p})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, pi := range params {
		if !pi.lacking {
			continue
		}
		t, err := randomParam(seed, opts, pi)
		if err != nil {
			return n, err
		}
		raw, err := interp.EncodeData(t)
		if err != nil {
			return n, fmt.Errorf("parameter %q: %w", pi.name, err)
		}
		v := p.Params[pi.name]
		if v == nil {
			v = &ir.Variable{Name: pi.name, Type: pi.typ}
			p.Params[pi.name] = v
		}
		v.Data = raw
		n++
	}
	return n, nil
}

// DefaultParamRange is the default value range of random parameters: [0.5, 1.5] for variances (ParamInfo.Variance;
// they must be positive), [1, 2) for quantization scales (ParamInfo.QuantScale: an abs-max scale covers the values
// it quantizes, and inputs are drawn from [-1, 1), so that quantizing rounds them to the grid without clipping),
// ±sqrt(3/fan_in) for weights of rank ≥ 2 (fan_in is the first dim of a rank-2 [in, out] matrix, and the product
// of all dims but the first for conv filters [out, in, kh, kw]), so that activations keep their scale through deep
// models, and [-1, 1) otherwise (biases, batch-norm scales and means).
func DefaultParamRange(p ParamInfo) (lo, hi float64) {
	if p.Variance {
		return 0.5, 1.5
	}
	if p.QuantScale {
		s := max(p.InputScale, 1)
		return s, 2 * s
	}
	if len(p.Shape) >= 2 {
		fan := p.Shape[0]
		if len(p.Shape) > 2 {
			fan = 1
			for _, d := range p.Shape[1:] {
				fan *= d
			}
		}
		if fan > 0 {
			a := math.Sqrt(3 / float64(fan))
			return -a, a
		}
	}
	return -1, 1
}

type inputInfo struct {
	name  string
	dtype ir.DType
	shape []int
	// rec is what the program recorded about the input (ir.Program.Feeds): data used as is, or statistics to draw
	// from; nil when nothing was recorded.
	rec *ir.Variable
	// batches, when set, are the recorded sample's batch sizes that this recorded integer input holds as values
	// (a batch size fed as a scalar): drawn at Options.Batch, the elements equal to one of them read batch instead.
	batches map[int64]bool
	batch   int
	// scale is Options.InputScale: values without record are drawn from [-scale, scale).
	scale float64
	// bound, when positive, is the exclusive upper bound of an integer input the programs index with
	// (indexBound): drawn values stay in [0, bound).
	bound int64
}

// draw returns the input's values for a feed seed: the recorded data when it fits the input's shape and type,
// else values drawn from the recorded statistics, else the default distribution (floats in [-1, 1)).
func (in inputInfo) draw(seed uint64) (*interp.Tensor, error) {
	if r := in.rec; r != nil {
		if r.Data != nil {
			if n, err := interp.NumElements(in.shape); err == nil && len(r.Data) == n*interp.ElemSize(in.dtype) {
				t, err := interp.DecodeData(in.dtype, in.shape, r.Data)
				if err != nil {
					return nil, fmt.Errorf("interp: input %q: recorded data: %w", in.name, err)
				}
				for i, v := range t.Data {
					if in.batches[int64(v)] {
						t.Data[i] = float64(in.batch)
					}
				}
				return t, nil
			}
		}
		if r.Stats != nil {
			return drawTensor(tensor.NamedSeed(seed, "input:"+in.name), in.dtype, in.shape,
				boundInts(statsDist(in.dtype, r.Stats), in.bound, true)), nil
		}
	}
	return drawTensor(tensor.NamedSeed(seed, "input:"+in.name), in.dtype, in.shape,
		boundInts(defaultDist(in.dtype, -in.scale, in.scale), in.bound, false)), nil
}

// collectInputs finds the inputs of the programs, in order of first appearance.
func collectInputs(opts Options, progs []*ir.Program) ([]inputInfo, error) {
	var out []inputInfo
	seen := map[string]int{}
	for _, p := range progs {
		fixed, batches := batchRecorded(p)
		ownBatch := !opts.RecordedBatch && !fixed
		for op := range p.Walk() {
			if op.Name() != "pd_op.data" && op.Name() != "pd_op.feed" || op.NumResults() != 1 {
				continue
			}
			name, ok := ir.AsString(op.Attr("name"))
			if !ok {
				return nil, fmt.Errorf("interp: %s at %s has no name", op.Name(), interp.Where(p, op))
			}
			in, err := inputShape(opts, name, op, p.Feeds[name], ownBatch)
			if err == nil {
				err = opts.CheckSize("the input", in.shape)
			}
			if err != nil {
				return nil, fmt.Errorf("interp: input %q at %s: %w", name, interp.Where(p, op), err)
			}
			if b, ok := valueIndexBound(op.Result(0)); ok && in.dtype.IsInteger() {
				in.bound = b
			}
			if i, ok := seen[name]; ok {
				if in.bound > 0 && (out[i].bound == 0 || in.bound < out[i].bound) {
					out[i].bound = in.bound
				}
				if out[i].dtype != in.dtype || fmt.Sprint(out[i].shape) != fmt.Sprint(in.shape) {
					return nil, fmt.Errorf("interp: input %q is %s%v in one program and %s%v in another",
						name, out[i].dtype, out[i].shape, in.dtype, in.shape)
				}
				if out[i].rec == nil {
					out[i].rec = p.Feeds[name]
				}
				continue
			}
			in.rec = p.Feeds[name]
			if ownBatch && in.rec != nil && holdsBatch(in.rec, batches) {
				in.batches, in.batch = batches, opts.BatchSize()
			}
			seen[name] = len(out)
			out = append(out, in)
		}
	}
	return out, nil
}

// BatchShortened reports whether collectInputs gives some input of p Options.Batch for a dynamic dim 0 where
// the recorded sample has another size: whether Options.RecordedBatch would change the inputs.
func BatchShortened(opts Options, p *ir.Program) bool {
	if fixed, _ := batchRecorded(p); opts.RecordedBatch || fixed {
		return false
	}
	for op := range p.Walk() {
		if op.Name() != "pd_op.data" && op.Name() != "pd_op.feed" || op.NumResults() != 1 {
			continue
		}
		name, _ := ir.AsString(op.Attr("name"))
		rec := p.Feeds[name]
		tt := ir.TensorOf(op.Result(0).Type())
		if rec == nil || rec.Data != nil || tt == nil || len(tt.Dims) == 0 || tt.Dims[0] >= 0 {
			continue
		}
		if rt := ir.TensorOf(rec.Type); rt != nil && len(rt.Dims) > 0 && rt.Dims[0] >= 0 && int(rt.Dims[0]) != opts.BatchSize() {
			return true
		}
	}
	return false
}

// batchRecorded reports whether p fixes the batch size of its recorded sample: some input whose batch dim (dim 0)
// is dynamic has recorded data (ir.Program.Feeds). A graph traced at its batch that bakes it into static dims
// (Nonstationary, CLIP-large) is not recognized here — a static dim equal to the batch is as often a channel count
// (ConvNeXt's 128) — but by failing: package compare then evaluates at the recorded shapes. It also returns the recorded
// batch sizes (dim 0 of the recorded inputs whose declared dim 0 is dynamic), which a recorded integer input may
// hold as a value (the batch size fed as a scalar, which an expand then uses: CLIP's class token is expanded to
// it); such an input does not fix the batch: collectInputs feeds it Options.Batch too.
func batchRecorded(p *ir.Program) (bool, map[int64]bool) {
	batches := map[int64]bool{}
	for op := range p.Walk() {
		if op.Name() != "pd_op.data" && op.Name() != "pd_op.feed" || op.NumResults() != 1 {
			continue
		}
		name, _ := ir.AsString(op.Attr("name"))
		tt := ir.TensorOf(op.Result(0).Type())
		rec := p.Feeds[name]
		if rec == nil || tt == nil || len(tt.Dims) == 0 || tt.Dims[0] >= 0 {
			continue
		}
		if rec.Data != nil {
			return true, nil
		}
		if rt := ir.TensorOf(rec.Type); rt != nil && len(rt.Dims) > 0 && rt.Dims[0] > 1 {
			batches[rt.Dims[0]] = true
		}
	}
	return false, batches
}

// holdsBatch reports whether a recorded input is a scalar or a short list of int32/int64 holding one of batches.
func holdsBatch(rec *ir.Variable, batches map[int64]bool) bool {
	tt := ir.TensorOf(rec.Type)
	if len(batches) == 0 || tt == nil || len(tt.Dims) > 1 || tt.DType() != ir.DTypeInt64 && tt.DType() != ir.DTypeInt32 {
		return false
	}
	n := len(rec.Data) / interp.ElemSize(tt.DType())
	if n > 8 {
		return false
	}
	t, err := interp.DecodeData(tt.DType(), []int{n}, rec.Data)
	if err != nil {
		return false
	}
	for _, v := range t.Data {
		if batches[int64(v)] {
			return true
		}
	}
	return false
}

// inputShape resolves the shape of one input op: Options.InputShapes, else the declared dims, with dynamic ones
// taken from pd_op.data's shape attribute, the recorded sample (rec, ir.Program.Feeds), or Options.Batch (dim 0)
// and Options.DynamicSize. With ownBatch, a recorded input without recorded data takes Options.Batch for a
// dynamic dim 0 rather than the sample's batch: GraphNet captured vision models at batch 128, and a batch of one
// checks a rewrite as well at a hundredth of the cost.
func inputShape(opts Options, name string, op *ir.Op, rec *ir.Variable, ownBatch bool) (inputInfo, error) {
	in := inputInfo{name: name, dtype: ir.DTypeFloat32, scale: opts.inputScale()}
	var dims []int64
	attrDims, hasAttr := ir.AsInts(op.Attr("shape"))
	if tt := ir.TensorOf(op.Result(0).Type()); tt != nil {
		dims = append([]int64(nil), tt.Dims...)
		if dt := tt.DType(); dt != ir.DTypeUndefined {
			in.dtype = dt
		}
		// pd_op.data's shape attribute may know a size the type leaves dynamic, and so may the recorded sample
		// (GraphNet's input_meta.py), whose data then fits.
		if hasAttr && len(attrDims) == len(dims) {
			for i, d := range dims {
				if d < 0 && attrDims[i] >= 0 {
					dims[i] = attrDims[i]
				}
			}
		}
		if rec != nil {
			if rt := ir.TensorOf(rec.Type); rt != nil && len(rt.Dims) == len(dims) {
				for i, d := range dims {
					if d < 0 && rt.Dims[i] >= 0 {
						dims[i] = rt.Dims[i]
					}
				}
			}
			if ownBatch && rec.Data == nil && len(dims) > 0 && len(tt.Dims) > 0 && tt.Dims[0] < 0 {
				dims[0] = -1 // Options.Batch below
			}
		}
	} else if hasAttr {
		dims = attrDims
	} else {
		return in, fmt.Errorf("type %s is not a tensor and there is no shape attribute", op.Result(0).Type())
	}
	if s, ok := opts.InputShapes[name]; ok {
		in.shape = append([]int{}, s...)
		_, err := interp.NumElements(in.shape)
		return in, err
	}
	in.shape = make([]int, len(dims))
	for i, d := range dims {
		switch {
		case d >= 0:
			in.shape[i] = int(d)
		case i == 0:
			in.shape[i] = opts.BatchSize()
		default:
			in.shape[i] = opts.dynamicSize()
		}
	}
	_, err := interp.NumElements(in.shape)
	return in, err
}

type paramInfo struct {
	name     string
	typ      ir.Type
	variance bool
	// quantScale: the parameter is the scale of a linear quantization (ParamInfo.QuantScale).
	quantScale bool
	// datas holds the data of every program that has some; lacking is set when some program reads the parameter
	// without data.
	datas   [][]byte
	lacking bool
	// stats are the recorded statistics of the parameter (GraphNet's weight_meta.py), from the first program
	// that has them.
	stats *ir.TensorStats
	// bound, when positive, is the exclusive upper bound of an integer parameter the programs index with
	// (indexBound): drawn values stay in [0, bound).
	bound int64
}

// sameData reports whether every program holding data for the parameter holds the same bytes.
func (p *paramInfo) sameData() bool {
	for _, d := range p.datas[1:] {
		if len(d) != len(p.datas[0]) || len(d) > 0 && &d[0] != &p.datas[0][0] && !bytes.Equal(d, p.datas[0]) {
			return false
		}
	}
	return true
}

// decode decodes the data of the first program holding some.
func (p *paramInfo) decode(opts Options) (*interp.Tensor, error) {
	tt := ir.TensorOf(p.typ)
	if tt == nil {
		return nil, fmt.Errorf("interp: parameter %q has type %s, not a tensor", p.name, p.typ)
	}
	shape, ok := tensor.StaticShape(tt.Dims)
	if !ok {
		return nil, fmt.Errorf("interp: parameter %q has dynamic type %s", p.name, p.typ)
	}
	if err := opts.CheckSize(fmt.Sprintf("interp: parameter %q", p.name), shape); err != nil {
		return nil, err
	}
	d, err := interp.DecodeData(tt.DType(), shape, p.datas[0])
	if err != nil {
		return nil, fmt.Errorf("interp: parameter %q: %w", p.name, err)
	}
	return d, nil
}

// collectParams finds the parameters the programs read, in order of first appearance.
func collectParams(progs []*ir.Program) ([]*paramInfo, error) {
	var out []*paramInfo
	byName := map[string]*paramInfo{}
	for _, p := range progs {
		read := map[string]bool{}
		for op := range p.Walk() {
			if op.Name() != ir.ParameterOpName && op.Name() != ir.GetParameterOpName || op.NumResults() != 1 {
				continue
			}
			name, ok := ir.AsString(op.Attr("parameter_name"))
			if !ok {
				return nil, fmt.Errorf("interp: %s at %s has no parameter_name", op.Name(), interp.Where(p, op))
			}
			t := op.Result(0).Type()
			pi := byName[name]
			if pi == nil {
				pi = &paramInfo{name: name, typ: t}
				byName[name] = pi
				out = append(out, pi)
			} else if pi.typ.String() != t.String() {
				return nil, fmt.Errorf("interp: parameter %q has type %s in one program and %s in another", name, pi.typ, t)
			}
			if mustBePositive(op.Result(0)) {
				pi.variance = true
			}
			if isQuantScale(op.Result(0)) {
				pi.quantScale = true
			}
			if ir.ElemDType(t).IsInteger() {
				if b, ok := valueIndexBound(op.Result(0)); ok && (pi.bound == 0 || b < pi.bound) {
					pi.bound = b
				}
			}
			if read[name] {
				continue
			}
			read[name] = true
			v := p.Params[name]
			if v != nil && v.Stats != nil && pi.stats == nil {
				pi.stats = v.Stats
			}
			if v != nil && v.Data != nil {
				pi.datas = append(pi.datas, v.Data)
			} else {
				pi.lacking = true
			}
		}
	}
	return out, nil
}

// mustBePositive reports whether a parameter value is a variance: it feeds the variance operand of a batch norm,
// or reaches the operand of sqrt, rsqrt or log through add, scale, reshape-like and copy ops (the weight math of a
// folded batch norm, sqrt(var + ε)).
func mustBePositive(v *ir.Value) bool {
	seen := map[*ir.Value]bool{}
	var walk func(v *ir.Value, depth int) bool
	walk = func(v *ir.Value, depth int) bool {
		if seen[v] || depth > 8 {
			return false
		}
		seen[v] = true
		for u := range v.Uses() {
			op := u.Owner()
			switch op.Name() {
			case "pd_op.sqrt", "pd_op.sqrt_", "pd_op.rsqrt", "pd_op.rsqrt_", "pd_op.log", "pd_op.log_":
				return true
			case "pd_op.add", "pd_op.add_", "pd_op.scale", "pd_op.scale_", "pd_op.reshape", "pd_op.flatten",
				"pd_op.squeeze", "pd_op.unsqueeze", "pd_op.assign", "pd_op.cast", "pd_op.to_vtensor", "pd_op.to_tensor":
				if op.NumResults() > 0 && walk(op.Result(0), depth+1) {
					return true
				}
			default:
				if isBatchNorm(op.Name()) && u.Index() == 2 {
					return true
				}
			}
		}
		return false
	}
	return walk(v, 0)
}

// isQuantScale reports whether v is the scale operand of a quantize_linear or dequantize_linear (or their inplace
// forms).
func isQuantScale(v *ir.Value) bool {
	for u := range v.Uses() {
		switch ir.NonInplaceName(u.Owner().Name()) {
		case "pd_op.quantize_linear", "pd_op.dequantize_linear":
			if u.Index() == 1 {
				return true
			}
		}
	}
	return false
}

func isBatchNorm(name string) bool {
	switch name {
	case "pd_op.batch_norm", "pd_op.batch_norm_", "pd_op.sync_batch_norm_", "pd_op.fused_batch_norm_act",
		"pd_op.fused_batch_norm_act_", "pd_op.fused_bn_add_activation", "pd_op.fused_bn_add_activation_":
		return true
	}
	return false
}

// randomParam draws the values of one parameter.
func randomParam(seed uint64, opts Options, p *paramInfo) (*interp.Tensor, error) {
	shape, dt, d, err := p.distribution(opts)
	if err != nil {
		return nil, err
	}
	return drawTensor(tensor.NamedSeed(seed, "param:"+p.name), dt, shape, d), nil
}

// distribution returns the shape, element type and value distribution of a parameter drawn at random: its
// recorded statistics (ir.Variable.Stats) when a program has them, else Options.ParamRange.
func (p *paramInfo) distribution(opts Options) ([]int, ir.DType, distribution, error) {
	tt := ir.TensorOf(p.typ)
	if tt == nil {
		return nil, 0, distribution{}, fmt.Errorf("interp: parameter %q has type %s, not a tensor", p.name, p.typ)
	}
	shape, ok := tensor.StaticShape(tt.Dims)
	if !ok {
		return nil, 0, distribution{}, fmt.Errorf("interp: parameter %q has dynamic type %s", p.name, p.typ)
	}
	if err := opts.CheckSize(fmt.Sprintf("interp: parameter %q", p.name), shape); err != nil {
		return nil, 0, distribution{}, err
	}
	if p.stats != nil {
		return shape, tt.DType(), boundInts(statsDist(tt.DType(), p.stats), p.bound, true), nil
	}
	rng := opts.ParamRange
	if rng == nil {
		rng = DefaultParamRange
	}
	lo, hi := rng(ParamInfo{Name: p.name, Shape: shape, DType: tt.DType(), Variance: p.variance,
		QuantScale: p.quantScale, InputScale: opts.inputScale()})
	return shape, tt.DType(), boundInts(defaultDist(tt.DType(), lo, hi), p.bound, false), nil
}
