package analyze

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// Knee is the cliff test at one size (typically the server's RAM: "it got
// slow when the database outgrew memory"). A slow, steady degradation is
// expected; a cliff is a drop at the knee beyond that trend. So the trend
// model (the best-fitting degradation model, in its straight-line form) is
// fitted twice: as one curve for all points, and segmented, with its own
// level on each side of the knee. An F-test (1 and n−3 degrees of freedom)
// says whether the step between the two levels stands out of the residual
// noise. Each side is also fitted on its own to show the loss per doubling
// below and above the knee.
//
// A significant step is not yet a cliff: a cliff is a drop that matters,
// so the step must also cost at least MinCliff of the trend (the
// throughput-degradation.min_cliff threshold). And a verdict resting on one
// far point says so: the leverage of each point in the segmented fit is
// computed and the points above the limit are named.
type Knee struct {
	At    float64 `json:"at"`
	Model string  `json:"model"`
	// Below and Above count the points on each side (x ≤ At, x > At).
	Below int `json:"below"`
	Above int `json:"above"`
	// Step is the jump of the segmented fit at the knee in y units, and
	// StepFraction the same relative to the single fit there.
	Step         float64 `json:"step"`
	StepFraction float64 `json:"step_fraction"`
	// LossPerDoublingBelow/Above: fraction lost per doubling by the model
	// fitted on each side alone (null when a side has fewer than 3
	// points, or when its sizes span less than a doubling and its slope
	// is not significant: the series' own loss is withheld so, see
	// Model.NoLossPerDoubling).
	LossPerDoublingBelow *float64 `json:"loss_per_doubling_below"`
	LossPerDoublingAbove *float64 `json:"loss_per_doubling_above"`
	RSSSingle            float64  `json:"rss_single"`
	RSSSegmented         float64  `json:"rss_segmented"`
	F                    *float64 `json:"f"` // null when the segmented fit is exact
	DF1                  int      `json:"df1"`
	DF2                  int      `json:"df2"`
	P                    float64  `json:"p"`
	// Significant is the F-test's answer (P ≤ Alpha), whatever the size
	// of the step.
	Significant bool `json:"significant"`
	// MinCliff is the smallest step, as a fraction of the trend, that
	// counts as a cliff; Cliff is true when the step is significant, at
	// least that large, and for the worse (a drop in throughput, a rise
	// in time).
	MinCliff float64 `json:"min_cliff"`
	Cliff    bool    `json:"cliff"`
	// HighLeverage lists the points whose leverage in the segmented fit
	// is above LeverageLimit: the test's answer rests on them.
	HighLeverage  []LeveragePoint `json:"high_leverage"`
	LeverageLimit float64         `json:"leverage_limit"`
	Test          string          `json:"test"`
	Verdict       string          `json:"verdict"`
}

// KneeTest runs the cliff test at size at, with the trend model named
// (Linear, LogLinear or Power). It needs two points on each side and five
// in all.
func KneeTest(x, y []float64, at float64, model string) (*Knee, error) {
	n := len(x)
	k := &Knee{At: at, Model: model, DF1: 1, DF2: n - 3,
		Test: "F-test, " + model + " trend with vs without a step at the knee, alpha 0.05"}
	var xb, yb, xa, ya []float64
	for i, v := range x {
		if v > at {
			k.Above++
			xa, ya = append(xa, v), append(ya, y[i])
		} else {
			k.Below++
			xb, yb = append(xb, v), append(yb, y[i])
		}
	}
	if k.Below < 2 || k.Above < 2 || n < 5 {
		return nil, fmt.Errorf("knee test at %g needs 2 points on each side and 5 in all; have %d below, %d above", at, k.Below, k.Above)
	}
	single := mat.NewDense(n, 2, nil)
	seg := mat.NewDense(n, 3, nil)
	v := make([]float64, n)
	for i := range x {
		u := transformX(model, x[i])
		v[i] = y[i]
		if model == Power {
			v[i] = math.Log(y[i])
		}
		if math.IsNaN(u) || math.IsInf(u, 0) || math.IsNaN(v[i]) || math.IsInf(v[i], 0) {
			return nil, fmt.Errorf("knee test with the %s model needs positive values; got x=%g y=%g", model, x[i], y[i])
		}
		single.Set(i, 0, 1)
		single.Set(i, 1, u)
		seg.Set(i, 0, 1)
		seg.Set(i, 1, u)
		if x[i] > at {
			seg.Set(i, 2, 1)
		}
	}
	yv := mat.NewVecDense(n, v)
	b1, rss1, err := leastSquares(single, yv)
	if err != nil {
		return nil, err
	}
	b2, rss2, err := leastSquares(seg, yv)
	if err != nil {
		return nil, err
	}
	k.RSSSingle, k.RSSSegmented = rss1, rss2
	uk := transformX(model, at)
	base := b1.AtVec(0) + b1.AtVec(1)*uk
	switch model {
	case Power:
		// The step is a factor on y: e^s − 1.
		k.StepFraction = math.Expm1(b2.AtVec(2))
		k.Step = k.StepFraction * math.Exp(base)
	default:
		k.Step = b2.AtVec(2)
		if base != 0 {
			k.StepFraction = k.Step / base
		}
	}
	k.LossPerDoublingBelow = sideLoss(model, xb, yb)
	k.LossPerDoublingAbove = sideLoss(model, xa, ya)
	switch {
	case rss2 <= 0 && rss1 <= 0:
		k.P = 1 // the single fit is exact already
	case rss2 <= 0:
		k.P = 0
	default:
		f := ((rss1 - rss2) / float64(k.DF1)) / (rss2 / float64(k.DF2))
		k.F = &f
		k.P = 1 - distuv.F{D1: float64(k.DF1), D2: float64(k.DF2)}.CDF(math.Max(f, 0))
	}
	if !finite(k.Step, k.StepFraction, k.P, rss1, rss2) {
		return nil, fmt.Errorf("knee test at %g overflows on these values", at)
	}
	k.Significant = k.P <= Alpha
	k.MinCliff = NewThresholds().Get("throughput-degradation", "min_cliff")
	k.LeverageLimit = leverageLimit()
	h, err := hatValues(seg)
	if err != nil {
		return nil, err
	}
	k.HighLeverage = highLeverage(x, h, k.LeverageLimit)
	k.Describe(parse.Unit{}, false)
	return k, nil
}

// Describe decides whether the step is a cliff and writes the verdict,
// with the unit of the sizes (in IEC units: "16.0 GiB"); lowerIsBetter
// is true when y is a time.
func (k *Knee) Describe(unit parse.Unit, lowerIsBetter bool) {
	at := formatX(k.At, unit)
	worse := k.StepFraction < 0
	if lowerIsBetter {
		worse = k.StepFraction > 0
	}
	k.Cliff = k.Significant && worse && math.Abs(k.StepFraction) >= k.MinCliff
	step := signedPct(k.StepFraction)
	switch {
	case !k.Significant:
		k.Verdict = fmt.Sprintf("no cliff at %s: the step of %s beyond the %s trend is not significant (%s)", at, step, k.Model, pText(k.P))
	case !worse:
		k.Verdict = fmt.Sprintf("no cliff at %s: a step of %s beyond the %s trend (%s) is an improvement", at, step, k.Model, pText(k.P))
	case !k.Cliff:
		k.Verdict = fmt.Sprintf("no cliff at %s: a step of %s beyond the %s trend is significant (%s) but smaller than the %s a cliff needs",
			at, step, k.Model, pText(k.P), pct(k.MinCliff))
	default:
		k.Verdict = fmt.Sprintf("cliff at %s: a step of %s beyond the %s trend (%s), past the %s a cliff needs",
			at, step, k.Model, pText(k.P), pct(k.MinCliff))
	}
	if n := len(k.HighLeverage); n > 0 {
		var xs, hs []string
		for _, p := range k.HighLeverage {
			xs = append(xs, formatX(p.X, unit))
			hs = append(hs, units.Figure(p.Leverage))
		}
		what, verb := "point has", "it alone sets"
		if n > 1 {
			what, verb = "points have", "they alone set"
		}
		k.Verdict += fmt.Sprintf("; the %s %s leverage %s (above %s): %s the trend",
			strings.Join(xs, ", "), what, strings.Join(hs, ", "), strconv.FormatFloat(k.LeverageLimit, 'g', -1, 64), verb)
	}
}

// hatValues is the diagonal of the hat matrix X(XᵀX)⁻¹Xᵀ of a design
// with few columns, without forming the n×n matrix: h_i = x_iᵀ(XᵀX)⁻¹x_i.
func hatValues(x *mat.Dense) ([]float64, error) {
	n, c := x.Dims()
	var xtx mat.SymDense
	xtx.SymOuterK(1, x.T())
	var ch mat.Cholesky
	if !ch.Factorize(&xtx) {
		return nil, fmt.Errorf("segmented fit: singular design")
	}
	var inv mat.SymDense
	if err := ch.InverseTo(&inv); err != nil {
		return nil, fmt.Errorf("segmented fit: %v", err)
	}
	h := make([]float64, n)
	row := make([]float64, c)
	for i := range n {
		mat.Row(row, i, x)
		r := mat.NewVecDense(c, row)
		h[i] = mat.Inner(r, &inv, r)
	}
	return h, nil
}

// leastSquares solves X·b ≈ y and returns b and the residual sum of squares.
func leastSquares(x *mat.Dense, y *mat.VecDense) (*mat.VecDense, float64, error) {
	var qr mat.QR
	qr.Factorize(x)
	_, c := x.Dims()
	var b mat.VecDense
	if err := qr.SolveVecTo(&b, false, y); err != nil {
		return nil, 0, fmt.Errorf("segmented fit: %v", err)
	}
	var fitted mat.VecDense
	fitted.MulVec(x, &b)
	var rss float64
	for i := 0; i < y.Len(); i++ {
		d := y.AtVec(i) - fitted.AtVec(i)
		rss += d * d
	}
	if b.Len() != c {
		return nil, 0, fmt.Errorf("segmented fit: singular design")
	}
	return &b, rss, nil
}

// sideLoss is the loss per doubling of model fitted on one side of a
// knee alone; nil when it cannot be fitted or, as for a whole series
// (Series.degradation), when the side's sizes span less than a doubling
// and its slope is not significant: a doubling lies past them, and the
// figure's very sign is the noise's.
func sideLoss(model string, x, y []float64) *float64 {
	m, err := Fit(model, x, y)
	if err != nil || m.LossPerDoubling == nil {
		return nil
	}
	if _, _, narrow := sizeSpan(x); narrow && !(m.SlopeP <= Alpha) {
		return nil
	}
	return m.LossPerDoubling
}
