package interp

import (
	"fmt"
	"math"
	"sort"

	"github.com/pirdrr/drr/interp/tensor"
)

// Detection ops, as Paddle's CPU kernels compute them: roi_align, prior_box, yolo_box, generate_proposals (anchor
// decoding, clipping, filtering and non-maximum suppression) and distribute_fpn_proposals. Their result shapes
// depend on the data (the number of proposals that survive).

func registerDetect[T tensor.Float](r registry[T]) {
	r["pd_op.roi_align"] = kRoiAlign[T]
	r["pd_op.prior_box"] = kPriorBox[T]
	r["pd_op.yolo_box"] = kYoloBox[T]
	r["pd_op.generate_proposals"] = kGenerateProposals[T]
	r["pd_op.distribute_fpn_proposals"] = kDistributeFpnProposals[T]
	r["pd_op.deformable_conv"] = kDeformableConv[T]
	r["pd_op.rnn"] = kRNN[T]
}

// batchOfBoxes assigns each of n boxes to an image from the per-image counts (all to image 0 without counts).
func batchOfBoxes[T tensor.Float](counts *tensor.Tensor[T], n, images int) ([]int, error) {
	ids := make([]int, n)
	if counts == nil {
		if images != 1 {
			return nil, fmt.Errorf("%d images but no per-image box counts", images)
		}
		return ids, nil
	}
	if len(counts.Data) != images {
		return nil, fmt.Errorf("box counts %v for %d images", counts.Shape, images)
	}
	at := 0
	for img, cnt := range counts.Data {
		for range int(cnt) {
			if at >= n {
				return nil, fmt.Errorf("box counts sum past the %d boxes", n)
			}
			ids[at] = img
			at++
		}
	}
	if at != n {
		return nil, fmt.Errorf("box counts sum to %d for %d boxes", at, n)
	}
	return ids, nil
}

// kRoiAlign pools each box of boxes [R, 4] (x1, y1, x2, y2 in input coordinates times spatial_scale, shifted by
// half a pixel when aligned) into pooled_height × pooled_width bins of x [N, C, H, W], each the average of
// sampling_ratio² bilinear samples (ceil(box size / bins) per side when sampling_ratio ≤ 0).
func kRoiAlign[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, boxes, err := c.pair()
	if err != nil {
		return nil, err
	}
	counts, err := c.optIn(2)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 4 || len(boxes.Shape) != 2 || boxes.Shape[1] != 4 {
		return nil, fmt.Errorf("roi_align needs x [N, C, H, W] and boxes [R, 4], has %v and %v", x.Shape, boxes.Shape)
	}
	n, ch, h, w := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	ph, pw := c.attrInt("pooled_height", 1), c.attrInt("pooled_width", 1)
	scale := float64(float32(c.attrFloat("spatial_scale", 1)))
	ratio := c.attrInt("sampling_ratio", -1)
	aligned := c.attrBool("aligned", false)
	rois := boxes.Shape[0]
	ids, err := batchOfBoxes(counts, rois, n)
	if err != nil {
		return nil, err
	}
	out := make([]T, rois*ch*ph*pw)
	off := 0.0
	if aligned {
		off = 0.5
	}
	type sample struct {
		idx [4]int
		w   [4]float64
		ok  bool
	}
	for r := range rois {
		b := boxes.Data[r*4 : r*4+4]
		x0, y0 := float64(b[0])*scale-off, float64(b[1])*scale-off
		rw, rh := float64(b[2])*scale-off-x0, float64(b[3])*scale-off-y0
		if !aligned {
			rw, rh = max(rw, 1), max(rh, 1)
		}
		gh, gw := ratio, ratio
		if ratio <= 0 {
			gh, gw = int(math.Ceil(rh/float64(ph))), int(math.Ceil(rw/float64(pw)))
		}
		// An inverted box (aligned, so not widened to 1) has no sampling points: Paddle's loops run no iteration
		// and its bins are 0 (the sum divided by max(count, 1)).
		gh, gw = max(gh, 0), max(gw, 0)
		binH, binW := rh/float64(ph), rw/float64(pw)
		var samples []sample
		for py := range ph {
			for px := range pw {
				for iy := range gh {
					yy := y0 + binH*(float64(py)+(float64(iy)+0.5)/float64(gh))
					for ix := range gw {
						xx := x0 + binW*(float64(px)+(float64(ix)+0.5)/float64(gw))
						if yy < -1 || yy > float64(h) || xx < -1 || xx > float64(w) {
							samples = append(samples, sample{})
							continue
						}
						yv, xv := max(yy, 0), max(xx, 0)
						xl, yl := int(xv), int(yv)
						var xh, yh int
						if xl >= w-1 {
							xl, xh, xv = w-1, w-1, float64(w-1)
						} else {
							xh = xl + 1
						}
						if yl >= h-1 {
							yl, yh, yv = h-1, h-1, float64(h-1)
						} else {
							yh = yl + 1
						}
						xr, yr := float64(xh)-xv, float64(yh)-yv
						samples = append(samples, sample{ok: true,
							idx: [4]int{yl*w + xl, yh*w + xl, yl*w + xh, yh*w + xh},
							w:   [4]float64{xr * yr, xr * (1 - yr), (1 - xr) * yr, (1 - xr) * (1 - yr)}})
					}
				}
			}
		}
		per := gh * gw
		if per == 0 {
			continue // out is zero
		}
		for cc := range ch {
			plane := x.Data[(ids[r]*ch+cc)*h*w : (ids[r]*ch+cc+1)*h*w]
			dst := out[(r*ch+cc)*ph*pw : (r*ch+cc+1)*ph*pw]
			for bin := range dst {
				s := 0.0
				for _, sm := range samples[bin*per : (bin+1)*per] {
					if sm.ok {
						for k := range 4 {
							s += sm.w[k] * float64(plane[sm.idx[k]])
						}
					}
				}
				dst[bin] = T(s / float64(per))
			}
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{rois, ch, ph, pw}, Data: out}, nil)
}

// expandAspectRatios is 1, then each aspect ratio not yet present (and its inverse with flip).
func expandAspectRatios(ars []float64, flip bool) []float64 {
	out := []float64{1}
	has := func(v float64) bool {
		for _, o := range out {
			if math.Abs(v-o) < 1e-6 {
				return true
			}
		}
		return false
	}
	for _, ar := range ars {
		if has(ar) {
			continue
		}
		out = append(out, ar)
		if flip {
			out = append(out, float64(float32(1/ar)))
		}
	}
	return out
}

// kPriorBox generates SSD prior boxes for each cell of the feature map input [N, C, H, W] over image
// [N, C, IH, IW]: (boxes, variances), both [H, W, priors, 4], boxes normalized by the image size.
func kPriorBox[T tensor.Float](c *call[T]) ([]*value[T], error) {
	in, img, err := c.pair()
	if err != nil {
		return nil, err
	}
	if len(in.Shape) != 4 || len(img.Shape) != 4 {
		return nil, fmt.Errorf("prior_box needs 4-D input and image, has %v and %v", in.Shape, img.Shape)
	}
	minSizes, _ := c.floatsAttr("min_sizes")
	maxSizes, _ := c.floatsAttr("max_sizes")
	ars, _ := c.floatsAttr("aspect_ratios")
	variances, _ := c.floatsAttr("variances")
	if len(maxSizes) > 0 && len(maxSizes) != len(minSizes) {
		return nil, fmt.Errorf("max_sizes %v and min_sizes %v differ in length", maxSizes, minSizes)
	}
	ratios := expandAspectRatios(ars, c.attrBool("flip", true))
	fh, fw := in.Shape[2], in.Shape[3]
	ih, iw := float64(img.Shape[2]), float64(img.Shape[3])
	stepW, stepH := c.attrFloat("step_w", 0), c.attrFloat("step_h", 0)
	if stepW == 0 || stepH == 0 {
		stepW, stepH = iw/float64(fw), ih/float64(fh)
	}
	offset := c.attrFloat("offset", 0.5)
	priors := len(ratios) * len(minSizes)
	if len(maxSizes) > 0 {
		priors += len(maxSizes)
	}
	order := c.attrBool("min_max_aspect_ratios_order", false)
	var boxes []float64
	if in.Shape[0]*in.Shape[1]*fh*fw > 0 && len(img.Data) > 0 {
		for y := range fh {
			for x := range fw {
				cx, cy := (float64(x)+offset)*stepW, (float64(y)+offset)*stepH
				add := func(bw, bh float64) {
					boxes = append(boxes, (cx-bw)/iw, (cy-bh)/ih, (cx+bw)/iw, (cy+bh)/ih)
				}
				for s, ms := range minSizes {
					ms32 := float32(ms)
					maxBox := func() {
						if len(maxSizes) > 0 {
							side := math.Sqrt(float64(ms32*float32(maxSizes[s]))) / 2
							add(side, side)
						}
					}
					if order {
						add(float64(ms32)/2, float64(ms32)/2)
						maxBox()
						for _, ar := range ratios {
							if math.Abs(ar-1) < 1e-6 {
								continue
							}
							add(float64(ms32)*math.Sqrt(ar)/2, float64(ms32)/math.Sqrt(ar)/2)
						}
						continue
					}
					for _, ar := range ratios {
						add(float64(ms32)*math.Sqrt(ar)/2, float64(ms32)/math.Sqrt(ar)/2)
					}
					maxBox()
				}
			}
		}
		if c.attrBool("clip", true) {
			for i, v := range boxes {
				boxes[i] = min(max(v, 0), 1)
			}
		}
	} else {
		boxes = make([]float64, fh*fw*priors*4)
	}
	shape := []int{fh, fw, priors, 4}
	if len(boxes) != prod(shape) {
		return nil, fmt.Errorf("prior_box generated %d values for %v", len(boxes), shape)
	}
	bt := make([]T, len(boxes))
	for i, v := range boxes {
		bt[i] = T(v)
	}
	vt := make([]T, len(boxes))
	if len(variances) != 4 && len(variances) != 0 {
		return nil, fmt.Errorf("variances %v must hold 4 values", variances)
	}
	for i := range vt {
		if len(variances) == 4 {
			vt[i] = T(variances[i%4])
		}
	}
	return []*value[T]{c.out(&tensor.Tensor[T]{Shape: shape, Data: bt}, 0),
		c.out(&tensor.Tensor[T]{Shape: append([]int{}, shape...), Data: vt}, 1)}, nil
}

func sigmoid64(v float64) float64 { return 1 / (1 + math.Exp(-v)) }

// kYoloBox decodes YOLOv3 head outputs x [N, A·(5+classes), H, W] (with iou_aware, A more channels first) into
// boxes [N, A·H·W, 4] (image coordinates, optionally clipped) and scores [N, A·H·W, classes]; entries whose
// confidence is below conf_thresh are zero.
func kYoloBox[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, imgSize, err := c.pair()
	if err != nil {
		return nil, err
	}
	anchors, _ := c.attrInts("anchors")
	classes := c.attrInt("class_num", 1)
	if len(x.Shape) != 4 || len(anchors)%2 != 0 || len(imgSize.Data) != 2*x.Shape[0] {
		return nil, fmt.Errorf("yolo_box needs x [N, C, H, W], img_size [N, 2] and anchor pairs; has %v, %v, %v", x.Shape, imgSize.Shape, anchors)
	}
	n, h, w := x.Shape[0], x.Shape[2], x.Shape[3]
	an := len(anchors) / 2
	iouAware := c.attrBool("iou_aware", false)
	want := an * (5 + classes)
	if iouAware {
		want += an
	}
	if x.Shape[1] != want {
		return nil, fmt.Errorf("x has %d channels, the anchors and classes need %d", x.Shape[1], want)
	}
	conf := float32(c.attrFloat("conf_thresh", 0.01))
	down := c.attrInt("downsample_ratio", 32)
	clip := c.attrBool("clip_bbox", true)
	scale := float32(c.attrFloat("scale_x_y", 1))
	bias := -0.5 * (scale - 1)
	iouFactor := c.attrFloat("iou_aware_factor", 0.5)
	stride := h * w
	anStride := (classes + 5) * stride
	entry := func(b, a, hw, e int) int {
		if iouAware {
			return (b*an+a)*anStride + (b*an+an+e)*stride + hw
		}
		return (b*an+a)*anStride + e*stride + hw
	}
	boxNum := an * stride
	boxes := make([]T, n*boxNum*4)
	scores := make([]T, n*boxNum*classes)
	inH, inW := float64(down*h), float64(down*w)
	for b := range n {
		imgH, imgW := float64(int(imgSize.Data[2*b])), float64(int(imgSize.Data[2*b+1]))
		for a := range an {
			for k := range h {
				for l := range w {
					hw := k*w + l
					cf := sigmoid64(float64(x.Data[entry(b, a, hw, 4)]))
					if iouAware {
						iou := sigmoid64(float64(x.Data[b*an*anStride+(b*an+a)*stride+hw]))
						cf = math.Pow(cf, 1-iouFactor) * math.Pow(iou, iouFactor)
					}
					if cf < float64(conf) {
						continue
					}
					bi := entry(b, a, hw, 0)
					bx := (float64(l) + sigmoid64(float64(x.Data[bi]))*float64(scale) + float64(bias)) * imgW / float64(w)
					by := (float64(k) + sigmoid64(float64(x.Data[bi+stride]))*float64(scale) + float64(bias)) * imgH / float64(h)
					bw := math.Exp(float64(x.Data[bi+2*stride])) * float64(anchors[2*a]) * imgW / inW
					bh := math.Exp(float64(x.Data[bi+3*stride])) * float64(anchors[2*a+1]) * imgH / inH
					o := (b*boxNum + a*stride + hw) * 4
					x1, y1, x2, y2 := bx-bw/2, by-bh/2, bx+bw/2, by+bh/2
					if clip {
						x1, y1 = max(x1, 0), max(y1, 0)
						x2, y2 = min(x2, imgW-1), min(y2, imgH-1)
					}
					boxes[o], boxes[o+1], boxes[o+2], boxes[o+3] = T(x1), T(y1), T(x2), T(y2)
					li := entry(b, a, hw, 5)
					so := (b*boxNum + a*stride + hw) * classes
					for cl := range classes {
						scores[so+cl] = T(cf * sigmoid64(float64(x.Data[li+cl*stride])))
					}
				}
			}
		}
	}
	return []*value[T]{c.out(&tensor.Tensor[T]{Shape: []int{n, boxNum, 4}, Data: boxes}, 0),
		c.out(&tensor.Tensor[T]{Shape: []int{n, boxNum, classes}, Data: scores}, 1)}, nil
}

// boxArea is a box's area, (w+1)·(h+1) in pixel coordinates, w·h when normalized, 0 for an inverted box.
func boxArea(b []float64, normalized bool) float64 {
	if b[2] < b[0] || b[3] < b[1] {
		return 0
	}
	w, h := b[2]-b[0], b[3]-b[1]
	if normalized {
		return w * h
	}
	return (w + 1) * (h + 1)
}

// jaccard is the intersection over union of two boxes.
func jaccard(a, b []float64, normalized bool) float64 {
	if b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1] {
		return 0
	}
	norm := 1.0
	if normalized {
		norm = 0
	}
	iw := min(a[2], b[2]) - max(a[0], b[0]) + norm
	ih := min(a[3], b[3]) - max(a[1], b[1]) + norm
	inter := iw * ih
	return inter / (boxArea(a, normalized) + boxArea(b, normalized) - inter)
}

// nms returns the indices of the boxes non-maximum suppression keeps, best score first: Paddle's order (a stable
// ascending sort popped from the end, so the later of two equal scores comes first) and its adaptive threshold
// (multiplied by eta after each kept box while above 0.5).
func nms(boxes [][]float64, scores []float64, thresh, eta float64, normalized bool) []int {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return scores[order[i]] < scores[order[j]] })
	var kept []int
	adaptive := thresh
	for k := len(order) - 1; k >= 0; k-- {
		idx := order[k]
		keep := true
		for _, o := range kept {
			if jaccard(boxes[idx], boxes[o], normalized) > adaptive {
				keep = false
				break
			}
		}
		if keep {
			kept = append(kept, idx)
			if eta < 1 && adaptive > 0.5 {
				adaptive *= eta
			}
		}
	}
	return kept
}

// kGenerateProposals is Faster R-CNN's proposal layer, per image: the pre_nms_top_n best anchors (by score),
// decoded with bbox_deltas and variances, clipped to im_shape (h, w), filtered by min_size, suppressed by NMS, the
// post_nms_top_n best kept: (rpn_rois [R, 4], rpn_roi_probs [R, 1], rpn_rois_num [N]). An image left without
// boxes contributes one zero box with score 0, as Paddle's kernel does.
func kGenerateProposals[T tensor.Float](c *call[T]) ([]*value[T], error) {
	scores, deltas, err := c.pair()
	if err != nil {
		return nil, err
	}
	imShape, err := c.in(2)
	if err != nil {
		return nil, err
	}
	anchors, variances, err := c.inPair(3, 4)
	if err != nil {
		return nil, err
	}
	if len(scores.Shape) != 4 || len(deltas.Shape) != 4 || deltas.Shape[1] != 4*scores.Shape[1] {
		return nil, fmt.Errorf("scores %v and bbox_deltas %v must be [N, A, H, W] and [N, 4A, H, W]", scores.Shape, deltas.Shape)
	}
	n, a, h, w := scores.Shape[0], scores.Shape[1], scores.Shape[2], scores.Shape[3]
	m := a * h * w
	if len(anchors.Data) != 4*m || len(variances.Data) != 4*m || len(imShape.Data) < 2*n {
		return nil, fmt.Errorf("anchors %v and variances %v must hold %d boxes, im_shape %v one (h, w) per image",
			anchors.Shape, variances.Shape, m, imShape.Shape)
	}
	pre, post := c.attrInt("pre_nms_top_n", 6000), c.attrInt("post_nms_top_n", 1000)
	thresh, minSize, eta := float64(float32(c.attrFloat("nms_thresh", 0.5))), float64(float32(c.attrFloat("min_size", 0.1))), c.attrFloat("eta", 1)
	pixel := c.attrBool("pixel_offset", true)
	off := 0.0
	if pixel {
		off = 1
	}
	clipMax := math.Log(1000.0 / 16.0)
	var rois, probs []T
	var counts []T
	for b := range n {
		// Scores and deltas in [H, W, A] order, as Paddle transposes them.
		sc := make([]float64, m)
		dl := make([][]float64, m)
		for y := range h {
			for x := range w {
				for k := range a {
					i := (y*w+x)*a + k
					sc[i] = float64(scores.Data[((b*a+k)*h+y)*w+x])
					d := make([]float64, 4)
					for j := range 4 {
						d[j] = float64(deltas.Data[((b*4*a+4*k+j)*h+y)*w+x])
					}
					dl[i] = d
				}
			}
		}
		order := make([]int, m)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return sc[order[i]] > sc[order[j]] })
		if pre > 0 && pre < m {
			order = order[:pre]
		}
		imH, imW := float64(imShape.Data[2*b]), float64(imShape.Data[2*b+1])
		var props [][]float64
		var pscores []float64
		for _, i := range order {
			an := make([]float64, 4)
			vr := make([]float64, 4)
			for j := range 4 {
				an[j], vr[j] = float64(anchors.Data[4*i+j]), float64(variances.Data[4*i+j])
			}
			aw, ah := an[2]-an[0]+off, an[3]-an[1]+off
			acx, acy := an[0]+0.5*aw, an[1]+0.5*ah
			cx := vr[0]*dl[i][0]*aw + acx
			cy := vr[1]*dl[i][1]*ah + acy
			bw := math.Exp(min(vr[2]*dl[i][2], clipMax)) * aw
			bh := math.Exp(min(vr[3]*dl[i][3], clipMax)) * ah
			box := []float64{cx - bw/2, cy - bh/2, cx + bw/2 - off, cy + bh/2 - off}
			for j := range 4 {
				lim := imW
				if j%2 == 1 {
					lim = imH
				}
				box[j] = max(min(box[j], lim-off), 0)
			}
			ws, hs := box[2]-box[0]+off, box[3]-box[1]+off
			keep := ws >= max(minSize, 1) && hs >= max(minSize, 1)
			if pixel {
				keep = keep && box[0]+ws/2 <= imW && box[1]+hs/2 <= imH
			}
			if keep {
				props = append(props, box)
				pscores = append(pscores, sc[i])
			}
		}
		if len(props) == 0 {
			rois = append(rois, 0, 0, 0, 0)
			probs = append(probs, 0)
			counts = append(counts, 1)
			continue
		}
		sel := make([]int, len(props))
		for i := range sel {
			sel[i] = i
		}
		if thresh > 0 {
			sel = nms(props, pscores, thresh, eta, !pixel)
			if post > 0 && post < len(sel) {
				sel = sel[:post]
			}
		}
		for _, i := range sel {
			for _, v := range props[i] {
				rois = append(rois, T(v))
			}
			probs = append(probs, T(pscores[i]))
		}
		counts = append(counts, T(len(sel)))
	}
	nr := len(probs)
	res := []*value[T]{c.out(&tensor.Tensor[T]{Shape: []int{nr, 4}, Data: rois}, 0),
		c.out(&tensor.Tensor[T]{Shape: []int{nr, 1}, Data: probs}, 1)}
	if c.op.NumResults() > 2 {
		res = append(res, c.out(&tensor.Tensor[T]{Shape: []int{n}, Data: counts}, 2))
	}
	return res, nil
}

// kDistributeFpnProposals assigns each box to the FPN level floor(log2(√area/refer_scale + 1e-6) + refer_level)
// clamped to [min_level, max_level]: (the boxes of each level, per level and image their counts, and
// restore_index [R, 1], the position of each input box in the concatenation of the levels).
func kDistributeFpnProposals[T tensor.Float](c *call[T]) ([]*value[T], error) {
	rois, err := c.in(0)
	if err != nil {
		return nil, err
	}
	counts, err := c.optIn(1)
	if err != nil {
		return nil, err
	}
	if len(rois.Shape) != 2 || rois.Shape[1] != 4 {
		return nil, fmt.Errorf("fpn_rois must be [R, 4], is %v", rois.Shape)
	}
	minL, maxL := c.attrInt("min_level", 2), c.attrInt("max_level", 5)
	refL, refS := c.attrInt("refer_level", 4), c.attrInt("refer_scale", 224)
	pixel := c.attrBool("pixel_offset", true)
	levels := maxL - minL + 1
	if levels <= 0 {
		return nil, fmt.Errorf("max_level %d below min_level %d", maxL, minL)
	}
	r := rois.Shape[0]
	images := 1
	if counts != nil {
		images = len(counts.Data)
	}
	img, err := batchOfBoxes(counts, r, images)
	if err != nil {
		return nil, err
	}
	level := make([]int, r)
	for i := range r {
		b := []float64{float64(rois.Data[4*i]), float64(rois.Data[4*i+1]), float64(rois.Data[4*i+2]), float64(rois.Data[4*i+3])}
		s := math.Sqrt(boxArea(b, !pixel))
		l := int(math.Floor(math.Log2(s/float64(refS)+1e-6) + float64(refL)))
		level[i] = min(maxL, max(l, minL)) - minL
	}
	// Boxes keep their order within a level; levels are concatenated image by image.
	perLevel := make([][]int, levels)
	perCount := make([][]T, levels)
	for l := range levels {
		perCount[l] = make([]T, images)
	}
	for im := range images {
		for i := range r {
			if img[i] == im {
				perLevel[level[i]] = append(perLevel[level[i]], i)
				perCount[level[i]][im]++
			}
		}
	}
	restore := make([]T, r)
	pos := 0
	outs := make([]*tensor.Tensor[T], levels)
	for l := range levels {
		data := make([]T, 0, 4*len(perLevel[l]))
		for _, i := range perLevel[l] {
			data = append(data, rois.Data[4*i:4*i+4]...)
			restore[i] = T(pos)
			pos++
		}
		outs[l] = &tensor.Tensor[T]{Shape: []int{len(perLevel[l]), 4}, Data: data}
	}
	res := []*value[T]{c.vecOut(outs, 0)}
	if c.op.NumResults() > 2 {
		nums := make([]*tensor.Tensor[T], levels)
		for l := range levels {
			nums[l] = &tensor.Tensor[T]{Shape: []int{images}, Data: perCount[l]}
		}
		res = append(res, c.vecOut(nums, 1))
	}
	res = append(res, c.out(&tensor.Tensor[T]{Shape: []int{r, 1}, Data: restore}, c.op.NumResults()-1))
	if c.op.NumResults() == 2 {
		res = []*value[T]{res[0], res[len(res)-1]}
	}
	return res, nil
}
