package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/report"
)

const gstatDescription = `Reads the statistics gstat prints and says which tables, indices and transaction
counters need attention, and why.

Input: the text output of gstat from Firebird 1.5 to 6.0 (and RedDatabase), any
switches, as a file or on standard input (-). Produce it with one of:

  gstat -a -r DB > stats.txt            data, indices and record versions (best)
  fbstat -a -r DB > stats.txt           the same on Debian/Ubuntu packages
  gstat -h DB > header.txt              header page only (transaction gaps)
  fbsvcmgr host:service_mgr action_db_stats dbname DB \
      sts_data_pages sts_idx_pages sts_record_versions > stats.txt

Put ISC_USER and ISC_PASSWORD in the environment rather than -user/-password on
the command line. UTF-16 files (PowerShell's >), CRLF endings and text copied
from mail or web pages are accepted; two runs appended in one file are two
snapshots and both are analysed.

Output (--format text, json, csv or markdown): the header health block (ODS and
Firebird version, page size, buffers, forced writes, sweep interval, OIT, OAT,
OST, Next and their gaps), the biggest tables (--top, --sort), every index with
its depth and selectivity, and the warnings, critical first, each with its
value, threshold, reason and source. Lines gstat printed that fbdiag skipped
or guessed are reported on standard error as file:line notices.

The JSON form is a documented contract (docs/gstat-json.md): one object per
snapshot. Thresholds are listed by 'fbdiag rules' and can be changed with
--rules FILE ("index-deep.warning = 4" lines, or a JSON object).

Exit status: 0 ok, 1 unreadable input, 2 bad command line, 3 when --fail-on
matched (the analysis is still printed).`

func gstatCommand() *cli.Command {
	return &cli.Command{
		Name:        "gstat",
		Usage:       "analyse gstat statistics: sick tables, indices and transaction counters",
		UsageText:   "fbdiag gstat [--format F] [--top N] [--sort size|records|versions|depth] [--fail-on warning|critical] [--rules FILE] FILE|- ...",
		Description: gstatDescription,
		Flags: []cli.Flag{
			formatFlag(),
			&cli.IntFlag{Name: "top", Value: 20, Usage: "show the N biggest tables (0 = all); limits the indices too when given"},
			&cli.StringFlag{Name: "sort", Value: "size", Usage: "order tables by size, records, versions or depth"},
			&cli.StringFlag{Name: "fail-on", Usage: "exit 3 when a warning of this severity or worse exists: warning or critical"},
			rulesFlag(),
		},
		Subcommands: gstatHistoryCommands(),
		Action:      runGstat,
	}
}

func rulesFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "rules", Usage: "override thresholds from `FILE` (rule.key = value lines, or JSON)"}
}

func rulesCommand() *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list the gstat health rules and their thresholds, with sources",
		UsageText: "fbdiag rules [--rules FILE] [--format F]",
		Description: `Lists every health rule 'fbdiag gstat' applies: its id, what it flags, the
severities it can raise, and each threshold with its unit and the source it comes
from ("[U]" marks a fbdiag default no public source fixes). With --rules FILE the
overridden values are shown. A rules file holds "rule.key = value" lines (# starts
a comment) or one JSON object {"rule.key": value}; unknown keys are errors.`,
		Flags:  []cli.Flag{formatFlag(), rulesFlag()},
		Action: runRules,
	}
}

// loadRules reads --rules, or returns the defaults.
func loadRules(c *cli.Context) (analyze.Thresholds, error) {
	th := analyze.NewThresholds()
	name := c.String("rules")
	if name == "" {
		return th, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return th, err
	}
	defer f.Close()
	return analyze.LoadThresholds(f, name, th)
}

func runGstat(c *cli.Context) error {
	e := getEnv(c)
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if c.NArg() == 0 {
		return usagef("gstat: no input file (give a file name, or - for standard input)")
	}
	for _, a := range c.Args().Slice() {
		if len(a) > 1 && a[0] == '-' {
			return usagef("gstat: %q after a file name: put options before the files", a)
		}
	}
	sortBy := c.String("sort")
	if !slices.Contains(analyze.TableSorts, sortBy) {
		return usagef("gstat: --sort %q: want size, records, versions or depth", sortBy)
	}
	if c.Int("top") < 0 {
		return usagef("gstat: --top must be 0 or more")
	}
	var failOn analyze.Severity
	if s := c.String("fail-on"); s != "" {
		sev, ok := analyze.ParseSeverity(s)
		if !ok || sev == analyze.Info {
			return usagef("gstat: --fail-on %q: want warning or critical", s)
		}
		failOn = sev
	}
	th, err := loadRules(c)
	if err != nil {
		return err
	}

	var all []*analyze.GstatAnalysis
	for _, name := range c.Args().Slice() {
		as, err := analyzeGstatFile(c, name, th)
		if err != nil {
			return err
		}
		all = append(all, as...)
	}
	for _, a := range all {
		for _, n := range a.Notices {
			fmt.Fprintln(e.stderr, n)
		}
	}
	opts := gstatView{format: format, top: c.Int("top"), topSet: c.IsSet("top"), sortBy: sortBy}
	if err := writeGstat(e.stdout, format, all, opts); err != nil {
		return err
	}
	if failOn != "" {
		n := 0
		for _, a := range all {
			for _, w := range a.Warnings {
				if w.Severity.Rank() >= failOn.Rank() {
					n++
				}
			}
		}
		if n > 0 {
			return &failOnError{msg: fmt.Sprintf("gstat: %d warning(s) at %s level or above", n, failOn)}
		}
	}
	return nil
}

// analyzeGstatFile reads one input and analyses each gstat run in it.
func analyzeGstatFile(c *cli.Context, name string, th analyze.Thresholds) ([]*analyze.GstatAnalysis, error) {
	rc, shown, err := openInput(c, name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	reps, err := parse.ReadGstat(rc, shown)
	if err != nil {
		return nil, err
	}
	if len(reps) == 0 {
		return nil, fmt.Errorf("%s: no gstat output found (expected the text of gstat -a -r or gstat -h)", shown)
	}
	out := make([]*analyze.GstatAnalysis, 0, len(reps))
	for _, rep := range reps {
		out = append(out, analyze.Gstat(rep, th))
	}
	return out, nil
}

// gstatView holds the presentation choices of the command line.
type gstatView struct {
	format report.Format
	top    int
	topSet bool
	sortBy string
}

func writeGstat(w io.Writer, f report.Format, all []*analyze.GstatAnalysis, v gstatView) error {
	if f == report.JSON {
		// One JSON document per snapshot: a single run is a plain object,
		// several decode in a loop (as go list -json and jq expect).
		for _, a := range all {
			if err := report.WriteJSON(w, a); err != nil {
				return err
			}
		}
		return nil
	}
	for i, a := range all {
		if i > 0 {
			fmt.Fprintln(w)
		}
		var tables []*report.Table
		if f == report.Text {
			writeHeaderText(w, a, len(all) > 1)
		} else {
			tables = append(tables, headerTable(a))
		}
		tables = append(tables, tablesTable(a, v), indicesTable(a, v), warningsTable(a, f))
		if err := report.WriteTables(w, f, tables...); err != nil {
			return err
		}
	}
	return nil
}

// writeHeaderText prints the header health block, as a DBA reads gstat -h.
func writeHeaderText(w io.Writer, a *analyze.GstatAnalysis, several bool) {
	title := a.File
	if several {
		title = fmt.Sprintf("%s, snapshot %d", a.File, a.Report+1)
	}
	fmt.Fprintf(w, "gstat analysis of %s\n", title)
	h := a.Header
	if h == nil {
		fmt.Fprintln(w, "No header page in the input.")
	} else {
		if h.Database != nil {
			fmt.Fprintf(w, "Database        %s\n", *h.Database)
		}
		fmt.Fprintf(w, "ODS             %s (Firebird %s), page size %s, dialect %s\n",
			strOr(h.ODSVersion), strOr(h.FirebirdVersion), intOr(h.PageSize), intOrI(h.Dialect))
		buffers := intOr(h.PageBuffers)
		if h.PageBuffers != nil && *h.PageBuffers == 0 {
			buffers = "0 (server default)"
		}
		fw := "unknown"
		if h.ForcedWrites != nil {
			fw = map[bool]string{true: "on", false: "OFF"}[*h.ForcedWrites]
		}
		fmt.Fprintf(w, "Page buffers    %s, forced writes %s\n", buffers, fw)
		sweep := intOr(h.SweepInterval)
		switch {
		case h.SweepInterval == nil:
			sweep = "not printed (server default 20000)"
		case *h.SweepInterval == 0:
			sweep = "0 (automatic sweep off)"
		}
		fmt.Fprintf(w, "Sweep interval  %s\n", sweep)
		if attrs := strings.Join(h.Attributes, ", "); attrs != "" {
			fmt.Fprintf(w, "Attributes      %s\n", attrs)
		}
		fmt.Fprintf(w, "Transactions    OIT %s  OAT %s  OST %s  Next %s\n",
			intOr(h.OldestTransaction), intOr(h.OldestActive), intOr(h.OldestSnapshot), intOr(h.NextTransaction))
		fmt.Fprintf(w, "Gaps            OAT-OIT %s  OST-OIT %s  Next-OAT %s  Next-OST %s\n",
			intOr(h.OATMinusOIT), intOr(h.OSTMinusOIT), intOr(h.NextMinusOAT), intOr(h.NextMinusOST))
		if h.SweepGapShare != nil {
			fmt.Fprintf(w, "Sweep gap       OST-OIT is %.0f%% of the sweep interval\n", *h.SweepGapShare*100)
		}
		if h.TransactionIDUsed != nil {
			fmt.Fprintf(w, "Transaction IDs %.4f%% of the ODS limit %d used, %d left\n",
				*h.TransactionIDUsed*100, *h.TransactionIDLimit, *h.TransactionIDHeadroom)
		}
		if h.TransactionsPerDay != nil {
			fmt.Fprintf(w, "Rate            %.0f transactions per day since creation or restore\n", *h.TransactionsPerDay)
		}
	}
	t := a.Totals
	totals := fmt.Sprintf("%d tables, %d indices", t.Tables, t.Indices)
	if t.Records != nil {
		totals += fmt.Sprintf(", %d records, %s versions", *t.Records, intOr(t.Versions))
	}
	fmt.Fprintf(w, "Totals          %s\n", totals)
	if t.TableBytes != nil || t.IndexBytes != nil {
		fmt.Fprintf(w, "Size            tables %s, index leaf pages %s\n", bytesOr(t.TableBytes), bytesOr(t.IndexBytes))
	}
	if len(a.Findings) > 0 {
		fmt.Fprintf(w, "gstat reported  %d problem line(s):\n", len(a.Findings))
		for _, f := range a.Findings {
			fmt.Fprintln(w, clip(fmt.Sprintf("  line %d: %s", f.Line, f.Text), 100))
		}
	}
	fmt.Fprintln(w)
}

func headerTable(a *analyze.GstatAnalysis) *report.Table {
	t := &report.Table{Name: "header", Title: "Header " + a.File, Columns: report.Cols("field", "value")}
	t.Add("file", a.File)
	t.Add("snapshot", strconv.Itoa(a.Report+1))
	if h := a.Header; h != nil {
		fw := ""
		if h.ForcedWrites != nil {
			fw = strconv.FormatBool(*h.ForcedWrites)
		}
		t.Add("database", strOr(h.Database))
		t.Add("ods_version", strOr(h.ODSVersion))
		t.Add("firebird_version", strOr(h.FirebirdVersion))
		t.Add("page_size", intOr(h.PageSize))
		t.Add("page_buffers", intOr(h.PageBuffers))
		t.Add("forced_writes", fw)
		t.Add("sweep_interval", intOr(h.SweepInterval))
		t.Add("oldest_transaction", intOr(h.OldestTransaction))
		t.Add("oldest_active", intOr(h.OldestActive))
		t.Add("oldest_snapshot", intOr(h.OldestSnapshot))
		t.Add("next_transaction", intOr(h.NextTransaction))
		t.Add("oat_minus_oit", intOr(h.OATMinusOIT))
		t.Add("ost_minus_oit", intOr(h.OSTMinusOIT))
		t.Add("next_minus_oat", intOr(h.NextMinusOAT))
		t.Add("next_minus_ost", intOr(h.NextMinusOST))
	}
	return t
}

func tablesTable(a *analyze.GstatAnalysis, v gstatView) *report.Table {
	ts := slices.Clone(a.Tables)
	analyze.SortTables(ts, v.sortBy)
	title := fmt.Sprintf("Tables by %s", v.sortBy)
	if v.top > 0 && len(ts) > v.top {
		title = fmt.Sprintf("Top %d of %d tables by %s", v.top, len(ts), v.sortBy)
		ts = ts[:v.top]
	}
	// Text fits 100 columns: names are clipped and the index size is left
	// to the other formats.
	text := v.format == report.Text
	cols := []string{"table", ">records", ">versions", ">ver/rec", ">max ver", ">frag/rec", ">pages", ">fill", ">size"}
	if !text {
		cols = append(cols, ">index size")
	}
	t := &report.Table{Name: "tables", Title: title, Columns: report.Cols(cols...)}
	for _, x := range ts {
		fill := ""
		if x.AverageFill != nil {
			fill = strconv.Itoa(*x.AverageFill) + "%"
		}
		row := []string{x.Name, intOr(x.Records), intOr(x.Versions), floatOr(x.VersionsPerRecord, 2),
			intOr(x.MaxVersions), floatOr(x.FragmentsPerRecord, 2), intOr(x.DataPages), fill, bytesOr(x.SizeBytes)}
		if text {
			row[0] = clip(x.Name, 20)
		} else {
			row = append(row, bytesOr(x.IndexBytes))
		}
		t.Add(row...)
	}
	if len(ts) == 0 {
		t.Notes = append(t.Notes, "(no table blocks: run gstat -a -r for table statistics)")
	}
	return t
}

func indicesTable(a *analyze.GstatAnalysis, v gstatView) *report.Table {
	var ixs []analyze.IndexStats
	for _, t := range a.Tables {
		ixs = append(ixs, t.Indices...)
	}
	ixs = append(ixs, a.UnattachedIndices...)
	key := func(ix *analyze.IndexStats) int64 {
		switch v.sortBy {
		case "depth":
			return deref0(ix.Depth)
		case "records", "versions":
			return deref0(ix.Nodes)
		}
		return deref0(ix.LeafBuckets)
	}
	slices.SortStableFunc(ixs, func(x, y analyze.IndexStats) int {
		if kx, ky := key(&x), key(&y); kx != ky {
			if kx > ky {
				return -1
			}
			return 1
		}
		return strings.Compare(x.Name, y.Name)
	})
	title := "Indices"
	if v.topSet && v.top > 0 && len(ixs) > v.top {
		title = fmt.Sprintf("Top %d of %d indices", v.top, len(ixs))
		ixs = ixs[:v.top]
	}
	// Text fits 100 columns: clipped names, and unique keys (1/selectivity)
	// and the clustering ratio only in the other formats.
	text := v.format == report.Text
	cols := []string{"index", "table", ">depth", ">leaf", ">nodes", ">unique", ">selectivity", ">dup", ">max dup", ">clust", ">size"}
	if text {
		cols = []string{"index", "table", ">depth", ">leaf", ">nodes", ">select", ">dup", ">max dup", ">size"}
	}
	t := &report.Table{Name: "indices", Title: title, Columns: report.Cols(cols...)}
	if len(ixs) == 0 {
		t.Notes = append(t.Notes, "(no index blocks: run gstat -a for index statistics)")
	}
	for _, ix := range ixs {
		dup := ""
		if ix.DupRatio != nil {
			dup = fmt.Sprintf("%.0f%%", *ix.DupRatio*100)
		}
		sel := ""
		if ix.Selectivity != nil {
			sel = strconv.FormatFloat(*ix.Selectivity, 'g', 3, 64)
		}
		if text {
			t.Add(clip(ix.Name, 20), clip(ix.Table, 14), intOr(ix.Depth), intOr(ix.LeafBuckets), intOr(ix.Nodes),
				sel, dup, intOr(ix.MaxDup), bytesOr(ix.SizeBytes))
			continue
		}
		t.Add(ix.Name, ix.Table, intOr(ix.Depth), intOr(ix.LeafBuckets), intOr(ix.Nodes), intOr(ix.UniqueKeys),
			sel, dup, intOr(ix.MaxDup), floatOr(ix.ClusteringRatio, 2), bytesOr(ix.SizeBytes))
	}
	return t
}

func warningsTable(a *analyze.GstatAnalysis, f report.Format) *report.Table {
	t := &report.Table{Name: "warnings", Title: fmt.Sprintf("Warnings (%d)", len(a.Warnings))}
	if f != report.Text {
		t.Columns = report.Cols("severity", "rule", "object", "table", ">value", ">threshold", "unit", "reason", "source")
		for _, w := range a.Warnings {
			t.Add(string(w.Severity), w.Rule, w.Object, w.Table, num(w.Value), num(w.Threshold), w.Unit, w.Reason, w.Source)
		}
		return t
	}
	// Text: one block per warning, wrapped to fit 100 columns.
	for _, w := range a.Warnings {
		obj := w.Object
		if w.Table != "" {
			obj += " on " + w.Table
		}
		op := ">="
		switch {
		case w.Value > w.Threshold:
			op = ">"
		case w.Value < w.Threshold:
			op = "<"
		}
		what := w.Kind + " " + obj
		if w.Kind == w.Object {
			what = obj // "database", not "database database"
		}
		line := fmt.Sprintf("%-8s %s  %s", strings.ToUpper(string(w.Severity)), w.Rule, what)
		if w.Unit != "flag" { // a flag has no figure worth printing
			line += fmt.Sprintf(": %s %s %s %s", num(w.Value), op, num(w.Threshold), w.Unit)
		}
		t.Notes = append(t.Notes, line)
		t.Notes = append(t.Notes, wrap(w.Reason, "         ", 100)...)
		t.Notes = append(t.Notes, wrap("source: "+w.Source, "         ", 100)...)
	}
	if len(a.Warnings) == 0 {
		t.Notes = append(t.Notes, "none")
	}
	return t
}

func runRules(c *cli.Context) error {
	e := getEnv(c)
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if c.NArg() > 0 {
		return usagef("rules: takes no arguments")
	}
	th, err := loadRules(c)
	if err != nil {
		return err
	}
	list := th.List()
	if format == report.JSON {
		type ruleJSON struct {
			analyze.Rule
			Thresholds []analyze.Threshold `json:"thresholds"`
		}
		out := struct {
			Rules []ruleJSON `json:"rules"`
		}{}
		for _, r := range analyze.Rules {
			rj := ruleJSON{Rule: r, Thresholds: []analyze.Threshold{}}
			for _, t := range list {
				if t.Rule == r.ID {
					rj.Thresholds = append(rj.Thresholds, t)
				}
			}
			out.Rules = append(out.Rules, rj)
		}
		return report.WriteJSON(e.stdout, out)
	}
	if format != report.Text {
		t := &report.Table{Name: "rules", Title: "gstat health rules", Columns: report.Cols("rule", "kind", "severities", "summary", "threshold", ">value", "unit", "source")}
		for _, r := range analyze.Rules {
			for _, x := range list {
				if x.Rule == r.ID {
					t.Add(r.ID, r.Kind, sevList(r.Severities), r.Summary, x.Key(), num(x.Value), x.Unit, x.Source)
				}
			}
		}
		return report.WriteTables(e.stdout, format, t)
	}
	w := e.stdout
	for i, r := range analyze.Rules {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  (%s; %s)\n", r.ID, r.Kind, sevList(r.Severities))
		for _, l := range wrap(r.Summary, "    ", 100) {
			fmt.Fprintln(w, l)
		}
		for _, x := range list {
			if x.Rule == r.ID {
				fmt.Fprintf(w, "    %s = %s %s\n", x.Key(), num(x.Value), x.Unit)
				for _, l := range wrap(x.Source, "        ", 100) {
					fmt.Fprintln(w, l)
				}
			}
		}
	}
	return nil
}

func sevList(ss []analyze.Severity) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = string(s)
	}
	return strings.Join(parts, "/")
}

// wrap splits s into lines of at most width runes, each starting with
// indent (the first line too).
func wrap(s, indent string, width int) []string {
	var lines []string
	line := indent
	for _, word := range strings.Fields(s) {
		if len(line) > len(indent) && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, line)
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += word
	}
	if len(line) > len(indent) {
		lines = append(lines, line)
	}
	return lines
}

func strOr(p *string) string {
	if p == nil {
		return "?"
	}
	return *p
}

func intOr(p *int64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatInt(*p, 10)
}

func intOrI(p *int) string {
	if p == nil {
		return "?"
	}
	return strconv.Itoa(*p)
}

func deref0(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

func floatOr(p *float64, prec int) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', prec, 64)
}

// bytesOr prints a size in binary units (KiB, MiB, GiB) as DBAs compare
// them with page counts.
func bytesOr(p *int64) string {
	if p == nil {
		return ""
	}
	v := float64(*p)
	for _, u := range []string{"B", "KiB", "MiB", "GiB", "TiB"} {
		if v < 1024 || u == "TiB" {
			if u == "B" {
				return fmt.Sprintf("%d B", *p)
			}
			return fmt.Sprintf("%.1f %s", v, u)
		}
		v /= 1024
	}
	return ""
}
