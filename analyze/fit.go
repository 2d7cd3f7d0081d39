package analyze

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// The degradation models: how throughput y falls as the database size x
// grows. All three are straight lines after a change of variables, so
// ordinary least squares gives the parameters and their standard errors.
const (
	Linear    = "linear"    // y = a + b·x
	LogLinear = "loglinear" // y = a + b·ln x: the same loss for every doubling
	Power     = "power"     // y = c·x^k: the same fraction lost for every doubling
)

// ModelNames lists the models in the order they are reported.
var ModelNames = []string{Linear, LogLinear, Power}

// Param is one fitted parameter and its standard error.
type Param struct {
	Name   string  `json:"name"`
	Value  float64 `json:"value"`
	StdErr float64 `json:"stderr"`
}

// Prediction is a fitted value at X with its 95 % prediction interval (the
// range a new measurement at X should fall in, not just the curve's).
type Prediction struct {
	X  float64 `json:"x"`
	Y  float64 `json:"y"`
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	// NoLowerBound says that a throughput's interval reaches 0 or below,
	// a throughput none can be: Lo is no floor, the interval is "up to Hi".
	NoLowerBound bool `json:"no_lower_bound,omitempty"`
	// Uninformative says that the interval is wider than
	// throughput-degradation.uninformative_interval times Y: it tells
	// nothing, and is said so instead of printed.
	Uninformative bool `json:"uninformative,omitempty"`
}

// Exact reports whether the interval has no width: the points lie on
// the curve to the last digit, which leaves no residual, and so no
// scatter, to go by (a table made up, or figures rounded onto one).
func (p *Prediction) Exact() bool {
	return p.Hi-p.Lo <= 1e-9*math.Abs(p.Y)
}

// qualify sets p's NoLowerBound (a throughput's, not a time's) and
// Uninformative.
func (p *Prediction) qualify(lowerIsBetter bool) {
	p.NoLowerBound = p.Lo <= 0 && !lowerIsBetter
	p.Uninformative = p.Hi-math.Max(p.Lo, 0) > NewThresholds().Get("throughput-degradation", "uninformative_interval")*math.Abs(p.Y)
}

// Holdout is the leave-last-out check: the model is fitted without the
// largest size and asked to predict it; Error is (predicted − actual) /
// actual. It says how far the model can be trusted to extrapolate.
type Holdout struct {
	Prediction
	Actual float64 `json:"actual"`
	Error  float64 `json:"error"`
	Inside bool    `json:"inside_interval"`
}

// Model is a fitted degradation model.
type Model struct {
	Name    string  `json:"name"`
	Formula string  `json:"formula"`
	Params  []Param `json:"params"`
	// R2 is computed on y itself for every model (also for power, which
	// is fitted on ln y), so that the three can be compared.
	R2 float64 `json:"r2"`
	// SlopeP is the two-sided p of the t-test that b (or k) is zero: above
	// Alpha the data show no degradation the noise could not explain.
	SlopeP    float64   `json:"slope_p"`
	Residuals []float64 `json:"residuals"`
	// LossPerDoubling is the fraction of throughput the fitted curve loses
	// each time the size doubles, averaged geometrically over the sizes
	// measured: 1 − (ŷ(x_max)/ŷ(x_min))^(1/log2(x_max/x_min)). For power it
	// is exactly 1 − 2^k. Null when the curve is not positive there, or
	// when the figure overflows (sizes a sliver of a doubling apart).
	LossPerDoubling *float64 `json:"loss_per_doubling"`
	// NoLossPerDoubling says why LossPerDoubling is withheld (nil): the
	// sizes span less than a doubling and the slope is not significant,
	// so a doubling lies beyond the sizes and the figure is the noise's
	// (see Series.degradation); nil otherwise.
	NoLossPerDoubling *string `json:"no_loss_per_doubling"`
	// Leverage is each point's hat value in the fit (same order as
	// Residuals): how much its own y weighs in its fitted value. It
	// depends on the sizes only, in the model's x (ln x for loglinear and
	// power). HighLeverage lists the points above LeverageLimit.
	Leverage          []float64       `json:"leverage"`
	HighLeverage      []LeveragePoint `json:"high_leverage"`
	LeverageLimit     float64         `json:"leverage_limit"`
	LeaveLastOut      *Holdout        `json:"leave_last_out"`
	LeaveLastOutError *float64        `json:"leave_last_out_error"`
	Prediction        *Prediction     `json:"prediction,omitempty"`
	// NoPrediction says why a throughput has no prediction: its fitted
	// curve is at or below 0 there ("the loglinear fit reaches 0 before
	// 421 MiB"), a figure none can be; Prediction is then nil.
	NoPrediction *string `json:"no_prediction"`
	// PredictionCaveat says why Prediction's interval promises more than
	// the fit can hold, nil when nothing does: a point of leverage above
	// LeverageLimit sets the curve alone ("extrapolated 2× past the
	// largest size, which alone sets the curve (leverage 0.929)"), or the
	// model's own leave-last-out check fell outside its interval ("its
	// leave-last-out check missed by +14.2 %, outside its 95 % interval").
	PredictionCaveat *string `json:"prediction_caveat"`

	n          int
	a, b       float64 // in the transformed variables
	meanU, sxx float64
	s          float64 // residual standard error, transformed variables
}

// LeveragePoint is a point whose leverage (hat value) is above the limit.
type LeveragePoint struct {
	X        float64 `json:"x"`
	Leverage float64 `json:"leverage"`
}

// leverageLimit is the hat value above which a point dominates a fit:
// its fitted value is Σ h_ij·y_j with weights summing to 1, so above 0.5
// its own y weighs more than all the others together (see the
// throughput-degradation.high_leverage threshold).
func leverageLimit() float64 {
	return NewThresholds().Get("throughput-degradation", "high_leverage")
}

// highLeverage lists the points whose leverage h is above limit, largest
// first; [] when none.
func highLeverage(x, h []float64, limit float64) []LeveragePoint {
	out := []LeveragePoint{}
	for i, v := range h {
		if v > limit {
			out = append(out, LeveragePoint{X: x[i], Leverage: v})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Leverage > out[j].Leverage })
	return out
}

// ErrTooFewPoints is returned when a fit has fewer than 3 distinct sizes.
var ErrTooFewPoints = errors.New("need at least 3 points at 2 distinct sizes or more")

func transformX(name string, x float64) float64 {
	if name == Linear {
		return x
	}
	return math.Log(x)
}

// Fit fits one model (Linear, LogLinear or Power) to the points (x, y).
func Fit(name string, x, y []float64) (*Model, error) {
	if len(x) != len(y) {
		return nil, fmt.Errorf("fit: %d x for %d y", len(x), len(y))
	}
	n := len(x)
	if n < 3 {
		return nil, ErrTooFewPoints
	}
	u := make([]float64, n)
	v := make([]float64, n)
	for i := range x {
		u[i] = transformX(name, x[i])
		v[i] = y[i]
		if name == Power {
			v[i] = math.Log(y[i])
		}
		if math.IsNaN(u[i]) || math.IsInf(u[i], 0) || math.IsNaN(v[i]) || math.IsInf(v[i], 0) {
			return nil, fmt.Errorf("%s fit needs positive values; got x=%g y=%g", name, x[i], y[i])
		}
	}
	m := &Model{Name: name, n: n}
	m.meanU = stat.Mean(u, nil)
	for _, ui := range u {
		m.sxx += (ui - m.meanU) * (ui - m.meanU)
	}
	if m.sxx == 0 {
		return nil, ErrTooFewPoints
	}
	m.a, m.b = stat.LinearRegression(u, v, nil, false)
	var rssT, rss, tss float64
	meanY := stat.Mean(y, nil)
	m.Residuals = make([]float64, n)
	for i := range u {
		d := v[i] - (m.a + m.b*u[i])
		rssT += d * d
		r := y[i] - m.curve(x[i])
		m.Residuals[i] = r
		rss += r * r
		tss += (y[i] - meanY) * (y[i] - meanY)
	}
	m.s = math.Sqrt(rssT / float64(n-2))
	m.Leverage = make([]float64, n)
	for i, ui := range u {
		m.Leverage[i] = 1/float64(n) + (ui-m.meanU)*(ui-m.meanU)/m.sxx
	}
	m.LeverageLimit = leverageLimit()
	m.HighLeverage = highLeverage(x, m.Leverage, m.LeverageLimit)
	m.R2 = 1 - rss/tss
	if tss == 0 {
		m.R2 = 1 // every y the same: the flat line fits exactly
	}
	seB := m.s / math.Sqrt(m.sxx)
	seA := m.s * math.Sqrt(1/float64(n)+m.meanU*m.meanU/m.sxx)
	switch name {
	case Linear:
		m.Formula = "y = a + b·x"
		m.Params = []Param{{"a", m.a, seA}, {"b", m.b, seB}}
	case LogLinear:
		m.Formula = "y = a + b·ln(x)"
		m.Params = []Param{{"a", m.a, seA}, {"b", m.b, seB}}
	case Power:
		c := math.Exp(m.a)
		m.Formula = "y = c·x^k"
		// Delta method: se(c) = c·se(ln c).
		m.Params = []Param{{"c", c, c * seA}, {"k", m.b, seB}}
	default:
		return nil, fmt.Errorf("unknown model %q (want linear, loglinear or power)", name)
	}
	switch {
	case seB > 0:
		t := math.Abs(m.b / seB)
		m.SlopeP = 2 * (1 - distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 2)}.CDF(t))
	case m.b == 0:
		m.SlopeP = 1
	}
	if !finite(m.a, m.b, m.s, m.R2, seA, seB, m.Params[0].Value, m.Params[0].StdErr) {
		return nil, fmt.Errorf("%s fit overflows on these values", name)
	}
	lo, hi := minMax(x)
	// None where it is not a number, or overflows: sizes spanning a sliver
	// of a doubling extrapolate to one (FuzzThroughput).
	if l := m.lossPerDoubling(lo, hi); finite(l) {
		m.LossPerDoubling = &l
	}
	return m, nil
}

// curve is the fitted y at x.
func (m *Model) curve(x float64) float64 {
	v := m.a + m.b*transformX(m.Name, x)
	if m.Name == Power {
		return math.Exp(v)
	}
	return v
}

// Curve is the fitted y at x (for drawing the model).
func (m *Model) Curve(x float64) float64 { return m.curve(x) }

func (m *Model) lossPerDoubling(lo, hi float64) float64 {
	if m.Name == Power {
		return 1 - math.Pow(2, m.b)
	}
	y0, y1 := m.curve(lo), m.curve(hi)
	if lo <= 0 || hi <= lo || y0 <= 0 || y1 <= 0 {
		return math.NaN()
	}
	return 1 - math.Pow(y1/y0, 1/math.Log2(hi/lo))
}

// Predict gives the fitted y at x and its 95 % prediction interval.
func (m *Model) Predict(x float64) Prediction {
	u := transformX(m.Name, x)
	v := m.a + m.b*u
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m.n - 2)}.Quantile(0.5 + (1-Alpha)/2)
	se := m.s * math.Sqrt(1+1/float64(m.n)+(u-m.meanU)*(u-m.meanU)/m.sxx)
	p := Prediction{X: x, Y: v, Lo: v - t*se, Hi: v + t*se}
	if m.Name == Power {
		p.Y, p.Lo, p.Hi = math.Exp(p.Y), math.Exp(p.Lo), math.Exp(p.Hi)
	}
	return p
}

// FitAll fits every model, adds the leave-last-out check and, when
// predictAt > 0, the prediction there. Models that cannot be fitted are
// left out and their reason returned as warnings.
func FitAll(x, y []float64, predictAt float64) ([]*Model, []string) {
	var models []*Model
	var warnings []string
	for _, name := range ModelNames {
		m, err := Fit(name, x, y)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		m.LeaveLastOut = leaveLastOut(name, x, y)
		if m.LeaveLastOut != nil {
			e := m.LeaveLastOut.Error
			m.LeaveLastOutError = &e
		}
		if predictAt > 0 {
			if p := m.Predict(predictAt); finite(p.Y, p.Lo, p.Hi) {
				m.Prediction = &p
			} else {
				warnings = append(warnings, fmt.Sprintf("%s: no prediction at %g (overflow)", name, predictAt))
			}
		}
		models = append(models, m)
	}
	if len(models) == 0 && len(warnings) == len(ModelNames) {
		// Every model refused the points for one reason (a single size):
		// said once.
		cause := strings.TrimPrefix(warnings[0], ModelNames[0]+": ")
		same := true
		for i, w := range warnings {
			same = same && w == ModelNames[i]+": "+cause
		}
		if same {
			warnings = []string{"no model fitted: " + cause}
		}
	}
	return models, warnings
}

// leaveLastOut refits without the point(s) at the largest x and predicts
// there; nil when fewer than 3 points would remain.
func leaveLastOut(name string, x, y []float64) *Holdout {
	_, hi := minMax(x)
	var xs, ys []float64
	var actual float64
	var k int
	for i := range x {
		if x[i] == hi {
			actual += y[i]
			k++
			continue
		}
		xs = append(xs, x[i])
		ys = append(ys, y[i])
	}
	m, err := Fit(name, xs, ys)
	if err != nil || m.n < 3 {
		return nil
	}
	actual /= float64(k)
	p := m.Predict(hi)
	if actual == 0 || !finite(p.Y, p.Lo, p.Hi) {
		return nil
	}
	return &Holdout{Prediction: p, Actual: actual, Error: (p.Y - actual) / actual,
		Inside: actual >= p.Lo && actual <= p.Hi}
}

// finite reports whether every value can be written in JSON.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func minMax(x []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo = math.Min(lo, v)
		hi = math.Max(hi, v)
	}
	return lo, hi
}

// BestModel is the model with the highest R² (nil when none).
func BestModel(models []*Model) *Model {
	var best *Model
	for _, m := range models {
		if best == nil || m.R2 > best.R2 {
			best = m
		}
	}
	return best
}
