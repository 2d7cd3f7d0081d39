package report

import (
	"bytes"
	"io"
	"path/filepath"

	"github.com/fbdiag/fbdiag/analyze"
)

// JSONFile is the machine-readable summary written beside index.html
// (docs/report.md describes it).
const JSONFile = "report.json"

// RunSummary is one gbak log in report.json: the operation (backup,
// restore), how it ended and the total time in seconds (null when the
// log does not say).
type RunSummary struct {
	File    string `json:"file"`
	Kind    string `json:"kind"`
	Outcome string `json:"outcome"`
	// Failure is what gbak reported failing, as the summary's critical
	// finding quotes it ("" when nothing failed), as the live backup's
	// and restore's run.failure: "failed" alone does not say which
	// index or key to fix.
	Failure      string   `json:"failure"`
	TotalSeconds *float64 `json:"total_seconds"`
	// TotalLowerBound: the run failed after its last timestamp
	// (analyze.Timeline.TotalLowerBound); the page reads "at least".
	TotalLowerBound bool `json:"total_lower_bound,omitempty"`
	// RestoredIndices and InactiveIndices are the restore's indices and
	// those it left inactive (analyze.Timeline), null when the log
	// cannot tell: a script reading "completed" learns that gbak -i left
	// every index inactive.
	RestoredIndices *int   `json:"restored_indices"`
	InactiveIndices *int   `json:"inactive_indices"`
	Section         string `json:"section"`
}

// Summary is report.json: the databases worst first, as the fleet view
// lists them, the gbak runs, the benchmarks and the inputs not analysed.
type Summary struct {
	Generator  string             `json:"generator"`
	Title      string             `json:"title"`
	Databases  []SummaryDatabase  `json:"databases"`
	Runs       []RunSummary       `json:"runs"`
	Benchmarks []SummaryBenchmark `json:"benchmarks"`
	Skipped    []SummarySkip      `json:"skipped"`
}

// SummaryDatabase is analyze.Database (the fields of analyze.Fleet) with
// the ID of its section in index.html.
type SummaryDatabase struct {
	analyze.Database
	Section string `json:"section"`
}

// SummaryBenchmark is one throughput or benchmark section: its inputs,
// the analysis' mode, its first headline figure as the page shows it
// (Headline, Value) and all of them (Headlines: a sweep of two series
// has a best setting for each, a bench run tpmC and tpmTotal).
type SummaryBenchmark struct {
	Files     []string          `json:"files"`
	Kind      string            `json:"kind"`
	Headline  string            `json:"headline"`
	Value     string            `json:"value"`
	Headlines []SummaryHeadline `json:"headlines"`
	Section   string            `json:"section"`
}

// SummaryHeadline is a headline figure of a section as the page shows
// it: Group names the series it is of ("" when the section has one),
// Caveat says the figure carries a warning on itself.
type SummaryHeadline struct {
	Label  string `json:"label"`
	Value  string `json:"value"`
	Group  string `json:"group"`
	Caveat bool   `json:"caveat"`
}

// SummarySkip is an input not analysed, and why.
type SummarySkip struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// JSON is the report's summary for report.json.
func (r *Report) JSON() *Summary {
	out := &Summary{Generator: r.Generator, Title: r.Title, Databases: []SummaryDatabase{}, Runs: []RunSummary{},
		Benchmarks: []SummaryBenchmark{}, Skipped: []SummarySkip{}}
	for _, s := range r.Databases {
		out.Databases = append(out.Databases, SummaryDatabase{Database: *s.Database, Section: s.ID})
	}
	for _, s := range r.Sections {
		switch {
		case s.Run != nil:
			run := *s.Run
			run.File, run.Section = filepath.ToSlash(run.File), s.ID
			out.Runs = append(out.Runs, run)
		case s.Mode != "":
			b := SummaryBenchmark{Files: s.Sources, Kind: s.Mode, Section: s.ID, Headlines: []SummaryHeadline{}}
			if len(s.Headlines) > 0 {
				b.Headline, b.Value = s.Headlines[0].Label, s.Headlines[0].Value
			}
			for _, h := range s.Headlines {
				b.Headlines = append(b.Headlines, SummaryHeadline{Label: h.Label, Value: h.Value, Group: h.Group, Caveat: h.Caveat})
			}
			out.Benchmarks = append(out.Benchmarks, b)
		}
	}
	for _, sk := range r.Skipped {
		out.Skipped = append(out.Skipped, SummarySkip{File: sk.Name, Reason: sk.Why})
	}
	return out
}

// WriteSummaryJSON writes report.json: the bytes of a json.Encoder with
// SetIndent("", "  "), written a part at a time. A database's findings
// are encoded one by one: a gstat run of 78,546 tables has 117,819 of
// them (106 MB of JSON), which the encoder made whole and then indented
// again, 2.6 s of the 8.3 s report.
func WriteSummaryJSON(w io.Writer, r *Report) error {
	s := r.JSON()
	o := newJSONOut(w)
	o.enc.SetEscapeHTML(true) // (as json.Encoder's default: report.json has always escaped <, > and &)
	o.raw("{\n")
	o.field("generator", s.Generator, "  ", false)
	o.field("title", s.Title, "  ", false)
	o.raw(`  "databases": [`)
	for i := range s.Databases {
		o.next(i)
		o.summaryDatabase(&s.Databases[i])
	}
	o.endArray(len(s.Databases))
	o.raw(",\n")
	array(o, "runs", s.Runs)
	array(o, "benchmarks", s.Benchmarks)
	o.raw(`  "skipped": `)
	o.elements(len(s.Skipped), func(i int) any { return &s.Skipped[i] })
	o.raw("\n}\n")
	return o.err
}

// summaryDatabase writes d as an element of the databases array, its
// findings one at a time.
func (o *jsonOut) summaryDatabase(d *SummaryDatabase) {
	const at, key = "    ", `"findings": `
	if len(d.Findings) == 0 {
		o.value(d, at)
		return
	}
	rest := *d
	rest.Findings = nil
	b, err := o.encoded(&rest, at)
	i := bytes.Index(b, []byte(key+"null"))
	if err != nil || i < 0 {
		o.value(d, at) // (cannot be: the key is there, and strings are escaped)
		return
	}
	tail := string(b[i+len(key+"null"):]) // (a copy: encoded's buffer is used again)
	if o.err == nil {
		_, o.err = o.w.Write(b[:i+len(key)])
	}
	o.raw("[")
	for j := range d.Findings {
		if j > 0 {
			o.raw(",")
		}
		o.raw("\n" + at + "    ")
		o.value(&d.Findings[j], at+"    ")
	}
	o.raw("\n" + at + "  ]" + tail)
}
