package analyze

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/internal/lazyre"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// This file turns what the parsers read (table columns, benchmark runs)
// into points: which column or config key is x, which are y, which
// series a point belongs to.

var runNumberRe = lazyre.New(`[-_. ]?(run)?\d+$`)

// maxByteCount is 8 EiB (2^63 bytes), the first size an int64 byte
// count cannot hold: fbdiag counts bytes so (as Firebird does), and a
// size past it is a typo or a wrong unit, no database's.
var maxByteCount = math.Ldexp(1, 63)

// beyondBytes says whether b bytes (or −b) is past what a byte count holds.
func beyondBytes(b float64) bool { return math.Abs(b) >= maxByteCount }

// beyondBytesMsg is the notice for a point left out by beyondBytes.
const beyondBytesMsg = "is beyond 8 EiB, more than a byte count holds"

// noSizeMsg is the notice for a size of 0 or less: no database has it,
// and a log axis, ln x and x^k have no place for it.
const noSizeMsg = "is no database size (0 or less)"

// beyondBytesRow is the notice for a table row whose size cell, text in
// column name, beyondBytes leaves out.
func beyondBytesRow(name, text string) string {
	return fmt.Sprintf("%s %q %s: row skipped", name, text, beyondBytesMsg)
}

// fromRuns turns benchmark runs into points: one run, one point.
func (g *gathered) fromRuns(runs []*parse.Run, opt Options) error {
	runs = g.measuredRuns(runs)
	if len(runs) == 0 {
		return errors.New("every run was made under a rate limit (pgbench -R): their tps is the schedule's rate, not the server's capacity: nothing to compare")
	}
	key := opt.X
	if key == "" {
		key = defaultRunKey(runs)
	}
	g.xName = key
	differ := differingSettings(runs, key)
	seenIn := map[string]bool{}
	for _, r := range runs {
		if !seenIn[r.File] {
			seenIn[r.File] = true
			g.inputs = append(g.inputs, r.File)
		}
		y, yUnit := r.Value, r.Unit
		if opt.Y != "" {
			v, ok := r.Metrics[opt.Y]
			if !ok {
				g.notices = append(g.notices, parse.Notice{File: r.File, Line: r.Line, Msg: fmt.Sprintf("run has no %q figure: skipped", opt.Y)})
				continue
			}
			y, yUnit = v, parse.HeaderUnit(opt.Y)
			if u, ok := parse.ParseUnit(opt.Y); ok {
				yUnit = u
			}
		}
		if g.yName == "" {
			g.yName = yUnit.Symbol
			if opt.Y != "" {
				g.yName = opt.Y
			}
			g.yUnit = yUnit
		}
		g.noteY(pick(opt.Y != "", opt.Y, yUnit.Symbol))
		series := r.Tool
		if r.Name != "" {
			series += " " + dropSubKey(r.Name, key)
		}
		settings := settingsOf(r, differ)
		p := raw{series: series, y: y, src: fmt.Sprintf("%s:%d", r.File, r.Line), unit: yUnit, steady: r.Steady, tool: r.Tool, workload: runWorkload(r), settings: settings,
			mixShort: runMixShort(r), perWarehouse: runTerminalsOver(r)}
		if r.Steady == nil && len(r.Intervals) > 0 && opt.Y == "" {
			// (the intervals report the run's throughput, not another
			// figure --y names)
			st := intervalsSteady(r.Intervals)
			if st.judged() {
				steady := st.Verdict == "steady"
				p.steady, p.steadyVerdict = &steady, st.Verdict
			} else if change, ok := fewIntervalsMoved(&st); ok {
				p.moved = &movedIntervals{n: len(st.Rates), first: st.Rates[0], last: st.Rates[len(st.Rates)-1], change: change}
			}
		}
		v, ok := "", false
		if key != "" {
			v, ok = r.Key(key)
		}
		if !ok {
			p.label = settingsFirst(settings, runLabel(r.File))
		} else {
			p.series = settingsFirst(settings, p.series)
			x, u, ok := parse.ParseQuantity(v, false)
			if !ok {
				g.notices = append(g.notices, parse.Notice{File: r.File, Line: r.Line, Msg: fmt.Sprintf("%s=%q is not a number: run skipped", key, v)})
				continue
			}
			if u.IsZero() {
				u = parse.HeaderUnit(key)
			}
			if u.Kind == parse.KindSize {
				x *= u.Factor // bytes, scaled below
				u = parse.SizeUnits[0]
				if beyondBytes(x) {
					g.notices = append(g.notices, parse.Notice{File: r.File, Line: r.Line, Msg: fmt.Sprintf("%s=%q %s: run skipped", key, v, beyondBytesMsg)})
					continue
				}
				if x <= 0 {
					g.notices = append(g.notices, parse.Notice{File: r.File, Line: r.Line, Msg: fmt.Sprintf("%s=%q %s: run skipped", key, v, noSizeMsg)})
					continue
				}
			}
			if g.xUnit.IsZero() {
				g.xUnit = u
			}
			p.x = x
		}
		g.add(p)
	}
	g.categorical = false
	for _, p := range g.points {
		if p.label != "" {
			g.categorical = true
		}
	}
	if !g.categorical && len(differ) > 0 {
		g.warnings = append(g.warnings, fmt.Sprintf("the runs differ in %s besides %s: one series per configuration", strings.Join(differ, ", "), key))
	}
	if g.categorical {
		for i := range g.points {
			if g.points[i].label == "" {
				g.points[i].label = fmt.Sprintf("%s=%g", key, g.points[i].x)
				g.points[i].settings = g.points[i].label
			}
		}
		g.xName = "run"
		g.xUnit = parse.Unit{}
		// Without a size, the files are the configurations compared:
		// one series, a label per file name; a series per unit, named
		// by it, when the runs give several (pgbench's tps, HammerDB's
		// NOPM), each against its own first: no ratio runs across units.
		g.order, g.inOrder = g.order[:0], map[string]bool{}
		units := g.yUnits()
		for i := range g.points {
			name := "runs"
			if u := g.points[i].unit.Symbol; len(units) > 1 && u != "" {
				name = u
			}
			g.points[i].series = name
			if !g.inOrder[name] {
				g.inOrder[name] = true
				g.order = append(g.order, name)
			}
		}
		for _, s := range g.order {
			g.labelWorkloads(s)
		}
	}
	g.scaleSizes()
	g.mode = chooseMode(g.xUnit, g.xName, g.categorical, false)
	return nil
}

// labelWorkloads names each configuration's workload in its label when
// the runs compared do not all run one: a pgbench select-only run beside
// a TPC-B-like one read "clients=4 · pgbench-tpcb-progress vs clients=2
// · pgbench-select-progress: -90.4 % slower", a ratio of two workloads
// shown as one of two client counts. The workload goes after the
// settings that tell the configurations apart, before the file ("clients=2
// · select only · pgbench-select-progress"), the tool named too when the
// runs come from several. A warning says so. Each series (a unit's runs)
// on its own: its configurations are compared among themselves only.
func (g *gathered) labelWorkloads(series string) {
	var workloads, tools []string
	for _, p := range g.points {
		if p.workload == "" || p.series != series {
			continue
		}
		if w := p.tool + " " + p.workload; !slices.Contains(workloads, w) {
			workloads = append(workloads, w)
		}
		if !slices.Contains(tools, p.tool) {
			tools = append(tools, p.tool)
		}
	}
	if len(workloads) < 2 {
		return
	}
	for i := range g.points {
		p := &g.points[i]
		if p.series != series {
			continue
		}
		w := p.workload
		if len(tools) > 1 && w != "" {
			w = p.tool + " " + w
		}
		switch {
		case w == "":
		case p.settings != "" && strings.HasPrefix(p.label, p.settings):
			p.label = settingsFirst(p.settings, settingsFirst(w, strings.TrimPrefix(strings.TrimPrefix(p.label, p.settings), " · ")))
		default:
			p.label = settingsFirst(w, p.label)
		}
	}
	g.warnings = append(g.warnings, fmt.Sprintf("the runs measure %d workloads (%s): a ratio between two of them compares the workloads, not their settings; each configuration is named with its workload",
		len(workloads), strings.Join(workloads, ", ")))
}

// runWorkload is the workload a run names, empty when it names none: a
// pgbench log (-l), named "aggregate log" or "transaction log" by its
// form, does not say which script it measured.
func runWorkload(r *parse.Run) string {
	if r.Tool == "pgbench" && (r.Name == "aggregate log" || r.Name == "transaction log") {
		return ""
	}
	return r.Name
}

// measuredRuns leaves out the runs made under a rate limit (pgbench
// -R/--rate): they ran at the rate asked for, and set beside the others
// read as a slowdown ("-82.3 % slower" for a -R 200 run).
func (g *gathered) measuredRuns(runs []*parse.Run) []*parse.Run {
	var kept []*parse.Run
	for _, r := range runs {
		if r.Config[parse.RateLimitKey] != "yes" {
			kept = append(kept, r)
			continue
		}
		g.notices = append(g.notices, parse.Notice{File: r.File, Line: r.Line,
			Msg: fmt.Sprintf("%s %s under a rate limit (pgbench -R): the schedule's rate, not the server's capacity: left out", r.Unit.Symbol, units.Sig3(r.Value))})
	}
	return kept
}

func (g *gathered) add(p raw) {
	if !g.inOrder[p.series] {
		if g.inOrder == nil {
			g.inOrder = map[string]bool{}
		}
		g.inOrder[p.series] = true
		g.order = append(g.order, p.series)
	}
	g.points = append(g.points, p)
}

// scaleSizes shows sizes read in bytes in a unit a DBA reads (MB, GB…).
func (g *gathered) scaleSizes() {
	if g.xUnit.Kind != parse.KindSize || g.xUnit.Factor != 1 || len(g.points) == 0 {
		return
	}
	xs := make([]float64, len(g.points))
	for i, p := range g.points {
		xs[i] = p.x
	}
	sort.Float64s(xs)
	u := parse.SizeUnitFor(xs[len(xs)/2])
	for i := range g.points {
		g.points[i].x /= u.Factor
	}
	g.xUnit = u
}

// defaultRunKey is the size setting the runs carry, in order of preference,
// and that tells them apart: five pgbench runs all at scale 2 (differing
// in clients) are no degradation series, whatever their scale line says.
func defaultRunKey(runs []*parse.Run) string {
	if len(runs) > 1 && !slices.ContainsFunc(runs, func(r *parse.Run) bool { return r.Tool != benchTool }) {
		return benchRunKey(runs)
	}
	for _, k := range slices.Concat(sizeKeys, sizeDrivers) {
		if n, all := keyValues(runs, k); all && (n > 1 || len(runs) == 1) {
			return k
		}
	}
	return ""
}

// settingKeys are the settings that make a run's configuration, by tool:
// runs that differ in one measure different things and are no repeats of
// one configuration, nor points of one curve. How long a run measured
// (duration, transactions) is not one: it changes the precision, not what
// is measured.
var settingKeys = map[string][]string{
	"pgbench":  {"clients", "threads", "scale", "query_mode"},
	"sysbench": {"threads"},
	// HammerDB's autopilot runs one test per virtual-user count, each
	// result after its "N Active Virtual Users configured" line.
	"hammerdb": {"vusers", "warehouses"},
	benchTool:  {"terminals", "page_buffers", "warehouses", "mode", "home"},
}

// sizeKeys are the settings that give a database's size itself, and
// sizeDrivers those it follows from: with a size as x they are the x,
// not another setting. defaultRunKey prefers them in this order.
var (
	sizeKeys    = []string{"db_bytes", "db_size", "dbsize", "size", "size_gb"}
	sizeDrivers = []string{"scale", "warehouses", "count_ware"}
)

// containsKey says whether keys has k, names compared as Run.Key
// compares them (page-buffers is page_buffers).
func containsKey(keys []string, k string) bool {
	return slices.ContainsFunc(keys, func(s string) bool { return parse.SameKey(s, k) })
}

// differingSettings lists the settings of settingKeys, other than x,
// whose values differ among the runs that have them (pgbench's five runs
// of a trace at -c 4 -j 2, -c 2 -j 1 and -c 2 -j 2: clients, threads).
func differingSettings(runs []*parse.Run, x string) []string {
	sizeX := containsKey(sizeKeys, x)
	var keys []string
	for _, r := range runs {
		for _, k := range settingKeys[r.Tool] {
			if !slices.Contains(keys, k) && !parse.SameKey(k, x) && !(sizeX && slices.Contains(sizeDrivers, k)) {
				keys = append(keys, k)
			}
		}
	}
	var differ []string
	for _, k := range keys {
		values := map[string]bool{}
		for _, r := range runs {
			if v, ok := r.Key(k); ok {
				values[v] = true
			}
		}
		if len(values) > 1 {
			differ = append(differ, k)
		}
	}
	return differ
}

// settingsOf writes the run's values of the settings keys ("clients=4
// threads=2"), those it has.
func settingsOf(r *parse.Run, keys []string) string {
	var parts []string
	for _, k := range keys {
		if v, ok := r.Key(k); ok {
			parts = append(parts, k+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// settingsFirst labels a configuration by the settings that tell it
// apart, then what all share (the file, the tool): "clients=2 threads=1
// · pgbench15-runs-trace". A label cut to fit keeps what differs, where
// "pgbench15-runs-trace clients=2 …" read the same for two
// configurations.
func settingsFirst(settings, common string) string {
	switch {
	case settings == "":
		return common
	case common == "":
		return settings
	}
	return settings + " · " + common
}

// benchTool is the Tool of fbdiag bench's results (parse.Run).
const benchTool = "fbdiag bench"

// benchRunKey is the setting fbdiag bench's runs were made to compare:
// their database grows with every run, so its size tells them apart
// even when they ran on the same warehouses; it is their x only when the
// warehouses differ (bench sweep --warehouses). Otherwise it is the page
// buffers or the terminals that differ, else none (repeats of one
// configuration): a page-buffer sweep's runs were read as a degradation
// over the 121 to 137 MiB its runs had grown the database, "60 % lost
// per size doubling".
func benchRunKey(runs []*parse.Run) string {
	if n, _ := keyValues(runs, "warehouses"); n > 1 {
		if _, all := keyValues(runs, "db_bytes"); all {
			return "db_bytes"
		}
		return "warehouses"
	}
	for _, k := range []string{"page_buffers", "terminals"} {
		if n, all := keyValues(runs, k); all && n > 1 {
			return k
		}
	}
	return ""
}

// keyValues counts the distinct values of setting k among runs, and says
// whether every run has it.
func keyValues(runs []*parse.Run, k string) (n int, all bool) {
	values := map[string]bool{}
	for _, r := range runs {
		v, ok := r.Key(k)
		if !ok {
			return len(values), false
		}
		values[v] = true
	}
	return len(values), true
}

// dropSubKey removes "/key=value" from a Go benchmark name, so that runs
// differing only in the x setting form one series.
func dropSubKey(name, key string) string {
	parts := strings.Split(name, "/")
	out := parts[:0]
	for _, p := range parts {
		if k, _, ok := strings.Cut(p, "="); ok && k == key {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, "/")
}

// runLabel names a configuration after its file: "balanced-2.txt" and
// "balanced-3.txt" are two runs of "balanced".
func runLabel(file string) string {
	base := filepath.Base(file)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	if l := runNumberRe().ReplaceAllString(base, ""); l != "" {
		return l
	}
	return base
}

// fromTables turns table columns into points.
func (g *gathered) fromTables(tables []*parse.Table, opt Options) error {
	byFile := map[string][]*parse.Table{}
	var files []string
	for _, t := range tables {
		if _, ok := byFile[t.File]; !ok {
			files = append(files, t.File)
		}
		byFile[t.File] = append(byFile[t.File], t)
	}
	var first *parse.Table
	for _, f := range files {
		merged, notes := parse.MergeTables(byFile[f])
		g.notices = append(g.notices, notes...)
		t, err := pickTable(merged, opt.Table)
		if err != nil {
			return err
		}
		if len(merged) > 1 && opt.Table == 0 {
			g.notices = append(g.notices, parse.Notice{File: f, Line: t.Line,
				Msg: fmt.Sprintf("%d tables in the file: using this one, table %d (the largest, the last on ties)", len(merged), tableIndex(merged, t))})
		}
		prefix := ""
		if len(files) > 1 {
			prefix = runLabel(f)
		}
		switch err := g.fromTable(t, opt, prefix, first == nil); {
		case err == errLeftOut:
			continue // (a notice says why)
		case err != nil:
			return err
		}
		g.inputs = append(g.inputs, f)
		if first == nil {
			first = t
		}
	}
	return nil
}

func pickTable(tables []*parse.Table, n int) (*parse.Table, error) {
	if n > 0 {
		if n > len(tables) {
			return nil, &OptionError{Option: OptionTable, Value: strconv.Itoa(n), Msg: fmt.Sprintf("%s has %s", tables[0].File, units.Count(len(tables), "table"))}
		}
		return tables[n-1], nil
	}
	best := tables[0]
	for _, t := range tables[1:] {
		if len(t.Rows) >= len(best.Rows) {
			best = t
		}
	}
	return best, nil
}

func colErr(t *parse.Table, option, spec string) error {
	return &OptionError{Option: option, Value: spec,
		Msg: fmt.Sprintf("no such column in %s:%d (columns: %s)", t.File, t.Line, strings.Join(t.ColumnNames(), ", "))}
}

// tableIndex is the 1-based number of t among tables.
func tableIndex(tables []*parse.Table, t *parse.Table) int {
	for i, c := range tables {
		if c == t {
			return i + 1
		}
	}
	return 0
}

// rowNames says whether column i of names only names each row (every
// value its own, over 3 rows or more: a log file's name, a run's id) while
// a numeric setting column groups the rows into repeats (each of its
// values on two rows or more): such a column is no configuration, and
// the x is that setting. restore-page-buffers.csv
// (page_buffers,run,restore_seconds,log: 5 settings × 5 runs, each row
// naming its log) was read as 25 configurations of one run each against
// "restore-bu64-run1.log". A names column of repeated values, or of
// distinct ones with no such setting (power-plan-tpcc.tsv), stays the x.
func rowNames(t *parse.Table, i int) bool {
	n := len(t.Rows)
	if n < 3 {
		return false
	}
	seen := map[string]bool{}
	for r := range n {
		v := strings.TrimSpace(t.Text(r, i))
		if v == "" || seen[v] {
			return false
		}
		seen[v] = true
	}
	for j, c := range t.Columns {
		if j == i || !c.Numeric || isCounter(c) {
			continue
		}
		switch c.Unit.Kind {
		case parse.KindTime, parse.KindSpeed, parse.KindRate:
			continue // a measure, not a setting
		}
		// (each value on two rows or more: a measure whose values happen
		// to repeat, 3.347 s twice of three restores, groups nothing)
		rows := map[float64]int{}
		finite := 0
		for _, v := range c.Values {
			if !math.IsNaN(v) {
				rows[v]++
				finite++
			}
		}
		repeats := finite == n && len(rows) >= 2
		for _, k := range rows {
			repeats = repeats && k >= 2
		}
		if repeats {
			return true
		}
	}
	return false
}

// isCounter reports a row-number column ("#", "db", "run": 1, 2, 3…).
func isCounter(c parse.Column) bool {
	if !c.Numeric || len(c.Values) < 2 {
		return false
	}
	for i, v := range c.Values {
		if v != float64(i+1) {
			return false
		}
	}
	return true
}

func (g *gathered) fromTable(t *parse.Table, opt Options, prefix string, first bool) error {
	// x: asked for, else the first size column, else the first column of
	// names, else the first number that is not a row counter (a sweep over
	// 1, 2, 3… clients or threads counts like one but is the x).
	xi := -1
	if opt.X != "" {
		i, ok := t.Col(opt.X)
		if !ok {
			return colErr(t, OptionX, opt.X)
		}
		xi = i
	}
	for pass := 0; xi < 0 && pass < 3; pass++ {
		for i, c := range t.Columns {
			if (pass == 0 && c.Numeric && c.Unit.Kind == parse.KindSize) ||
				(pass == 1 && !c.Numeric && !rowNames(t, i)) ||
				(pass == 2 && c.Numeric && (!isCounter(c) || concurrencyLike(c.Name)) && c.Unit.Kind != parse.KindRate) {
				xi = i
				break
			}
		}
	}
	if xi < 0 {
		return fmt.Errorf("%s:%d: %w as x (columns: %s)", t.File, t.Line, ErrNoColumn, strings.Join(t.ColumnNames(), ", "))
	}
	xc := t.Columns[xi]
	categorical := !xc.Numeric
	// Load speed: a size x with a time or speed column, no throughput
	// column and no y asked for. A table with a throughput column and
	// times beside it (fbdiag bench sweep's: tpmc and a latency in ms)
	// is a degradation.
	timeCol, speedCol, hasRate, latencyTime := -1, -1, false, false
	for i, c := range t.Columns {
		// A latency is a time too, but of one operation: a size with
		// latency_ms is how the latency degrades, not how long a load took
		// (unless --mode load says so).
		if c.Numeric && c.Unit.Kind == parse.KindTime && (timeCol < 0 || latencyTime) {
			if l := latencyLike(c.Name); timeCol < 0 || !l {
				timeCol, latencyTime = i, l
			}
		}
		if c.Numeric && c.Unit.Kind == parse.KindSpeed && speedCol < 0 {
			speedCol = i
		}
		hasRate = hasRate || c.Numeric && c.Unit.Kind == parse.KindRate
	}
	isLoad := xc.Unit.Kind == parse.KindSize && (timeCol >= 0 && !latencyTime || speedCol >= 0) && !hasRate && opt.Y == "" && len(opt.Series) == 0
	if opt.Mode != "" {
		isLoad = opt.Mode == ModeLoad
	}
	if !first {
		if why := g.joins(xc, categorical, isLoad); why != "" {
			g.notices = append(g.notices, parse.Notice{File: t.File, Line: t.Line, Msg: why})
			return errLeftOut
		}
	}
	if isLoad {
		if xc.Unit.Kind != parse.KindSize {
			return fmt.Errorf("load mode: x column %q has no size unit (want a header such as size_gb)", xc.Name)
		}
		if timeCol < 0 && speedCol < 0 {
			return fmt.Errorf("load mode: no load time column (a time unit such as load_time_s) nor speed column (MB/s)")
		}
		g.load = newLoadColumns(t, xi, timeCol, speedCol)
		g.xName, g.xUnit, g.mode = xc.Name, xc.Unit, ModeLoad
		return nil
	}
	// y columns and the series column.
	var ys []int
	seriesCol := -1
	for _, spec := range opt.Series {
		for _, one := range strings.Split(spec, ",") {
			i, ok := t.Col(one)
			if !ok {
				return colErr(t, OptionSeries, one)
			}
			if t.Columns[i].Numeric {
				ys = append(ys, i)
			} else {
				seriesCol = i
			}
		}
	}
	if opt.Y != "" {
		ys = ys[:0]
		for _, one := range strings.Split(opt.Y, ",") {
			i, ok := t.Col(one)
			if !ok {
				return colErr(t, OptionY, one)
			}
			ys = append(ys, i)
		}
	}
	if len(ys) == 0 {
		for i, c := range t.Columns {
			if i != xi && i != seriesCol && c.Numeric && c.Unit.Kind == parse.KindRate {
				ys = append(ys, i)
			}
		}
	}
	if len(ys) == 0 {
		// No rate unit in the headers: the numbers that are not x nor a
		// row counter and measure what the last of them measures.
		kind := parse.Kind(-1)
		for i := len(t.Columns) - 1; i >= 0; i-- {
			if c := t.Columns[i]; i != xi && i != seriesCol && c.Numeric && !isCounter(c) {
				kind = c.Unit.Kind
				break
			}
		}
		for i, c := range t.Columns {
			if i != xi && i != seriesCol && c.Numeric && !isCounter(c) && c.Unit.Kind == kind {
				ys = append(ys, i)
			}
		}
	}
	for _, yi := range ys {
		g.noteY(t.Columns[yi].Name)
	}
	if len(ys) == 0 {
		// A column of 1, 2, 3… is passed over as a row counter: say so,
		// rather than that no column holds numbers ("x,y" with x 1..4 took
		// y as x and read "none holds numbers").
		why := "none holds numbers"
		for i, c := range t.Columns {
			if i != xi && i != seriesCol && isCounter(c) {
				why = fmt.Sprintf("the numbers of %q count the rows (1, 2, 3…) and %q is x", c.Name, xc.Name)
				break
			}
		}
		return fmt.Errorf("%s:%d: %w as y: %s (columns: %s)", t.File, t.Line, ErrNoColumn, why, strings.Join(t.ColumnNames(), ", "))
	}
	for _, yi := range ys {
		if !t.Columns[yi].Numeric {
			return &OptionError{Option: OptionY, Value: t.Columns[yi].Name, Msg: "the column holds names, not numbers"}
		}
	}
	if first {
		g.xName, g.xUnit, g.categorical = xc.Name, xc.Unit, categorical
		g.yUnit = t.Columns[ys[0]].Unit
		g.yName = t.Columns[ys[0]].Name
		if len(ys) > 1 {
			g.yName = g.yUnit.Symbol
			// Columns of different units (tps and latency_ms): y is named
			// by them all, without a unit, rather than by the first's.
			names, mixed := []string{}, false
			for _, yi := range ys {
				names = append(names, t.Columns[yi].Name)
				mixed = mixed || t.Columns[yi].Unit.Symbol != g.yUnit.Symbol
			}
			if mixed {
				g.yName, g.yUnit = strings.Join(names, ", "), parse.Unit{}
			}
		}
		g.mode = chooseMode(xc.Unit, xc.Name, categorical, false)
	}
	steadyCol := steadyColumn(t)
	if steadyCol >= 0 && oldSweepTable(t) {
		g.notices = append(g.notices, parse.Notice{File: t.File, Line: t.Line,
			Msg: "a fbdiag bench sweep table written before 2026-12-06 (no rolled_back column): its tpmc leaves out the New-Orders rolled back by design, " +
				"so it reads about 1 % under the tpmC of bench results and of newer tables, which count them; the runs' result files (--runs-dir) give that tpmC"})
	}
	// A row left out is said once, whatever the number of y columns.
	skipped := map[int]bool{}
	skip := func(r int, msg string) {
		if !skipped[r] {
			skipped[r] = true
			g.notices = append(g.notices, parse.Notice{File: t.File, Line: t.Rows[r].Line, Msg: msg})
		}
	}
	for _, yi := range ys {
		yc := t.Columns[yi]
		for r := range t.Rows {
			y := yc.Values[r]
			name := yc.Name
			if seriesCol >= 0 {
				name = t.Text(r, seriesCol)
				if len(ys) > 1 {
					name += " " + yc.Name
				}
			}
			if prefix != "" {
				name = prefix + " " + name
				if len(ys) == 1 && seriesCol < 0 {
					name = prefix
				}
			}
			if math.IsNaN(y) {
				// A cell that is not a number was said by the reader; an
				// empty one, of a row that has its x, is said here.
				if emptyCell(t.Text(r, yi)) && !emptyCell(t.Text(r, xi)) && (categorical || !math.IsNaN(xc.Values[r])) {
					g.notices = append(g.notices, parse.Notice{File: t.File, Line: t.Rows[r].Line,
						Msg: fmt.Sprintf("column %q: empty cell; row left out of series %q", yc.Name, name)})
				}
				continue
			}
			if y < 0 && (yc.Unit.Kind == parse.KindRate || yc.Unit.Kind == parse.KindSpeed) {
				// (no run does less than nothing: a typo, or a change
				// column named as a rate)
				g.notices = append(g.notices, parse.Notice{File: t.File, Line: t.Rows[r].Line,
					Msg: fmt.Sprintf("column %q: %q is no throughput (less than 0): row left out of series %q", yc.Name, t.Text(r, yi), name)})
				continue
			}
			p := raw{series: name, y: y, src: fmt.Sprintf("%s:%d", t.File, t.Rows[r].Line), unit: yc.Unit}
			if steadyCol >= 0 {
				if v := t.Columns[steadyCol].Values[r]; !math.IsNaN(v) {
					steady := v == 1
					p.steady = &steady
				}
			}
			if categorical {
				p.label = t.Text(r, xi)
				if p.label == "" {
					skip(r, fmt.Sprintf("no name in column %q: row skipped", xc.Name))
					continue
				}
			} else {
				p.x = xc.Values[r]
				if math.IsNaN(p.x) {
					skip(r, "row without x: skipped")
					continue
				}
				if xc.Unit.Kind == parse.KindSize && beyondBytes(p.x*xc.Unit.Factor) {
					skip(r, beyondBytesRow(xc.Name, t.Text(r, xi)))
					continue
				}
				if xc.Unit.Kind == parse.KindSize && p.x <= 0 {
					skip(r, fmt.Sprintf("%s %q %s: row skipped", xc.Name, t.Text(r, xi), noSizeMsg))
					continue
				}
				if !first && xc.Unit.Kind == g.xUnit.Kind && xc.Unit.Factor != 0 && g.xUnit.Factor != 0 {
					p.x = p.x * xc.Unit.Factor / g.xUnit.Factor
				}
			}
			g.add(p)
		}
	}
	return nil
}

// noteY keeps the name of a y column or a run's figure, once.
func (g *gathered) noteY(name string) {
	if !slices.Contains(g.yNames, name) {
		g.yNames = append(g.yNames, name)
	}
}

// yUnits lists the units of the points' y, in order of appearance.
func (g *gathered) yUnits() []string {
	var units []string
	for _, p := range g.points {
		if !slices.Contains(units, p.unit.Symbol) {
			units = append(units, p.unit.Symbol)
		}
	}
	return units
}

// mixedY names y by every input's y, without a unit, when the inputs'
// units differ (a tps table and a tpmC one, pgbench's tps and HammerDB's
// NOPM): the first's name and unit read over the others' figures.
func (g *gathered) mixedY() {
	if len(g.yUnits()) > 1 && g.load == nil {
		g.yName, g.yUnit = strings.Join(g.yNames, ", "), parse.Unit{}
	}
}

// emptyCell says whether a cell holds nothing, as the table reader reads
// "", "-" and "—": no figure written.
func emptyCell(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || s == "-" || s == "—"
}

// steadyColumn finds the column of fbdiag bench sweep's table that says
// whether each run's throughput held steady (steady: 1 or 0), or -1.
// Another table's column of that name holding other numbers is not it.
func steadyColumn(t *parse.Table) int {
	i, ok := t.Col("steady")
	if !ok || !t.Columns[i].Numeric || !strings.EqualFold(strings.TrimSpace(t.Columns[i].Name), "steady") {
		return -1
	}
	for _, v := range t.Columns[i].Values {
		if !math.IsNaN(v) && v != 0 && v != 1 {
			return -1
		}
	}
	return i
}

// oldSweepTable says whether t is a table of fbdiag bench sweep written
// before its tpmc counted the New-Orders rolled back by design: its
// columns but the rolled_back that came with that change.
func oldSweepTable(t *parse.Table) bool {
	for _, c := range []string{"tpmc", "committed", "window_s", "page_buffers_used"} {
		if _, ok := t.Col(c); !ok {
			return false
		}
	}
	_, ok := t.Col("rolled_back")
	return !ok
}

// errLeftOut is fromTable's word for a table that is not of the first
// input's experiment: a notice says why, and the analysis goes on
// without it.
var errLeftOut = errors.New("left out")

// joins says why a later input's table, whose x is xc (a load table when
// load), cannot join the experiment of the first input, or "" when it
// can. Another experiment's points would be read in the first's units
// (page buffers 256 to 2048 taken for sizes in GiB) or dropped by its
// mode without a word (a load table beside a degradation), and a second
// load table would replace the first.
func (g *gathered) joins(xc parse.Column, categorical, load bool) string {
	first := "the first input, " + g.inputs[0] + ", "
	if load && g.mode == ModeLoad {
		return "left out: a second load table (" + first + "is one): fbdiag throughput analyses one at a time; " + alone
	}
	if load != (g.mode == ModeLoad) || categorical != g.categorical || !categorical && !sameQuantity(g.xName, g.xUnit, xc) {
		return "left out: " + xShape(xc.Name, xc.Unit, categorical, load) + ", where " + first +
			"is " + xShape(g.xName, g.xUnit, g.categorical, g.mode == ModeLoad) + ": another experiment; " + alone
	}
	return ""
}

// alone is what to do with a table left out of the analysis.
const alone = "analyse it on its own, or every file with fbdiag report (a section each)"

// xShape describes a table by its x for joins's notice.
func xShape(name string, u parse.Unit, categorical, load bool) string {
	switch {
	case load:
		return "a load table (a size and a load time)"
	case categorical:
		return "throughput against " + name + " (names)"
	case u.Kind == parse.KindNone:
		return "throughput against " + name + " (a number)"
	}
	return "throughput against " + name + " (a " + u.Kind.String() + ")"
}

// sameQuantity says whether x columns a (unit au) and b measure the same
// thing: the same unit kind (sizes in GB and in bytes are converted), or
// for bare numbers the same name or both a concurrency (clients,
// threads).
func sameQuantity(a string, au parse.Unit, b parse.Column) bool {
	switch {
	case au.Kind != b.Unit.Kind:
		return false
	case au.Kind != parse.KindNone:
		return true
	}
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b.Name)) || concurrencyLike(a) && concurrencyLike(b.Name)
}

// runTerminalsOver is a fbdiag bench run's terminals a warehouse when
// more than the spec's (rule bench-terminals), from its settings; 0 for
// other runs.
func runTerminalsOver(r *parse.Run) float64 {
	if r.Tool != "fbdiag bench" {
		return 0
	}
	terminals, err1 := strconv.Atoi(r.Config["terminals"])
	warehouses, err2 := strconv.Atoi(r.Config["warehouses"])
	if err1 != nil || err2 != nil {
		return 0
	}
	if per, over := terminalsOverSpec(terminals, warehouses, NewThresholds()); over {
		return per
	}
	return 0
}

// runMixShort checks a fbdiag bench run's kinds against the spec's
// minimums as its own summary does (mixShort), from the counts of its
// result's first line; nil for other runs.
func runMixShort(r *parse.Run) []BenchMixShort {
	if len(r.Kinds) != len(parse.BenchKinds) {
		return nil
	}
	var total int64
	for _, k := range r.Kinds {
		total += k.Completed()
	}
	if total == 0 {
		return nil
	}
	tx := make([]BenchTransaction, len(r.Kinds))
	for i, k := range r.Kinds {
		tx[i] = BenchTransaction{Name: parse.BenchKinds[i], Committed: k.Committed, RolledBack: k.RolledBack, GaveUp: k.GaveUp, Errors: k.Errors,
			Share: 100 * float64(k.Completed()) / float64(total)}
	}
	return mixShort(tx, NewThresholds())
}
