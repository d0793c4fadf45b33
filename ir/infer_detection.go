package ir

import (
	"fmt"
	"math"
)

// Result-type rules of the detection ops: anchors and priors, box coding, YOLO heads, RoI pooling, proposals and
// non-maximum suppression, after the InferMeta functions each rule names. The number of boxes a suppression keeps
// is known only at run time (-1).

// inferAnchorGenerator (AnchorGeneratorInferMeta): [H, W, sizes·ratios, 4] anchors and their variances, in the
// input's element type.
func inferAnchorGenerator(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 4 {
		return nil, fmt.Errorf("input must be NCHW, has rank %d", x.Rank())
	}
	sizes, _ := AsFloats(in.Attr("anchor_sizes"))
	ratios, _ := AsFloats(in.Attr("aspect_ratios"))
	t := c.WithDims(x, dims(x.Dims[2], x.Dims[3], int64(len(sizes)*len(ratios)), 4))
	return []Type{t, t}, nil
}

// expandAspectRatios is Paddle's ExpandAspectRatios: 1, then each new ratio (and its inverse with flip).
func expandAspectRatios(ratios []float64, flip bool) []float64 {
	out := []float64{1}
	const eps = 1e-6
	for _, r := range ratios {
		seen := false
		for _, o := range out {
			if math.Abs(r-o) < eps {
				seen = true
				break
			}
		}
		if !seen {
			out = append(out, r)
			if flip {
				out = append(out, 1/r)
			}
		}
	}
	return out
}

// inferPriorBox (PriorBoxInferMeta): [H, W, priors, 4] boxes and variances: ratios·min_sizes priors plus one per
// max size.
func inferPriorBox(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 4 {
		return nil, fmt.Errorf("input must be NCHW, has rank %d", x.Rank())
	}
	minSizes, _ := AsFloats(in.Attr("min_sizes"))
	maxSizes, _ := AsFloats(in.Attr("max_sizes"))
	ratios, _ := AsFloats(in.Attr("aspect_ratios"))
	n := len(expandAspectRatios(ratios, in.boolAttr("flip")))*len(minSizes) + len(maxSizes)
	t := c.WithDims(x, dims(x.Dims[2], x.Dims[3], int64(n), 4))
	return []Type{t, t}, nil
}

// inferBoxCoder (BoxCoderInferMeta): encode_center_size gives [targets, priors, 4]; decoding keeps target_box's
// dims.
func inferBoxCoder(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 2)
	if err != nil {
		return nil, err
	}
	prior, target := ts[0], ts[1]
	if in.strAttr("code_type", "encode_center_size") == "encode_center_size" {
		return []Type{c.WithDims(target, dims(target.Dims[0], prior.Dims[0], 4))}, nil
	}
	return []Type{target}, nil
}

// inferYoloBox (YoloBoxInferMeta): for x [N, C, H, W] and anchors/2 anchors per cell: boxes [N, H·W·anchors, 4]
// and scores [N, H·W·anchors, class_num].
func inferYoloBox(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 4 {
		return nil, fmt.Errorf("x must be NCHW, has rank %d", x.Rank())
	}
	anchors, _ := in.intsAttr("anchors")
	n := mulDim(mulDim(x.Dims[2], x.Dims[3]), int64(len(anchors)/2))
	return []Type{c.WithDims(x, dims(x.Dims[0], n, 4)), c.WithDims(x, dims(x.Dims[0], n, in.intAttr("class_num", 1)))}, nil
}

// inferYoloLoss (YoloLossInferMeta): a loss per image [N]; the objectness mask [N, masks, H, W] and the ground-truth
// match mask [N, boxes], all in x's element type.
func inferYoloLoss(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, gt := ts[0], ts[1]
	if x.Rank() != 4 || gt.Rank() != 3 {
		return nil, fmt.Errorf("x must be NCHW and gt_box [N, B, 4]")
	}
	mask, _ := in.intsAttr("anchor_mask")
	return []Type{c.WithDims(x, dims(x.Dims[0])),
		c.WithDims(x, dims(x.Dims[0], int64(len(mask)), x.Dims[2], x.Dims[3])),
		c.WithDims(x, dims(gt.Dims[0], gt.Dims[1]))}, nil
}

// inferRoIPool (RoiAlignInferMeta, RoiPoolInferMeta, PsroiPoolInferMeta): [rois, channels, pooled_height,
// pooled_width], channels being x's or output_channels; roi_pool adds the int64 positions of the maxima.
func inferRoIPool(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, boxes := ts[0], ts[1]
	if x.Rank() != 4 || boxes.Rank() != 2 {
		return nil, fmt.Errorf("x must be NCHW and boxes [R, 4]")
	}
	ch := x.Dims[1]
	if in.Schema.Attr("output_channels") != nil {
		ch = in.intAttr("output_channels", 1)
	}
	d := dims(boxes.Dims[0], ch, in.intAttr("pooled_height", 1), in.intAttr("pooled_width", 1))
	out := []Type{c.WithDims(x, d)}
	if len(in.Schema.Results) == 2 {
		out = append(out, with(c, x, d, DTypeInt64))
	}
	return out, nil
}

// inferGenerateProposals (GenerateProposalsV2InferMeta): [-1, 4] proposals, [-1, 1] scores and one proposal count
// per image (the batch of scores); the function sets no element type, so all three are float32.
func inferGenerateProposals(c *Context, in *InferInput) ([]Type, error) {
	s, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if s.Rank() != 4 {
		return nil, fmt.Errorf("scores must be NCHW, have rank %d", s.Rank())
	}
	f := func(d ...int64) Type { return with(c, s, dims(d...), DTypeFloat32) }
	return []Type{f(Dynamic, 4), f(Dynamic, 1), f(s.Dims[0])}, nil
}

// inferDistributeFPN (DistributeFpnProposalsInferMeta): the proposals of each level max_level-min_level+1 of
// them, [-1, 4]; when rois_num is given, the int32 counts per level [-1]; the int32 restore index [-1, 1].
func inferDistributeFPN(c *Context, in *InferInput) ([]Type, error) {
	rois, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	levels := in.intAttr("max_level", 0) - in.intAttr("min_level", 0) + 1
	if levels <= 0 {
		return nil, fmt.Errorf("max_level must not be below min_level")
	}
	per := make([]Type, levels)
	nums := make([]Type, levels)
	for i := range per {
		per[i] = c.WithDims(rois, dims(Dynamic, 4))
		nums[i] = with(c, rois, dims(Dynamic), DTypeInt32)
	}
	counts := Type(c.NullType())
	if in.Operand(1) != nil {
		counts = c.Vector(nums...)
	}
	return []Type{c.Vector(per...), counts, with(c, rois, dims(Dynamic, 1), DTypeInt32)}, nil
}

// inferNMS (MultiClassNMS3InferMeta, MatrixNMSInferMeta): the kept boxes [-1, box size + 2] (label, score, box),
// their int32 indices [-1, 1] and the int32 count per image [-1].
func inferNMS(c *Context, in *InferInput) ([]Type, error) {
	b, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if b.Rank() == 0 {
		return nil, fmt.Errorf("bboxes must have rank 1 or more")
	}
	return []Type{c.WithDims(b, dims(Dynamic, addDim(b.Dims[b.Rank()-1], 2))),
		with(c, b, dims(Dynamic, 1), DTypeInt32), with(c, b, dims(Dynamic), DTypeInt32)}, nil
}

// inferBipartiteMatch (BipartiteMatchInferMeta): per column of dist_mat its matched row (int32) and distance, both of
// dist_mat's dims.
func inferBipartiteMatch(c *Context, in *InferInput) ([]Type, error) {
	d, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if d.Rank() != 2 {
		return nil, fmt.Errorf("dist_mat must be 2-D, has rank %d", d.Rank())
	}
	return []Type{with(c, d, d.Dims, DTypeInt32), d}, nil
}

// inferDecodeJpeg (DecodeJpegInferMeta): [channels, -1, -1]: 1 for "gray", 3 for "rgb", unknown for "unchanged".
func inferDecodeJpeg(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	ch := int64(Dynamic)
	switch m := in.strAttr("mode", "unchanged"); m {
	case "gray":
		ch = 1
	case "rgb":
		ch = 3
	case "unchanged":
	default:
		return nil, fmt.Errorf("mode %q (unchanged, gray or rgb)", m)
	}
	return []Type{c.WithDims(x, dims(ch, Dynamic, Dynamic))}, nil
}

// inferIm2Sequence (Im2sequenceInferMeta): each kernel-sized patch of x [N, C, H, W] as a row: [N·oh·ow, C·kh·kw].
func inferIm2Sequence(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	k, _ := in.intsAttr("kernels")
	s, _ := in.intsAttr("strides")
	p, _ := in.intsAttr("paddings")
	if x.Rank() != 4 || len(k) != 2 || len(s) != 2 || len(p) != 4 {
		return nil, fmt.Errorf("x must be NCHW with 2 kernels and strides and 4 paddings")
	}
	oh := ConvOutSize(x.Dims[2], k[0], s[0], p[0], p[2], 1, "EXPLICIT", false)
	ow := ConvOutSize(x.Dims[3], k[1], s[1], p[1], p[3], 1, "EXPLICIT", false)
	return []Type{c.WithDims(x, dims(mulDim(x.Dims[0], mulDim(oh, ow)), mulDim(x.Dims[1], k[0]*k[1])))}, nil
}
