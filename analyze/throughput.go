package analyze

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/internal/lazyre"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// The analyses fbdiag throughput makes; Options.Mode picks one or, when
// empty, the input does (see chooseMode).
const (
	ModeDegradation = "degradation" // throughput against database size
	ModeSweep       = "sweep"       // throughput against a setting (page buffers, clients)
	ModeAB          = "ab"          // throughput of named configurations
	ModeLoad        = "load"        // load speed from size and load time
)

// threshold reads a throughput limit from the one thresholds table
// (DefaultThresholds, rule "throughput-sweep").
func threshold(name string) float64 {
	return NewThresholds().Get("throughput-sweep", name)
}

// Options says what to analyse.
type Options struct {
	Mode   string   // "" (auto), degradation, sweep, ab, load
	X, Y   string   // column name or 1-based index; for runs, a config key
	Series []string // numeric columns (one series each) or a column whose values name the series
	Table  int      // 1-based table of a file with several (0: the largest, the last on ties)
	// Predict and Knee are where a degradation is predicted and tested
	// for a cliff (see ParseAt); zero for fbdiag's defaults,
	// DefaultPredictAt and DefaultKnee.
	Predict At
	Knee    At
	Noise   float64 // sweep noise as a fraction (0: the threshold)
}

// Input is what the parsers read: tables and benchmark runs.
type Input struct {
	Tables  []*parse.Table
	Runs    []*parse.Run
	Notices []parse.Notice
}

// Point is one measurement. X is null for a named configuration (A/B),
// whose name is in Label.
type Point struct {
	X      *float64 `json:"x"`
	Label  string   `json:"label,omitempty"`
	Y      float64  `json:"y"`
	Source string   `json:"source"`
	// Steady is what the run said of its own window: fbdiag bench judges
	// whether its throughput held steady (rule bench-steady-state) and
	// writes it in its result and in a sweep's table (column steady).
	// Absent when the input does not say. For a run that prints its
	// throughput at intervals (pgbench -P, sysbench --report-interval),
	// fbdiag judges them by the same rule, and SteadyVerdict says why.
	Steady *bool `json:"steady,omitempty"`
	// SteadyVerdict is fbdiag's verdict on the run's interval reports
	// ("not steady: throughput rose by 34.5% of its mean across its
	// interval reports (more than 10%)"), empty for a run that judged
	// itself (fbdiag bench) or has no such reports.
	SteadyVerdict string `json:"steady_verdict,omitempty"`
}

// Step is the change between two sizes.
type Step struct {
	FromX  float64 `json:"from_x"`
	FromY  float64 `json:"from_y"`
	ToX    float64 `json:"to_x"`
	ToY    float64 `json:"to_y"`
	Ratio  float64 `json:"ratio"`  // ToY / FromY
	Change float64 `json:"change"` // Ratio − 1
}

// Series is one curve: a column of a table, or the runs of one workload.
type Series struct {
	Name   string  `json:"name"`
	Points []Point `json:"points"`
	// FirstToLastChange is y(last)/y(first) − 1 over the sizes or settings
	// in order (medians where a size was run several times).
	FirstToLastChange *float64 `json:"first_to_last_change"`
	// UpToLastStep is the change from the first to the next-to-last size
	// (the seed's "9 GB → 30 GB: 17.5 % lost"), and LastStep the change
	// from the next-to-last to the last (its "30 GB → 1.7 TB: 2.41×"):
	// measurements often cluster at small sizes with one far point.
	UpToLastStep *Step     `json:"up_to_last_step"`
	LastStep     *Step     `json:"last_step"`
	Best         *Point    `json:"best"`
	Models       []*Model  `json:"models,omitempty"`
	Knee         *Knee     `json:"knee,omitempty"`
	Sweep        *Sweep    `json:"sweep,omitempty"`
	Load         *Load     `json:"load,omitempty"`
	AB           []ABEntry `json:"ab,omitempty"`
	Warnings     []string  `json:"warnings,omitempty"`
	// LowerIsBetter is true for a time (a latency, a load time): its best
	// is its lowest, and its losses per doubling are its rises.
	LowerIsBetter bool `json:"lower_is_better"`
	// Unit is the unit of its y ("tps", "ms"), nil when its column has
	// none; the result's y_unit is null when its series' differ.
	Unit *string `json:"unit"`
}

// Result is the answer of fbdiag throughput; its JSON form is documented
// in docs/throughput-json.md.
type Result struct {
	Mode      string   `json:"mode"`
	Inputs    []string `json:"inputs"`
	X         *string  `json:"x"`
	Y         *string  `json:"y"`
	XUnit     *string  `json:"x_unit"`
	YUnit     *string  `json:"y_unit"`
	PredictAt *float64 `json:"predict_at"`
	KneeAt    *float64 `json:"knee_at"`
	// PredictDefault and KneeDefault are true when fbdiag chose the
	// place (DefaultPredictAt, DefaultKnee): none was asked for.
	PredictDefault bool           `json:"predict_default"`
	KneeDefault    bool           `json:"knee_default"`
	Series         []*Series      `json:"series"`
	Notices        []parse.Notice `json:"notices"`
	Warnings       []string       `json:"warnings"`

	xUnit parse.Unit
}

// XUnitInfo is the unit of the x values (zero when they have none).
func (r *Result) XUnitInfo() parse.Unit { return r.xUnit }

// XBytes is the bytes of one x unit when the x values are sizes (2^30
// for GiB), else 0.
func (r *Result) XBytes() float64 {
	if r.xUnit.Kind != parse.KindSize {
		return 0
	}
	return r.xUnit.Factor
}

// FormatX writes an x value as the analysis's sentences do: a size in
// IEC units ("16.0 GiB", "1.77 TiB"), another figure with its unit.
func (r *Result) FormatX(v float64) string { return formatX(v, r.xUnit) }

// iecSymbol is the IEC name of a size unit (the readers' "GB" is 2^30
// bytes: GiB); other units keep their symbol.
func iecSymbol(u parse.Unit) string {
	if u.Kind != parse.KindSize {
		return u.Symbol
	}
	for i, name := range []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"} {
		if u.Factor == math.Pow(1024, float64(i)) {
			return name
		}
	}
	return u.Symbol
}

// formatX writes an x value with its unit: sizes in IEC units as
// units.SizeFloat prints them, the rest as FormatX.
func formatX(v float64, u parse.Unit) string {
	if u.Kind == parse.KindSize && u.Factor > 0 {
		return units.SizeFloat(v * u.Factor)
	}
	return FormatX(v, u.Symbol)
}

func strp(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func fp(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// raw is one point before the analysis: x in the input's unit.
type raw struct {
	series string
	x      float64
	label  string
	y      float64
	src    string
	// unit is its y's: a time (a latency) is better lower, whatever the
	// other series measure.
	unit parse.Unit
	// steady is the run's own word on its window (fbdiag bench's), or
	// fbdiag's on its interval reports (steadyVerdict says which), nil
	// when neither says.
	steady        *bool
	steadyVerdict string
	// moved is set for a run with too few interval reports to judge
	// whose first and last differ by more than a steady run drifts.
	moved *movedIntervals
	// mixShort is a fbdiag bench run's kinds completed under the spec's
	// minimum share because some were given up or failed (rule
	// bench-mix), empty for other runs.
	mixShort []BenchMixShort
	// perWarehouse is a fbdiag bench run's terminals a warehouse when
	// more than the spec's (rule bench-terminals), 0 otherwise.
	perWarehouse float64
	// tool and workload are a benchmark run's ("pgbench", "select
	// only"), empty for a table's point; settings the part of its label
	// that tells its configuration apart ("clients=2").
	tool, workload, settings string
}

// movedIntervals is what fewIntervalsMoved found of a run.
type movedIntervals struct {
	n           int
	first, last float64
	change      float64
}

// gathered is the input reduced to points and what they mean.
type gathered struct {
	points      []raw
	order       []string        // series in order of appearance
	inOrder     map[string]bool // (order's, to look a series up)
	xName       string
	yName       string
	xUnit       parse.Unit
	yUnit       parse.Unit
	categorical bool
	mode        string
	inputs      []string
	load        *loadColumns
	notices     []parse.Notice
	warnings    []string
	// yNames are the y columns (or runs' figures) of every input, in
	// order: y's name when their units differ.
	yNames []string
}

// Throughput analyses tables and benchmark runs.
func Throughput(in Input, opt Options) (*Result, error) {
	g := &gathered{notices: append([]parse.Notice(nil), in.Notices...)}
	if len(in.Tables) > 0 && len(in.Runs) > 0 {
		files := map[string]bool{}
		for _, r := range in.Runs {
			files[r.File] = true
		}
		return nil, fmt.Errorf("give either result tables or benchmark outputs, not both: %s is a table, %s %s benchmark output (%d %s); fbdiag report reads both, a section each",
			in.Tables[0].File, in.Runs[0].File, pick(len(files) == 1, "is", "and others are"), len(files), pick(len(files) == 1, "file", "files"))
	}
	var err error
	switch {
	case len(in.Tables) > 0:
		err = g.fromTables(in.Tables, opt)
	case len(in.Runs) > 0:
		err = g.fromRuns(in.Runs, opt)
	default:
		return nil, fmt.Errorf("no table and no benchmark result found in the input")
	}
	if err != nil {
		return nil, err
	}
	g.mixedY()
	if opt.Mode != "" {
		g.mode = opt.Mode
	}
	res := &Result{Mode: g.mode, Inputs: g.inputs, X: strp(g.xName), Y: strp(g.yName),
		XUnit: strp(iecSymbol(g.xUnit)), YUnit: strp(g.yUnit.Symbol), Notices: g.notices, xUnit: g.xUnit}
	if res.Notices == nil {
		res.Notices = []parse.Notice{}
	}
	if g.categorical && g.mode != ModeAB {
		return nil, fmt.Errorf("x column %q holds names, not numbers: only the ab mode can use it", g.xName)
	}
	predictAt, err := g.inX(opt.Predict, OptionPredict)
	if err != nil {
		return nil, err
	}
	kneeAt, err := g.inX(opt.Knee, OptionKnee)
	if err != nil {
		return nil, err
	}
	if g.mode != ModeDegradation && (!opt.Predict.IsZero() || !opt.Knee.IsZero()) {
		g.warnings = append(g.warnings, fmt.Sprintf("a prediction and a cliff test apply to the degradation mode only, not %s", g.mode))
	}
	if g.mode == ModeDegradation {
		// Where none was asked for, the prediction and the cliff test go
		// where fbdiag's defaults put them, for the command line and the
		// report alike.
		var xs []float64
		for _, p := range g.points {
			xs = append(xs, p.x)
		}
		if opt.Predict.IsZero() {
			predictAt = DefaultPredictAt(xs)
			res.PredictDefault = !math.IsNaN(predictAt)
		}
		if opt.Knee.IsZero() {
			if at, ok := DefaultKnee(xs); ok {
				kneeAt, res.KneeDefault = at, true
			}
		}
	}
	res.PredictAt, res.KneeAt = fp(predictAt), fp(kneeAt)
	if g.mode == ModeLoad {
		if g.load == nil {
			return nil, fmt.Errorf("load mode needs a size column and a load time (or speed) column")
		}
		s, err := g.load.analyse()
		res.Notices = append(res.Notices, g.load.notices...)
		if err != nil {
			return nil, err
		}
		res.Series = []*Series{s}
		res.Y, res.YUnit = strp("load speed"), strp("MiB/s")
		res.Warnings = append([]string{}, g.warnings...)
		return res, nil
	}
	// The points of each series, in input order: one pass over them, not
	// one a series (a CSV of 25,000 columns is 25,000 series of a point).
	bySeries := make(map[string][]int, len(g.order))
	for i := range g.points {
		bySeries[g.points[i].series] = append(bySeries[g.points[i].series], i)
	}
	for _, name := range g.order {
		s := &Series{Name: name}
		for _, i := range bySeries[name] {
			p := &g.points[i]
			s.LowerIsBetter = p.unit.Kind == parse.KindTime
			if p.unit.Symbol != "" {
				u := p.unit.Symbol
				s.Unit = &u
			}
			pt := Point{Label: p.label, Y: p.y, Source: p.src, Steady: p.steady, SteadyVerdict: p.steadyVerdict}
			if !g.categorical {
				x := p.x
				pt.X = &x
			}
			s.Points = append(s.Points, pt)
		}
		if !g.categorical {
			sort.SliceStable(s.Points, func(i, j int) bool { return *s.Points[i].X < *s.Points[j].X })
		}
		switch g.mode {
		case ModeAB:
			for i := range s.Points {
				if p := &s.Points[i]; p.Label == "" && p.X != nil {
					p.Label = formatX(*p.X, g.xUnit) // the ab mode asked of numbers
				}
			}
			s.AB = compareLabels(s.Points, s.LowerIsBetter)
		case ModeSweep:
			s.describe()
			s.Sweep = sweep(s.Points, s.LowerIsBetter, opt.Noise, g.xUnit)
		case ModeDegradation:
			s.describe()
			s.degradation(predictAt, kneeAt, g.xUnit)
		default:
			return nil, fmt.Errorf("unknown mode %q (want degradation, sweep, ab or load)", g.mode)
		}
		res.Series = append(res.Series, s)
	}
	res.Warnings = append(append(append([]string{}, g.warnings...), g.unsteadyWarnings()...), append(g.mixWarnings(), g.terminalsWarnings()...)...)
	return res, nil
}

// mixWarnings says which fbdiag bench runs completed a mix under the
// spec's minimums (rule bench-mix): a terminal that gives a Payment up
// goes on with its next card, more often a New-Order, so such a run's
// tpmC reads higher than one of the spec's mix, where the comparison
// above set them side by side without a word.
func (g *gathered) mixWarnings() []string {
	off, judged := g.benchRunsOff(func(p *raw) string {
		if len(p.mixShort) == 0 {
			return ""
		}
		kinds := make([]string, len(p.mixShort))
		for i, m := range p.mixShort {
			kinds[i] = fmt.Sprintf("%s %.1f %% < %.0f %%", m.Name, m.Share, m.Minimum)
		}
		return p.src + " (" + strings.Join(kinds, ", ") + ")"
	})
	if len(off) == 0 {
		return nil
	}
	their, _ := pronouns(len(off))
	return []string{fmt.Sprintf("%d of %s completed a mix under the spec's minimums, operations given up or failed (rule bench-mix): %s; "+
		"a terminal that gives an operation up goes on with its next card, more often a New-Order, so %s tpmC counts a mix TPC-C does not allow "+
		"and reads higher than a run of the spec's mix (more --retries, or fewer terminals a warehouse, give up fewer)",
		len(off), units.Count(judged, "run"), listMost(off, 10), their)}
}

// benchRunsOff judges the fbdiag bench runs by off, which describes a
// run off the spec or gives "": those descriptions, and how many runs
// were judged.
func (g *gathered) benchRunsOff(off func(p *raw) string) (descs []string, judged int) {
	for i := range g.points {
		p := &g.points[i]
		if p.tool != "fbdiag bench" {
			continue
		}
		judged++
		if d := off(p); d != "" {
			descs = append(descs, d)
		}
	}
	return descs, judged
}

// terminalsWarnings says which fbdiag bench runs had more terminals a
// warehouse than the spec's (rule bench-terminals): their tpmC includes
// contention TPC-C does not measure, and the comparison above set it
// beside runs of fewer without a word.
func (g *gathered) terminalsWarnings() []string {
	over, judged := g.benchRunsOff(func(p *raw) string {
		if p.perWarehouse == 0 {
			return ""
		}
		return fmt.Sprintf("%s (%s terminals a warehouse)", p.src, units.Figure(p.perWarehouse))
	})
	if len(over) == 0 {
		return nil
	}
	their, _ := pronouns(len(over))
	return []string{fmt.Sprintf("%d of %s had more terminals a warehouse than the spec's %s (rule bench-terminals): %s; "+
		"the extra terminals queue on the same warehouse's and districts' rows, contention TPC-C does not measure, so %s tpmC compares only with runs of as many terminals a warehouse "+
		"(more warehouses, or fewer terminals, keep to the spec)",
		len(over), units.Count(judged, "run"), units.Figure(NewThresholds().Get("bench-terminals", "max_per_warehouse")), listMost(over, 10), their)}
}

// unsteadyWarnings says which runs were not steady by their own account:
// their throughput measures a moving target, and every comparison and
// fit above counts them as if steady.
func (g *gathered) unsteadyWarnings() []string {
	th := NewThresholds()
	maxDrift := th.Get("bench-steady-state", "max_drift")
	var own, byIntervals, moved []string
	judgedOwn, judgedIntervals := 0, 0
	for _, p := range g.points {
		if p.moved != nil {
			m := p.moved
			moved = append(moved, fmt.Sprintf("%s %s → %s %s (%s %%, %s)", p.src, units.Sig3(m.first), units.Sig3(m.last), p.unit.Symbol, pastLimitPct(m.change, maxDrift), units.Count(m.n, "report")))
		}
		if p.steady == nil {
			continue
		}
		if p.steadyVerdict != "" {
			judgedIntervals++
			if !*p.steady {
				byIntervals = append(byIntervals, p.src+" ("+strings.TrimPrefix(p.steadyVerdict, "not steady: ")+")")
			}
			continue
		}
		judgedOwn++
		if !*p.steady {
			own = append(own, p.src)
		}
	}
	var out []string
	if len(own) > 0 {
		their, them := pronouns(len(own))
		out = append(out, fmt.Sprintf("%d of %s %s not steady by fbdiag bench's own verdict on %s window (rule bench-steady-state: throughput drifted or varied more than it allows): %s; the analysis counts %s as if steady: a longer --warmup and --duration on a quiet machine reach a steady state",
			len(own), units.Count(judgedOwn, "run"), units.Plural(len(own), "was"), their, sourceList(own, 10), them))
	}
	if len(byIntervals) > 0 {
		their, them := pronouns(len(byIntervals))
		out = append(out, fmt.Sprintf("%d of %s %s not steady by %s own interval reports (rule bench-steady-state, each report a block): %s; a run's figure is the mean of all its intervals, a warm-up's included, and the analysis counts %s as if steady: a longer run, or its warm-up left out of the measure, reaches a steady state",
			len(byIntervals), units.Count(judgedIntervals, "run"), units.Plural(len(byIntervals), "was"), their, listMost(byIntervals, 10), them))
	}
	if len(moved) > 0 {
		minBlocks := int(th.Get("bench-steady-state", "min_blocks"))
		runs := fmt.Sprintf("%d runs print too few interval reports to judge a steady state (rule bench-steady-state needs %d) and their first and last differ", len(moved), minBlocks)
		if len(moved) == 1 {
			runs = fmt.Sprintf("1 run prints too few interval reports to judge a steady state (rule bench-steady-state needs %d) and its first and last differ", minBlocks)
		}
		out = append(out, fmt.Sprintf("%s by more than a steady run drifts (%.0f %%): %s; a run's figure is the mean of all its intervals, a warm-up's included: a longer run with its progress reported (pgbench -P, sysbench --report-interval) tells",
			runs, maxDrift*100, listMost(moved, 10)))
	}
	return out
}

// pastLimitPct is change in percent with its sign, whole unless that
// would round it onto the limit it passed: pgbench-rw-scale100's 1513 →
// 1360 tps, −10.07 %, read "(-10 %)" in a line saying it moved "by more
// than a steady run drifts (10 %)"; it reads -10.1 now.
func pastLimitPct(change, limit float64) string {
	if math.Abs(math.Round(change*100)) <= limit*100 {
		return fmt.Sprintf("%+.1f", change*100)
	}
	return fmt.Sprintf("%+.0f", change*100)
}

// listMost joins the first most items, and says how many more there are.
func listMost(items []string, most int) string {
	s := strings.Join(items[:min(len(items), most)], "; ")
	if len(items) > most {
		s += fmt.Sprintf("; and %d more", len(items)-most)
	}
	return s
}

// sourceList names the file:line sources, the lines alone after the
// first of a file ("sweep.csv:2, :5"), at most the first most of them.
func sourceList(srcs []string, most int) string {
	var b strings.Builder
	file := ""
	for i, src := range srcs[:min(len(srcs), most)] {
		if i > 0 {
			b.WriteString(", ")
		}
		f, line, ok := cutLast(src, ":")
		if ok && f == file {
			b.WriteString(":" + line)
			continue
		}
		file = f
		b.WriteString(src)
	}
	if len(srcs) > most {
		fmt.Fprintf(&b, " and %d more", len(srcs)-most)
	}
	return b.String()
}

// cutLast is strings.Cut at the last sep.
func cutLast(s, sep string) (before, after string, ok bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// describe fills the first-to-last change, the last step and the best point.
func (s *Series) describe() {
	xs, meds := medians(s.Points)
	if len(xs) == 0 {
		return
	}
	if len(xs) >= 2 {
		s.FirstToLastChange = fp(meds[len(meds)-1]/meds[0] - 1)
		n := len(xs)
		if r := meds[n-1] / meds[n-2]; finite(r) {
			s.LastStep = &Step{FromX: xs[n-2], FromY: meds[n-2], ToX: xs[n-1], ToY: meds[n-1], Ratio: r, Change: r - 1}
		}
		if r := meds[n-2] / meds[0]; n >= 3 && finite(r) {
			s.UpToLastStep = &Step{FromX: xs[0], FromY: meds[0], ToX: xs[n-2], ToY: meds[n-2], Ratio: r, Change: r - 1}
		}
	}
	for i := range s.Points {
		p := &s.Points[i]
		if s.Best == nil || (!s.LowerIsBetter && p.Y > s.Best.Y) || (s.LowerIsBetter && p.Y < s.Best.Y) {
			b := *p
			s.Best = &b
		}
	}
}

// medians gives each distinct x (sorted) and the median of its y.
func medians(pts []Point) (xs, meds []float64) {
	by := map[float64][]float64{}
	for _, p := range pts {
		if p.X == nil {
			continue
		}
		if _, ok := by[*p.X]; !ok {
			xs = append(xs, *p.X)
		}
		by[*p.X] = append(by[*p.X], p.Y)
	}
	sort.Float64s(xs)
	for _, x := range xs {
		meds = append(meds, Summarize(by[x]).Median)
	}
	return xs, meds
}

// ChangeBetween is y(x2)/y(x1) − 1 for two measured sizes (medians where
// repeated); ok is false when either size was not measured.
func ChangeBetween(pts []Point, x1, x2 float64) (float64, bool) {
	xs, meds := medians(pts)
	i, j := -1, -1
	for k, x := range xs {
		if x == x1 {
			i = k
		}
		if x == x2 {
			j = k
		}
	}
	if i < 0 || j < 0 {
		return 0, false
	}
	return meds[j]/meds[i] - 1, true
}

func (s *Series) degradation(predictAt, kneeAt float64, unit parse.Unit) {
	x := make([]float64, len(s.Points))
	y := make([]float64, len(s.Points))
	for i, p := range s.Points {
		x[i], y[i] = *p.X, p.Y
	}
	pred := predictAt
	if math.IsNaN(pred) {
		pred = 0
	}
	models, warns := FitAll(x, y, pred)
	if s.LowerIsBetter {
		// A time that grows is what a throughput that falls is: the loss
		// of a latency is its rise (1 − 2^k of a throughput, 2^k − 1 of a
		// time), so that a positive loss is always the worse.
		for _, m := range models {
			m.LossPerDoubling = negated(m.LossPerDoubling)
		}
	}
	if !s.LowerIsBetter {
		// A throughput at or below 0 is none: the curve does not hold that
		// far, and its figure (-5097 tpmC) is no prediction.
		for _, m := range models {
			if p := m.Prediction; p != nil && p.Y <= 0 {
				why := fmt.Sprintf("the %s fit reaches 0 before %s", m.Name, formatX(p.X, unit))
				m.Prediction, m.NoPrediction = nil, &why
			}
		}
	}
	if lo, hi, narrow := sizeSpan(x); narrow {
		// Sizes within less than a doubling and a slope the noise
		// explains: the curve has no direction to extrapolate, and a
		// figure 3× past the sizes (page_buffers=256: span ×1.06, p=0.936,
		// "predicted 6089") would be the noise's.
		// The loss per doubling is the same extrapolation, one doubling
		// past sizes that span less (10 to 13 GiB, p=0.623: "13.3 % lost
		// per doubling", its sign the noise's): withheld for the same
		// reason.
		for _, m := range models {
			if m.SlopeP <= Alpha {
				continue
			}
			because := fmt.Sprintf("the sizes measured span ×%.2f, less than a doubling, and the %s fit's slope is not significant (p=%s): its curve says nothing about ",
				hi/lo, m.Name, strconv.FormatFloat(m.SlopeP, 'g', 3, 64))
			if p := m.Prediction; p != nil {
				why := because + formatX(p.X, unit)
				m.Prediction, m.NoPrediction = nil, &why
			}
			why := because + "a doubling of the size"
			m.LossPerDoubling, m.NoLossPerDoubling = nil, &why
		}
	}
	for _, m := range models {
		if m.Prediction != nil {
			m.Prediction.qualify(s.LowerIsBetter)
		}
		m.PredictionCaveat = predictionCaveat(m, slices.Max(x), unit)
	}
	s.Models = models
	s.Warnings = append(s.Warnings, warns...)
	// (the prediction is named only where a model still makes one)
	if slices.IndexFunc(models, func(m *Model) bool { return m.Prediction != nil }) < 0 {
		predictAt = math.NaN()
	}
	// (and the loss per doubling only where a model still has one)
	loss := slices.ContainsFunc(models, func(m *Model) bool { return m.LossPerDoubling != nil })
	if w := narrowSizes(x, predictAt, loss, unit); w != "" && len(models) > 0 {
		s.Warnings = append(s.Warnings, w)
	}
	if w := repeatedRunsWarning(s.Points, models); w != "" {
		s.Warnings = append(s.Warnings, w)
	}
	if !math.IsNaN(kneeAt) {
		trend := LogLinear
		if b := BestModel(models); b != nil {
			trend = b.Name
		}
		k, err := KneeTest(x, y, kneeAt, trend)
		if err != nil {
			s.Warnings = append(s.Warnings, err.Error())
		} else {
			k.Describe(unit, s.LowerIsBetter)
			if s.LowerIsBetter {
				k.LossPerDoublingBelow, k.LossPerDoublingAbove = negated(k.LossPerDoublingBelow), negated(k.LossPerDoublingAbove)
			}
			s.Knee = k
			acrossCliff(models, k, unit, s.LowerIsBetter)
		}
	}
}

// acrossCliff says, of each prediction past a cliff, that its curve was
// fitted across the cliff, which no smooth curve has, and what the sizes
// above it lose per doubling: cliff.csv's 1 to 8 GiB at ~990 tps and 64 to
// 256 GiB at ~410 were "predicted at 512 GiB 259" by a curve losing 13.3 %
// a doubling, where the sizes above the cliff lose 2.4 %.
func acrossCliff(models []*Model, k *Knee, unit parse.Unit, lowerIsBetter bool) {
	if !k.Cliff {
		return
	}
	c := fmt.Sprintf("the curve runs across the cliff at %s (a step of %s beyond the %s trend)", formatX(k.At, unit), signedPct(k.StepFraction), k.Model)
	if a := k.LossPerDoublingAbove; a != nil {
		c += fmt.Sprintf(": above it the sizes %s %s per doubling", pick(lowerIsBetter, "rise", "lose"), pct(*a))
	}
	for _, m := range models {
		if m.Prediction == nil || m.Prediction.X <= k.At {
			continue
		}
		cc := c
		if m.PredictionCaveat != nil {
			cc = *m.PredictionCaveat + "; " + c
		}
		m.PredictionCaveat = &cc
	}
}

// repeatedRunsWarning says, when some sizes were run more than once, that
// the fits count every run as an independent point while runs on one
// database share its layout and cache (fbdiag bench sweep repeats its
// runs so), and gives the best
// fit's slope p on the sizes' medians, the n the sizes allow
// (testdata/bench/sizes.csv: 8 runs at 5 sizes, linear slope p=0.005 on
// the runs, p=0.028 on the medians); "" when every size was run once.
func repeatedRunsWarning(pts []Point, models []*Model) string {
	best := BestModel(models)
	xs, meds := medians(pts)
	if best == nil || len(xs) == len(pts) {
		return ""
	}
	head := fmt.Sprintf("%d runs at %d sizes: the fits count each run as a point, but runs repeated on one database do not measure the size's effect independently", len(pts), len(xs))
	m, err := Fit(best.Name, xs, meds)
	if err != nil {
		return head + fmt.Sprintf("; the medians of %d sizes test no slope", len(xs))
	}
	return head + fmt.Sprintf(": on the medians of the %d sizes the %s slope has %s (%s on the runs)",
		len(xs), best.Name, pText(m.SlopeP), pText(best.SlopeP))
}

// sizeSpan is the smallest and largest size measured, and whether they
// span less than a doubling.
func sizeSpan(x []float64) (lo, hi float64, narrow bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi, lo > 0 && hi/lo < 2
}

// narrowSizes warns when the sizes measured span less than a doubling:
// the loss per doubling (when loss) and a prediction (at predictAt, NaN
// for none) then extrapolate the curve beyond its data (fbdiag bench's
// runs on one warehouse grow the database by a tenth: "60 % lost per
// doubling" came from that); "" when neither is left to warn of.
func narrowSizes(x []float64, predictAt float64, loss bool, unit parse.Unit) string {
	lo, hi, narrow := sizeSpan(x)
	predict := !math.IsNaN(predictAt) && predictAt > 0
	if !narrow || !loss && !predict {
		return ""
	}
	what := "the loss per doubling extrapolates"
	switch {
	case loss && predict:
		what = "the loss per doubling and the prediction at " + formatX(predictAt, unit) + " extrapolate"
	case predict:
		what = "the prediction at " + formatX(predictAt, unit) + " extrapolates"
	}
	return fmt.Sprintf("the sizes measured span ×%.2f (%s to %s), less than a doubling: %s the curve beyond what was measured",
		hi/lo, formatX(lo, unit), formatX(hi, unit), what)
}

// negated is −*v, nil when v is.
func negated(v *float64) *float64 {
	if v == nil {
		return nil
	}
	n := 0 - *v // (+0, not −0, for 0)
	return &n
}

// chooseMode picks the analysis from what the columns measure.
func chooseMode(xUnit parse.Unit, xName string, categorical bool, load bool) string {
	switch {
	case categorical:
		return ModeAB
	case load:
		return ModeLoad
	case xUnit.Kind == parse.KindSize || sizeLike(xName):
		return ModeDegradation
	}
	return ModeSweep
}

var sizeWordRe = lazyre.New(`(?i)(size|scale|warehouse|bytes|tamaño|taille|velikost|크기)`)

func sizeLike(name string) bool { return sizeWordRe().MatchString(name) }

// SizeLike says whether an x named name is a database's size or what
// sets it (warehouses, a scale factor), as the degradation mode is
// chosen; an x of a size unit is one whatever its name.
func SizeLike(name string) bool { return sizeLike(name) }

// concurrencyWordRe names the load a benchmark sweeps over (pgbench -c/-j,
// sysbench --threads, HammerDB virtual users): 1, 2, 3… of them is a
// setting, not a row counter.
var concurrencyWordRe = lazyre.New(`(?i)^(n_?|num_?|#\s*)?(clients?|threads?|thds|connections?|conns?|workers?|jobs|users|vusers|sessions|concurrency)$`)

func concurrencyLike(name string) bool { return concurrencyWordRe().MatchString(name) }

// latencyWordRe names the time one operation takes (latency_ms, lat_ms,
// p95_ms, response_time_ms, sysbench's "95th percentile"; the articles'
// languages' latencia, tiempo de respuesta, latence, temps de réponse,
// latence, doba odezvy, 지연, 응답 시간), as against the time a whole
// load took (load_time_s).
var latencyWordRe = lazyre.New(`(?i)(laten|respon|respu|réponse|reponse|odezv|지연|응답|percentil|(^|[^a-z])(lat|resp|rt|p\d{2,3}|\d+(st|nd|rd|th))([^a-z]|$))`)

func latencyLike(name string) bool { return latencyWordRe().MatchString(name) }

// FormatX writes an x value with its unit ("16 GB", "1500").
func FormatX(v float64, unit string) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if math.Abs(v) >= 100 || v != math.Trunc(v*1000)/1000 {
		s = strconv.FormatFloat(v, 'g', 6, 64)
	}
	if unit != "" {
		return s + " " + unit
	}
	return s
}

// predictionCaveat says what m's prediction rests on when its interval
// promises more than the fit can hold (nil when nothing, or no
// prediction): the point of the largest leverage above the limit, which
// the curve goes through whatever the others say, and a leave-last-out
// check that missed outside its own 95 % interval.
func predictionCaveat(m *Model, xmax float64, unit parse.Unit) *string {
	p := m.Prediction
	if p == nil {
		return nil
	}
	var parts []string
	if len(m.HighLeverage) > 1 {
		// Two points or more above the limit: none sets the curve alone
		// (3 points at 3 sizes: both ends are above 0.5).
		var at, lev []string
		for _, h := range m.HighLeverage {
			if x := formatX(h.X, unit); !slices.Contains(at, x) {
				at, lev = append(at, x), append(lev, units.Figure(h.Leverage))
			}
		}
		head := ""
		if p.X > xmax {
			head = fmt.Sprintf("extrapolated %s× past the largest size; ", strconv.FormatFloat(p.X/xmax, 'g', 3, 64))
		}
		parts = append(parts, fmt.Sprintf("%sthe %s points each outweigh all the others (leverage %s)",
			head, units.List(at), strings.Join(lev, ", ")))
	} else if len(m.HighLeverage) == 1 {
		h := m.HighLeverage[0]
		switch {
		case h.X == xmax && p.X > xmax:
			parts = append(parts, fmt.Sprintf("extrapolated %s× past the largest size, which alone sets the curve (leverage %s)",
				strconv.FormatFloat(p.X/xmax, 'g', 3, 64), units.Figure(h.Leverage)))
		case p.X > xmax:
			parts = append(parts, fmt.Sprintf("extrapolated %s× past the largest size; the %s point alone sets the curve (leverage %s)",
				strconv.FormatFloat(p.X/xmax, 'g', 3, 64), formatX(h.X, unit), units.Figure(h.Leverage)))
		default:
			parts = append(parts, fmt.Sprintf("the %s point alone sets the curve (leverage %s)", formatX(h.X, unit), units.Figure(h.Leverage)))
		}
	}
	if h := m.LeaveLastOut; h != nil && !h.Inside {
		parts = append(parts, fmt.Sprintf("its leave-last-out check missed by %s, outside its 95 %% interval", signedPct(h.Error)))
	}
	if p.Exact() {
		// (the interval of 700–700 before it measures no scatter)
		parts = append(parts, fmt.Sprintf("its %d points lie on the curve exactly: an interval of no width says nothing of a new run's scatter", m.n))
	}
	if len(parts) == 0 {
		return nil
	}
	c := strings.Join(parts, "; ")
	return &c
}

// pronouns are "their" and "them" for n things, "its" and "it" for one.
func pronouns(n int) (their, them string) {
	if n == 1 {
		return "its", "it"
	}
	return "their", "them"
}
