package report

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// Input is one file given to the report, already recognised by
// parse.Detect. Open is called by the section builders, which stream it.
type Input struct {
	// Name is the file as the user named it (shown in the report), or
	// for a part of a mixed input the part's name ("FILE#gbak-1").
	Name   string
	Kind   parse.InputKind
	Reason string
	Open   func() (io.ReadCloser, error)
	// File is the file a part was cut from; "" for a whole input.
	File string
	// Part is the part's kind, lines and name; Split is the cut of its
	// file (shared by the parts of one file). nil for a whole input.
	Part  *parse.Part
	Split *parse.Split

	closer io.Closer // a stream's (StreamInput), for CloseInputs
}

// Source is the file the input was read from: File for a part, else
// Name. The readers are given it, so that their messages read
// file:line; the sections are named by Name.
func (in Input) Source() string {
	if in.File != "" {
		return in.File
	}
	return in.Name
}

// Report is the whole HTML report: a summary first, then one section per
// input (or per pair of inputs compared).
type Report struct {
	Title string
	// Generator is written into <meta name="generator">; WriteDir uses it
	// to recognise its own earlier reports.
	Generator string
	Inputs    []Input
	// Summary lists the critical and warning findings of every section,
	// worst first.
	Summary  []Finding
	Sections []*Section
	// Skipped are the inputs not analysed (also in Summary).
	Skipped []Skip
	// Databases are the databases of the gstat inputs, worst first, each
	// with the ID of its section (the fleet view's rows).
	Databases []*Section
	// Counts are the headline counts of the summary (Counts).
	Counts []Headline
}

// Finding is one judgement of an analysis, in the DBA's words.
type Finding struct {
	// Severity is "critical", "warning" or "info".
	Severity string
	Text     string
	// Section is the ID of the section the finding comes from, and
	// SectionTitle its title: the summary's "→" link to it is named by
	// it for a screen reader, which read "right arrow" alone.
	Section, SectionTitle string
}

// Headline is one figure ("restore completed", "32.1 s"). The summary's
// copy is labelled with the section's short name too.
type Headline struct {
	Label, Value string
	Section      string
	// Caveat: the figure carries a warning on itself (a prediction whose
	// own check missed): the summary repeats it past its first figures.
	Caveat bool
	// Group is what the figure is of among several (a series), "" else:
	// the summary repeats a group's first figure before its caveat.
	Group string
}

// Section is the part of the report about one input or comparison.
type Section struct {
	ID    string
	Title string
	// Kind is the input kind or "comparison".
	Kind string
	// Sources are the input names the section was built from.
	Sources   []string
	Text      []string
	Findings  []Finding
	Headlines []Headline
	Figures   []*Figure
	Tables    []*Table
	// Fragment is the HTML of the section's view (package view): written
	// in place of the headlines, findings and tables, which then serve
	// the summary only.
	Fragment template.HTML
	// Notices are the readers' notes on skipped or repaired lines.
	Notices []string
	// Err is set when the section could not be built; the rest of the
	// report is still written.
	Err string

	// Database is set on a database's section (KindDatabase): its
	// verdict, reason and findings across its snapshots.
	Database *analyze.Database
	// Header is the database's header block, taken from the snapshot
	// HeaderFrom; ShownFrom is the snapshot whose tables are shown.
	Header     []HeaderField
	HeaderFrom string
	ShownFrom  string
	// TablesWithVersions counts the tables of the shown snapshot that
	// hold back versions (-1 when it has no record statistics).
	TablesWithVersions int
	// Run is set on a gbak log's section (report.json's runs[]).
	Run *RunSummary
	// Mode is the throughput analysis' mode (degradation, sweep, ab…).
	Mode string
}

// Figure is a chart of a section, rendered by Render.
type Figure struct {
	Chart *plot.Chart
	// File is the PNG's name in the report folder.
	File string
	PNG  []byte
}

// AddChart adds a chart built by a plot function; a nil chart (not
// enough data) is skipped, an error becomes a notice.
func (s *Section) AddChart(c *plot.Chart, err error) {
	if err != nil {
		s.Notices = append(s.Notices, "chart not drawn: "+err.Error())
		return
	}
	if c != nil {
		s.Figures = append(s.Figures, &Figure{Chart: c})
	}
}

// AddCharts adds the charts of an adapter (GbakCharts, ThroughputCharts…);
// an error becomes a notice.
func (s *Section) AddCharts(cs []*plot.Chart, err error) {
	if err != nil {
		s.Notices = append(s.Notices, "chart not drawn: "+err.Error())
	}
	for _, c := range cs {
		s.AddChart(c, nil)
	}
}

// Builder makes the sections for the inputs of one kind. It is given
// all inputs of that kind at once, so it can also compare them (two
// restore logs, several throughput tables).
type Builder func(inputs []Input) []*Section

var (
	buildersMu sync.Mutex
	builders   = map[parse.InputKind]Builder{}
)

// Register sets the section builder of an input kind (report/sections_*.go
// register theirs in init).
func Register(k parse.InputKind, b Builder) {
	buildersMu.Lock()
	defer buildersMu.Unlock()
	builders[k] = b
}

// SummaryHeadlinesPerSection bounds the figures a section gives in the
// summary's list of sections; the section shows all of its own.
const SummaryHeadlinesPerSection = 2

// Kinds in report order: database first, then restores, then benchmarks.
var kindOrder = []parse.InputKind{parse.InputGstat, parse.InputGbak, parse.InputThroughput, parse.InputBenchmark, parse.InputBenchRun, parse.InputUnknown}

// Build analyses every input and assembles the report (charts are not
// rendered yet: see Render).
func Build(title, generator string, inputs []Input) *Report {
	r := &Report{Title: title, Generator: generator, Inputs: inputs}
	byKind := map[parse.InputKind][]Input{}
	for _, in := range inputs {
		byKind[in.Kind] = append(byKind[in.Kind], in)
	}
	for _, k := range kindOrder {
		ins := byKind[k]
		if len(ins) == 0 {
			continue
		}
		buildersMu.Lock()
		b := builders[k]
		buildersMu.Unlock()
		if b == nil {
			b = unsupported
		}
		r.Sections = append(r.Sections, safeBuild(k, b, ins)...)
	}
	r.finish()
	if title == "" {
		r.Title = defaultTitle(r)
	}
	return r
}

// DefaultTitle is the title of a report given none.
const DefaultTitle = "fbdiag report"

// defaultTitle names what the report is about: its database, its two,
// or how many; else its one section. Every report's page and browser
// tab read "fbdiag report", whichever database it was of.
func defaultTitle(r *Report) string {
	var names []string
	for _, s := range r.Databases {
		names = append(names, baseName(s.Database.Database))
	}
	switch {
	case len(names) == 1 || len(names) == 2:
		return DefaultTitle + ": " + strings.Join(names, ", ")
	case len(names) > 2:
		return fmt.Sprintf("%s: %d databases", DefaultTitle, len(names))
	case len(r.Sections) == 1:
		return DefaultTitle + ": " + r.Sections[0].Title
	}
	return DefaultTitle
}

// baseName is the file name of a database path as gstat printed it, a
// Windows one too (C:\TEMP\TEST.FDB), wherever fbdiag runs.
func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 && i < len(path)-1 {
		return path[i+1:]
	}
	return path
}

// safeBuild runs a builder; a panic in an analysis becomes a section
// that says so, and the rest of the report is still written.
func safeBuild(k parse.InputKind, b Builder, ins []Input) (out []*Section) {
	defer func() {
		if r := recover(); r != nil {
			s := &Section{ID: "failed-" + string(k), Title: "Not analysed: " + string(k), Kind: string(k),
				Err: fmt.Sprintf("internal error in the %s analysis: %v (please report it with the input)", k, r)}
			for _, in := range ins {
				s.Sources = append(s.Sources, in.Name)
			}
			out = []*Section{s}
		}
	}()
	return b(ins)
}

// unsupported lists inputs no analysis reads (yet), so that nothing the
// user gave disappears silently.
func unsupported(inputs []Input) []*Section {
	k := inputs[0].Kind
	// The title names what was left out ("Not analysed: SOURCES.md", "Not
	// analysed: 3 inputs"), not the kind "unknown".
	what := baseName(inputs[0].Name)
	if len(inputs) > 1 {
		what = units.Count(len(inputs), "input")
	}
	if k != parse.InputUnknown {
		what += " (" + string(k) + ")"
	}
	s := &Section{ID: "other-" + string(k), Title: "Not analysed: " + what, Kind: string(k)}
	if k != parse.InputUnknown {
		s.Text = append(s.Text, "These inputs were recognised, but this build of fbdiag has no analysis for them.")
	}
	t := &Table{Name: "inputs", Title: "Inputs", Columns: Cols("file", "recognised as", "why")}
	for _, in := range inputs {
		s.Sources = append(s.Sources, in.Name)
		t.Add(in.Name, string(in.Kind), in.Reason)
	}
	s.Tables = append(s.Tables, t)
	return []*Section{s}
}

// finish gives sections unique IDs and collects the summary.
func (r *Report) finish() {
	// Ids and chart files are unique by construction: two inputs of one
	// long name clip to the same 60 characters.
	var ids, files plot.Names
	for _, s := range r.Sections {
		id := ids.Take(strings.ToLower(s.ID))
		s.ID = id
		for i := range s.Findings {
			s.Findings[i].Section, s.Findings[i].SectionTitle = id, s.Title
			if s.Findings[i].Severity == "critical" || s.Findings[i].Severity == "warning" {
				r.Summary = append(r.Summary, s.Findings[i])
			}
		}
		var keep []Headline
		for _, h := range s.Headlines {
			if h.Value == "" {
				continue // a figure the input did not have
			}
			h.Section = id
			keep = append(keep, h)
		}
		s.Headlines = keep
		for _, f := range s.Figures {
			if !f.Chart.Drawn() {
				continue // notes only: no file
			}
			f.Chart.Name = id
			files.Assign(f.Chart)
			f.File = f.Chart.File()
		}
	}
	r.skipped()
	distinctTitles(r.Sections)
	for _, s := range r.Sections {
		if s.Database != nil {
			r.Databases = append(r.Databases, s)
		}
	}
	r.Counts = counts(r)
	sort.SliceStable(r.Summary, func(i, j int) bool {
		return severityRank(r.Summary[i].Severity) < severityRank(r.Summary[j].Severity)
	})
}

// distinctTitles names the folder of a section's input in its title when
// another section has the same title: two files of one name in two
// folders (testdata/bench/buffers.csv and testdata/bench/sweep-w1/buffers.csv)
// were listed, and headed, as two "Throughput (sweep): buffers.csv". The
// file name at the end of the title becomes as many of the path's last
// elements as tell the sections apart ("bench/buffers.csv",
// "sweep-w1/buffers.csv"), or of its folder for a section of several
// inputs (titlePath); another title is kept.
func distinctTitles(sections []*Section) {
	byTitle := map[string][]*Section{}
	var titles []string
	for _, s := range sections {
		if _, ok := byTitle[s.Title]; !ok {
			titles = append(titles, s.Title)
		}
		byTitle[s.Title] = append(byTitle[s.Title], s)
	}
	for _, t := range titles {
		group := byTitle[t]
		var named []*Section
		var paths []string
		for _, s := range group {
			if p, ok := titlePath(s); ok {
				named, paths = append(named, s), append(paths, p)
			}
		}
		if len(group) < 2 || len(named) < 2 {
			continue
		}
		for k := 2; k <= 8; k++ {
			seen := map[string]bool{}
			tails := make([]string, len(named))
			for i := range named {
				tails[i] = pathTail(paths[i], k)
				seen[tails[i]] = true
			}
			if len(seen) == len(named) || k == 8 {
				for i, s := range named {
					s.Title = strings.TrimSuffix(s.Title, filepath.Base(paths[i])) + tails[i]
				}
				break
			}
		}
	}
}

// titlePath is the path whose base name ends s's title: its one input's
// ("Throughput (sweep): buffers.csv"), or the folder of its several
// ("Throughput (ab): pgbench runs in folder bench": the corpus's bench and
// testdata/bench were two sections of that title).
func titlePath(s *Section) (string, bool) {
	if len(s.Sources) == 1 {
		return s.Sources[0], strings.HasSuffix(s.Title, filepath.Base(s.Sources[0]))
	}
	if len(s.Sources) == 0 {
		return "", false
	}
	dir := filepath.Dir(s.Sources[0])
	for _, src := range s.Sources[1:] {
		if filepath.Dir(src) != dir {
			return "", false
		}
	}
	return dir, dir != "." && strings.HasSuffix(s.Title, filepath.Base(dir))
}

// pathTail is the last k elements of path, joined by slashes.
func pathTail(path string, k int) string {
	parts := strings.FieldsFunc(filepath.ToSlash(path), func(r rune) bool { return r == '/' })
	if len(parts) > k {
		parts = parts[len(parts)-k:]
	}
	return strings.Join(parts, "/")
}

func severityRank(s string) int {
	switch s {
	case "critical":
		return 0
	case "warning":
		return 1
	case "info":
		return 2
	}
	return 3
}

// Figures lists every figure of the report in order, those of notes
// only (plot.NotesOnly) included.
func (r *Report) Figures() []*Figure {
	var out []*Figure
	for _, s := range r.Sections {
		out = append(out, s.Figures...)
	}
	return out
}

// Drawn lists the figures that have a picture, in order.
func (r *Report) Drawn() []*Figure {
	var out []*Figure
	for _, f := range r.Figures() {
		if f.Chart.Drawn() {
			out = append(out, f)
		}
	}
	return out
}

// Render draws every chart as PNG, one a core at a time (charts are
// independent and rendering is most of a report's time); the PNGs are
// the same whatever the order they are drawn in.
func (r *Report) Render(o plot.Options) error {
	figs := r.Drawn()
	return fanOut(len(figs), runtime.GOMAXPROCS(0), func(i int) error {
		var err error
		figs[i].PNG, err = figs[i].Chart.PNG(o)
		return err
	})
}

// fanOut calls do(i) for every i below n, at most limit at a time, and
// joins their errors in the order of i.
func fanOut(n, limit int, do func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, limit)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = do(i)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// ChartKinds lists the kinds of the charts the report draws.
func (r *Report) ChartKinds() []plot.Kind {
	seen := map[plot.Kind]bool{}
	var out []plot.Kind
	for _, f := range r.Drawn() {
		if !seen[f.Chart.Kind] {
			seen[f.Chart.Kind] = true
			out = append(out, f.Chart.Kind)
		}
	}
	return out
}
