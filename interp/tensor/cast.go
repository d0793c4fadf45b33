package tensor

// Cast converts every element of x to the element type To (float32 or
// float64), rounding to nearest when narrowing.
func Cast[To, From Float](x *Tensor[From]) (*Tensor[To], error) {
	if err := x.validate("cast"); err != nil {
		return nil, err
	}
	out := newUnchecked[To](x.Shape)
	for i, v := range x.Data {
		out.Data[i] = To(v)
	}
	return out, nil
}
