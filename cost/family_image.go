package cost

// imageFamily holds pooling, resampling and detection ops, one kernel each. Pooling does one operation per window
// element per output (an average one more for the division), the window being the kernel, or the input's share per
// output for global and adaptive pooling. Interpolation does per output element the operations of its taps:
// nearest 1, linear 4, bilinear and grid_sample 8, trilinear 16, bicubic 32. roi_align samples each bin
// sampling_ratio² times (2×2 when adaptive) at 8 operations, reading 4 input elements per sample. Detection heads
// (yolo_box, box_coder, prior_box, …) do their per-box arithmetic (10 operations per element); proposal generation
// and NMS decode every anchor, sort (log2 n per box) and compare kept boxes pairwise (5 per pair).
var imageFamily = family{
	name: "image",
	doc:  "pooling, interpolation and detection: per-output window or tap counts, sorting and NMS",
	ops: map[string]formula{
		"pd_op.pool2d":                   pool,
		"pd_op.pool3d":                   pool,
		"pd_op.max_pool2d_with_index":    pool,
		"pd_op.max_pool3d_with_index":    pool,
		"pd_op.nearest_interp":           interp(1),
		"pd_op.linear_interp":            interp(4),
		"pd_op.bilinear_interp":          interp(8),
		"pd_op.trilinear_interp":         interp(16),
		"pd_op.bicubic_interp":           interp(32),
		"pd_op.grid_sample":              gridSample,
		"pd_op.roi_align":                roiAlign,
		"pd_op.roi_pool":                 roiAlign,
		"pd_op.psroi_pool":               roiAlign,
		"pd_op.prior_box":                fill(2),
		"pd_op.anchor_generator":         fill(2),
		"pd_op.affine_grid":              elementwise(6),
		"pd_op.yolo_box":                 elementwiseOf(0, 10),
		"pd_op.yolo_box_head":            elementwiseOf(0, 5),
		"pd_op.box_coder":                elementwise(10),
		"pd_op.box_clip":                 elementwise(4),
		"pd_op.distribute_fpn_proposals": elementwiseOf(0, 10),
		"pd_op.generate_proposals":       generateProposals,
		"pd_op.multiclass_nms3":          nms,
		"pd_op.matrix_nms":               nms,
		"pd_op.nms":                      nms,
		"pd_op.unfold":                   copyAll,
		"pd_op.fold":                     copyAll,
		"pd_op.temporal_shift":           copyAll,
		"pd_op.unpool":                   copyAll,
	},
}

// pool: window from the constant kernel_size operand or attribute; global and adaptive pooling (or a kernel that
// is not a constant) take the input's elements per output element.
func pool(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	out, err := v.mustOut(0)
	if err != nil {
		return Work{}, err
	}
	window := int64(0)
	if !v.bool("global_pooling") && !v.bool("adaptive") {
		k, ok := v.constInts(1)
		if !ok {
			k, ok = v.ints("kernel_size")
		}
		if ok && len(k) > 0 {
			window = 1
			for _, d := range k {
				window *= d
			}
		}
	}
	if window <= 0 {
		window = max(x.elems()/max(out.elems(), 1), 1)
	}
	flops := out.elems() * window
	if v.str("pooling_type") == "avg" {
		flops += out.elems()
	}
	return Work{FLOPs: flops, Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: x.dt}, nil
}

// interp returns the formula of an interpolation with k operations per output element.
func interp(k int64) formula {
	return func(v *opView) (Work, error) {
		x, err := v.mustIn(0)
		if err != nil {
			return Work{}, err
		}
		out, err := v.mustOut(0)
		if err != nil {
			return Work{}, err
		}
		return Work{FLOPs: k * out.elems(), Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: x.dt}, nil
	}
}

// gridSample: bilinear (8) or nearest (1) taps per output element, at positions the grid gives.
func gridSample(v *opView) (Work, error) {
	if v.str("mode") == "nearest" {
		return interp(1)(v)
	}
	return interp(8)(v)
}

// roiAlign: out [R, C, ph, pw]; each bin averages s² bilinear samples (s = sampling_ratio, 2 when adaptive), each
// reading 4 input elements.
func roiAlign(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	out, err := v.mustOut(0)
	if err != nil {
		return Work{}, err
	}
	s := v.int("sampling_ratio", 2)
	if s <= 0 || v.op.Name() != "pd_op.roi_align" {
		s = 2
	}
	samples := out.elems() * s * s
	read := v.readAll(0) + min(4*samples*int64(elemSize(x.dt)), x.bytes())
	return Work{FLOPs: 8*samples + out.elems(), Read: read, Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: x.dt}, nil
}

// generateProposals: scores [N, A, H, W]: every anchor decoded (10), the pre_nms_top_n best sorted, NMS against the
// post_nms_top_n kept.
func generateProposals(v *opView) (Work, error) {
	scores, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	n := scores.dim(0)
	anchors := scores.elems()
	perImage := anchors / max(n, 1)
	pre := v.int("pre_nms_top_n", perImage)
	if pre <= 0 || pre > perImage {
		pre = perImage
	}
	post := v.int("post_nms_top_n", pre)
	if post <= 0 || post > pre {
		post = pre
	}
	flops := 10*anchors + n*(perImage*log2ceil(perImage)+5*pre*post)
	return Work{FLOPs: flops, Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: scores.dt}, nil
}

// nms: bboxes [N, M, 4] (or [M, 4]) and scores [N, C, M]: per image and class a sort of M boxes and the pairwise
// comparison of the nms_top_k best.
func nms(v *opView) (Work, error) {
	boxes, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	m := boxes.dim(-2)
	imgs, classes := int64(1), int64(1)
	if boxes.rank() == 3 {
		imgs = boxes.dims[0]
	}
	if sc, ok := v.in(1); ok && sc.rank() == 3 {
		classes = sc.dims[1]
	}
	k := v.int("nms_top_k", m)
	if k <= 0 || k > m {
		k = m
	}
	flops := imgs * classes * (m*log2ceil(m) + 5*k*k)
	return Work{FLOPs: flops, Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: boxes.dt}, nil
}
