package analyze

import (
	"math"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Growth fits: least squares on size (linear) or on ln size
// (exponential) over days, with gonum/stat; forecasts invert the fit and
// bound the date with the 95 % prediction interval.

// fitLinear fits size = a + b·days; xs must hold two distinct days.
func fitLinear(xs, ys []float64) *GrowthFit {
	a, b := stat.LinearRegression(xs, ys, nil, false)
	return &GrowthFit{Model: ModelLinear, Intercept: a, Slope: b, N: len(xs),
		R2: fitR2(ys, func(i int) float64 { return a + b*xs[i] })}
}

// fitR2 is R² of a fit on 3 sizes or more; nil for 2, through which any
// line passes exactly (R² 1 would say nothing).
func fitR2(ys []float64, model func(int) float64) *float64 {
	if len(ys) < 3 {
		return nil
	}
	return ptr(rSquared(ys, model))
}

// fitExponential fits size = a·e^(b·days) on ln size; nil when a size is
// not positive (an empty table cannot grow exponentially).
func fitExponential(xs, ys []float64) *GrowthFit {
	ls := make([]float64, len(ys))
	for i, y := range ys {
		if y <= 0 {
			return nil
		}
		ls[i] = math.Log(y)
	}
	la, b := stat.LinearRegression(xs, ls, nil, false)
	a := math.Exp(la)
	f := &GrowthFit{Model: ModelExponential, Intercept: a, Slope: b, N: len(xs),
		R2: fitR2(ys, func(i int) float64 { return a * math.Exp(b*xs[i]) })}
	// Two sizes minutes apart, years after the first snapshot, give a
	// steep slope whose intercept at day 0 overflows (e^48000): no fit
	// JSON can carry, and none worth naming.
	if math.IsInf(a, 0) || f.R2 != nil && math.IsNaN(*f.R2) || a == 0 {
		return nil
	}
	if b > 0 {
		f.DoublingDays = ptr(math.Ln2 / b)
	}
	return f
}

// rSquared is 1 − SSres/SStot on the sizes themselves. Constant sizes
// give 1 when the model reproduces them and 0 otherwise (the plain
// formula divides by zero).
func rSquared(ys []float64, model func(int) float64) float64 {
	mean := stat.Mean(ys, nil)
	var res, tot float64
	for i, y := range ys {
		e := y - model(i)
		res += e * e
		tot += (y - mean) * (y - mean)
	}
	if tot == 0 {
		if res <= 1e-9*math.Max(1, mean*mean) {
			return 1
		}
		return 0
	}
	return 1 - res/tot
}

// forecast says when fit reaches target. xs are days since the time of
// points[0]; ys the sizes fitted.
func forecast(fit *GrowthFit, xs, ys []float64, target int64, points []TrendPoint) *Forecast {
	fc := &Forecast{TargetBytes: target}
	if fit == nil {
		fc.Status = ForecastTooFew
		return fc
	}
	fc.Model = strPtr(fit.Model)
	t0 := points[0].Time
	// Reached when the last size is at or above the target, since the
	// first of the sizes at or above it after the last one below: a
	// database that was there and shrank (a purge, a restore) has not
	// reached it (the shop at 61.1 then 60.6 MiB read "reached 61 MiB").
	var since *TrendPoint
	for i := len(points) - 1; i >= 0; i-- {
		if p := &points[i]; p.SizeBytes != nil {
			if *p.SizeBytes < target {
				break
			}
			since = p
		}
	}
	if since != nil {
		fc.Status = ForecastReached
		fc.Date = ptr(since.Time)
		fc.DaysAfterLast = ptr(secondsBetween(since.Time, lastTime(points)) / 86400)
		return fc
	}
	// The fit works on z = size (linear) or z = ln size (exponential).
	z0 := float64(target)
	zs := ys
	if fit.Model == ModelExponential {
		z0 = math.Log(z0)
		zs = make([]float64, len(ys))
		for i, y := range ys {
			zs[i] = math.Log(y)
		}
	}
	a, b := stat.LinearRegression(xs, zs, nil, false)
	if !(b > 0) {
		fc.Status = ForecastNotGrowing
		return fc
	}
	x := (z0 - a) / b
	if x > horizonDays {
		fc.Status = ForecastBeyond
		return fc
	}
	fc.Status = ForecastDate
	fc.Date = ptr(addDays(t0, x))
	fc.DaysAfterLast = ptr(secondsBetween(*fc.Date, lastTime(points)) / 86400)
	if lo, hi, ok := inversePrediction(xs, zs, a, b, z0); ok {
		fc.Earliest = ptr(addDays(t0, max(lo, -horizonDays)))
		if hi <= horizonDays {
			fc.Latest = ptr(addDays(t0, hi))
		}
	}
	return fc
}

// inversePrediction is the set of x whose 95 % prediction interval of z
// contains z0 (the calibration interval): the x solving
// (a + b·x − z0)² ≤ q²·s²·(1 + 1/n + (x − x̄)²/Sxx), q the Student t
// quantile with n−2 degrees of freedom. It fails (ok false) with fewer
// than 3 points or when the slope is not significant, i.e. when the
// data cannot rule out that the target is never reached.
func inversePrediction(xs, zs []float64, a, b, z0 float64) (lo, hi float64, ok bool) {
	n := float64(len(xs))
	if len(xs) < 3 {
		return 0, 0, false
	}
	xbar := stat.Mean(xs, nil)
	var sxx, sse float64
	for i, x := range xs {
		sxx += (x - xbar) * (x - xbar)
		e := zs[i] - (a + b*x)
		sse += e * e
	}
	s2 := sse / (n - 2)
	x := (z0 - a) / b
	if s2 <= 0 || sxx <= 0 {
		return x, x, true
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 2}.Quantile(0.975)
	k := q * q * s2
	zbar := a + b*xbar
	// In u = x − x̄: A·u² + B·u + C ≤ 0.
	A := b*b - k/sxx
	B := 2 * b * (zbar - z0)
	C := (zbar-z0)*(zbar-z0) - k*(1+1/n)
	disc := B*B - 4*A*C
	if A <= 0 || disc < 0 {
		return 0, 0, false
	}
	r := math.Sqrt(disc)
	u1, u2 := (-B-r)/(2*A), (-B+r)/(2*A)
	return xbar + u1, xbar + u2, true
}

// horizonDays bounds forecasts to a century (time.Duration holds about
// 292 years); a later crossing is reported as beyond_horizon.
const horizonDays = 36525

func addDays(t time.Time, days float64) time.Time {
	return t.Add(time.Duration(days * 24 * float64(time.Hour)))
}

func lastTime(points []TrendPoint) time.Time { return points[len(points)-1].Time }
