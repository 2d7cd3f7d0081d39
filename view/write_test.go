package view

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"time"
)

// sample is a small document with every kind of cell, a bounded table, a
// streamed one, findings and hostile names (a formula, a terminal escape,
// a bidi override, markup).
func sample() *Doc {
	oat := int64(4211)
	return &Doc{
		Title:  "sample of shop.fdb",
		Source: "shop.txt",
		Headline: []Field{
			{Key: "page_size", Label: "Page size", Value: Bytes(8192)},
			{Key: "next_minus_oat", Label: "Next − OAT", Value: IntP(&oat), Detail: "transactions"},
			{Key: "sweep_interval", Label: "Sweep interval", Value: IntP(nil)},
			{Key: "created", Label: "Created", Value: Time(time.Date(2024, 12, 2, 14, 14, 22, 0, time.UTC))},
		},
		Main: "tables",
		Tables: []*Table{{
			Name:  "tables",
			Title: "Top 2 of 3 tables by size",
			Columns: []Column{
				{Key: "table", Title: "table", Max: 12},
				{Key: "records", Title: "records", Kind: CountKind},
				{Key: "size_bytes", Title: "size", Kind: BytesKind},
				{Key: "fill_share", Title: "fill", Kind: ShareKind},
				{Key: "versions_per_record", Title: "ver/rec", Kind: NumberKind},
			},
			Rows: [][]Cell{
				{Str("ORDER_LINE"), Int(100000), Bytes(37329305), Share(0.69), Num(0.0123)},
				{Str("=HYPERLINK(\"x\")|<b>"), IntP(nil), Bytes(512), ShareP(nil), Num(2)},
			},
			Total: 3,
			Noun:  "tables",
			Notes: []string{"sizes are data pages × page size"},
		}, {
			Name:    "steps",
			Title:   "Steps",
			Columns: []Column{{Key: "step", Title: "step"}, {Key: "seconds", Title: "time", Kind: SecondsKind}, {Key: "ratio", Title: "B/A", Kind: RatioKind}, {Key: "change", Title: "change", Kind: ChangeKind}},
			Stream: func(yield func([]Cell) bool) {
				for _, r := range [][]Cell{
					{Str("index EVENTS_KIND (build)"), Sec(13304.334), Ratio(0.451 / 0.244), Change(-0.5877)},
					{Str("evil\x1b]0;x\a \u202etxt.exe"), Sec(12.345), Ratio(math.NaN()), Change(0.123)},
					{Str("-1"), Sec(93784), RatioP(nil), ChangeP(nil)},
				} {
					if !yield(r) {
						return
					}
				}
			},
			Limit: 2,
			Noun:  "steps",
		}},
		FindingsTitle: "Warnings",
		FindingsName:  "warnings",
		Findings: []Finding{
			{Severity: "critical", Rule: "oat-gap", Object: "database", Value: Int(4211), Threshold: Int(1000), Unit: "transactions",
				Message: "A transaction has been active for 4211 transactions.", Advice: "SELECT * FROM MON$TRANSACTIONS", Source: "IBSurgeon"},
			{Severity: "warning", Rule: "forced-writes", Object: "database", Value: Null(NumberKind), Threshold: Null(NumberKind),
				Message: "Forced writes are off.", Advice: "gfix -write sync DB", Source: "Firebird docs"},
		},
		Notes: []string{"# not a heading"},
		Metrics: []MetricFamily{{
			Name: "fbdiag_table_size_bytes", Help: "Table size, bytes\\pages \"quoted\"", Type: Gauge, Unit: "bytes",
			Samples: func(yield func(Sample) bool) {
				yield(Sample{Labels: []Label{{"database", "C:\\db\\shop.fdb"}, {"table", "A\"\n\x1b"}}, Value: 37329305})
			},
		}, {
			Name: "fbdiag_transactions", Help: "Next transaction", Type: Counter,
			Samples: func(yield func(Sample) bool) {
				yield(Sample{Labels: []Label{{"database", "shop"}}, Value: 1.5e15})
			},
		}, {
			Name: "fbdiag_ratio", Help: "x", Type: Gauge,
			Samples: func(yield func(Sample) bool) {
				_ = yield(Sample{Value: 0.1}) && yield(Sample{Labels: []Label{{"a", "b"}}, Value: math.Inf(1)})
			},
		}},
	}
}

func write(t *testing.T, f Format, opt Options, docs ...*Doc) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, f, opt, docs...); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func same(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n%s\nwant:\n%s", what, got, want)
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Errorf("first difference, line %d:\n got %q\nwant %q", i+1, gl[i], wl[i])
				break
			}
		}
	}
}

// The human formats of the sample are pinned in golden files: text,
// markdown and HTML (go test ./view -update rewrites them).
func TestSampleGolden(t *testing.T) {
	opt := Options{MoreHint: " (--all shows them)"}
	for f, ext := range map[Format]string{Text: "txt", Markdown: "md", HTML: "html"} {
		testutil.Golden(t, "testdata/golden/sample."+ext, []byte(write(t, f, opt, sample())))
	}
}

func TestTextAll(t *testing.T) {
	got := write(t, Text, Options{All: true}, &Doc{Tables: sample().Tables[1:]})
	same(t, "text --all", got, `Steps
step                                  time    B/A   change
index EVENTS_KIND (build)          3:41:44  ×1.85  -58.8 %
evil\x1b]0;x\x07 \u202etxt.exe    12.345 s      –  +12.3 %
-1                              1d 2:03:04
`)
}

func TestCSV(t *testing.T) {
	got := write(t, CSV, Options{}, sample())
	same(t, "csv main table", got, `table,records,size_bytes,fill_share,versions_per_record
ORDER_LINE,100000,37329305,0.69,0.0123
"'=HYPERLINK(""x"")|<b>",,512,,2
`)
	// Every row of a bounded table, a streamed one, control characters
	// escaped and a text cell starting with - neutralised.
	got = write(t, CSV, Options{Table: "steps"}, sample())
	same(t, "csv steps", got, `step,seconds,ratio,change
index EVENTS_KIND (build),13304.334,1.848360655737705,-0.5877
evil\x1b]0;x\x07 \u202etxt.exe,12.345,,0.123
'-1,93784,,
`)
	got = write(t, CSV, Options{Table: "summary"}, sample())
	same(t, "csv summary", got, `field,value
page_size,8192
next_minus_oat,4211
sweep_interval,
created,2024-12-02T14:14:22
`)
	got = write(t, CSV, Options{Table: "warnings"}, sample())
	same(t, "csv warnings", got, `severity,rule,object,value,threshold,unit,message,advice,source
critical,oat-gap,database,4211,1000,transactions,A transaction has been active for 4211 transactions.,SELECT * FROM MON$TRANSACTIONS,IBSurgeon
warning,forced-writes,database,,,,Forced writes are off.,gfix -write sync DB,Firebird docs
`)
	// Two documents are one table, one header, a snapshot column (not
	// "source": the findings have a column of that name).
	second := sample()
	second.Source = "=later.txt"
	got = write(t, CSV, Options{Table: "warnings", Source: true}, sample(), second)
	same(t, "csv two sources", got, `snapshot,severity,rule,object,value,threshold,unit,message,advice,source
shop.txt,critical,oat-gap,database,4211,1000,transactions,A transaction has been active for 4211 transactions.,SELECT * FROM MON$TRANSACTIONS,IBSurgeon
shop.txt,warning,forced-writes,database,,,,Forced writes are off.,gfix -write sync DB,Firebird docs
'=later.txt,critical,oat-gap,database,4211,1000,transactions,A transaction has been active for 4211 transactions.,SELECT * FROM MON$TRANSACTIONS,IBSurgeon
'=later.txt,warning,forced-writes,database,,,,Forced writes are off.,gfix -write sync DB,Firebird docs
`)
}

func TestOpenMetrics(t *testing.T) {
	got := write(t, OpenMetrics, Options{}, sample())
	same(t, "openmetrics", got, `# HELP fbdiag_table_size_bytes Table size, bytes\\pages 'quoted'
# TYPE fbdiag_table_size_bytes gauge
# UNIT fbdiag_table_size_bytes bytes
fbdiag_table_size_bytes{database="C:\\db\\shop.fdb",table="A\"\\n\\x1b"} 37329305
# HELP fbdiag_transactions Next transaction
# TYPE fbdiag_transactions counter
fbdiag_transactions_total{database="shop"} 1.5e+15
# HELP fbdiag_ratio x
# TYPE fbdiag_ratio gauge
fbdiag_ratio 0.1
fbdiag_ratio{a="b"} +Inf
# EOF
`)
	// Two databases: each family once, its samples together.
	other := &Doc{Metrics: []MetricFamily{{Name: "fbdiag_transactions", Help: "Next transaction", Type: Counter,
		Samples: func(yield func(Sample) bool) { yield(Sample{Labels: []Label{{"database", "other"}}, Value: 7}) }}}}
	got = write(t, OpenMetrics, Options{}, &Doc{Metrics: sample().Metrics[1:2]}, other)
	same(t, "openmetrics two documents", got, `# HELP fbdiag_transactions Next transaction
# TYPE fbdiag_transactions counter
fbdiag_transactions_total{database="shop"} 1.5e+15
fbdiag_transactions_total{database="other"} 7
# EOF
`)
}

func TestErrors(t *testing.T) {
	var b bytes.Buffer
	err := Write(&b, CSV, Options{Table: "indices"}, sample())
	var nt *NoTableError
	if !errors.Is(err, ErrNoTable) || !errors.As(err, &nt) ||
		err.Error() != `no table "indices" (want one of tables, steps, summary, warnings)` {
		t.Errorf("unknown table: %v", err)
	}
	if _, err := ParseFormat("json"); !errors.Is(err, ErrFormat) ||
		err.Error() != `unknown format "json" (want text, markdown, csv, openmetrics or html)` {
		t.Errorf("json: %v", err)
	}
	if err := Write(&b, "yaml", Options{}); !errors.Is(err, ErrFormat) {
		t.Errorf("yaml: %v", err)
	}
	b.Reset()
	if err := Write(&b, OpenMetrics, Options{}, &Doc{Title: "x"}); !errors.Is(err, ErrNoMetrics) || b.Len() != 0 {
		t.Errorf("no metrics: %v, wrote %q", err, b.String())
	}
	other := &Doc{Source: "other.txt", Tables: []*Table{{Name: "tables", Columns: []Column{{Key: "table"}}}}}
	err = Write(&b, CSV, Options{}, sample(), other)
	if !errors.Is(err, ErrNotRectangular) || !strings.HasPrefix(err.Error(), `other.txt: table "tables" has the columns table, not table,records,`) {
		t.Errorf("two shapes: %v", err)
	}
	twice := sample()
	err = Write(&b, OpenMetrics, Options{}, sample(), twice)
	if !errors.Is(err, ErrDuplicateSample) || err.Error() != `metric fbdiag_table_size_bytes{database="C:\\db\\shop.fdb",table="A\"\\n\\x1b"}: two samples with the same labels` {
		t.Errorf("same database twice: %v", err)
	}
	for _, f := range []MetricFamily{
		{Name: "fbdiag bad", Type: Gauge},
		{Name: "fbdiag_x", Type: "histogram"},
		{Name: "fbdiag_x", Type: Gauge, Unit: "bytes"},
		{Name: "fbdiag_x_total", Type: Counter},
	} {
		if err := Write(&b, OpenMetrics, Options{}, &Doc{Metrics: []MetricFamily{f}}); err == nil {
			t.Errorf("%+v: no error", f)
		}
	}
	bad := MetricFamily{Name: "fbdiag_x", Type: Gauge, Samples: func(yield func(Sample) bool) { yield(Sample{Labels: []Label{{"9x", "y"}}}) }}
	if err := Write(&b, OpenMetrics, Options{}, &Doc{Metrics: []MetricFamily{bad}}); err == nil || err.Error() != `metric fbdiag_x: label name "9x" is not valid` {
		t.Errorf("bad label: %v", err)
	}
}

// A streamed table longer than the rows text measures keeps its widths
// and prints every row with --all; bounded, it says how many are left.
func TestTextStream(t *testing.T) {
	const n = 1500
	rows := func(yield func([]Cell) bool) {
		for i := range n {
			name := fmt.Sprintf("T%d", i+1)
			if i == n-1 {
				name = "A_LONGER_NAME_THAN_ANY"
			}
			if !yield([]Cell{Str(name), Int(int64(i))}) {
				return
			}
		}
	}
	table := func() *Doc {
		return &Doc{Tables: []*Table{{Name: "tables", Noun: "tables", Limit: 20, Stream: rows,
			Columns: []Column{{Key: "table", Title: "table"}, {Key: "n", Title: "n", Kind: CountKind}}}}}
	}
	got := write(t, Text, Options{All: true}, table())
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != n+1 || lines[0] != "table    n" || lines[1000] != "T1000  999" ||
		lines[1001] != "T1001  1000" || lines[n] != "A_LONGER_NAME_THAN_ANY  1499" {
		t.Errorf("%d lines; header %q, 1000th %q, 1001st %q, last %q", len(lines), lines[0], lines[1000], lines[1001], lines[len(lines)-1])
	}
	got = write(t, Text, Options{MoreHint: " (--all shows them)"}, table())
	lines = strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 22 || lines[20] != "T20    19" || lines[21] != "20 of 1500 tables shown (--all shows them)" {
		t.Errorf("bounded: %d lines, ends %q", len(lines), lines[len(lines)-2:])
	}
	var csv bytes.Buffer
	if err := Write(&csv, CSV, Options{}, table()); err != nil || strings.Count(csv.String(), "\n") != n+1 {
		t.Errorf("csv: %d lines, %v", strings.Count(csv.String(), "\n"), err)
	}
}

func TestMarkdownEscape(t *testing.T) {
	for in, want := range map[string]string{
		"ORDER_LINE":          "ORDER_LINE",
		"_private_":           "\\_private\\_",
		"a|b":                 "a\\|b",
		"<script>":            "\\<script\\>",
		"&amp; & x":           "\\&amp; & x",
		"*bold* [x](y) `c` ~": "\\*bold\\* \\[x\\](y) \\`c\\` \\~",
		"back\\slash":         "back\\\\slash",
		"tab\there":           "tab\\\\there",
	} {
		if got := md(in); got != want {
			t.Errorf("md(%q) = %q, want %q", in, got, want)
		}
	}
}
