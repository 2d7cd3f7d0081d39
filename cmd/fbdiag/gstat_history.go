package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/report"
)

// gstatHistoryCommands are the gstat subcommands that compare snapshots
// of one database over time: diff (two) and trend (a series).
func gstatHistoryCommands() []*cli.Command {
	return []*cli.Command{
		{
			Name:      "diff",
			Usage:     "what changed between two gstat snapshots of one database",
			UsageText: "fbdiag gstat diff [--format F] [--all] OLD NEW   (or FILE holding two or more runs)",
			Description: `Compares two gstat outputs of one database: records, back versions, data pages
and bytes gained or lost per table, back versions piling up or collected,
indices whose b-tree grew a level, tables and indices created or dropped
(matched by name: a renamed object is a drop plus a create), and the header
counters. The transaction rate is the Next transaction delta over the time
between the two "Gstat execution time" lines; from it the age of the oldest
active transaction is estimated in each snapshot: (Next - OAT) / rate, kept
only within the bounds the headers set (the transaction started after the
creation date, and before or after the first snapshot as its number says).
The health warnings that appeared, were resolved or changed severity are
listed; warnings on objects the other snapshot does not show (other gstat
switches) are counted, not compared.

Snapshots from different Firebird versions (a restore to a newer ODS in
between) are compared on the values both print; the others are named.
Tables without a schema match their Firebird 6 PUBLIC (SYSTEM) namesakes;
the average fill of 6.0 is computed over non-empty pages only
(firebird#8816) and does not compare with older snapshots.

A file holding several gstat runs counts as its last run; a single FILE
holding two or more runs compares its first and last. The JSON form is the
contract of docs/gstat-history-json.md.`,
			Flags: []cli.Flag{
				formatFlag(),
				&cli.BoolFlag{Name: "all", Usage: "list unchanged tables and indices too"},
			},
			Action: runGstatDiff,
		},
		{
			Name:      "trend",
			Usage:     "growth per table over a series of gstat snapshots, with forecasts",
			UsageText: "fbdiag gstat trend [--format F] [--until SIZE] [--top N] [--png DIR] SNAPSHOT|DIR ...",
			Description: `Orders gstat snapshots (files, or folders of them) by their "Gstat execution
time" and shows the size of the database (tables plus indices) and of each
table over time, fastest growing first. Each series gets a linear and an
exponential least-squares fit; the one with the higher R² is named.
Snapshots whose size adds up other things (gstat -d has no indices, -s adds
the system tables, -h has no size; another database) are left out of the
sizes and listed with the reason; a Firebird 6 upgrade is marked as a break.
With --until SIZE (100GB, 512MiB, 2T; K, M, G and T count in 1024s as gstat
page sizes do) each forecasts when the database and the tables reach SIZE,
with the 95% interval of the fit: from 3 comparable snapshots or more (else
"refused"), no further past the last one than the snapshots span (else
"unreliable", the date in the JSON with the reason). --png DIR writes the
charts history-size.png, history-versions.png and, with a forecast date,
history-forecast.png; a file
of those names that fbdiag did not write is never replaced. A snapshot
without an execution time (gstat before 2.5, cut excerpts) is dated by its
file's modification time, said on stderr; in a folder, files that are not
gstat output are skipped with a line on stderr.`,
			Flags: append([]cli.Flag{
				formatFlag(),
				&cli.StringFlag{Name: "until", Usage: "forecast when the database and each table reach `SIZE`"},
				&cli.IntFlag{Name: "top", Value: 15, Usage: "show the N fastest growing tables (0 = all)"},
			}, chartFlags()...),
			Action: runGstatTrend,
		},
	}
}

// readSnapshots reads every gstat run of one input; notices go to stderr.
func readSnapshots(c *cli.Context, name string) ([]*analyze.HistorySnapshot, error) {
	rc, shown, err := openInput(c, name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var mtime time.Time
	if f, ok := rc.(interface{ Stat() (os.FileInfo, error) }); ok {
		if st, err := f.Stat(); err == nil {
			mtime = st.ModTime().UTC()
		}
	}
	reps, err := parse.ReadGstat(rc, shown)
	if err != nil {
		return nil, err
	}
	e := getEnv(c)
	var out []*analyze.HistorySnapshot
	for _, rep := range reps {
		for _, n := range rep.Notices {
			fmt.Fprintln(e.stderr, n)
		}
		s := analyze.NewHistorySnapshot(rep, analyze.SnapshotOptions{FileTime: mtime})
		if s.DatedByFile() {
			fmt.Fprintf(e.stderr, "%s: run %d has no execution time; dated by the file's modification time %s\n",
				shown, rep.Index+1, mtime.Format(time.DateTime))
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no gstat output found", shown)
	}
	return out, nil
}

func runGstatDiff(c *cli.Context) error {
	e := getEnv(c)
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	var before, after *analyze.HistorySnapshot
	switch c.NArg() {
	case 1:
		snaps, err := readSnapshots(c, c.Args().First())
		if err != nil {
			return err
		}
		if len(snaps) < 2 {
			return usagef("gstat diff: %s holds one gstat run; give OLD and NEW", c.Args().First())
		}
		before, after = snaps[0], snaps[len(snaps)-1]
	case 2:
		if err := stdinOnce("gstat diff", c.Args().Slice()); err != nil {
			return err
		}
		var pair [2]*analyze.HistorySnapshot
		for i, name := range c.Args().Slice() {
			snaps, err := readSnapshots(c, name)
			if err != nil {
				return err
			}
			if len(snaps) > 1 {
				fmt.Fprintf(e.stderr, "%s holds %d gstat runs; comparing the last\n", name, len(snaps))
			}
			pair[i] = snaps[len(snaps)-1]
		}
		before, after = pair[0], pair[1]
	default:
		return usagef("gstat diff: want two snapshots, OLD and NEW (got %d)", c.NArg())
	}
	d := analyze.Diff(before, after)
	if format != report.Text {
		// Text prints them in its header.
		for _, w := range d.Warnings {
			fmt.Fprintln(e.stderr, "warning:", w)
		}
	}
	if format == report.JSON {
		return report.WriteJSON(e.stdout, d)
	}
	all := c.Bool("all")
	var tables []*report.Table
	if format == report.Text {
		writeDiffText(e.stdout, d)
	} else {
		tables = append(tables, diffSummaryTable(d))
	}
	tables = append(tables, countersTable(d), diffWarningsTable(d, format), diffTablesTable(d, all, format), diffIndicesTable(d, all), fieldsTable(d, format))
	return report.WriteTables(e.stdout, format, tables...)
}

// diffWarningsTable lists the health warnings that appeared, were
// resolved or changed severity between the snapshots.
func diffWarningsTable(d *analyze.SnapshotDiff, f report.Format) *report.Table {
	t := &report.Table{Name: "warnings", Title: "Health warnings that changed",
		Columns: report.Cols("change", "severity", "rule", "object", ">value", ">threshold")}
	val := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return report.Num(*p)
	}
	for _, l := range []struct {
		name string
		ws   []analyze.WarningChange
	}{{"appeared", d.WarningsAppeared}, {"resolved", d.WarningsResolved}, {"severity", d.WarningsChanged}} {
		for _, w := range l.ws {
			sev := string(w.Severity)
			if w.SeverityBefore != nil {
				sev = string(*w.SeverityBefore) + " -> " + sev
			}
			obj := w.Object
			if w.Table != "" {
				obj = w.Table + "." + obj
			}
			if f == report.Text {
				obj = clip(obj, 30)
			}
			// The value of the snapshot that has the warning; both
			// when its severity changed.
			v := val(w.Values[1])
			switch l.name {
			case "resolved":
				v = val(w.Values[0])
			case "severity":
				v = val(w.Values[0]) + " -> " + v
			}
			t.Add(l.name, sev, w.Rule, obj, v, report.Num(w.Threshold)+" "+w.Unit)
		}
	}
	if len(t.Rows) == 0 {
		t.Notes = append(t.Notes, "none")
	}
	return t
}

// fieldsTable names the values only one snapshot prints: wrapped lists
// in text, one row per field in CSV and markdown.
func fieldsTable(d *analyze.SnapshotDiff, f report.Format) *report.Table {
	if len(d.FieldsOnlyBefore)+len(d.FieldsOnlyAfter) == 0 {
		return nil
	}
	t := &report.Table{Name: "fields_only", Title: "Fields only one snapshot prints (not compared)"}
	if f == report.Text {
		for _, side := range []struct {
			name   string
			fields []string
		}{{"before", d.FieldsOnlyBefore}, {"after", d.FieldsOnlyAfter}} {
			if len(side.fields) > 0 {
				t.Notes = append(t.Notes, wrap(side.name+": "+strings.Join(side.fields, ", "), "  ", 98)...)
			}
		}
		return t
	}
	t.Columns = report.Cols("only in", "field")
	for _, fld := range d.FieldsOnlyBefore {
		t.Add("before", fld)
	}
	for _, fld := range d.FieldsOnlyAfter {
		t.Add("after", fld)
	}
	return t
}

// clipPath keeps the end of a long path, where the file name is.
func clipPath(p string, n int) string {
	r := []rune(p)
	if len(r) <= n {
		return p
	}
	return "…" + string(r[len(r)-n+1:])
}

func snapshotLine(s analyze.SnapshotInfo) string {
	when := "time unknown"
	if s.Time != nil {
		when = s.Time.Format(time.ANSIC)
		if s.TimeSource != nil && *s.TimeSource == analyze.TimeFromFile {
			when += " (file time)"
		}
	}
	ods := "ODS ?"
	if s.ODSVersion != nil {
		ods = "ODS " + *s.ODSVersion
		if s.FirebirdVersion != nil {
			ods += " (Firebird " + *s.FirebirdVersion + ")"
		}
	}
	size := bytesOr(s.SizeBytes)
	if size == "" {
		size = "size unknown"
	}
	return fmt.Sprintf("%s  %s  %d tables, %d indices, %s", when, ods, s.Tables, s.Indices, size)
}

func writeDiffText(w io.Writer, d *analyze.SnapshotDiff) {
	fmt.Fprintln(w, "gstat diff")
	fmt.Fprintf(w, "Before      %s\n            %s\n", clipPath(d.Before.File, 88), snapshotLine(d.Before))
	fmt.Fprintf(w, "After       %s\n            %s\n", clipPath(d.After.File, 88), snapshotLine(d.After))
	between := "time unknown"
	if d.SecondsBetween != nil {
		between = span(*d.SecondsBetween)
	}
	if d.TransactionsBetween != nil {
		between += fmt.Sprintf(", %d transactions", *d.TransactionsBetween)
	}
	if d.TransactionsPerHour != nil {
		between += fmt.Sprintf(" (%s per hour)", num(round1(*d.TransactionsPerHour)))
	}
	fmt.Fprintf(w, "Between     %s\n", between)
	if a := d.OATAge; oatAgeKnown(a[0]) || oatAgeKnown(a[1]) {
		// (Next - OAT) / transaction rate, within what the headers allow.
		const indent = "                    "
		for i, side := range []string{"OAT age     before: ", "            after:  "} {
			for j, l := range wrap(oatAgeText(a[i]), indent, 100) {
				if j == 0 {
					l = side + strings.TrimPrefix(l, indent)
				}
				fmt.Fprintln(w, l)
			}
		}
	}
	var tables, indices []string
	for _, st := range []string{analyze.StatusChanged, analyze.StatusAdded, analyze.StatusDropped, analyze.StatusUnchanged, analyze.StatusNotShown} {
		tb, ix := d.Count(st)
		if st == analyze.StatusNotShown {
			// Only when a snapshot lacks the statistics (gstat -d, -h).
			if tb > 0 {
				tables = append(tables, fmt.Sprintf("%d not shown in one snapshot", tb))
			}
			if ix > 0 {
				indices = append(indices, fmt.Sprintf("%d not shown in one snapshot", ix))
			}
			continue
		}
		tables = append(tables, fmt.Sprintf("%d %s", tb, st))
		indices = append(indices, fmt.Sprintf("%d %s", ix, st))
	}
	fmt.Fprintf(w, "Tables      %s\n", strings.Join(tables, ", "))
	fmt.Fprintf(w, "Indices     %s\n", strings.Join(indices, ", "))
	if ch := d.Totals.SizeBytes.Change(); ch != nil {
		change := signedBytes(ch)
		if !d.SizeComparable {
			change = "not comparable: see the warning"
		}
		fmt.Fprintf(w, "Size        %s -> %s (%s)\n", bytesOr(d.Totals.SizeBytes[0]), bytesOr(d.Totals.SizeBytes[1]), change)
	}
	for _, warn := range d.Warnings {
		for _, l := range wrap("warning: "+warn, "", 100) {
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintln(w)
}

func oatAgeKnown(a analyze.OATAge) bool { return a.EstimateHours != nil || a.MaxHours != nil }

// oatAgeText says what is known of an OAT's age: the estimate with its
// bounds ("13 min 25 s, at most 19 min 32 s"), or the bounds alone when
// the estimate falls outside them ("at most 3 s: created 3 s before").
func oatAgeText(a analyze.OATAge) string {
	var parts []string
	if a.EstimateHours != nil {
		parts = append(parts, span(*a.EstimateHours*3600))
	}
	if a.MinHours != nil && *a.MinHours > 0 {
		parts = append(parts, "at least "+span(*a.MinHours*3600))
	}
	if a.MaxHours != nil {
		parts = append(parts, "at most "+span(*a.MaxHours*3600))
	}
	if len(parts) == 0 {
		return "?"
	}
	s := strings.Join(parts, ", ")
	if a.EstimateHours == nil && a.Note != "" {
		s += " (" + a.Note + ")"
	}
	return s
}

// diffSummaryTable is the text header as rows, for CSV and markdown.
func diffSummaryTable(d *analyze.SnapshotDiff) *report.Table {
	t := &report.Table{Name: "summary", Title: "Snapshots", Columns: report.Cols("item", "before", "after")}
	tm := func(s analyze.SnapshotInfo) string {
		if s.Time == nil {
			return ""
		}
		return s.Time.Format(time.DateTime)
	}
	t.Add("file", d.Before.File, d.After.File)
	t.Add("execution_time", tm(d.Before), tm(d.After))
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	t.Add("ods_version", str(d.Before.ODSVersion), str(d.After.ODSVersion))
	t.Add("size_bytes", intOr(d.Totals.SizeBytes[0]), intOr(d.Totals.SizeBytes[1]))
	t.Add("oat_age_hours", floatOr(d.OATAgeHours[0], 4), floatOr(d.OATAgeHours[1], 4))
	t.Add("oat_age_min_hours", floatOr(d.OATAge[0].MinHours, 4), floatOr(d.OATAge[1].MinHours, 4))
	t.Add("oat_age_max_hours", floatOr(d.OATAge[0].MaxHours, 4), floatOr(d.OATAge[1].MaxHours, 4))
	t.Add("seconds_between", "", floatOr(d.SecondsBetween, 0))
	t.Add("transactions_between", "", intOr(d.TransactionsBetween))
	t.Add("transactions_per_hour", "", floatOr(d.TransactionsPerHour, 2))
	t.Add("oat_stuck", "", strconv.FormatBool(d.OATStuck))
	t.Notes = append(t.Notes, d.Warnings...)
	return t
}

var counterNames = map[string]string{
	"oldest_transaction": "Oldest transaction (OIT)",
	"oldest_active":      "Oldest active (OAT)",
	"oldest_snapshot":    "Oldest snapshot (OST)",
	"next_transaction":   "Next transaction",
	"oat_minus_oit":      "OAT - OIT",
	"ost_minus_oit":      "OST - OIT (sweep gap)",
	"next_minus_oat":     "Next - OAT",
}

func countersTable(d *analyze.SnapshotDiff) *report.Table {
	t := &report.Table{Name: "counters", Title: "Transaction counters", Columns: report.Cols("counter", ">before", ">after", ">change")}
	for _, c := range d.Counters {
		t.Add(cmp.Or(counterNames[c.Name], c.Name), intOr(c.Values[0]), intOr(c.Values[1]), signedInt(c.Change))
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

func diffTablesTable(d *analyze.SnapshotDiff, all bool, f report.Format) *report.Table {
	t := &report.Table{Name: "tables", Title: "Tables (biggest size change first)",
		Columns: report.Cols("table", "status", ">records", ">change", ">back versions", ">data pages", ">size change", ">per day")}
	rows := slices.Clone(d.Tables)
	slices.SortStableFunc(rows, func(a, b analyze.TableDiff) int {
		return cmp.Compare(absOr(b.SizeBytesChange), absOr(a.SizeBytesChange))
	})
	// A rate per day from snapshots minutes apart says more about the
	// minutes (a garbage collection, a batch) than about a day.
	longEnough := d.SecondsBetween != nil && *d.SecondsBetween >= minRateSeconds
	unchanged := 0
	for _, td := range rows {
		if td.Status == analyze.StatusUnchanged && !all {
			unchanged++
			continue
		}
		name := historyName(td.Schema, td.Name, f)
		versions := arrow(td.Versions)
		if td.BackVersions != nil && *td.BackVersions != analyze.VersionsSteady {
			versions += " " + strings.ReplaceAll(*td.BackVersions, "_", " ")
		}
		perDay := ""
		if td.SizeBytesPerDay != nil && longEnough {
			perDay = signedBytes(ptrInt(int64(math.Round(*td.SizeBytesPerDay))))
		}
		t.Add(name, td.Status, intOr(cmp.Or(td.Records[1], td.Records[0])), signedInt(td.RecordsChange),
			versions, arrow(td.DataPages), signedBytes(td.SizeBytesChange), perDay)
	}
	if unchanged > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d unchanged tables not shown (--all lists them)", unchanged))
	}
	if !longEnough && d.SecondsBetween != nil && *d.SecondsBetween > 0 {
		t.Notes = append(t.Notes, "per day: not shown for snapshots less than an hour apart (the JSON has it)")
	}
	return t
}

// minRateSeconds is the span below which the text hides rates per day.
const minRateSeconds = 3600

func diffIndicesTable(d *analyze.SnapshotDiff, all bool) *report.Table {
	t := &report.Table{Name: "indices", Title: "Indices",
		Columns: report.Cols("index", "table", "status", ">depth", ">leaf buckets", ">nodes", ">max dup")}
	unchanged := 0
	for _, ix := range d.Indices {
		if ix.Status == analyze.StatusUnchanged && !all {
			unchanged++
			continue
		}
		depth := arrow(ix.Depth)
		if ix.DepthGrew {
			depth = "GREW " + depth
		}
		t.Add(clip(ix.Name, 24), clip(ix.Table, 20), ix.Status, depth, arrow(ix.LeafBuckets), arrow(ix.Nodes), arrow(ix.MaxDup))
	}
	if unchanged > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d unchanged indices not shown (--all lists them)", unchanged))
	}
	return t
}

// arrow prints a pair as "808 -> 768", or one value when both are equal.
func arrow(p analyze.Pair) string {
	switch {
	case p[0] == nil && p[1] == nil:
		return ""
	case p[0] != nil && p[1] != nil && *p[0] == *p[1]:
		return intOr(p[0])
	}
	b, a := intOr(p[0]), intOr(p[1])
	return cmp.Or(b, "-") + " -> " + cmp.Or(a, "-")
}

func signedInt(p *int64) string {
	if p == nil {
		return ""
	}
	if *p > 0 {
		return "+" + strconv.FormatInt(*p, 10)
	}
	return strconv.FormatInt(*p, 10)
}

func signedBytes(p *int64) string {
	switch {
	case p == nil:
		return ""
	case *p > 0:
		return "+" + bytesOr(p)
	case *p < 0:
		return "-" + bytesOr(ptrInt(-*p))
	}
	return "0 B"
}

func ptrInt(v int64) *int64 { return &v }

func absOr(p *int64) int64 {
	if p == nil {
		return -1
	}
	if *p < 0 {
		return -*p
	}
	return *p
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// span prints seconds as a DBA reads a duration: 35 s, 4 min 38 s,
// 3.5 hours, 12.0 days.
func span(s float64) string {
	neg := ""
	if s < 0 {
		neg, s = "-", -s
	}
	switch {
	case s < 60:
		return fmt.Sprintf("%s%.0f s", neg, s)
	case s < 3600:
		return fmt.Sprintf("%s%d min %d s", neg, int(s)/60, int(s)%60)
	case s < 2*86400:
		return fmt.Sprintf("%s%.1f hours", neg, s/3600)
	}
	return fmt.Sprintf("%s%.1f days", neg, s/86400)
}

func runGstatTrend(c *cli.Context) error {
	e := getEnv(c)
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if c.NArg() == 0 {
		return usagef("gstat trend: no snapshots (give gstat files or folders of them)")
	}
	if err := stdinOnce("gstat trend", c.Args().Slice()); err != nil {
		return err
	}
	var until int64
	if s := c.String("until"); s != "" {
		if until, err = parseSize(s); err != nil {
			return usagef("gstat trend: --until %q: %v", s, err)
		}
	}
	if c.Int("top") < 0 {
		return usagef("gstat trend: --top must be 0 or more")
	}
	png, err := pngOptions(c)
	if err != nil {
		return err
	}
	var snaps []*analyze.HistorySnapshot
	for _, name := range c.Args().Slice() {
		files := []string{name}
		if name != "-" {
			if st, err := os.Stat(name); err == nil && st.IsDir() {
				if files, err = snapshotFiles(name); err != nil {
					return err
				}
			}
		}
		for _, f := range files {
			s, err := readSnapshots(c, f)
			var se *parse.SyntaxError
			if errors.As(err, &se) && len(files) > 1 {
				// A folder may hold other files (notes, scripts).
				fmt.Fprintf(e.stderr, "skipped: %v\n", err)
				continue
			}
			if err != nil {
				return err
			}
			snaps = append(snaps, s...)
		}
	}
	tr := analyze.TrendOf(snaps, until)
	for _, s := range tr.Skipped {
		fmt.Fprintln(e.stderr, "skipped:", s)
	}
	if format != report.Text {
		for _, w := range tr.Warnings {
			fmt.Fprintln(e.stderr, "warning:", w)
		}
	}
	if png.dir != "" && len(tr.Snapshots) == 0 {
		return errors.New("gstat trend: no dated snapshot to chart")
	}
	if err := writeTrend(e.stdout, format, tr, c.Int("top")); err != nil {
		return err
	}
	return png.write(c, func() ([]*plot.Chart, error) { return report.HistoryCharts(tr, c.Int("top")) })
}

// writeTrend prints the trend; --png writes after it, so a refused
// chart folder never loses the analysis.
func writeTrend(w io.Writer, format report.Format, tr *analyze.Trend, top int) error {
	if format == report.JSON {
		return report.WriteJSON(w, tr)
	}
	var tables []*report.Table
	if format == report.Text {
		writeTrendText(w, tr)
	} else {
		tables = append(tables, trendDatabaseTable(tr))
	}
	tables = append(tables, trendSnapshotsTable(tr, format), trendTablesTable(tr, top, format))
	return report.WriteTables(w, format, tables...)
}

// snapshotFiles lists the regular files of a folder, by name.
func snapshotFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ent := range ents {
		if ent.Type().IsRegular() && !strings.HasPrefix(ent.Name(), ".") {
			out = append(out, filepath.Join(dir, ent.Name()))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no files", dir)
	}
	return out, nil
}

// parseSize reads a size such as 100GB, 512MiB, 2T or 1e9 (bytes). K,
// M, G and T count in 1024s, with or without "B" or "iB", as page sizes
// and the sizes fbdiag prints do.
func parseSize(s string) (int64, error) {
	b, err := units.ParseSize(s)
	switch {
	case errors.Is(err, units.ErrTooLarge):
		return 0, fmt.Errorf("size too large")
	case err != nil || b <= 0:
		return 0, fmt.Errorf("want a positive size such as 100GB, 512MiB or 2T")
	}
	return b, nil
}

func dateOr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.Format(time.DateOnly)
}

// forecastText says when a size is reached: a date, "reached", or why not.
func forecastText(fc *analyze.Forecast) string {
	if fc == nil {
		return ""
	}
	switch fc.Status {
	case analyze.ForecastDate:
		return dateOr(fc.Date)
	case analyze.ForecastReached:
		return "reached"
	case analyze.ForecastNotGrowing:
		return "not growing"
	case analyze.ForecastBeyond:
		return "> 100 years"
	case analyze.ForecastRefused:
		return "refused"
	case analyze.ForecastUnreliable:
		return "unreliable"
	}
	return "too few"
}

func fitText(g *analyze.GrowthTrend) (model, r2 string) {
	f := report.BestFit(g)
	if f == nil {
		return "", ""
	}
	model = f.Model
	if g.Best == nil {
		model = "line (2 sizes)"
		return model, ""
	}
	return model, strconv.FormatFloat(*f.R2, 'f', 4, 64)
}

func writeTrendText(w io.Writer, tr *analyze.Trend) {
	n := len(tr.Snapshots)
	plural := "s"
	if n == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "gstat trend over %d snapshot%s", n, plural)
	if n > 0 {
		first, last := tr.Snapshots[0], tr.Snapshots[n-1]
		fmt.Fprintf(w, ", %s (%s -> %s)", span(tr.Days*86400), first.Time.Format(time.DateTime), last.Time.Format(time.DateTime))
	}
	fmt.Fprintln(w)
	db := &tr.Database
	if n > 0 {
		first, last := firstLastSize(db)
		fmt.Fprintf(w, "Database    %s -> %s (tables + indices)\n", cmp.Or(bytesOr(first), "?"), cmp.Or(bytesOr(last), "?"))
	}
	// As in gstat diff: minutes say nothing about a day. The span is the
	// database sizes' own: snapshots left out do not lengthen it.
	if n > 1 && sizeSpanSeconds(*db) < minRateSeconds {
		fmt.Fprintln(w, "Growth      per day not shown: snapshots less than an hour apart (the JSON has it)")
	} else if db.BytesPerDay != nil {
		model, r2 := fitText(db)
		line := fmt.Sprintf("Growth      %s per day", signedBytes(ptrInt(int64(math.Round(*db.BytesPerDay)))))
		if db.GrowthPerDay != nil {
			line += fmt.Sprintf(" (%+.2f%%/day)", *db.GrowthPerDay*100)
		}
		if r2 != "" {
			line += fmt.Sprintf(", best fit %s, R² %s", model, r2)
		}
		if e := db.Exponential; e != nil && e.DoublingDays != nil && report.ExponentialBest(db) {
			line += fmt.Sprintf(", doubles every %s", span(*e.DoublingDays*86400))
		}
		fmt.Fprintln(w, line)
	}
	if fc := db.Forecast; fc != nil && tr.UntilBytes != nil {
		line := fmt.Sprintf("Forecast    %s: %s", bytesOr(tr.UntilBytes), forecastText(fc))
		if fc.Status == analyze.ForecastDate && fc.DaysAfterLast != nil {
			line += fmt.Sprintf(", in %s", span(*fc.DaysAfterLast*86400))
			if fc.Earliest != nil {
				line += fmt.Sprintf(" (95%%: %s to %s)", dateOr(fc.Earliest), cmp.Or(dateOr(fc.Latest), "never"))
			} else {
				line += " (no interval: too few snapshots or growth not significant)"
			}
		}
		fmt.Fprintln(w, line)
		if fc.Reason != "" {
			for _, l := range wrap(fc.Reason, "            ", 100) {
				fmt.Fprintln(w, l)
			}
		}
		if o := db.OtherForecast; o != nil && o.Model != nil {
			fmt.Fprintf(w, "            %s fit: %s\n", *o.Model, forecastText(o))
		}
	}
	for i, lo := range tr.LeftOut {
		label := "Left out"
		if i > 0 {
			label = ""
		}
		for j, l := range wrap(fmt.Sprintf("%s: %s", filepath.Base(lo.File), lo.Reason), "            ", 100) {
			if j == 0 {
				l = fmt.Sprintf("%-12s%s", label, strings.TrimPrefix(l, "            "))
			}
			fmt.Fprintln(w, l)
		}
	}
	if tt := tr.Transactions; tt.PerDay != nil && tt.Days*86400 >= minRateSeconds {
		line := fmt.Sprintf("Rate        %s transactions per day (Next transaction)", num(math.Round(*tt.PerDay)))
		if tt.Restores > 0 {
			line += fmt.Sprintf(", since the last of %d restores", tt.Restores)
		}
		fmt.Fprintln(w, line)
	}
	for _, warn := range tr.Warnings {
		for _, l := range wrap("warning: "+warn, "", 100) {
			fmt.Fprintln(w, l)
		}
	}
	var fast []string
	for _, t := range tr.Tables {
		if t.Fastest {
			fast = append(fast, t.Name)
		}
	}
	if len(fast) > 0 {
		fmt.Fprintf(w, "Fastest     %s\n", strings.Join(fast, ", "))
	}
	fmt.Fprintln(w)
}

// firstLastSize is the first and the last size of a series (nil when
// none): the snapshots left out of it have none.
func firstLastSize(g *analyze.GrowthTrend) (first, last *int64) {
	for _, p := range g.Points {
		if p.SizeBytes != nil {
			if first == nil {
				first = p.SizeBytes
			}
			last = p.SizeBytes
		}
	}
	return first, last
}

func trendDatabaseTable(tr *analyze.Trend) *report.Table {
	t := &report.Table{Name: "database", Title: "Database (tables + indices)",
		Columns: report.Cols(">first", ">last", ">bytes per day", "fit", ">r2", "until", ">until bytes", "earliest", "latest", "reason")}
	db := &tr.Database
	first, last := firstLastSize(db)
	model, r2 := fitText(db)
	var earliest, latest string
	if fc := db.Forecast; fc != nil {
		earliest, latest = dateOr(fc.Earliest), dateOr(fc.Latest)
	}
	reason := ""
	if db.Forecast != nil {
		reason = db.Forecast.Reason
	}
	t.Add(intOr(first), intOr(last), floatOr(db.BytesPerDay, 0), model, r2, forecastText(db.Forecast), intOr(tr.UntilBytes), earliest, latest, reason)
	return t
}

func trendSnapshotsTable(tr *analyze.Trend, f report.Format) *report.Table {
	t := &report.Table{Name: "snapshots", Title: "Snapshots",
		Columns: report.Cols(">#", "time", ">tables", ">size", ">OAT", ">Next", "file")}
	fileTimes := false
	left := map[[2]any]bool{}
	for _, lo := range tr.LeftOut {
		left[[2]any{lo.File, lo.Report}] = true
	}
	for i, s := range tr.Snapshots {
		when := s.Time.Format(time.DateTime)
		if s.TimeSource != nil && *s.TimeSource == analyze.TimeFromFile {
			when += "*"
			fileTimes = true
		}
		var oat, next *int64
		if i < len(tr.Transactions.Points) {
			oat, next = tr.Transactions.Points[i].OldestActive, tr.Transactions.Points[i].NextTransaction
		}
		file := s.File
		if f == report.Text {
			// The counters may take 15 digits each; the end of the path
			// names the file.
			file = clipPath(file, 30)
		}
		size := bytesOr(s.SizeBytes)
		if left[[2]any{s.File, s.Report}] {
			size = cmp.Or(size+" ", "") + "(left out)"
		}
		t.Add(strconv.Itoa(i+1), when, strconv.Itoa(s.Tables), size, intOr(oat), intOr(next), file)
	}
	if fileTimes {
		t.Notes = append(t.Notes, "* no execution time in the file: dated by its modification time")
	}
	return t
}

func trendTablesTable(tr *analyze.Trend, top int, f report.Format) *report.Table {
	cols := []string{"table", ">size", ">change", ">per day", ">%/day", "fit", ">R²"}
	if tr.UntilBytes != nil {
		cols = append(cols, "at "+strings.ReplaceAll(bytesOr(tr.UntilBytes), " ", "")) // 100 columns
	}
	t := &report.Table{Name: "tables", Title: "Tables, fastest growing first", Columns: report.Cols(cols...)}
	hidden := false
	for i, g := range tr.Tables {
		if top > 0 && i >= top {
			t.Notes = append(t.Notes, fmt.Sprintf("%d more tables (--top 0 lists them)", len(tr.Tables)-top))
			break
		}
		name := historyName(g.Schema, g.Name, f)
		if f == report.Text && g.Fastest {
			name = "* " + name
		}
		var last *int64
		for _, p := range g.Points {
			if p.SizeBytes != nil {
				last = p.SizeBytes
			}
		}
		// A table's rate comes from its own sizes: two snapshots minutes
		// apart say nothing about a day, whatever the others span.
		short := sizeSpanSeconds(g) < minRateSeconds
		hidden = hidden || short && g.BytesPerDay != nil
		perDay, pct := "", ""
		if g.BytesPerDay != nil && !short {
			perDay = signedBytes(ptrInt(int64(math.Round(*g.BytesPerDay))))
		}
		if g.GrowthPerDay != nil && !short {
			pct = fmt.Sprintf("%+.2f", *g.GrowthPerDay*100)
		}
		model, r2 := fitText(&g)
		row := []string{name, bytesOr(last), signedBytes(g.SizeChange), perDay, pct, model, r2}
		if tr.UntilBytes != nil {
			row = append(row, forecastText(g.Forecast))
		}
		t.Add(row...)
	}
	if hidden {
		t.Notes = append(t.Notes, "per day: not shown for sizes less than an hour apart (the JSON has it)")
	}
	if f == report.Text && slices.ContainsFunc(tr.Tables, func(g analyze.GrowthTrend) bool { return g.Fastest }) {
		t.Notes = append(t.Notes, fmt.Sprintf("* among the %d tables growing fastest", analyze.FastestTables))
	}
	return t
}

// sizeSpanSeconds is the time between a table's first and last known size.
func sizeSpanSeconds(g analyze.GrowthTrend) float64 {
	var first, last time.Time
	for _, p := range g.Points {
		if p.SizeBytes != nil {
			if first.IsZero() {
				first = p.Time
			}
			last = p.Time
		}
	}
	return last.Sub(first).Seconds()
}

// historyName is a table as diff and trend name it: with its schema
// (Firebird 6), clipped to 24 columns in text.
func historyName(schema, name string, f report.Format) string {
	if schema != "" {
		name = schema + "." + name
	}
	if f == report.Text {
		name = clip(name, 24)
	}
	return name
}
