package analyze

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// Load is the load speed of a series of databases: how fast the loader
// filled each one, from its size and load time, in MiB/s (the seed
// article's "MB/s" count 1024 MB per GB: 9.04 GiB in 2535 s = 3.65
// MiB/s), and whether that speed changes with size.
type Load struct {
	Summary Summary `json:"summary"` // of the speeds, MiB/s
	// MedianLo and MedianHi bound the 95 % interval of the median speed
	// (null with fewer than 6 databases).
	MedianLo *float64 `json:"median_lo"`
	MedianHi *float64 `json:"median_hi"`
	// TrendPerDoubling is the change of speed each time the size doubles,
	// as a fraction of the median speed (fit speed = a + b·ln size), and
	// TrendP the t-test's p on b. Both null when there is no test (fewer
	// than 3 points, a zero median; NoTest says why): one load step read
	// "+0.0 % per doubling (not significant, p<0.001)".
	TrendPerDoubling *float64 `json:"trend_per_doubling"`
	TrendP           *float64 `json:"trend_p"`
	Trend            bool     `json:"trend"` // the slope differs from zero at Alpha
	NoTest           string   `json:"-"`
	// HighLeverage lists the sizes whose leverage in that fit is above
	// LeverageLimit: one far database (1.77 TiB beside eleven of 9 to 30
	// GiB, leverage 0.929) sets the slope alone, and the verdict says so.
	HighLeverage  []LeveragePoint `json:"high_leverage"`
	LeverageLimit float64         `json:"leverage_limit"`
	Test          string          `json:"test"`
	Verdict       string          `json:"verdict"`
}

// loadColumns are the table columns a load analysis reads.
type loadColumns struct {
	t                 *parse.Table
	size, time, speed int
	notices           []parse.Notice // the rows left out, and why
}

func newLoadColumns(t *parse.Table, size, time, speed int) *loadColumns {
	return &loadColumns{t: t, size: size, time: time, speed: speed}
}

// LoadSpeedMiBps is bytes/seconds in MiB/s (1024² bytes per second).
func LoadSpeedMiBps(bytes, seconds float64) float64 { return bytes / (1 << 20) / seconds }

func (lc *loadColumns) analyse() (*Series, error) {
	t := lc.t
	sc := t.Columns[lc.size]
	s := &Series{Name: "load speed", Unit: strp("MiB/s")}
	skip := func(r int, msg string) {
		lc.notices = append(lc.notices, parse.Notice{File: t.File, Line: t.Rows[r].Line, Msg: msg})
	}
	for r := range t.Rows {
		size := sc.Values[r]
		var mbps float64
		other := lc.speed
		switch {
		case lc.time >= 0:
			other = lc.time
			tc := t.Columns[lc.time]
			mbps = LoadSpeedMiBps(size*sc.Unit.Factor, tc.Values[r]*tc.Unit.Factor)
			if tc.Values[r] <= 0 {
				mbps = math.NaN()
				// (a load of no time or less has no speed)
				if size > 0 {
					skip(r, fmt.Sprintf("%s %q is no load time (0 or less): row skipped", tc.Name, t.Text(r, lc.time)))
				}
			}
		default:
			spc := t.Columns[lc.speed]
			mbps = spc.Values[r] * spc.Unit.Factor / (1 << 20)
		}
		// A cell that is not a number was said by the reader; an empty
		// one beside a figure is said here.
		switch {
		case emptyCell(t.Text(r, lc.size)) && !emptyCell(t.Text(r, other)):
			skip(r, fmt.Sprintf("column %q: empty cell; row skipped", sc.Name))
		case !emptyCell(t.Text(r, lc.size)) && emptyCell(t.Text(r, other)):
			skip(r, fmt.Sprintf("column %q: empty cell; row skipped", t.Columns[other].Name))
		}
		if beyondBytes(size * sc.Unit.Factor) {
			skip(r, beyondBytesRow(sc.Name, t.Text(r, lc.size)))
			continue
		}
		if size <= 0 {
			skip(r, fmt.Sprintf("%s %q %s: row skipped", sc.Name, t.Text(r, lc.size), noSizeMsg))
			continue
		}
		if !finite(size, mbps) {
			continue
		}
		x := size
		s.Points = append(s.Points, Point{X: &x, Y: mbps, Source: fmt.Sprintf("%s:%d", t.File, t.Rows[r].Line)})
	}
	if len(s.Points) == 0 {
		return nil, fmt.Errorf("%s:%d: no row has both a size and a load time", t.File, t.Line)
	}
	s.describe()
	x := make([]float64, len(s.Points))
	y := make([]float64, len(s.Points))
	for i, p := range s.Points {
		x[i], y[i] = *p.X, p.Y
	}
	l, err := LoadTrend(x, y, sc.Unit)
	if err != nil {
		s.Warnings = append(s.Warnings, err.Error())
	}
	s.Load = l
	return s, nil
}

// LoadTrend summarises load speeds y (MiB/s) over sizes x (in unit) and
// tests for a trend with a t-test on the slope of y = a + b·ln x. A slope
// the test cannot tell from zero is "no significant trend", not "no
// trend": four databases at +14.7 % per doubling (p=0.122) are too few to
// rule one out.
func LoadTrend(x, y []float64, unit parse.Unit) (*Load, error) {
	l := &Load{Summary: Summarize(y), HighLeverage: []LeveragePoint{},
		Test: "t-test on the slope of speed = a + b·ln(size), alpha 0.05"}
	l.MedianLo, l.MedianHi = fp(l.Summary.Lo), fp(l.Summary.Hi)
	g := units.Sig3
	span := fmt.Sprintf("%s–%s MiB/s (median %s)", g(l.Summary.Min), g(l.Summary.Max), g(l.Summary.Median))
	if l.MedianLo != nil {
		span = fmt.Sprintf("median %s MiB/s (95 %% interval %s–%s; all %s–%s)",
			g(l.Summary.Median), g(l.Summary.Lo), g(l.Summary.Hi), g(l.Summary.Min), g(l.Summary.Max))
	}
	m, err := Fit(LogLinear, x, y)
	if err != nil {
		l.NoTest = err.Error()
		l.Verdict = fmt.Sprintf("median load speed %s MiB/s; no trend test: %v", g(l.Summary.Median), err)
		return l, err
	}
	l.HighLeverage, l.LeverageLimit = m.HighLeverage, m.LeverageLimit
	se := m.Params[1].StdErr
	tstat := m.b / se
	p := 2 * (1 - distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m.n - 2)}.CDF(math.Abs(tstat)))
	perDoubling := m.b * math.Ln2 / l.Summary.Median
	if !finite(perDoubling, p) {
		l.NoTest = "the median speed is zero"
		l.Verdict = fmt.Sprintf("load speed %s; no trend test on a zero median", span)
		return l, fmt.Errorf("load speeds: median is zero")
	}
	l.TrendP, l.TrendPerDoubling = &p, &perDoubling
	l.Trend = p <= Alpha
	if l.Trend {
		l.Verdict = fmt.Sprintf("load speed %s changes with size: %s per doubling (%s)",
			span, signedPct(perDoubling), pText(p))
	} else {
		l.Verdict = fmt.Sprintf("load speed %s, no significant trend over size (%s per doubling, %s)",
			span, signedPct(perDoubling), pText(p))
	}
	if w := l.LeverageWords(unit); w != "" {
		l.Verdict += "; " + w
	}
	return l, nil
}

// SetBy is the one far size that sets the slope alone, nil when no
// point, or more than one, is above the limit (the two ends of four sizes
// both are: that is the few sizes' doing, which n and p say).
func (l *Load) SetBy() *LeveragePoint {
	if len(l.HighLeverage) != 1 {
		return nil
	}
	return &l.HighLeverage[0]
}

// LeverageWords says SetBy in words: "the 1.77 TiB point has leverage
// 0.929 (above 0.5): it alone sets the slope"; "" without one.
func (l *Load) LeverageWords(unit parse.Unit) string {
	p := l.SetBy()
	if p == nil {
		return ""
	}
	return fmt.Sprintf("the %s point has leverage %s (above %s): it alone sets the slope",
		formatX(p.X, unit), units.Figure(p.Leverage), strconv.FormatFloat(l.LeverageLimit, 'g', -1, 64))
}
