package report

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// The charts' inputs as the report drew them before GstatChartKeeper:
// every table and index sorted, the first top kept; severities looked up
// by name in the run's warnings. The oracle of the tests below.

func oracleWorst(ws []analyze.Warning, kind, object, table string) plot.Severity {
	var sel []analyze.Warning
	for _, w := range ws {
		if w.Kind == kind && w.Object == object && (kind != "index" || w.Table == table) {
			sel = append(sel, w)
		}
	}
	return plot.Severity(analyze.Worst(sel))
}

func oracleTables(a *analyze.GstatAnalysis, top int) plot.Tables {
	ts := slices.Clone(a.Tables)
	bySize := func(t *analyze.TableStats) float64 {
		if t.SizeBytes != nil {
			return float64(*t.SizeBytes)
		}
		return f64(t.DataPages)
	}
	slices.SortStableFunc(ts, func(x, y analyze.TableStats) int { return cmp.Compare(bySize(&y), bySize(&x)) })
	d := plot.Tables{Title: "Largest tables: " + filepath.Base(a.File), SizeUnit: "MiB", Of: len(a.Tables)}
	useBytes := !slices.ContainsFunc(ts, func(t analyze.TableStats) bool { return t.SizeBytes == nil })
	if !useBytes {
		d.SizeUnit = "data pages"
	}
	for i, t := range ts {
		if i == top {
			break
		}
		size := sizeMiB(t.SizeBytes)
		if !useBytes {
			size = f64(t.DataPages)
		}
		d.Tables = append(d.Tables, plot.TableBar{Name: t.Name, Size: size,
			Records: f64(t.Records), Versions: f64(t.Versions), Fragments: f64(t.Fragments),
			Severity: oracleWorst(a.Warnings, "table", t.Name, "")})
	}
	return d
}

func oracleIndices(a *analyze.GstatAnalysis, top int) plot.Indices {
	var ixs []analyze.IndexStats
	for _, t := range a.Tables {
		ixs = append(ixs, t.Indices...)
	}
	ixs = append(ixs, a.UnattachedIndices...)
	d := plot.Indices{Title: "Index depth: " + filepath.Base(a.File), SizeUnit: "MiB"}
	depths := map[int]*plot.DepthCount{}
	var keys []int
	for _, ix := range ixs {
		if ix.Depth == nil {
			continue
		}
		k := int(*ix.Depth)
		dc := depths[k]
		if dc == nil {
			dc = &plot.DepthCount{Depth: k}
			depths[k] = dc
			keys = append(keys, k)
		}
		dc.Count++
		for _, w := range a.Warnings {
			if w.Kind == "index" && isDepthRule(w.Rule) && w.Object == ix.Name && w.Table == ix.Table &&
				w.Severity.Rank() > analyze.Severity(dc.Severity).Rank() {
				dc.Severity = plot.Severity(w.Severity)
			}
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		d.Depths = append(d.Depths, *depths[k])
	}
	useBytes := !slices.ContainsFunc(ixs, func(ix analyze.IndexStats) bool { return ix.SizeBytes == nil })
	if !useBytes {
		d.SizeUnit = "leaf buckets"
	}
	size := func(ix *analyze.IndexStats) float64 {
		if useBytes {
			return sizeMiB(ix.SizeBytes)
		}
		return f64(ix.LeafBuckets)
	}
	slices.SortStableFunc(ixs, func(x, y analyze.IndexStats) int { return cmp.Compare(size(&y), size(&x)) })
	for i, ix := range ixs {
		if i == top {
			break
		}
		d.Largest = append(d.Largest, plot.IndexBar{Name: ix.Name, Table: ix.Table, Size: size(&ix),
			Severity: oracleWorst(a.Warnings, "index", ix.Name, ix.Table)})
	}
	return d
}

// oracleFill sums the fill distributions of the parsed tables (as the
// report did before TableStats kept them) and of the analysed indices.
func oracleFill(a *analyze.GstatAnalysis, rep *parse.GstatReport) plot.Fill {
	d := plot.Fill{Title: "Page fill: " + filepath.Base(a.File)}
	var tables, indices [5]float64
	var nt, ni int
	for _, t := range rep.Tables {
		if t.Fill != nil {
			nt++
			for k, v := range t.Fill {
				tables[k] += float64(v)
			}
		}
	}
	all := slices.Clone(a.UnattachedIndices)
	for _, t := range a.Tables {
		all = append(all, t.Indices...)
	}
	for _, ix := range all {
		if ix.Fill != nil {
			ni++
			for k, v := range ix.Fill {
				indices[k] += float64(v)
			}
		}
	}
	if nt > 0 {
		d.Groups = append(d.Groups, plot.FillGroup{Name: "table data pages", Pages: tables})
	}
	if ni > 0 {
		d.Groups = append(d.Groups, plot.FillGroup{Name: "index leaf pages", Pages: indices})
	}
	return d
}

func oracleData(a *analyze.GstatAnalysis, rep *parse.GstatReport, top int) string {
	d := GstatChartData{File: a.File}
	if len(a.Tables) > 0 {
		t := oracleTables(a, top)
		d.Tables = &t
	}
	n := len(a.UnattachedIndices)
	for _, t := range a.Tables {
		n += len(t.Indices)
	}
	if n > 0 {
		ix := oracleIndices(a, top)
		d.Indices = &ix
	}
	if f := oracleFill(a, rep); len(f.Groups) > 0 {
		d.Fill = &f
	}
	return chartDataString(d)
}

// chartDataString prints d whole (NaN, which DeepEqual never finds
// equal, prints as NaN).
func chartDataString(d GstatChartData) string {
	s := d.File
	if d.Tables != nil {
		s += fmt.Sprintf("\ntables %+v", *d.Tables)
	}
	if d.Indices != nil {
		s += fmt.Sprintf("\nindices %+v", *d.Indices)
	}
	if d.Fill != nil {
		s += fmt.Sprintf("\nfill %+v", *d.Fill)
	}
	return s
}

// streamCharts streams data (analyze.StreamGstat) into a keeper of the
// top tables and indices and returns each run's chart data.
func streamCharts(t *testing.T, data []byte, name string, top int) []GstatChartData {
	t.Helper()
	k := NewGstatChartKeeper(top)
	var out []GstatChartData
	err := analyze.StreamGstat(bytes.NewReader(data), name, analyze.NewThresholds(), analyze.GstatOptions{}, analyze.GstatStream{
		Table: func(a *analyze.GstatAnalysis, ts *analyze.TableStats) error {
			k.Table(ts, a.TableWarnings())
			return nil
		},
		Run: func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error {
			out = append(out, k.End(a))
			return nil
		},
	})
	if err != nil && len(out) == 0 {
		t.Logf("%s: %v", name, err)
	}
	return out
}

// TestGstatChartKeeper: every run of every gstat sample of the corpus and
// testdata, read as a stream into a GstatChartKeeper of the 12 and of
// the 3 largest, and whole into GstatCharts' keeper, gives the charts the
// oracle (every table sorted) gives. The one sample with two tables of
// one name (BLOBS 140 and 139 in the Firebird 5.0.2 blob statistics of
// PR 8394) is the exception: a whole analysis knows a warning's table by
// name only, and colours both bars with the blob-levels info of 140; the
// stream gives each table its own warnings, and 139 has none.
func TestGstatChartKeeper(t *testing.T) {
	th := analyze.NewThresholds()
	runs, trimmed := 0, 0
	for _, path := range gstatSamples(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		reps, rerr := parse.ReadGstat(bytes.NewReader(data), name)
		if errors.Is(rerr, parse.ErrNoGstat) {
			// (Read whole, its notices come in a run of their own; a
			// stream passes no run on.)
			if streamed := streamCharts(t, data, name, 3); len(streamed) != 0 {
				t.Errorf("%s: no gstat output, %d runs streamed", name, len(streamed))
			}
			continue
		}
		for _, top := range []int{TopObjects, 3} {
			streamed := streamCharts(t, data, name, top)
			if len(streamed) != len(reps) {
				t.Fatalf("%s: %d runs streamed, %d read whole", name, len(streamed), len(reps))
			}
			for i, rep := range reps {
				a := analyze.Gstat(rep, th)
				runs++
				if len(a.Tables) > 2*top {
					trimmed++
				}
				want := oracleData(a, rep, top)
				if got := chartDataString(wholeChartKeeper(a, top).data(a.File)); got != want {
					t.Fatalf("%s run %d, top %d, whole:\n got %s\nwant %s", name, i, top, got, want)
				}
				got := chartDataString(streamed[i])
				if name == "03_fb5_2plus_table_blob_stats_new_format_pr8394.txt" {
					bars := streamed[i].Tables.Tables
					if len(bars) != 2 || bars[0].Severity != "info" || bars[1].Severity != "" {
						t.Fatalf("%s: streamed bars %+v, want BLOBS info, BLOBS none", name, bars)
					}
					whole := oracleTables(a, top).Tables
					if whole[0].Severity != "info" || whole[1].Severity != "info" {
						t.Fatalf("%s: whole bars %+v, want both info", name, whole)
					}
					bars[1].Severity = "info"
					got = chartDataString(streamed[i])
				}
				if got != want {
					t.Fatalf("%s run %d, top %d, streamed:\n got %s\nwant %s", name, i, top, got, want)
				}
			}
		}
	}
	// 90 runs (the two files with no gstat output have none), each with
	// the top 12 and the top 3; the keeper cut 37 of them (more than
	// twice the top tables).
	if runs != 180 || trimmed != 37 {
		t.Fatalf("%d runs compared, %d of them cut, want 180 and 37", runs, trimmed)
	}
}

// TestGstatChartKeeperRandom: runs of random tables, many of one size or
// of no size at all (ties, NaN keys, pages instead of bytes), charted by
// a keeper of 1 to 5 as the oracle charts them.
func TestGstatChartKeeperRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2026))
	sevs := []analyze.Severity{analyze.Info, analyze.Warn, analyze.Critical}
	maybe := func(v int64) *int64 {
		if rng.IntN(6) == 0 {
			return nil
		}
		return &v
	}
	for round := range 500 {
		a := &analyze.GstatAnalysis{File: fmt.Sprintf("random-%d", round)}
		noBytes := rng.IntN(3) == 0
		for i := range rng.IntN(40) {
			ts := analyze.TableStats{Name: fmt.Sprintf("T%d", i), DataPages: maybe(int64(rng.IntN(4))), Records: maybe(int64(rng.IntN(9)))}
			if !noBytes || rng.IntN(2) == 0 {
				ts.SizeBytes = maybe(int64(rng.IntN(4)) << 13)
			}
			if rng.IntN(2) == 0 {
				ts.Fill = &parse.GstatFill{int64(i), 0, 1, 0, 2}
			}
			for j := range rng.IntN(4) {
				ix := analyze.IndexStats{Name: fmt.Sprintf("X%d_%d", i, j), Table: ts.Name, Depth: maybe(int64(rng.IntN(4))),
					LeafBuckets: maybe(int64(rng.IntN(3)))}
				if !noBytes {
					ix.SizeBytes = maybe(int64(rng.IntN(3)) << 13)
				}
				if rng.IntN(3) == 0 {
					ix.Fill = &parse.GstatFill{1, 2, 3, 4, int64(j)}
				}
				ts.Indices = append(ts.Indices, ix)
			}
			a.Tables = append(a.Tables, ts)
		}
		var fired [][]analyze.Warning // each table's warnings, in order
		for _, ts := range a.Tables {
			var ws []analyze.Warning
			for range rng.IntN(3) {
				w := analyze.Warning{Rule: "table-versions", Kind: "table", Object: ts.Name, Severity: sevs[rng.IntN(3)]}
				if len(ts.Indices) > 0 && rng.IntN(2) == 0 {
					ix := ts.Indices[rng.IntN(len(ts.Indices))]
					w.Kind, w.Object, w.Table = "index", ix.Name, ts.Name
					if rng.IntN(2) == 0 {
						w.Rule = "index-deep"
					}
				}
				ws = append(ws, w)
			}
			fired = append(fired, ws)
			a.Warnings = append(a.Warnings, ws...)
		}
		top := 1 + rng.IntN(5)
		rep := &parse.GstatReport{}
		for _, ts := range a.Tables {
			rep.Tables = append(rep.Tables, &parse.GstatTable{Fill: ts.Fill})
		}
		want := oracleData(a, rep, top)
		if got := chartDataString(wholeChartKeeper(a, top).data(a.File)); got != want {
			t.Fatalf("round %d, top %d, whole:\n got %s\nwant %s", round, top, got, want)
		}
		k := NewGstatChartKeeper(top)
		for i := range a.Tables {
			k.Table(&a.Tables[i], fired[i])
		}
		if got := chartDataString(k.End(a)); got != want {
			t.Fatalf("round %d, top %d, streamed:\n got %s\nwant %s", round, top, got, want)
		}
	}
}

// FuzzGstatChartKeeper: whatever the text, a run streamed into a keeper
// charts what the oracle charts of the whole analysis, wherever the names
// of its tables, and of its indices on a table, are unique (the oracle
// knows a warning's object by name only).
func FuzzGstatChartKeeper(f *testing.F) {
	for _, name := range []string{"shop-gstat-a-r.txt", "shop-gstat-r-later.txt", "shop-gstat-i.txt"} {
		f.Add(readFB30(f, name))
	}
	th := analyze.NewThresholds()
	f.Fuzz(func(t *testing.T, data []byte) {
		reps, err := parse.ReadGstat(bytes.NewReader(data), "fuzz")
		if errors.Is(err, parse.ErrNoGstat) {
			reps = nil // (read whole, its run of notices comes with the error; streamed, none comes)
		}
		streamed := streamCharts(t, data, "fuzz", 3)
		if len(streamed) != len(reps) {
			t.Fatalf("%d runs streamed, %d read whole", len(streamed), len(reps))
		}
		for i, rep := range reps {
			a := analyze.Gstat(rep, th)
			if !uniqueNames(a) {
				continue
			}
			if got, want := chartDataString(streamed[i]), oracleData(a, rep, 3); got != want {
				t.Fatalf("run %d:\n got %s\nwant %s", i, got, want)
			}
		}
	})
}

func readFB30(f *testing.F, name string) []byte {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "fb30", name))
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// uniqueNames: no two tables of a have one name, nor two indices one
// name and table.
func uniqueNames(a *analyze.GstatAnalysis) bool {
	tables, indices := map[string]bool{}, map[[2]string]bool{}
	ixs := slices.Clone(a.UnattachedIndices)
	for _, t := range a.Tables {
		if tables[t.Name] {
			return false
		}
		tables[t.Name] = true
		ixs = append(ixs, t.Indices...)
	}
	for _, ix := range ixs {
		k := [2]string{ix.Name, ix.Table}
		if indices[k] {
			return false
		}
		indices[k] = true
	}
	return true
}

// The mutation run (seed 1404) found the index block of Firebird issue
// 8404 repeated to 8 MiB, 19,554 indices on no table block, took 7.8 s in
// report: End looked up each unattached index's severity by scanning all
// the run's warnings. 20,000 of them (one name), streamed, chart as
// the whole run's keeper charts them (each an info), in well under a
// second (a bound of 2 s that the scan missed fourfold).
func TestGstatChartKeeperManyUnattached(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	block, err := os.ReadFile(filepath.Join(testutil.CorpusDir(t), "public", "gstat", "04_fb5_index_stats_issue8404.txt"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 20000
	var b bytes.Buffer
	for range n {
		b.Write(block)
	}
	start := time.Now()
	streamed := streamCharts(t, b.Bytes(), "many-unattached.txt", TopObjects)
	took := time.Since(start)
	rep, _ := parse.ReadGstat(bytes.NewReader(b.Bytes()), "many-unattached.txt")
	if len(streamed) != 1 || len(rep) != 1 {
		t.Fatalf("%d runs streamed, %d read whole", len(streamed), len(rep))
	}
	a := analyze.Gstat(rep[0], analyze.NewThresholds())
	// One warning in the run (one per rule and object), n kept with the
	// indices they fired on.
	if len(a.UnattachedIndices) != n || len(a.UnattachedWarnings()) != n || len(a.Warnings) != 1 || a.Warnings[0].Rule != "index-max-dup" {
		t.Fatalf("%d unattached indices, %d warnings on them, %d in the run, want %d, %d and 1 (index-max-dup)",
			len(a.UnattachedIndices), len(a.UnattachedWarnings()), len(a.Warnings), n, n)
	}
	ix := streamed[0].Indices
	if ix == nil || len(ix.Largest) != TopObjects || ix.Largest[0].Severity != "info" ||
		len(ix.Depths) != 1 || ix.Depths[0] != (plot.DepthCount{Depth: 2, Count: n}) {
		t.Fatalf("indices chart %+v, want the %d largest, each info, and %d of depth 2", ix, TopObjects, n)
	}
	// The whole run's keeper, not the oracle: the oracle scans the
	// warnings once an index, as End did.
	if got, want := chartDataString(streamed[0]), chartDataString(wholeChartKeeper(a, TopObjects).data(a.File)); got != want {
		t.Fatalf("streamed:\n got %s\nwant %s", got, want)
	}
	t.Logf("streamed in %v", took)
	if took > 2*time.Second && !testutil.Race {
		t.Errorf("%d unattached indices with a warning each charted in %v", n, took)
	}
}
