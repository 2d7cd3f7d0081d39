package view

import (
	"cmp"
	"encoding/csv"
	"io"
	"slices"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/parse"
)

// GstatCSV writes one CSV table (Options.Table) of gstat runs analysed
// table by table (analyze.StreamGstat, with the hooks of Stream), the
// bytes Writer gives for the documents of the whole analyses. The rows of
// the tables, indices and warnings tables go through a sorter that keeps
// a few megabytes of them and writes sorted runs of the rest to a
// temporary file (internal/extsort), so that memory holds no table of the
// run whatever its size; the summary, encryption and problems tables are
// made from what the run's analysis holds at its end.
//
// The indices are ordered by the worst warning of each index, whichever
// block of the run fired it (a table block printed twice): their rows are
// sorted twice, by table and name to find that warning, then in the
// order of the table.
//
// As the documents of Writer, a run is written when the next one ends or
// at Close: the first says whether a source column is needed.
type GstatCSV struct {
	w    io.Writer
	opt  Options
	vopt GstatOptions
	rows string // the table streamed: tables, indices, warnings, or ""
	by   string // the sort key of the tables and indices

	x       *csvWriter
	cur     *gstatCSVRun // the run being read
	pending *gstatCSVRun // the run read, written when the next ends
	n       int          // runs written
	maxHeld int

	// Written, when set, gets each run's analysis before the run is
	// written (the notices and the --fail-on count).
	Written func(a *analyze.GstatAnalysis)
}

// gstatCSVRun is the rows of one run, until it is written.
type gstatCSVRun struct {
	a    *analyze.GstatAnalysis
	rows *extsort.Sorter[csvRow]
	gone map[int64]bool // warnings a worse one replaced
	// named holds the indices by table and name, until the run ends.
	named *extsort.Sorter[csvRow]
	n     int64 // rows added
}

// csvRow is a row of a streamed table with what orders it: the tables
// by rank (1 when the sort key is known) and key, then name; the indices
// by rank (of the worst warning) and key, then name and table; the
// warnings by rank (of the severity) and magnitude, then rule, object
// and table; then by id, the order they came in.
type csvRow struct {
	rank, key int64
	mag       float64
	s         [3]string
	id        int64
	fields    []string
}

// csvRowBudget is the bytes of rows a run holds in memory.
var csvRowBudget = 2 << 20

var csvRowCodec = extsort.Codec[csvRow]{
	Append: func(b []byte, r csvRow) []byte {
		b = extsort.AppendInt(b, r.rank)
		b = extsort.AppendInt(b, r.key)
		b = extsort.AppendFloat(b, r.mag)
		for _, s := range r.s {
			b = extsort.AppendString(b, s)
		}
		b = extsort.AppendInt(b, r.id)
		b = extsort.AppendInt(b, int64(len(r.fields)))
		for _, f := range r.fields {
			b = extsort.AppendString(b, f)
		}
		return b
	},
	Decode: func(b []byte) (csvRow, error) {
		f := extsort.NewFields(b)
		r := csvRow{rank: f.Int(), key: f.Int(), mag: f.Float()}
		for i := range r.s {
			r.s[i] = f.Ref()
		}
		r.id = f.Int()
		if n := f.Count(); n > 0 {
			r.fields = make([]string, n)
			for i := range r.fields {
				r.fields[i] = f.Ref()
			}
		}
		return r, f.Err()
	},
	Size: func(r csvRow) int {
		n := 112 + 16*len(r.fields)
		for _, s := range r.s {
			n += len(s)
		}
		for _, f := range r.fields {
			n += len(f)
		}
		return n
	},
}

func compareTableRows(a, b csvRow) int {
	if c := cmp.Compare(b.rank, a.rank); c != 0 {
		return c
	}
	if c := cmp.Compare(b.key, a.key); c != 0 {
		return c
	}
	if c := byName(a.s[0], b.s[0]); c != 0 {
		return c
	}
	if c := byName(a.s[1], b.s[1]); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// compareIndexNames orders index rows by table and name.
func compareIndexNames(a, b csvRow) int {
	if c := cmp.Compare(a.s[1], b.s[1]); c != 0 {
		return c
	}
	if c := cmp.Compare(a.s[0], b.s[0]); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

func compareWarningRows(a, b csvRow) int {
	if c := cmp.Compare(b.rank, a.rank); c != 0 {
		return c
	}
	if c := cmp.Compare(b.mag, a.mag); c != 0 {
		return c
	}
	for i := range a.s {
		if c := cmp.Compare(a.s[i], b.s[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.id, b.id)
}

// NewGstatCSV writes the table opt.Table of gstat runs on w; vopt.Sort
// orders the tables and indices.
func NewGstatCSV(w io.Writer, opt Options, vopt GstatOptions) *GstatCSV {
	g := &GstatCSV{w: w, opt: opt, vopt: vopt, by: cmp.Or(vopt.Sort, "size")}
	switch opt.Table {
	case "", "tables":
		g.rows = "tables"
	case "indices", "warnings":
		g.rows = opt.Table
	}
	return g
}

// Stream is what analyze.StreamGstat calls as it reads an input: all the
// warnings go to a sink, which spools those of the warnings table and
// counts the others.
func (g *GstatCSV) Stream() analyze.GstatStream {
	return analyze.GstatStream{
		Sink:  g.sink,
		Table: g.table,
		Run: func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error {
			return g.run(a)
		},
	}
}

// MaxHeld is the most rows a run held in memory at once.
func (g *GstatCSV) MaxHeld() int {
	n := g.maxHeld
	for _, r := range []*gstatCSVRun{g.cur, g.pending} {
		if r != nil {
			n = max(n, r.maxHeld())
		}
	}
	return n
}

func (r *gstatCSVRun) maxHeld() int {
	n := r.rows.MaxHeld()
	if r.named != nil {
		n = max(n, r.named.MaxHeld())
	}
	return n
}

// runOf is the run a belongs to, started when a is new.
func (g *GstatCSV) runOf(a *analyze.GstatAnalysis) *gstatCSVRun {
	if g.cur == nil || g.cur.a != a {
		cmpRows := compareTableRows
		if g.rows == "warnings" {
			cmpRows = compareWarningRows
		}
		g.cur = &gstatCSVRun{a: a, rows: extsort.New(cmpRows, csvRowCodec, csvRowBudget)}
		if g.rows == "indices" {
			g.cur.named = extsort.New(compareIndexNames, csvRowCodec, csvRowBudget)
		}
	}
	return g.cur
}

func (g *GstatCSV) sink(a *analyze.GstatAnalysis) analyze.WarningSink {
	r := g.runOf(a)
	if g.rows != "warnings" {
		return discard{}
	}
	return (*warningRows)(r)
}

// discard counts the warnings of a table that does not show them.
type discard struct{}

func (discard) Put(int, analyze.Warning) error { return nil }
func (discard) Drop(int) error                 { return nil }

// warningRows spools a run's warnings as rows of the warnings table.
type warningRows gstatCSVRun

func (r *warningRows) Put(id int, w analyze.Warning) error {
	return r.rows.Add(csvRow{rank: int64(w.Severity.Rank()), mag: w.Magnitude, s: [3]string{w.Rule, w.Object, w.Table},
		id: int64(id), fields: csvFields(findingsColumns, findingCells(GstatFinding(w)), nil)})
}

func (r *warningRows) Drop(id int) error {
	if r.gone == nil {
		r.gone = map[int64]bool{}
	}
	r.gone[int64(id)] = true
	return nil
}

// table takes one analysed table of run a.
func (g *GstatCSV) table(a *analyze.GstatAnalysis, t *analyze.TableStats) error {
	r := g.runOf(a)
	switch g.rows {
	case "tables":
		key, ok := tableKey(g.by, t)
		rank := int64(0)
		if ok {
			rank = 1
		}
		r.n++
		return r.rows.Add(csvRow{rank: rank, key: key, s: [3]string{t.Name}, id: r.n,
			fields: csvFields(gstatTableColumns, tableCells(t), nil)})
	case "indices":
		fired := a.TableWarnings()
		for i := range t.Indices {
			if err := g.index(r, &t.Indices[i], fired); err != nil {
				return err
			}
		}
	}
	return nil
}

// index adds an index's row, ranked by the worst of the warnings fired
// on it.
func (g *GstatCSV) index(r *gstatCSVRun, ix *analyze.IndexStats, fired []analyze.Warning) error {
	rank := 0
	for _, w := range fired {
		if w.Kind == "index" && w.Object == ix.Name && w.Table == ix.Table {
			rank = max(rank, w.Severity.Rank())
		}
	}
	r.n++
	return r.named.Add(csvRow{rank: int64(rank), key: indexKey(g.by, ix), s: [3]string{ix.Name, ix.Table}, id: r.n,
		fields: csvFields(gstatIndexColumns, indexCells(ix), nil)})
}

// rankIndices ranks each index row by the worst warning of the rows of
// its table and name (worstIndexWarnings), and sorts them for the table.
func (r *gstatCSVRun) rankIndices() error {
	var same []csvRow // the rows of one table and name
	flush := func() error {
		worst := int64(0)
		for _, x := range same {
			worst = max(worst, x.rank)
		}
		for _, x := range same {
			x.rank = worst
			if err := r.rows.Add(x); err != nil {
				return err
			}
		}
		same = same[:0]
		return nil
	}
	err := r.named.Each(func(x csvRow) error {
		if len(same) > 0 && (x.s != same[0].s) {
			if err := flush(); err != nil {
				return err
			}
		}
		x.s = [3]string{strings.Clone(x.s[0]), strings.Clone(x.s[1]), strings.Clone(x.s[2])}
		x.fields = slices.Clone(x.fields)
		for i, f := range x.fields {
			x.fields[i] = strings.Clone(f)
		}
		same = append(same, x) // (a copy: the record is the sorter's until this returns)
		return nil
	})
	if err == nil {
		err = flush()
	}
	return err
}

// run ends run a: the run before it is written.
func (g *GstatCSV) run(a *analyze.GstatAnalysis) error {
	r := g.runOf(a)
	if g.rows == "indices" {
		fired := a.UnattachedWarnings()
		for i := range a.UnattachedIndices {
			if err := g.index(r, &a.UnattachedIndices[i], fired); err != nil {
				return err
			}
		}
		if err := r.rankIndices(); err != nil {
			return err
		}
	}
	g.cur = nil
	var err error
	if g.pending != nil {
		err = g.write(g.pending, true)
	}
	g.pending = r
	return err
}

// Close writes the last run.
func (g *GstatCSV) Close() error {
	if g.pending == nil {
		return nil
	}
	err := g.write(g.pending, g.n > 0)
	g.pending = nil
	return err
}

// Abort drops the runs not written (an error stopped the reading).
func (g *GstatCSV) Abort() {
	for _, r := range []*gstatCSVRun{g.cur, g.pending} {
		if r != nil {
			r.rows.Close()
			if r.named != nil {
				r.named.Close()
			}
		}
	}
	g.cur, g.pending = nil, nil
}

// write writes one run; several says whether it is one of several.
func (g *GstatCSV) write(r *gstatCSVRun, several bool) error {
	defer r.rows.Close()
	g.maxHeld = max(g.maxHeld, r.maxHeld())
	if g.Written != nil {
		g.Written(r.a)
	}
	vopt := g.vopt
	vopt.Several = several
	d := Gstat(r.a, vopt) // (the run's end: no tables, no warnings)
	g.n++
	if g.x == nil {
		opt := g.opt
		opt.Source = several
		g.x = &csvWriter{w: csv.NewWriter(g.w), opt: opt}
	}
	t, err := csvTable(d, g.opt.Table)
	if err != nil || g.rows == "" {
		return g.x.write(d)
	}
	return g.x.writeRows(d, t, func(row func([]string) error) error {
		return r.rows.Each(func(x csvRow) error {
			if r.gone[x.id] && g.rows == "warnings" {
				return nil // (replaced by a worse one)
			}
			return row(x.fields)
		})
	})
}
