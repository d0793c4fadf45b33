package interp

import "math"

// Special functions Go's math package lacks, for the digamma, polygamma, i0 and gammaincc kernels: standard series,
// recurrences and asymptotic expansions (Abramowitz & Stegun; the Cephes library Paddle's Eigen kernels follow),
// accurate to a few ulps in float64 over the ranges the tests check.

// digamma is ψ(x) = Γ'(x)/Γ(x): +Inf at the poles (non-positive integers), reflection for negative x, the
// recurrence ψ(x) = ψ(x+1) − 1/x up to x ≥ 10, then the asymptotic series.
func digamma(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, -1):
		return math.NaN()
	case math.IsInf(x, 1):
		return x
	case x <= 0 && x == math.Floor(x):
		return math.Inf(1)
	case x < 0:
		// ψ(1−x) − ψ(x) = π·cot(πx)
		return digamma(1-x) - math.Pi/math.Tan(math.Pi*x)
	}
	acc := 0.0
	for x < 10 {
		acc -= 1 / x
		x++
	}
	// ψ(x) ~ ln x − 1/(2x) − Σ B_2k / (2k x^2k)
	x2 := 1 / (x * x)
	series := x2 * (1.0/12 - x2*(1.0/120-x2*(1.0/252-x2*(1.0/240-x2*(1.0/132-x2*(691.0/32760-x2/12))))))
	return acc + math.Log(x) - 0.5/x - series
}

// hurwitzZeta is ζ(s, q) = Σ_{k≥0} (q+k)^−s for s > 1, q > 0, by Euler–Maclaurin summation.
func hurwitzZeta(s, q float64) float64 {
	if s <= 1 || q <= 0 {
		if q <= 0 && q == math.Floor(q) {
			return math.Inf(1)
		}
		if q <= 0 {
			return math.NaN()
		}
		return math.NaN()
	}
	const n = 12
	sum := 0.0
	for k := 0; k < n; k++ {
		sum += math.Pow(q+float64(k), -s)
	}
	a := q + n
	sum += math.Pow(a, 1-s)/(s-1) + 0.5*math.Pow(a, -s)
	// Bernoulli terms B_2j/(2j)! · s(s+1)…(s+2j−2) · a^(−s−2j+1)
	b2j := []float64{1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730, 7.0 / 6, -3617.0 / 510}
	fact := 1.0 // (2j)!
	rising := s // s(s+1)…(s+2j−2)
	pow := math.Pow(a, -s-1)
	for j, b := range b2j {
		k := float64(2*j + 2)
		fact *= (k - 1) * k
		sum += b / fact * rising * pow
		rising *= (s + k - 1) * (s + k)
		pow /= a * a
	}
	return sum
}

// polygamma is ψ^(n)(x): digamma for n = 0, else (−1)^(n+1)·n!·ζ(n+1, x), continued to negative non-integer x by
// the recurrence ψ^(n)(x) = ψ^(n)(x+1) − (−1)^n·n!/x^(n+1).
func polygamma(n int, x float64) float64 {
	if n < 0 {
		return math.NaN()
	}
	if n == 0 {
		return digamma(x)
	}
	if x <= 0 && x == math.Floor(x) {
		return math.Inf(1)
	}
	fact := 1.0
	for k := 2; k <= n; k++ {
		fact *= float64(k)
	}
	sign := -1.0
	if n%2 == 1 {
		sign = 1
	}
	acc := 0.0
	for x <= 0 {
		// ψ^(n)(x) = ψ^(n)(x+1) + (−1)^(n+1)·n!/x^(n+1)
		acc += sign * fact / math.Pow(x, float64(n+1))
		x++
	}
	return acc + sign*fact*hurwitzZeta(float64(n+1), x)
}

// besselI0 is the modified Bessel function of the first kind of order 0: its power series Σ ((x/2)^k / k!)²,
// whose terms are all positive (no cancellation), up to |x| = 30, then the asymptotic expansion
// e^x / √(2πx) · Σ ((2k−1)!!)² / (k!·(8x)^k).
func besselI0(x float64) float64 {
	x = math.Abs(x)
	if math.IsInf(x, 0) {
		return x
	}
	if x <= 30 {
		term, sum := 1.0, 1.0
		h := x * x / 4
		for k := 1; k < 500; k++ {
			term *= h / float64(k*k)
			sum += term
			if term < sum*1e-17 {
				break
			}
		}
		return sum
	}
	term, sum := 1.0, 1.0
	for k := 1; k < 30; k++ {
		term *= (2*float64(k) - 1) * (2*float64(k) - 1) / (float64(k) * 8 * x)
		sum += term
		if math.Abs(term) < 1e-17*sum {
			break
		}
	}
	if x > 700 {
		return math.Inf(1)
	}
	return math.Exp(x) / math.Sqrt(2*math.Pi*x) * sum
}

// gammaincc is the regularized upper incomplete gamma function Q(a, x) = Γ(a, x)/Γ(a), for a > 0, x ≥ 0: the
// series of P = 1 − Q for x < a + 1, else the continued fraction of Q (Numerical Recipes' gser/gcf).
func gammaincc(a, x float64) float64 {
	switch {
	case math.IsNaN(a) || math.IsNaN(x) || a <= 0 || x < 0:
		return math.NaN()
	case x == 0:
		return 1
	case math.IsInf(x, 1):
		return 0
	}
	lg, _ := math.Lgamma(a)
	if x < a+1 {
		ap, sum := a, 1/a
		del := sum
		for range 1000 {
			ap++
			del *= x / ap
			sum += del
			if math.Abs(del) < math.Abs(sum)*1e-16 {
				break
			}
		}
		return 1 - sum*math.Exp(-x+a*math.Log(x)-lg)
	}
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return math.Exp(-x+a*math.Log(x)-lg) * h
}
