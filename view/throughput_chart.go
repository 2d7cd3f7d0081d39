package view

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/plot"
)

// CurvePoints is how many points a fitted curve is drawn with.
const CurvePoints = 80

// throughputCharts draws the charts of a throughput result (one a unit
// when its series' units differ), their labels written as the tables
// write the same figures (sizes in IEC units, ratios other / base); name
// goes into the titles and the file names.
func throughputCharts(r *analyze.Result, name string) ([]*plot.Chart, error) {
	// Series of different units (tps and qps, tps and latency_ms) on one
	// y axis would share a scale and a name that fits none: a chart each,
	// the first's as if alone, the others' named after their series.
	parts := byUnit(r)
	if parts == nil {
		parts = []*analyze.Result{r}
	}
	var out []*plot.Chart
	for i, p := range parts {
		if len(parts) > 1 && p.Mode == analyze.ModeAB && !comparesAny(p) {
			continue // (its configurations table says so)
		}
		c, err := throughputChart(p, name, i > 0)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			c.Name = plot.SafeName(name + "-" + deref(p.Y))
		}
		out = append(out, c)
	}
	return out, nil
}

// throughputChart draws the chart of r; the title of a sweep names its
// y when named (the series of a second unit of a table), and a
// degradation's names its y when it is a time, not a throughput.
func throughputChart(r *analyze.Result, name string, named bool) (*plot.Chart, error) {
	var c *plot.Chart
	var err error
	switch r.Mode {
	case analyze.ModeDegradation:
		what := "Throughput"
		if r.Y != nil && slices.ContainsFunc(r.Series, func(s *analyze.Series) bool { return s.LowerIsBetter }) {
			what = *r.Y // (a latency is not a throughput)
		}
		v := &tput{r: r}
		against := "database size"
		if !v.sizeX() {
			against = deref(r.X) // (as the axis: SizeThroughputChart)
		}
		// Every measurement at one size: a dot against an empty log axis
		// reads as a trend chart with nothing in it (the series table
		// and "no model fitted" say what there is).
		if x, one := oneX(r); one {
			return nil, fmt.Errorf("every measurement is at one %s (%s): a chart against it needs two or more", against, v.x(x).Human())
		}
		c, err = plot.SizeThroughputChart(SizeThroughputChart(r, what+" vs "+against+": "+name))
	case analyze.ModeSweep:
		what := "Sweep: "
		if named {
			what = "Sweep of " + deref(r.Y) + ": "
		}
		c, err = plot.SweepChart(SweepChart(r, what+name))
	case analyze.ModeAB:
		if !comparesAny(r) {
			// (the configurations table says so too)
			return nil, errors.New("one configuration, nothing to compare")
		}
		what := "A/B: "
		if named {
			what = "A/B of " + deref(r.Y) + ": "
		}
		c, err = plot.ABChart(ABChart(r, what+name))
	case analyze.ModeLoad:
		c, err = plot.LoadSpeedChart(LoadSpeedChart(r, "Load speed per database: "+name))
	default:
		return nil, fmt.Errorf("no chart for throughput mode %q", r.Mode)
	}
	if err != nil {
		return nil, err
	}
	c.Name = plot.SafeName(name)
	return c, nil
}

// comparesAny says whether a series of r compares configurations.
func comparesAny(r *analyze.Result) bool {
	return slices.ContainsFunc(r.Series, func(s *analyze.Series) bool { return len(s.AB) > 0 })
}

// oneX says whether every measured point of r is at one x (that x), or
// there is none.
func oneX(r *analyze.Result) (float64, bool) {
	var first *float64
	for _, s := range r.Series {
		for _, p := range s.Points {
			switch {
			case p.X == nil:
			case first == nil:
				first = p.X
			case *p.X != *first:
				return 0, false
			}
		}
	}
	if first == nil {
		return 0, false // (the axis' own error says it)
	}
	return *first, true
}

// byUnit splits a degradation or a sweep whose series are of different
// units into results of the same analysis, one a unit in the order the
// series come; nil when its series share one unit.
func byUnit(r *analyze.Result) []*analyze.Result {
	if r.Mode != analyze.ModeDegradation && r.Mode != analyze.ModeSweep && r.Mode != analyze.ModeAB {
		return nil
	}
	var units []string
	for _, s := range r.Series {
		if u := deref(s.Unit); !slices.Contains(units, u) {
			units = append(units, u)
		}
	}
	if len(units) < 2 {
		return nil
	}
	var out []*analyze.Result
	for _, u := range units {
		var ss []*analyze.Series
		var names []string
		for _, s := range r.Series {
			if deref(s.Unit) == u {
				ss = append(ss, s)
				names = append(names, s.Name)
			}
		}
		// Named as the analysis names y: by its column, or by the unit
		// its columns share.
		y := names[0]
		if len(ss) > 1 {
			y = u
			if u == "" {
				y = plot.Ellipsis(strings.Join(names, ", "), 40)
			}
		}
		c := *r
		c.Series, c.Y, c.YUnit = ss, &y, nil
		if u != "" {
			c.YUnit = &u
		}
		out = append(out, &c)
	}
	return out
}

func seriesXY(s *analyze.Series) plot.Series {
	ps := plot.Series{Name: s.Name}
	unsteady := false
	for _, p := range s.Points {
		if p.X == nil {
			continue
		}
		ps.X = append(ps.X, *p.X)
		ps.Y = append(ps.Y, p.Y)
		u := p.Steady != nil && !*p.Steady
		ps.Unsteady = append(ps.Unsteady, u)
		unsteady = unsteady || u
	}
	if !unsteady {
		ps.Unsteady = nil
	}
	return ps
}

// SizeThroughputChart is the size vs throughput chart of a degradation:
// the measured points, every fitted model (each series' best one when
// there are several series) sampled on a log grid from the smallest size
// to the largest or the predicted one, the best model's prediction with
// its interval, the knee and the points of high leverage.
func SizeThroughputChart(r *analyze.Result, title string) plot.SizeThroughput {
	v := &tput{r: r}
	d := plot.SizeThroughput{Title: title, XUnit: deref(r.XUnit), YLabel: v.yTitle()}
	if !v.sizeX() {
		// (--mode degradation over a sweep's setting: the text reads
		// "tpmC against page_buffers", and so does the axis)
		d.XLabel = v.xTitle()
	}
	for _, s := range r.Series {
		ps := seriesXY(s)
		d.Series = append(d.Series, ps)
		if len(ps.X) == 0 {
			continue
		}
		lo, hi := ps.X[0], ps.X[0]
		for _, x := range ps.X {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		if r.PredictAt != nil {
			hi = math.Max(hi, *r.PredictAt)
		}
		models := s.Models
		if len(r.Series) > 1 {
			// Several series: only each one's best fit, or the legend
			// outgrows the chart.
			models = nil
			if b := analyze.BestModel(s.Models); b != nil {
				models = []*analyze.Model{b}
			}
		}
		b := analyze.BestModel(s.Models)
		bestFit := -1
		for _, m := range models {
			if m == b {
				bestFit = len(d.Fits)
			}
			c := plot.Curve{Name: fmt.Sprintf("%s fit, R² %s", m.Name, Num(m.R2).Human()), Of: s.Name}
			if !(m.SlopeP <= analyze.Alpha) {
				// The text's "no degradation the noise could not
				// explain": drawn faint, and the legend says why.
				c.Faint = true
				c.Name += ", not significant (" + pEq(m.SlopeP) + ")"
			}
			if len(r.Series) > 1 {
				c.Name = s.Name + ": " + c.Name
			}
			to := hi
			if m.NoLossPerDoubling != nil {
				// Sizes within a doubling and a slope the noise explains:
				// the text withholds its loss per doubling and its
				// prediction, and the chart does not draw it past the
				// sizes either.
				to = slices.Max(ps.X)
			}
			if lo > 0 {
				for i := range CurvePoints {
					x := lo * math.Pow(to/lo, float64(i)/float64(CurvePoints-1))
					c.X = append(c.X, x)
					c.Y = append(c.Y, m.Curve(x))
				}
			}
			d.Fits = append(d.Fits, c)
		}
		if b != nil && b.Prediction != nil {
			// Each series' prediction, as the headline states them, in
			// the colour of the fit it was read from.
			p := b.Prediction
			interval := strings.Replace(intervalWords(p), "95 % interval", "95 %:", 1)
			if p.Exact() {
				// "95 %: 700–700" would claim a certainty; the headline's
				// caveat says why (a legend has no room for it).
				interval = "exact fit"
			}
			pr := plot.Prediction{Point: plot.Point{X: p.X, Y: p.Y, Label: fmt.Sprintf("%s at %s: %s (%s)",
				b.Name, r.FormatX(p.X), Num(p.Y).Human(), interval)},
				Interval: &plot.Interval{Lo: p.Lo, Hi: p.Hi}, Fit: bestFit, Of: s.Name}
			switch {
			case p.Uninformative:
				// (its whisker would scale the axis past every measurement)
				pr.Interval = nil
			case p.NoLowerBound:
				pr.Interval.Lo = 0
			}
			if len(r.Series) > 1 {
				pr.Label = s.Name + ": " + pr.Label
			}
			d.Predictions = append(d.Predictions, pr)
		}
		if k := s.Knee; k != nil && d.Knee == nil {
			at := k.At
			d.Knee = &at
			d.KneeLabel = kneeLabel(r, k)
		}
		if b != nil && len(r.Series) == 1 {
			for _, h := range b.HighLeverage {
				for i, x := range ps.X {
					if x == h.X {
						d.HighLeverage = append(d.HighLeverage, plot.Point{X: x, Y: ps.Y[i],
							Label: fmt.Sprintf("leverage %s in the %s fit: %s", Num(h.Leverage).Human(), b.Name, r.FormatX(x))})
						break
					}
				}
			}
		}
	}
	return d
}

// kneeLabel is the cliff test's answer beside its line: "16.0 GiB:
// cliff, -29.5 %", "16.0 GiB: no cliff (+0.8 %, p=0.541)".
func kneeLabel(r *analyze.Result, k *analyze.Knee) string {
	at := r.FormatX(k.At)
	if k.Cliff {
		return fmt.Sprintf("%s: cliff, %s", at, Change(k.StepFraction).Human())
	}
	return fmt.Sprintf("%s: no cliff (%s, %s)", at, Change(k.StepFraction).Human(), pEq(k.P))
}

// SweepChart is the sweep chart: every series and its best setting;
// where settings were run several times, the line joins their medians,
// every run is a dot, their range a whisker, and the settings the text
// calls not told apart from the best (or, one run a setting, as good
// within the assumed noise) are marked "~", the legend in its words.
func SweepChart(r *analyze.Result, title string) plot.Sweep {
	v := &tput{r: r}
	d := plot.Sweep{Title: title, XLabel: v.xTitle(), YLabel: v.yTitle()}
	for _, s := range r.Series {
		d.Series = append(d.Series, seriesXY(s))
		var sets []plot.SweepSetting
		if s.Sweep != nil {
			near := map[float64]bool{}
			for _, x := range s.Sweep.WithinNoise {
				// (one the test could not tell for too few runs is
				// unmarked: the text says too few runs)
				near[x] = !s.Sweep.TooFewRuns(x)
			}
			if len(s.Sweep.WithinNoise) > 0 {
				d.Near = "not told apart from it"
				if w := s.Sweep.NoiseWords(); w != "" {
					d.Near = "within " + w + " of it"
				}
			}
			for _, st := range s.Sweep.Settings {
				sets = append(sets, plot.SweepSetting{X: st.X, Median: st.Median, Lo: st.Min, Hi: st.Max, N: st.N, WithinNoise: near[st.X]})
			}
		}
		d.Settings = append(d.Settings, sets)
		d.LogX = d.LogX || geometric(sets)
		if s.Sweep != nil {
			d.Best = append(d.Best, plot.Point{X: s.Sweep.Best.X, Y: s.Sweep.Best.Median, Label: s.Name})
			// (the name shortened, not the figure: the mark's text is cut
			// at 32 runes, and a long series name cut the median off)
			d.BestText = append(d.BestText, plot.Ellipsis(s.Name, 22)+" "+Num(s.Sweep.Best.Median).Human())
		}
	}
	return d
}

// TopBars bounds the bars of an A/B or load speed chart: a table of
// thousands of configurations or databases would take minutes to draw
// and could not be read. The tables list them all.
const TopBars = 30

// ABChart is the A/B chart of the first series: the baseline's and each
// configuration's median, every run and the range of the runs, each bar
// labelled with the ratio and change against the baseline and the
// direction, as the ab table has them; a change a test finds within the
// noise is marked "~" (the text's "not significant"); a run not steady
// by its own verdict is a hollow dot, as the warnings name it. Beyond TopBars,
// the configurations of the biggest changes are kept, in their order,
// and the title says so.
func ABChart(r *analyze.Result, title string) plot.AB {
	d := plot.AB{Title: title, YLabel: (&tput{r: r}).yTitle()}
	// The first series that compares: one before it with a single
	// configuration (a file of its own) has no bar to set beside it.
	i := slices.IndexFunc(r.Series, func(s *analyze.Series) bool { return len(s.AB) > 0 })
	if i < 0 {
		return d
	}
	s := r.Series[i]
	if others := slices.ContainsFunc(r.Series[i+1:], func(o *analyze.Series) bool { return len(o.AB) > 0 }); others {
		// (the bars are one series': the title says which)
		d.Title += fmt.Sprintf(" (%s; the other series in the table)", s.Name)
	}
	first := s.AB[0]
	ab := s.AB
	if len(ab) > TopBars-1 {
		ab = keepBiggest(ab, TopBars-1, func(e analyze.ABEntry) float64 { return math.Abs(e.Change) })
		d.Title += fmt.Sprintf(" (the %d biggest changes of %d configurations)", len(ab), len(s.AB))
	}
	// (a configuration's runs are its points in their order, as
	// Summary.Values keeps them)
	unsteady := map[string][]bool{}
	anyUnsteady := false
	for _, p := range s.Points {
		u := p.Steady != nil && !*p.Steady
		unsteady[p.Label] = append(unsteady[p.Label], u)
		anyUnsteady = anyUnsteady || u
	}
	side := func(label string, sm analyze.Summary) {
		d.Runs = append(d.Runs, sm.Values)
		if anyUnsteady {
			us := unsteady[label]
			if len(us) != len(sm.Values) {
				us = nil
			}
			d.Unsteady = append(d.Unsteady, us)
		}
		iv := plot.Interval{}
		if sm.N > 1 {
			iv = plot.Interval{Lo: sm.Min, Hi: sm.Max}
		}
		d.Spreads = append(d.Spreads, iv)
	}
	d.Names = append(d.Names, first.Baseline)
	d.Values = append(d.Values, first.Before.Median)
	d.Deltas = append(d.Deltas, 0)
	d.Labels = append(d.Labels, Num(first.Before.Median).Human()+"\nbaseline")
	d.NotSignificant = append(d.NotSignificant, false)
	side(first.Baseline, first.Before)
	for _, e := range ab {
		d.Names = append(d.Names, e.Label)
		d.Values = append(d.Values, e.After.Median)
		d.Deltas = append(d.Deltas, e.Change*100)
		word := e.Words()
		similar := e.Comparison.P != nil && !e.Comparison.Significant
		switch {
		case similar && e.Comparison.TooFewRuns():
			word = "~ too few runs to tell" // (as the verdict says)
		case similar:
			word = "~ not significant"
		}
		d.Labels = append(d.Labels, fmt.Sprintf("%s\n%s, %s\n%s", Num(e.After.Median).Human(), Ratio(e.Ratio).Human(), Change(e.Change).Human(), word))
		d.NotSignificant = append(d.NotSignificant, similar)
		side(e.Label, e.After)
	}
	return d
}

// keepBiggest keeps the n elements of xs with the biggest key (NaN the
// smallest), in their order.
func keepBiggest[T any](xs []T, n int, key func(T) float64) []T {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	k := func(i int) float64 {
		if v := key(xs[i]); !math.IsNaN(v) {
			return v
		}
		return math.Inf(-1)
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(k(b), k(a)) })
	idx = idx[:n]
	slices.Sort(idx)
	out := make([]T, 0, n)
	for _, i := range idx {
		out = append(out, xs[i])
	}
	return out
}

// LoadSpeedChart is the load speed chart: each database's speed against
// its size on a log axis (one bar per database when the sizes are not
// known), and the median speed. Beyond TopBars databases, the slowest
// are kept, in their order, and the title says so.
func LoadSpeedChart(r *analyze.Result, title string) plot.LoadSpeed {
	d := plot.LoadSpeed{Title: title, Unit: deref(r.YUnit), XUnit: deref(r.XUnit)}
	if len(r.Series) == 0 {
		return d
	}
	s := r.Series[0]
	v := &tput{r: r}
	type bar struct {
		name string
		v    float64
		size *float64
	}
	var bars []bar
	for i, p := range s.Points {
		name := fmt.Sprintf("#%d", i+1)
		if p.X != nil {
			name = v.x(*p.X).Human()
		}
		bars = append(bars, bar{name, p.Y, p.X})
	}
	if len(bars) > TopBars {
		d.Title += fmt.Sprintf(" (the %d slowest of %d)", TopBars, len(bars))
		bars = keepBiggest(bars, TopBars, func(b bar) float64 { return -b.v })
	}
	for _, b := range bars {
		d.Names = append(d.Names, b.name)
		d.Values = append(d.Values, b.v)
		if b.size != nil {
			d.Sizes = append(d.Sizes, *b.size)
		}
	}
	if s.Load != nil {
		m := s.Load.Summary.Median
		d.Median = &m
	}
	return d
}

// geometric tells settings that grow by doubling or more at each step
// (page buffers 64, 256, 1024…), which a log axis spaces evenly; three
// settings at least.
func geometric(sets []plot.SweepSetting) bool {
	if len(sets) < 3 {
		return false
	}
	for i, st := range sets {
		if !(st.X > 0) || i > 0 && st.X < 2*sets[i-1].X {
			return false
		}
	}
	return true
}
