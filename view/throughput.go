package view

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/fbdiag/fbdiag/analyze"
)

// PointsLimit bounds the measurements text, markdown and HTML show of a
// throughput analysis (CSV and --all show every one).
const PointsLimit = 20

// ABHeadline is the most comparisons with a baseline that the headline
// and the verdict sentences repeat; beyond it the ab table alone says
// them.
const ABHeadline = 4

// xsOf is the x values of a series (none for named configurations).
func xsOf(s *analyze.Series) []float64 {
	var xs []float64
	for _, p := range s.Points {
		if p.X != nil {
			xs = append(xs, *p.X)
		}
	}
	return xs
}

// medianOfRuns is the median of a series' measurements and what it is
// of: "1 run" or "median of N runs".
func medianOfRuns(s *analyze.Series) (float64, string) {
	ys := make([]float64, len(s.Points))
	for i, p := range s.Points {
		ys[i] = p.Y
	}
	sum := analyze.Summarize(ys)
	if sum.N > 1 {
		return sum.Median, fmt.Sprintf("median of %d runs", sum.N)
	}
	return sum.Median, "1 run"
}

// Throughput lays out a throughput analysis (fbdiag throughput, the
// report's throughput sections); name is the input as titles call it.
// Sizes are bytes cells (IEC in human formats, whole bytes in CSV), the
// baseline of an A/B comparison is the first configuration (ratio =
// other / base), and every table carries the series it belongs to, so
// that each is one rectangular CSV table.
func Throughput(r *analyze.Result, name string) *Doc {
	v := &tput{r: r}
	d := &Doc{
		Title:  fmt.Sprintf("%s (%s): %s against %s", name, r.Mode, v.yTitle(), v.xTitle()),
		Source: name,
		Main:   "points",
	}
	d.Tables = append(d.Tables, v.points())
	if r.Mode != analyze.ModeAB {
		d.Tables = append(d.Tables, v.seriesTable())
	}
	switch r.Mode {
	case analyze.ModeDegradation:
		// A table with nothing in it is left out of text, markdown and
		// HTML, and is its header row in CSV (d.Empty): a script asking
		// for --table knee gets the same columns whether or not this
		// input has a cliff test. Nothing fitted: the notes say why, not
		// six empty tables.
		// (The holdout table of no rows stays: its note says why.)
		if !slices.ContainsFunc(r.Series, func(s *analyze.Series) bool { return len(s.Models) > 0 }) {
			d.Empty = append(d.Empty, v.models(), v.params(), v.holdout(), v.prediction(), v.knee(), v.leverage())
			break
		}
		d.Tables = append(d.Tables, v.models(), v.params(), v.holdout())
		for _, t := range []*Table{v.prediction(), v.knee(), v.leverage()} {
			if len(t.Rows) > 0 {
				d.Tables = append(d.Tables, t)
			} else {
				d.Empty = append(d.Empty, t)
			}
		}
	case analyze.ModeSweep:
		d.Tables = append(d.Tables, v.settings())
	case analyze.ModeAB:
		d.Tables = append(d.Tables, v.ab())
	}
	for _, s := range r.Series {
		d.Headline = append(d.Headline, v.headline(s)...)
	}
	d.Notes = append(d.Notes, r.Warnings...)
	for _, s := range r.Series {
		for _, w := range s.Warnings {
			d.Notes = append(d.Notes, s.Name+": "+w)
		}
	}
	charts, err := throughputCharts(r, name)
	if err != nil {
		d.Notes = append(d.Notes, "chart not drawn: "+err.Error())
	}
	d.Charts = charts
	return d
}

// tput holds what every table of a throughput view needs.
type tput struct{ r *analyze.Result }

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// sized reports whether the x values are sizes.
func (v *tput) sized() bool { return v.r.XBytes() > 0 }

// sizeX says whether the x is a size or what sets one (warehouses, a
// scale), as the degradation mode is chosen: a chart over anything else
// names its x (--mode degradation over page_buffers).
func (v *tput) sizeX() bool { return v.sized() || analyze.SizeLike(deref(v.r.X)) }

// xTitle names the x axis with its unit: "size_gb (GiB)".
func (v *tput) xTitle() string { return withUnit(deref(v.r.X), deref(v.r.XUnit)) }

// yTitle names the measure with its unit: "ops_per_s (ops/s)".
func (v *tput) yTitle() string { return withUnit(deref(v.r.Y), deref(v.r.YUnit)) }

// withUnit is "name (unit)", the name alone when the unit is in it.
func withUnit(name, unit string) string {
	switch {
	case unit == "" || strings.Contains(snake(name), snake(unit)):
		return name
	case name == "":
		return unit
	}
	return name + " (" + unit + ")"
}

// xCol is the column of x values named title: sizes in bytes, else
// figures keyed by the x name and its unit.
func (v *tput) xCol(key, title string) Column {
	if v.sized() {
		return Column{Key: key + "_bytes", Title: title, Kind: BytesKind}
	}
	return Column{Key: key, Title: title, Kind: NumberKind}
}

// x is an x value as a cell: a size in bytes, else the figure. A size
// past what a byte count holds (only a prediction twice the largest
// size read can be: the analysis leaves such inputs out) is null, not a
// wrapped int64.
func (v *tput) x(x float64) Cell {
	if b := v.r.XBytes(); b > 0 {
		return bytesOf(x * b)
	}
	return Num(x)
}

// xKey is the CSV name of the x values: "size" (with _bytes) for sizes,
// else the x column's name with its unit.
func (v *tput) xKey() string {
	if v.sized() {
		return "size"
	}
	return unitKey(deref(v.r.X), deref(v.r.XUnit), "x")
}

// yCol is the column of the measured values.
func (v *tput) yCol() Column {
	return Column{Key: unitKey(deref(v.r.Y), deref(v.r.YUnit), "y"), Title: v.yTitle(), Kind: NumberKind}
}

// unitKey is a CSV column name: the name in snake case with its unit
// after it unless the name says it already ("ops_per_s",
// "load_speed_mib_per_s"); def when both are empty.
func unitKey(name, unit, def string) string {
	k, u := snake(name), snake(unit)
	switch {
	case k == "" && u == "":
		return def
	case k == "":
		return u
	case u != "" && !strings.Contains(k, u):
		return k + "_" + u
	}
	return k
}

// snake writes a name as a CSV key: lower case, "/" as "_per_", any run
// of other characters as one "_".
func snake(s string) string {
	s = strings.ReplaceAll(strings.ToLower(s), "/", " per ")
	var b strings.Builder
	under := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			under = false
			continue
		}
		under = true
	}
	return b.String()
}

// pEq writes a p-value as the verdicts do: "p=0.541", "p<0.001".
func pEq(v float64) string {
	h := P(v).Human()
	if strings.HasPrefix(h, "<") {
		return "p" + h
	}
	return "p=" + h
}

func seriesCol() Column { return Column{Key: "series", Title: "series", Max: 32} } // (as a configuration: its settings come first, "terminals=4 page_buffers=4096 ·…")

func yesNo(b bool) Cell {
	if b {
		return Str("yes")
	}
	return Str("no")
}

// flagCols are the two columns of one flag, sharing its key: yes or no
// for people, JSON's true or false in CSV.
func flagCols(key, title string) []Column {
	return []Column{{Key: key, Title: title, Human: true}, {Key: key, Title: title, Machine: true}}
}

// flagCells are a flag's cells in flagCols' columns; both null for nil.
func flagCells(p *bool) []Cell {
	if p == nil {
		return []Cell{Null(TextKind), Null(TextKind)}
	}
	return []Cell{yesNo(*p), boolCell(p)}
}

// points is every measurement: the main table, the one CSV writes.
func (v *tput) points() *Table {
	t := &Table{Name: "points", Title: "Measurements", Noun: "points", Limit: PointsLimit}
	xc := v.xCol(v.xKey(), withUnit(deref(v.r.X), deref(v.r.XUnit)))
	if v.r.Mode == analyze.ModeAB {
		xc = Column{Key: "configuration", Title: "configuration", Max: 32}
	}
	t.Columns = []Column{seriesCol(), xc, v.yCol(), {Key: "source", Title: "source"}}
	// fbdiag bench's runs say whether their window was steady; fbdiag
	// judges those that report their throughput at intervals (the
	// verdict's words in CSV, as JSON's steady_verdict; the warnings say
	// them to people).
	judged, byIntervals := false, false
	for _, s := range v.r.Series {
		for _, p := range s.Points {
			judged = judged || p.Steady != nil
			byIntervals = byIntervals || p.SteadyVerdict != ""
		}
	}
	if judged {
		t.Columns = append(t.Columns, flagCols("steady", "steady")...)
	}
	if byIntervals {
		t.Columns = append(t.Columns, Column{Key: "steady_verdict", Title: "steady verdict", Machine: true})
	}
	for _, s := range v.r.Series {
		for _, p := range s.Points {
			x := Str(p.Label)
			if v.r.Mode != analyze.ModeAB {
				x = Null(xc.Kind)
				if p.X != nil {
					x = v.x(*p.X)
				}
			}
			row := []Cell{Str(s.Name), x, Num(p.Y), Str(p.Source)}
			if judged {
				row = append(row, flagCells(p.Steady)...)
			}
			if byIntervals {
				row = append(row, Str(p.SteadyVerdict))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// repeatsX says whether a series measured some x more than once.
func repeatsX(s *analyze.Series) bool {
	seen := map[float64]bool{}
	for _, p := range s.Points {
		if p.X != nil {
			if seen[*p.X] {
				return true
			}
			seen[*p.X] = true
		}
	}
	return false
}

// seriesTable sums up each series: the change from the first to the
// last size or setting, the steps before and at the last, the best.
func (v *tput) seriesTable() *Table {
	xk := v.xKey()
	t := &Table{Name: "series", Title: "Series", Noun: "series", Columns: []Column{
		seriesCol(),
		{Key: "points", Title: "points", Kind: CountKind},
		v.xCol("first_"+xk, "first"),
		v.xCol("last_"+xk, "last"),
		{Key: "first_to_last_change", Title: "first→last", Kind: ChangeKind},
		{Key: "to_next_to_last_change", Title: "first→next-to-last", Kind: ChangeKind},
		{Key: "last_step_ratio", Title: "last step", Kind: RatioKind},
		v.xCol("best_"+xk, "best at"),
		{Key: "best_" + v.yCol().Key, Title: "best", Kind: NumberKind},
	}}
	if slices.ContainsFunc(v.r.Series, repeatsX) {
		// The best is one run (analyze.Series.Best); where runs repeat a
		// setting, the sweep's best is a median, and may be another.
		t.Columns[7].Title, t.Columns[8].Title = "best run at", "best run"
		t.Notes = append(t.Notes, "best run: the single best measurement; the changes compare medians")
	}
	for _, s := range v.r.Series {
		first, last := Null(t.Columns[2].Kind), Null(t.Columns[3].Kind)
		if xs := xsOf(s); len(xs) > 0 {
			first, last = v.x(slices.Min(xs)), v.x(slices.Max(xs))
		}
		upTo, lastStep := Null(ChangeKind), Null(RatioKind)
		if st := s.UpToLastStep; st != nil {
			upTo = Change(st.Change)
		}
		if st := s.LastStep; st != nil {
			lastStep = Ratio(st.Ratio)
		}
		bestX, bestY := Null(t.Columns[7].Kind), Null(NumberKind)
		if b := s.Best; b != nil {
			bestY = Num(b.Y)
			if b.X != nil {
				bestX = v.x(*b.X)
			}
		}
		t.Rows = append(t.Rows, []Cell{Str(s.Name), Int(int64(len(s.Points))), first, last,
			ChangeP(s.FirstToLastChange), upTo, lastStep, bestX, bestY})
	}
	half := "×0.5 is half the throughput"
	if !slices.ContainsFunc(v.r.Series, func(s *analyze.Series) bool { return !s.LowerIsBetter }) {
		half = "×2 is twice the time" // (latencies or restore times only)
	}
	t.Notes = append(t.Notes, "last step: the last median over the one before it ("+half+"); "+
		"first→next-to-last leaves a far last point out")
	for _, s := range v.r.Series {
		if l := s.Load; l != nil {
			t.Notes = append(t.Notes, l.Verdict, "test: "+l.Test)
			if m := analyze.MedianIntervalMethod(l.Summary.N); m != "" {
				// (how the median's 95 % interval is made, to reproduce it)
				t.Notes = append(t.Notes, "95 % interval of the median: "+m)
			}
		}
	}
	return t
}

// models lists the fits of each degradation series.
func (v *tput) models() *Table {
	t := &Table{Name: "models", Title: "Models", Noun: "models", Columns: []Column{
		seriesCol(),
		{Key: "model", Title: "model"},
		{Key: "formula", Title: "formula"},
		{Key: "r2", Title: "R²", Kind: NumberKind},
		{Key: "slope_p", Title: "slope p", Kind: PKind},
		{Key: "loss_per_doubling_share", Title: "lost per doubling", Kind: ShareKind},
		// (why a loss is withheld: the notes say it to a reader)
		{Key: "no_loss_per_doubling", Title: "", Machine: true},
	}}
	var withheld []string
	for _, s := range v.r.Series {
		who := ""
		if len(v.r.Series) > 1 {
			who = s.Name + " "
		}
		for _, m := range s.Models {
			t.Rows = append(t.Rows, []Cell{Str(s.Name), Str(m.Name), Str(m.Formula), Num(m.R2), P(m.SlopeP), ShareP(m.LossPerDoubling), Str(deref(m.NoLossPerDoubling))})
			if m.NoLossPerDoubling != nil {
				withheld = append(withheld, who+m.Name+": lost per doubling withheld: "+*m.NoLossPerDoubling)
			}
		}
		b := analyze.BestModel(s.Models)
		if b == nil {
			continue
		}
		who = ""
		if len(v.r.Series) > 1 {
			who = s.Name + ": "
		}
		t.Notes = append(t.Notes, fmt.Sprintf("%sbest fit by R²: %s (%s)", who, b.Name, b.Formula))
		if b.SlopeP > analyze.Alpha {
			t.Notes = append(t.Notes, fmt.Sprintf("%sthe slope of the best fit is not significant (%s): no degradation the noise could not explain",
				who, pEq(b.SlopeP)))
		}
	}
	note := "lost per doubling: the share of throughput the curve loses each time the size doubles"
	if slices.ContainsFunc(v.r.Series, func(s *analyze.Series) bool { return s.LowerIsBetter && len(s.Models) > 0 }) {
		note += "; of a time (lower is better), the share it rises"
	}
	if slices.ContainsFunc(v.r.Series, func(s *analyze.Series) bool {
		return slices.ContainsFunc(s.Models, func(m *analyze.Model) bool { return m.LossPerDoubling != nil && *m.LossPerDoubling < 0 })
	}) {
		note += "; negative: the curve improves with size"
	}
	t.Notes = append(t.Notes, note)
	t.Notes = append(t.Notes, withheld...)
	return t
}

// params lists the fitted parameters and their standard errors.
func (v *tput) params() *Table {
	t := &Table{Name: "params", Title: "Parameters", Noun: "parameters", Columns: []Column{
		seriesCol(),
		{Key: "model", Title: "model"},
		{Key: "param", Title: "parameter"},
		{Key: "value", Title: "value", Kind: NumberKind},
		{Key: "stderr", Title: "std. error", Kind: NumberKind},
		// The x the curves were fitted on is in JSON's x_unit (GiB),
		// where the CSV's sizes are bytes: b = -0.154 is per GiB, not per
		// byte. Text says it in the note.
		{Key: "x_unit", Title: "x unit", Machine: true},
	}}
	unit := Null(TextKind)
	if v.r.XUnit != nil {
		unit = Str(*v.r.XUnit)
	}
	for _, s := range v.r.Series {
		for _, m := range s.Models {
			for _, p := range m.Params {
				t.Rows = append(t.Rows, []Cell{Str(s.Name), Str(m.Name), Str(p.Name), Num(p.Value), Num(p.StdErr), unit})
			}
		}
	}
	note := "power: c and k of y = c·x^k, fitted on ln y; the others a and b"
	if v.r.XUnit != nil {
		note += "; x in " + *v.r.XUnit
	}
	t.Notes = append(t.Notes, note)
	return t
}

// holdout is the leave-last-out check of every model.
func (v *tput) holdout() *Table {
	xc := v.xCol("at", "at")
	t := &Table{Name: "holdout", Title: "Leave-last-out: each model fitted without the largest size, asked for it", Noun: "models",
		Columns: []Column{
			seriesCol(),
			{Key: "model", Title: "model"},
			xc,
			{Key: "predicted", Title: "predicted", Kind: NumberKind},
			{Key: "lo", Title: "95 % from", Kind: NumberKind},
			{Key: "hi", Title: "to", Kind: NumberKind},
			{Key: "actual", Title: "actual", Kind: NumberKind},
			{Key: "error_change", Title: "error", Kind: ChangeKind},
		}}
	t.Columns = append(t.Columns, flagCols("inside", "inside")...)
	any := false
	for _, s := range v.r.Series {
		for _, m := range s.Models {
			any = any || m.LeaveLastOut != nil
		}
	}
	if !any {
		// (rows of empty cells said nothing of why)
		t.Notes = append(t.Notes, "(none: without the largest size, too few measurements remain to fit a model on: it needs 3 at 2 sizes or more)")
		return t
	}
	for _, s := range v.r.Series {
		for _, m := range s.Models {
			h := m.LeaveLastOut
			if h == nil {
				t.Rows = append(t.Rows, []Cell{Str(s.Name), Str(m.Name), Null(xc.Kind), Null(NumberKind), Null(NumberKind),
					Null(NumberKind), Null(NumberKind), Null(ChangeKind), Null(TextKind), Null(TextKind)})
				continue
			}
			t.Rows = append(t.Rows, []Cell{Str(s.Name), Str(m.Name), v.x(h.X), Num(h.Y), Num(h.Lo), Num(h.Hi), Num(h.Actual),
				Change(h.Error), yesNo(h.Inside), boolCell(&h.Inside)})
		}
	}
	t.Notes = append(t.Notes, "error: (predicted − actual) / actual; inside: the actual value is within the 95 % prediction interval")
	return t
}

// prediction is every model's prediction at the size asked for (or
// fbdiag's default); nil when there is none.
func (v *tput) prediction() *Table {
	xc := v.xCol("at", "at")
	t := &Table{Name: "prediction", Title: "Prediction", Noun: "models", Columns: []Column{
		seriesCol(),
		{Key: "model", Title: "model"},
		xc,
		{Key: "predicted", Title: "predicted", Kind: NumberKind},
		{Key: "lo", Title: "95 % from", Kind: NumberKind},
		{Key: "hi", Title: "to", Kind: NumberKind},
	}}
	if v.r.PredictAt == nil {
		return t
	}
	t.Title += " at " + v.r.FormatX(*v.r.PredictAt)
	var negative, other, unbounded, wide []string
	for _, s := range v.r.Series {
		for _, m := range s.Models {
			name := m.Name
			if len(v.r.Series) > 1 {
				name = s.Name + " " + name
			}
			if p := m.Prediction; p != nil {
				lo, hi := Num(p.Lo), Num(p.Hi)
				switch {
				case p.Uninformative:
					lo, hi = Null(NumberKind), Null(NumberKind)
					wide = append(wide, name)
				case p.NoLowerBound:
					lo = Null(NumberKind)
					unbounded = append(unbounded, name)
				}
				t.Rows = append(t.Rows, []Cell{Str(s.Name), Str(m.Name), v.x(p.X), Num(p.Y), lo, hi})
			}
			if m.NoPrediction != nil {
				t.Rows = append(t.Rows, []Cell{Str(s.Name), Str(m.Name), v.x(*v.r.PredictAt), Null(NumberKind), Null(NumberKind), Null(NumberKind)})
				if strings.Contains(*m.NoPrediction, " fit reaches 0 before ") {
					negative = append(negative, name)
				} else {
					other = append(other, name+": no prediction: "+*m.NoPrediction)
				}
			}
		}
	}
	if len(unbounded) > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%s: no lower bound: the interval's low end is at or below 0, a throughput none can be", strings.Join(unbounded, ", ")))
	}
	if len(wide) > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%s: 95 %% interval %s: it tells nothing (throughput-degradation.uninformative_interval)", strings.Join(wide, ", "), uninformative))
	}
	if len(negative) > 0 {
		// (the chart cuts such a curve at 0, "cut at 0" in its legend)
		t.Notes = append(t.Notes, fmt.Sprintf("%s: no prediction: the fitted curve reaches 0 before this size, a throughput none can be (the chart cuts it there), so it does not hold that far",
			strings.Join(negative, ", ")))
	}
	t.Notes = append(t.Notes, other...)
	if v.r.PredictDefault {
		t.Notes = append(t.Notes, fmt.Sprintf("at %s × the largest size measured, fbdiag's default (throughput-degradation.predict_factor)",
			Num(analyze.NewThresholds().Get("throughput-degradation", "predict_factor")).Human()))
	}
	t.Notes = append(t.Notes, "the 95 % prediction interval is where a new measurement at that size should fall if the curve holds")
	return t
}

// intervalWords says a prediction's 95 % interval: "95 % interval
// 158–176", "95 % interval up to 874178, no lower bound" (a low end below
// 0 is no floor: none can be), or that it is uninformative.
func intervalWords(p *analyze.Prediction) string {
	switch {
	case p.Uninformative:
		return "95 % interval " + uninformative
	case p.NoLowerBound:
		return fmt.Sprintf("95 %% interval up to %s, no lower bound", Num(p.Hi).Human())
	}
	return fmt.Sprintf("95 %% interval %s–%s", Num(p.Lo).Human(), Num(p.Hi).Human())
}

// uninformative is what an interval of Prediction.Uninformative is said
// to be instead of printed.
var uninformative = fmt.Sprintf("uninformative (wider than %s× the prediction)",
	Num(analyze.NewThresholds().Get("throughput-degradation", "uninformative_interval")).Human())

// knee is the cliff test of every series that had one.
func (v *tput) knee() *Table {
	xc := v.xCol("at", "at")
	t := &Table{Name: "knee", Title: "Cliff test", Noun: "tests", Columns: []Column{
		seriesCol(),
		xc,
		{Key: "model", Title: "trend"},
		{Key: "below", Title: "below", Kind: CountKind},
		{Key: "above", Title: "above", Kind: CountKind},
		{Key: "step", Title: "step", Kind: NumberKind},
		{Key: "step_change", Title: "of the trend", Kind: ChangeKind},
		{Key: "p", Title: "p", Kind: PKind},
	}}
	t.Columns = append(t.Columns, slices.Concat(flagCols("significant", "significant"), flagCols("cliff", "cliff"))...)
	var minCliff float64
	var test string
	for _, s := range v.r.Series {
		k := s.Knee
		if k == nil {
			continue
		}
		minCliff, test = k.MinCliff, k.Test
		t.Rows = append(t.Rows, []Cell{Str(s.Name), v.x(k.At), Str(k.Model), Int(int64(k.Below)), Int(int64(k.Above)),
			Num(k.Step), Change(k.StepFraction), P(k.P),
			yesNo(k.Significant), boolCell(&k.Significant), yesNo(k.Cliff), boolCell(&k.Cliff)})
		t.Notes = append(t.Notes, k.Verdict)
	}
	if len(t.Rows) == 0 {
		return t
	}
	t.Notes = append(t.Notes, fmt.Sprintf("cliff: a significant step for the worse of at least %s of the trend", Share(minCliff).Human()))
	if v.r.KneeDefault {
		t.Notes = append(t.Notes, fmt.Sprintf("tested at the size before the largest jump between measured sizes (at least %s ×), fbdiag's default (throughput-degradation.knee_jump)",
			Num(analyze.NewThresholds().Get("throughput-degradation", "knee_jump")).Human()))
	}
	t.Notes = append(t.Notes, "test: "+test)
	return t
}

// leverage names the points that dominate a fit or the cliff test.
func (v *tput) leverage() *Table {
	t := &Table{Name: "leverage", Title: "High leverage: points that outweigh all the others in their own fitted value", Noun: "points",
		Columns: []Column{
			seriesCol(),
			{Key: "fit", Title: "fit"},
			v.xCol(v.xKey(), "point"),
			{Key: "leverage", Title: "leverage", Kind: NumberKind},
			{Key: "limit", Title: "limit", Kind: NumberKind},
		}}
	for _, s := range v.r.Series {
		for _, m := range s.Models {
			for _, h := range m.HighLeverage {
				t.Rows = append(t.Rows, []Cell{Str(s.Name), Str(m.Name), v.x(h.X), Num(h.Leverage), Num(m.LeverageLimit)})
			}
		}
		if k := s.Knee; k != nil {
			for _, h := range k.HighLeverage {
				t.Rows = append(t.Rows, []Cell{Str(s.Name), Str("cliff test"), v.x(h.X), Num(h.Leverage), Num(k.LeverageLimit)})
			}
		}
	}
	if len(t.Rows) == 0 {
		return t
	}
	t.Notes = append(t.Notes, "the curves go through such a point whatever the other sizes say")
	return t
}

// settings is the sweep of every series: each setting against the best.
func (v *tput) settings() *Table {
	xc := v.xCol(v.xKey(), deref(v.r.X))
	t := &Table{Name: "settings", Title: "Settings against the best", Noun: "settings", Columns: []Column{
		seriesCol(),
		xc,
		{Key: "n", Title: "n", Kind: CountKind},
		{Key: "median", Title: "median", Kind: NumberKind},
		{Key: "min", Title: "min", Kind: NumberKind},
		{Key: "max", Title: "max", Kind: NumberKind},
		{Key: "vs_best_change", Title: "vs best", Kind: ChangeKind},
		{Key: "p_adjusted", Title: "p (adjusted)", Kind: PKind},
		{Key: "mark", Title: ""},
	}}
	for _, s := range v.r.Series {
		sw := s.Sweep
		if sw == nil {
			continue
		}
		for _, st := range sw.Settings {
			mark := ""
			switch {
			case st.X == sw.Best.X:
				mark = "best"
			case sw.TooFewRuns(st.X):
				mark = "too few runs"
			case slices.Contains(sw.WithinNoise, st.X) && sw.Noise != nil:
				mark = "within assumed noise"
			case slices.Contains(sw.WithinNoise, st.X):
				// (the verdict's words: a test that finds no difference
				// does not show the setting as good as the best)
				mark = "not told apart"
			}
			p := Null(PKind)
			if c := st.Compare; c != nil {
				p = PP(c.PAdjusted)
			}
			t.Rows = append(t.Rows, []Cell{Str(s.Name), v.x(st.X), Int(int64(st.N)), Num(st.Median), Num(st.Min), Num(st.Max),
				Change(st.VsBest), p, Str(mark)})
		}
		who := ""
		if len(v.r.Series) > 1 {
			who = s.Name + ": "
		}
		t.Notes = append(t.Notes, who+sw.Verdict)
	}
	var warnings []string
	tested := false
	for _, s := range v.r.Series {
		if s.Sweep == nil {
			continue
		}
		if !tested {
			t.Notes, tested = append(t.Notes, "test: "+s.Sweep.Test), true
		}
		for _, st := range s.Sweep.Settings {
			if c := st.Compare; c != nil {
				warnings = appendNew(warnings, c.Warnings)
			}
		}
	}
	t.Notes = append(t.Notes, warnings...)
	return t
}

// appendNew appends to notes the lines of ws it does not hold yet.
func appendNew(notes, ws []string) []string {
	for _, w := range ws {
		if !slices.Contains(notes, w) {
			notes = append(notes, w)
		}
	}
	return notes
}

// ab compares every configuration with the first, the baseline.
func (v *tput) ab() *Table {
	t := &Table{Name: "ab", Title: "Configurations against the first (the baseline)", Noun: "configurations", Limit: PointsLimit, Columns: []Column{
		seriesCol(),
		{Key: "configuration", Title: "configuration", Max: 32},
		{Key: "n", Title: "n", Kind: CountKind},
		{Key: "median", Title: "median", Kind: NumberKind},
		{Key: "min", Title: "min", Kind: NumberKind},
		{Key: "max", Title: "max", Kind: NumberKind},
		{Key: "spread_share", Title: "±", Kind: ShareKind},
		{Key: "ratio", Title: "ratio", Kind: RatioKind},
		{Key: "change", Title: "change", Kind: ChangeKind},
		{Key: "direction", Title: "", Machine: true},
		{Key: "direction", Title: "", Human: true}, // (the same key: CSV has the word, the others the words)
		{Key: "p_adjusted", Title: "p (adjusted)", Kind: PKind},
	}}
	var warnings []string
	for _, s := range v.r.Series {
		if len(s.AB) == 0 {
			// A row a configuration, as when there is a comparison: the
			// runs of one label are its repeats (a file of five runs is
			// one configuration of n = 5, not five of n = 1).
			labels, runs := analyze.ByLabel(s.Points)
			for _, l := range labels {
				sum := analyze.Summarize(runs[l])
				spread := Null(ShareKind) // (under 6 runs: no interval)
				if v := sum.Spread(); !math.IsNaN(v) {
					spread = Share(v)
				}
				t.Rows = append(t.Rows, []Cell{Str(s.Name), Str(l), Int(int64(sum.N)), Num(sum.Median), Num(sum.Min), Num(sum.Max), spread,
					Null(RatioKind), Null(ChangeKind), Str(""), Str(""), Null(PKind)})
			}
			if len(labels) > 1 {
				t.Notes = append(t.Notes, s.Name+": the baseline's median is 0, no ratio against it")
			} else {
				t.Notes = append(t.Notes, s.Name+": one configuration, nothing to compare")
			}
			continue
		}
		b := s.AB[0]
		t.Rows = append(t.Rows, []Cell{Str(s.Name), Str(b.Baseline), Int(int64(b.Before.N)), Num(b.Before.Median), Num(b.Before.Min),
			Num(b.Before.Max), ShareP(b.BeforeSpread), Null(RatioKind), Null(ChangeKind), Str("baseline"), Str("baseline"), Null(PKind)})
		for _, e := range s.AB {
			t.Rows = append(t.Rows, []Cell{Str(s.Name), Str(e.Label), Int(int64(e.After.N)), Num(e.After.Median), Num(e.After.Min),
				Num(e.After.Max), ShareP(e.AfterSpread), Ratio(e.Ratio), Change(e.Change), Str(e.Direction), Str(e.Words()), PP(e.Comparison.PAdjusted)})
			if len(s.AB) <= ABHeadline {
				t.Notes = append(t.Notes, e.Verdict)
			}
			warnings = appendNew(warnings, e.Comparison.Warnings)
		}
		if c := s.AB[0].Comparison; c.Tests > 1 {
			t.Notes = append(t.Notes, fmt.Sprintf("p (adjusted): %s over the %d comparisons with the baseline", c.Adjustment, c.Tests))
		}
	}
	t.Notes = append(t.Notes, "ratio: median / the baseline's median; change: (median − baseline) / baseline; ±: the 95 % interval of the median (6 runs or more)")
	t.Notes = append(t.Notes, warnings...)
	return t
}

// abDetail follows an A/B change in the headline: the ratio, the
// direction when the runs tell it or no test was possible, and the caveat
// when they do not back it ("(×1.11; too few runs to tell, p=0.100)").
func abDetail(e analyze.ABEntry) string {
	d := abFigures(e)
	if e.Unsteady > 0 {
		// (its runs' own verdict: a median of a moving throughput)
		// (of the runs judged: "1 of 4" would say the other three were
		// steady where some were not judged)
		n := e.Before.N + e.After.N
		judged := ""
		if e.Judged < n {
			judged = fmt.Sprintf(", %d judged", e.Judged)
		}
		d = strings.TrimSuffix(d, ")") + fmt.Sprintf("; %d of %d runs not steady%s)", e.Unsteady, n, judged)
	}
	return d
}

// abFigures is abDetail but for the runs' steadiness.
func abFigures(e analyze.ABEntry) string {
	caveat := e.Caveat()
	if e.LowerIsBetter {
		// (a time's "-37.2 %" is its fall: the words give the speed-up)
		if caveat == "" || e.Comparison.P == nil {
			return fmt.Sprintf("(time %s: %s%s)", Ratio(e.Ratio).Human(), e.Words(), strings.TrimSuffix("; "+caveat, "; "))
		}
		return fmt.Sprintf("(time %s; %s)", Ratio(e.Ratio).Human(), caveat)
	}
	switch {
	case caveat == "":
		return fmt.Sprintf("(%s, %s)", Ratio(e.Ratio).Human(), e.Direction)
	case e.Comparison.P == nil:
		return fmt.Sprintf("(%s, %s; %s)", Ratio(e.Ratio).Human(), e.Direction, caveat)
	}
	return fmt.Sprintf("(%s; %s)", Ratio(e.Ratio).Human(), caveat)
}

// headline gives the figures of one series a reader looks at first.
func (v *tput) headline(s *analyze.Series) []Field {
	key, label := "", ""
	if len(v.r.Series) > 1 {
		key, label = snake(s.Name)+"_", s.Name+": "
	}
	var out []Field
	group := ""
	if len(v.r.Series) > 1 {
		group = s.Name
	}
	add := func(k, l string, c Cell, detail string) {
		out = append(out, Field{Key: key + k, Label: label + l, Value: c, Detail: detail, Group: group})
	}
	xk := v.xKey()
	if v.sized() {
		xk += "_bytes"
	}
	switch {
	case s.Load != nil:
		l := s.Load
		detail := ""
		if l.MedianLo != nil && l.MedianHi != nil {
			detail = fmt.Sprintf("(95 %% interval %s–%s)", Num(*l.MedianLo).Human(), Num(*l.MedianHi).Human())
		}
		add("median_"+v.yCol().Key, "median "+v.yTitle(), Num(l.Summary.Median), detail)
		if l.TrendP == nil {
			// No test, no figure: one load step read "+0.0 % (not
			// significant, p<0.001)".
			add("load_speed_per_doubling_change", "load speed per size doubling", Str("not tested: "+l.NoTest), "")
			break
		}
		// Not significant is not "no trend": 4 databases at +14.7 % per
		// doubling (p=0.122) cannot rule one out.
		trend := "not significant"
		if l.Trend {
			trend = "a trend"
		}
		detail = fmt.Sprintf("(%s, %s)", trend, pEq(*l.TrendP))
		if h := l.SetBy(); h != nil {
			detail = fmt.Sprintf("(%s, %s; set by the %s point alone, leverage %s)",
				trend, pEq(*l.TrendP), v.x(h.X).Human(), figure(h.Leverage))
		}
		add("load_speed_per_doubling_change", "load speed per size doubling", Change(*l.TrendPerDoubling), detail)
	case s.Sweep != nil:
		sw := s.Sweep
		of := fmt.Sprintf("(median %s)", Num(sw.Best.Median).Human())
		if sw.Best.N == 1 {
			of = fmt.Sprintf("(%s, 1 run)", Num(sw.Best.Median).Human())
		}
		add("best_"+xk, "best "+deref(v.r.X), v.x(sw.Best.X), of)
		if len(sw.Settings) > 1 {
			add("worst_vs_best_share", "worst setting off the best", Share(sw.Spread), "(at "+v.x(sw.Worst.X).Human()+")")
		}
		// One run per setting: "as good" rests on an assumed noise; when
		// the settings turn back and forth by more, the headline says so.
		if sw.NoiseContradicted != nil {
			add("assumed_noise_share", "assumed noise (--noise)", Share(*sw.Noise), "(looks too small: "+sw.DipWords(v.r.XUnitInfo())+")")
			out[len(out)-1].Caveat = "the data turn by more than the noise assumed"
		}
		// A best the test could tell from none of the others is a best
		// of these runs only: the headline says so, as the table does.
		// So is one none of whose repeated runs' tests told it from the
		// others (restore-page-buffers.csv: 4096 buffers best, the four
		// others within the noise, p adjusted 0.127 to 0.841).
		if few, others := sw.TooFew(), len(sw.Settings)-1; few > 0 || others > 0 && len(sw.WithinNoise) == others {
			told := others - len(sw.WithinNoise)
			why := fmt.Sprintf("(%d with too few runs to tell)", few)
			if few == 0 {
				why = "(no difference significant after adjustment)"
			}
			add("told_apart", "settings told apart from the best", Str(fmt.Sprintf("%d of %d", told, others)), why)
			if told == 0 {
				// (the best is then a best of these runs only: the
				// report's summary shows it beside the best)
				// (with why: a CSV reader of "0 of 1" told the test could
				// not tell it, not that the others are within the noise)
				out[len(out)-1].Caveat = "no setting told apart from the best: " + strings.Trim(why, "()")
			}
		}
	case len(s.AB) > ABHeadline:
		add("configurations", "configurations compared with "+s.AB[0].Baseline, Int(int64(len(s.AB))), "(see the table)")
	case v.r.Mode == analyze.ModeAB && len(s.AB) == 0 && len(s.Points) > 0 &&
		!slices.ContainsFunc(s.Points, func(p analyze.Point) bool { return p.Label != s.Points[0].Label }):
		// One configuration: its figure is the answer, said as such (the
		// headline was empty, and the report's list of sections had
		// nothing beside "sysbench runs in folder bench").
		median, runs := medianOfRuns(s) // (the median the A/B table gives)
		key, title := "median_"+v.yCol().Key, v.yTitle()
		if v.r.YUnit == nil && len(v.r.Series) > 1 {
			// Series of different units: the series' name before it says
			// which ("tps: median"), not y's "tps, NOPM".
			key, title = "median", "median"
		}
		add(key, title, Num(median), fmt.Sprintf("(%s, %s; one configuration, nothing to compare)", s.Points[0].Label, runs))
	case v.r.Mode == analyze.ModeDegradation && len(s.Models) == 0 && len(xsOf(s)) > 0 && slices.Min(xsOf(s)) == slices.Max(xsOf(s)):
		// Every measurement at one size (one bench run): its figure is
		// the answer, said as such, as one A/B configuration's is (the
		// headline was empty).
		median, runs := medianOfRuns(s)
		x, one := v.x(xsOf(s)[0]).Human(), "size"
		if !v.sized() {
			// (scale 10, not "at 10")
			x, one = deref(v.r.X)+" "+x, deref(v.r.X)
		}
		add("median_"+v.yCol().Key, v.yTitle(), Num(median), fmt.Sprintf("(%s at %s; one %s, nothing to compare)", runs, x, one))
	case len(s.AB) > 0:
		for _, e := range s.AB {
			k := "change"
			if len(s.AB) > 1 {
				k = snake(e.Label) + "_change"
			}
			add(k, e.Label+" vs "+e.Baseline, Change(e.Change), abDetail(e))
		}
	case len(s.Models) > 0:
		detail := ""
		if xs := xsOf(s); len(xs) > 1 {
			detail = fmt.Sprintf("(%s → %s)", v.x(slices.Min(xs)).Human(), v.x(slices.Max(xs)).Human())
		}
		add("first_to_last_change", "first to last size", ChangeP(s.FirstToLastChange), detail)
		b := analyze.BestModel(s.Models)
		if b != nil && b.LossPerDoubling != nil {
			key, label, loss := "loss_per_doubling_share", "lost per size doubling", *b.LossPerDoubling
			if s.LowerIsBetter {
				label = "rise per size doubling" // (a time's loss is its rise)
			}
			if loss < 0 {
				// A curve that improves with size (tpmC over warehouses) says
				// what it gains, not "lost … -99.8 %".
				key, label, loss = "gain_per_doubling_share", "gained per size doubling", -loss
				if s.LowerIsBetter {
					key, label = "fall_per_doubling_share", "fall per size doubling"
				}
			}
			detail := fmt.Sprintf("(%s fit, R² %s)", b.Name, Num(b.R2).Human())
			if b.SlopeP > analyze.Alpha {
				// (the models table says so too: the headline is read first)
				detail = fmt.Sprintf("(%s fit, R² %s; slope not significant, %s)", b.Name, Num(b.R2).Human(), pEq(b.SlopeP))
			}
			add(key, label, Share(loss), detail)
		}
		if b != nil && b.NoLossPerDoubling != nil {
			// Withheld as the prediction is, for the same reason: a
			// doubling is past the sizes, and the slope is the noise's.
			label := "lost per size doubling"
			if s.LowerIsBetter {
				label = "rise per size doubling"
			}
			add("loss_per_doubling_share", label, Str("withheld: "+*b.NoLossPerDoubling), "")
		}
		if b != nil && b.Prediction != nil {
			p := b.Prediction
			interval := intervalWords(p)
			if c := b.PredictionCaveat; c != nil {
				// (next to the figure: the interval alone promises more)
				add("predicted_"+v.yCol().Key, "predicted at "+v.r.FormatX(p.X), Num(p.Y), fmt.Sprintf("(%s, %s fit; %s)", interval, b.Name, *c))
				out[len(out)-1].Caveat = *c
			} else {
				add("predicted_"+v.yCol().Key, "predicted at "+v.r.FormatX(p.X), Num(p.Y), fmt.Sprintf("(%s, %s fit)", interval, b.Name))
			}
		}
		if b != nil && b.NoPrediction != nil {
			add("predicted_"+v.yCol().Key, "predicted at "+v.r.FormatX(*v.r.PredictAt), Str("no prediction: "+*b.NoPrediction), "")
		}
		if k := s.Knee; k != nil {
			verdict := "no cliff"
			if k.Cliff {
				verdict = "cliff"
			}
			add("knee_step_change", "step at "+v.r.FormatX(k.At), Change(k.StepFraction), fmt.Sprintf("(%s, %s)", verdict, pEq(k.P)))
		}
	}
	return out
}
