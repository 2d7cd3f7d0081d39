package view

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// GbakTop is how many steps, slowest first, the human formats show of a
// gbak log by default; GbakListTop how many tables, indices and steps
// found on one side only. The writers count the rest; CSV has every row.
const (
	GbakTop     = 10
	GbakListTop = 20
)

// GbakFindingsTop is how many errors and warnings text and markdown show
// of a gbak log without --all, the first ones; the others are counted. A
// failed restore prints a few (the corpus's most: four), a broken one can
// print a million: fbdiag's own bound, far above the first.
const GbakFindingsTop = 100

// GbakChartSteps is how many steps the restore charts show.
const GbakChartSteps = 10

// gbakCostNote says how fbdiag charges a step, under every list of steps.
const gbakCostNote = "A step's cost is the interval from its line to the next: gbak prints a step, then does it " +
	"(\"created database\", \"started transaction\", a backup's \"readied database\" and \"closing file\" come after the work: their own line is their cost)."

// atLeastNote explains the "at least" of a step the log ends inside.
const atLeastNote = "at least: the log ends inside the step (a killed server, a cut log); it took at least that long."

// GbakOptions are the reader's choices for the view of one gbak log.
type GbakOptions struct {
	// Top bounds the steps text, markdown and HTML show, slowest first
	// (0: GbakTop).
	Top int
	// Kept, when set, holds the rows to show of a timeline streamed
	// without its steps, tables and indices (GbakKeeper); the view has a
	// chart only when the keeper gathered its input (WithChart).
	Kept *GbakKept
}

// Gbak lays out the timeline of one gbak log: the outcome and totals, the
// errors and warnings gbak printed and the steps the log ends inside as
// findings, then the phases, each table's data and each index build (in
// natural order of their names) and every step, slowest first (the main
// table). Charts holds the timeline chart when a step has a time.
func Gbak(tl *analyze.Timeline, opt GbakOptions) *Doc {
	top := cmp.Or(opt.Top, GbakTop)
	k := opt.Kept
	if k == nil {
		k = &GbakKept{Steps: tl.Steps, Tables: tl.Tables, Indices: tl.Indices, Cut: cutSteps(tl.Steps),
			StepCount: len(tl.Steps), TableCount: len(tl.Tables), IndexCount: len(tl.Indices),
			Wrapped: countWrapped(tl.Steps)}
	}
	d := &Doc{
		Lead:          "gbak " + gbakKind(tl) + ": ",
		Title:         tl.File,
		Source:        tl.File,
		Main:          "steps",
		FindingsTitle: "Errors and warnings",
		FindingsName:  "findings",
		Headline:      gbakHeadline(tl),
		Notes:         tl.Notes,
	}
	if opt.Kept == nil {
		d.Findings = gbakFindings(tl, tl.Errors, tl.Warnings, k.Cut)
	} else {
		d.Findings = gbakFindings(tl, k.Errors, k.Warnings, k.Cut)
		d.FindingsLimit = k.messages
		d.FindingsOmitted = omittedMessages(tl, k)
	}
	// A table the log has nothing for (no index builds in a backup, no
	// data in a metadata-only run) is still a CSV table: its header row,
	// so that a scheduled export does not fail on that log.
	if len(tl.Phases) > 0 {
		d.Tables = append(d.Tables, gbakPhases(tl))
	} else {
		d.Empty = append(d.Empty, gbakPhases(tl))
	}
	if k.TableCount > 0 {
		d.Tables = append(d.Tables, gbakTables(k))
	} else {
		d.Empty = append(d.Empty, gbakTables(k))
	}
	if k.IndexCount > 0 {
		d.Tables = append(d.Tables, gbakIndices(k, tl.Outcome))
	} else {
		d.Empty = append(d.Empty, gbakIndices(k, tl.Outcome))
	}
	d.Tables = append(d.Tables, gbakSteps(k, top))
	var c plot.RestoreTimeline
	switch {
	case opt.Kept == nil:
		c = GbakTimelineChart(tl, GbakChartSteps)
	case opt.Kept.chart != nil:
		c = opt.Kept.chart.finish(tl)
	}
	if len(c.Phases)+len(c.Items) > 0 {
		c.Backup = tl.Kind != nil && *tl.Kind == parse.GbakBackup
		if ch, err := plot.RestoreTimelineChart(c); err == nil {
			ch.Name = plot.SafeName(filepath.Base(tl.File))
			d.Charts = append(d.Charts, ch)
		}
	}
	return d
}

// gbakKind is "restore", "backup" or "log" when the log did not say.
func gbakKind(tl *analyze.Timeline) string {
	if tl.Kind == nil {
		return "log"
	}
	return *tl.Kind
}

func gbakHeadline(tl *analyze.Timeline) []Field {
	fs := []Field{{Key: "outcome", Label: "Outcome", Value: Str(tl.Outcome)}}
	fs = append(fs, Field{Key: "total_seconds", Label: "Total time", Value: SecP(tl.TotalSeconds)})
	if tl.TotalLowerBound {
		// as a step the log ends inside: "at least"
		const bound = "at least: gbak failed after its last timestamp, when the log does not say"
		fs[1].Detail, fs[1].Caveat = "("+bound+")", bound
	}
	if tl.TotalSeconds == nil && tl.LastTimeSeconds != nil {
		// An excerpt stops anywhere: its last time is no total.
		fs[1].Unknown = "unknown (the log is incomplete)"
		fs = append(fs, Field{Key: "last_time_seconds", Label: "Last timestamp", Value: Sec(*tl.LastTimeSeconds),
			Detail: "(when the last line was printed)"})
	}
	cols := tl.Columns
	if cols == "" {
		cols = "none"
	}
	if tl.ReadsSoFar != nil || tl.WritesSoFar != nil {
		// as the time: what the log shows, not the run's total
		soFar := "so far (the log is incomplete)"
		if tl.TotalLowerBound {
			soFar = "so far (gbak failed after its last timestamp)"
		}
		fs = append(fs,
			Field{Key: "reads_so_far", Label: "Page reads", Value: IntP(tl.ReadsSoFar), Detail: soFar},
			Field{Key: "writes_so_far", Label: "Page writes", Value: IntP(tl.WritesSoFar), Detail: soFar})
	} else {
		fs = append(fs,
			Field{Key: "total_reads", Label: "Page reads", Value: IntP(tl.TotalReads)},
			Field{Key: "total_writes", Label: "Page writes", Value: IntP(tl.TotalWrites)})
	}
	// (CSV: JSON's columns, "" without -st; people read "none")
	fs = append(fs, Field{Key: "statistics", Label: "Statistics", Value: Str(tl.Columns), Human: cols})
	if n := tl.InactiveIndices; n != nil && *n > 0 && tl.RestoredIndices != nil {
		// Beside the outcome: "completed" alone read as a database ready
		// for use when gbak -i had left its every key unchecked.
		fs = slices.Insert(fs, 1, Field{Key: "inactive_indices", Label: "Inactive indices", Value: Int(int64(*n)),
			Detail: fmt.Sprintf("of %d restored", *tl.RestoredIndices)})
	}
	return fs
}

// cutSteps are the steps the log ends inside, with their time.
func cutSteps(steps []analyze.GbakStep) []analyze.GbakStep {
	var out []analyze.GbakStep
	for i := range steps {
		if cutStep(&steps[i]) {
			out = append(out, steps[i])
		}
	}
	return out
}

// cutStep reports whether the log ends inside step st, with its time (a
// finding).
func cutStep(st *analyze.GbakStep) bool { return st.LowerBound && st.Seconds != nil }

func gbakFindings(tl *analyze.Timeline, errs, warns []string, cut []analyze.GbakStep) []Finding {
	var out []Finding
	if n := len(errs) + len(warns) + len(cut); n > 0 {
		// (Sized once: --all of a log of a million error lines grew it
		// through copies of up to twice its 280 MB.)
		out = make([]Finding, 0, n)
	}
	what := gbakKind(tl)
	// fbdiag's advice on a message is the finding's: "do:" in text,
	// "Do:" in markdown and HTML, the CSV's advice column (JSON: advice[]).
	// (A map: a log can hold a million error lines and a thousand
	// advised messages.)
	byMsg := make(map[string]string, len(tl.Advice))
	for _, a := range tl.Advice {
		if _, ok := byMsg[a.Message]; !ok {
			byMsg[a.Message] = a.Advice
		}
	}
	advice := func(msg string) string { return byMsg[msg] }
	for _, e := range errs {
		out = append(out, Finding{Severity: "critical", Rule: "gbak-error", Object: what, Message: e,
			Value: Null(NumberKind), Threshold: Null(NumberKind), Advice: advice(e)})
	}
	for _, w := range warns {
		out = append(out, Finding{Severity: "warning", Rule: "gbak-warning", Object: what, Message: w,
			Value: Null(NumberKind), Threshold: Null(NumberKind), Advice: advice(w)})
	}
	if sev, msg, adv, ok := tl.InactiveIndexFinding(); ok {
		out = append(out, Finding{Severity: sev, Rule: "inactive-indices", Object: what, Message: msg,
			Value: Int(int64(*tl.InactiveIndices)), Threshold: Null(CountKind), Advice: adv})
	}
	for _, st := range cut {
		m := "The log ends inside this step: it took at least " + units.Seconds(*st.Seconds)
		if st.Records != nil {
			m += ", " + units.Count(*st.Records, "record") + " logged"
		}
		out = append(out, Finding{Severity: "warning", Rule: "cut-short", Object: st.Label(), Message: m + ".",
			Value: Sec(*st.Seconds), Threshold: Null(SecondsKind)})
	}
	return out
}

// omittedMessages counts, worst first, the errors and warnings of a
// streamed timeline that its keeper did not keep.
func omittedMessages(tl *analyze.Timeline, k *GbakKept) []SeverityCount {
	var out []SeverityCount
	if n := tl.ErrorCount - len(k.Errors); n > 0 {
		out = append(out, SeverityCount{Severity: "critical", Count: n})
	}
	if n := tl.WarningCount - len(k.Warnings); n > 0 {
		out = append(out, SeverityCount{Severity: "warning", Count: n})
	}
	return out
}

// boundCols are the columns of atLeast and of the same flag as JSON's
// lower_bound, true or false, for CSV (one key).
var boundCols = []Column{{Key: "bound", Title: "", Kind: TextKind, Human: true}, {Key: "bound", Title: "", Kind: TextKind, Machine: true}}

// atLeast marks a figure that is a lower bound.
func atLeast(b bool) Cell {
	if b {
		return Str("at least")
	}
	return Null(TextKind)
}

func gbakPhases(tl *analyze.Timeline) *Table {
	t := &Table{Name: "phases", Title: "Phases", Noun: "phases", Columns: []Column{
		{Key: "phase", Title: "phase"},
		{Key: "steps", Title: "steps", Kind: CountKind},
		{Key: "unknown_steps", Title: "unknown", Kind: CountKind},
		{Key: "seconds", Title: "time", Kind: SecondsKind},
		{Key: "share", Title: "share", Kind: ShareKind},
		{Key: "reads", Title: "reads", Kind: CountKind},
		{Key: "writes", Title: "writes", Kind: CountKind},
	}}
	t.Columns = append(t.Columns, boundCols...)
	for _, p := range tl.Phases {
		t.Rows = append(t.Rows, []Cell{Str(p.Name), Int(int64(p.Steps)), Int(int64(p.Unknown)), SecP(p.Seconds), ShareP(p.Share),
			pagesP(p.Reads, p.Wrapped), pagesP(p.Writes, p.Wrapped), atLeast(p.LowerBound), boolCell(&p.LowerBound)})
	}
	t.Notes = append(t.Notes, "unknown: steps whose cost the log does not give (the last line, lines missing).")
	if slices.ContainsFunc(tl.Phases, func(p analyze.GbakPhase) bool { return p.Wrapped }) {
		t.Notes = append(t.Notes, wrappedPhaseNote)
	}
	return t
}

func gbakTables(k *GbakKept) *Table {
	t := &Table{Name: "tables", Title: "Table data", Noun: "tables", Limit: GbakListTop, Total: k.TableCount, Columns: []Column{
		{Key: "table", Title: "table", Max: 32},
		{Key: "records", Title: "records", Kind: CountKind},
		{Key: "ignored", Title: "ignored", Kind: CountKind},
		{Key: "seconds", Title: "time", Kind: SecondsKind},
		{Key: "records_per_second", Title: "records/s", Kind: NumberKind},
		{Key: "reads", Title: "reads", Kind: CountKind},
		{Key: "writes", Title: "writes", Kind: CountKind},
	}}
	t.Columns = append(t.Columns, boundCols...)
	idx := make([]int, len(k.Tables))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return units.Compare(k.Tables[a].Name, k.Tables[b].Name) })
	for _, i := range idx {
		x := &k.Tables[i]
		t.Rows = append(t.Rows, []Cell{Str(x.Name), IntP(x.Records), IntP(x.Ignored), SecP(x.Seconds), NumP(x.RecordsPerSecond),
			pagesP(x.Reads, x.Wrapped), pagesP(x.Writes, x.Wrapped), atLeast(x.LowerBound), boolCell(&x.LowerBound)})
	}
	return t
}

func countWrapped(steps []analyze.GbakStep) int {
	n := 0
	for i := range steps {
		if steps[i].Wrapped {
			n++
		}
	}
	return n
}

// pagesP is a step's, table's or phase's page reads or writes: "?" in
// human formats when a wrapped counter took them (analyze.GbakStep.Wrapped).
func pagesP(p *int64, wrapped bool) Cell {
	if wrapped {
		return Unknown(CountKind)
	}
	return IntP(p)
}

// wrappedNote and wrappedPhaseNote say why reads and writes are "?".
const (
	wrappedNote = "reads and writes ?: gbak printed a negative delta (a wrapped counter, Firebird #8027) and the " +
		"next line the jump back, on two steps; only their sum is right, and it counts in their phase"
	wrappedPhaseNote = "reads and writes ? of a phase: a wrapped counter (Firebird #8027) fell on steps of two phases, " +
		"or the log ends after it"
)

// gbakIndices lists the index builds. A build the log gives no end of
// (no step after it: the last line of a cut or failed log) is not "ok"
// unless the run completed; one followed by another step is, timed or
// not (analyze.GbakIndex.Ended).
func gbakIndices(k *GbakKept, outcome string) *Table {
	t := &Table{Name: "indices", Title: "Index builds", Noun: "indices", Limit: GbakListTop, Total: k.IndexCount, Columns: []Column{
		{Key: "index", Title: "index", Max: 40},
		{Key: "seconds", Title: "time", Kind: SecondsKind},
		{Key: "reads", Title: "reads", Kind: CountKind},
		{Key: "writes", Title: "writes", Kind: CountKind},
		{Key: "state", Title: "state"},
		// (JSON's flag, appended: state says it to people, with unknown)
		{Key: "failed", Title: "failed", Machine: true},
	}}
	idx := make([]int, len(k.Indices))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return units.Compare(k.Indices[a].Name, k.Indices[b].Name) })
	for _, i := range idx {
		x := &k.Indices[i]
		state := "ok"
		switch {
		case x.Failed:
			state = "failed"
		case x.Seconds == nil && !x.Ended && outcome != analyze.GbakCompleted:
			state = "unknown"
		}
		t.Rows = append(t.Rows, []Cell{Str(x.Name), SecP(x.Seconds), pagesP(x.Reads, x.Wrapped), pagesP(x.Writes, x.Wrapped), Str(state), boolCell(&x.Failed)})
	}
	if slices.ContainsFunc(t.Rows, func(r []Cell) bool { return r[4].Text == "unknown" }) {
		t.Notes = append(t.Notes, "unknown: the log ends before the build does, and gbak did not report the run complete")
	}
	return t
}

// gbakSteps is every step, the slowest first, those of unknown cost last
// in log order; the human formats show the top ones.
func gbakSteps(k *GbakKept, top int) *Table {
	t := &Table{Name: "steps", Title: "Steps, slowest first", Noun: "steps", Limit: top, Total: k.StepCount, Columns: []Column{
		{Key: "line", Title: "line", Kind: CountKind},
		{Key: "step", Title: "step", Max: 36},
		{Key: "phase", Title: "phase"},
		{Key: "start_seconds", Title: "start", Kind: SecondsKind},
		{Key: "seconds", Title: "time", Kind: SecondsKind},
		{Key: "reads", Title: "reads", Kind: CountKind},
		{Key: "writes", Title: "writes", Kind: CountKind},
	}}
	t.Columns = append(t.Columns, boundCols...)
	// (JSON's kind, object and name, appended: the step column says them
	// to people)
	t.Columns = append(t.Columns, Column{Key: "kind", Title: "kind", Machine: true}, Column{Key: "object", Title: "object", Machine: true},
		Column{Key: "name", Title: "name", Machine: true})
	if d := k.disk; d != nil {
		t.Stream = func(yield func([]Cell) bool) {
			err := d.rows.Each(func(r stepRow) error {
				if !yield(r.cells()) {
					return errStop
				}
				return nil
			})
			if err != nil && err != errStop && d.err == nil {
				d.err = err
			}
		}
		t.Notes = gbakStepNotes(k)
		return t
	}
	idx := make([]int, len(k.Steps))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return compareCost(k.Steps[a].Seconds, k.Steps[b].Seconds) })
	t.Stream = func(yield func([]Cell) bool) {
		for _, i := range idx {
			r := newStepRow(&k.Steps[i], i)
			if !yield(r.cells()) {
				return
			}
		}
	}
	t.Notes = gbakStepNotes(k)
	return t
}

func gbakStepNotes(k *GbakKept) []string {
	notes := []string{gbakCostNote}
	if len(k.Cut) > 0 {
		notes = append(notes, atLeastNote)
	}
	if k.Wrapped > 0 {
		notes = append(notes, wrappedNote)
	}
	return notes
}

// GbakTimelineChart is the timeline chart input: the phases as runs of
// consecutive steps (a phase gbak returns to, like metadata after the
// data, gets several bars on its row), then the slowest tables and
// indices (top, by seconds) where they ran.
func GbakTimelineChart(tl *analyze.Timeline, top int) plot.RestoreTimeline {
	c := newGbakChart(top)
	for i := range tl.Steps {
		c.add(&tl.Steps[i])
	}
	return c.finish(tl)
}

// gbakChart makes GbakTimelineChart's input from the steps as they come:
// it holds the phases' bars and the top slowest items.
type gbakChart struct {
	d     plot.RestoreTimeline
	cur   int // the bar of the phase of the last step, -1 if none
	items kept[plot.Span]
	n     int // items offered
}

func newGbakChart(top int) *gbakChart {
	return &gbakChart{cur: -1, items: kept[plot.Span]{limit: top,
		order: func(a, b *plot.Span) int { return cmp.Compare(b.Duration, a.Duration) }}}
}

func (c *gbakChart) add(st *analyze.GbakStep) {
	if st.Start == nil {
		return
	}
	if st.Phase != "" {
		end := *st.Start
		if st.Seconds != nil {
			end += *st.Seconds
		}
		if c.cur >= 0 && c.d.Phases[c.cur].Name == st.Phase {
			p := &c.d.Phases[c.cur]
			p.Duration = max(p.Duration, end-p.Start)
			p.AtLeast = p.AtLeast || st.LowerBound
		} else {
			c.d.Phases = append(c.d.Phases, plot.Span{Name: st.Phase, Start: *st.Start, Duration: end - *st.Start, Kind: "phase", AtLeast: st.LowerBound})
			c.cur = len(c.d.Phases) - 1
		}
	}
	if st.Seconds == nil {
		return
	}
	switch st.Kind {
	case parse.GbakData:
		name := st.Name
		if st.LowerBound {
			name += " (incomplete)" // the log ends inside it: the bar is what was logged
		}
		c.items.add(&plot.Span{Name: name, Start: *st.Start, Duration: *st.Seconds, Kind: "table data", AtLeast: st.LowerBound}, c.n)
		c.n++
	case parse.GbakActivateIndex:
		c.items.add(&plot.Span{Name: st.Name, Start: *st.Start, Duration: *st.Seconds, Kind: "index build"}, c.n)
		c.n++
	}
}

func (c *gbakChart) finish(tl *analyze.Timeline) plot.RestoreTimeline {
	d := c.d
	d.Title = "Timeline: " + filepath.Base(tl.File)
	// In time order, so the chart reads top to bottom like the log.
	d.Items = slices.Clone(c.items.vs)
	slices.SortStableFunc(d.Items, func(a, b plot.Span) int { return cmp.Compare(a.Start, b.Start) })
	// A phase's row says what the phases table says: the sum of its
	// steps' costs (the bars span the wall-clock time, gaps included).
	for _, p := range tl.Phases {
		if p.Seconds == nil {
			continue
		}
		lbl := units.Seconds(*p.Seconds)
		if p.LowerBound {
			lbl = "≥ " + lbl
		}
		for i := range d.Phases {
			if d.Phases[i].Name == p.Name {
				d.Phases[i].Label = lbl
			}
		}
	}
	return d
}

// GbakRunInfo is what `fbdiag backup` or `fbdiag restore` ran.
type GbakRunInfo struct {
	Action, Server, Database, BackupFile, Switches string
	Started                                        time.Time
	// Log is the log file written, of Lines lines.
	Log   string
	Lines int
	// Replaced: the existing backup file or database was replaced once
	// the new one was complete.
	Replaced bool
	// KeptAs is where a restore gbak finished with errors keeps the
	// database it made, when that is not Database (collect.GbakRun).
	KeptAs string
}

// GbakLive is the view of a backup or restore fbdiag ran: what ran where,
// then the analysis of its log as Gbak lays it out.
func GbakLive(run GbakRunInfo, tl *analyze.Timeline, opt GbakOptions) *Doc {
	d := Gbak(tl, opt)
	d.Lead, d.Title = "gbak "+run.Action+" on "+run.Server+": ", run.Log
	fs := []Field{
		{Key: "database", Label: "Database", Value: Str(run.Database)},
		{Key: "backup_file", Label: "Backup file", Value: Str(run.BackupFile)},
		{Key: "switches", Label: "Switches", Value: Str(run.Switches)},
		{Key: "started", Label: "Started", Value: Time(run.Started.UTC()), Detail: "UTC"},
		{Key: "log", Label: "Log", Value: Str(run.Log), Detail: fmt.Sprintf("(%d lines)", run.Lines)},
	}
	if run.KeptAs != "" {
		// Under the database, which is the original, left as it was.
		fs = slices.Insert(fs, 1, Field{Key: "kept_as", Label: "Restored as", Value: Str(run.KeptAs), Detail: "(not put in its place)"})
	}
	d.Headline = append(fs, d.Headline...)
	if run.Replaced {
		what := map[string]string{"backup": "the existing backup file", "restore": "the existing database"}[run.Action]
		d.Notes = append([]string{"Replaced " + what + " once the new one was complete."}, d.Notes...)
	}
	return d
}
