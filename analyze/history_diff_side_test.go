package analyze

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// streamedSnapshots reads every run of text as gstat diff does: a
// stream, each run's snapshot made by DiffSamples.
func streamedSnapshots(t testing.TB, name, text string) []*HistorySnapshot {
	t.Helper()
	var ds DiffSamples
	var out []*HistorySnapshot
	err := StreamGstat(strings.NewReader(text), name, NewThresholds(), GstatOptions{},
		ds.Stream(SnapshotOptions{}, func(s *HistorySnapshot, _ *parse.GstatReport) error {
			out = append(out, s)
			return nil
		}))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// wholeSnapshots reads every run of text whole, each analysed.
func wholeSnapshots(t testing.TB, name, text string) []*HistorySnapshot {
	t.Helper()
	reps, err := parse.ReadGstat(strings.NewReader(text), name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out []*HistorySnapshot
	for _, rep := range reps {
		out = append(out, NewHistorySnapshot(rep, SnapshotOptions{}))
	}
	return out
}

func diffJSON(t testing.TB, before, after *HistorySnapshot) string {
	t.Helper()
	b, err := json.MarshalIndent(Diff(before, after), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A diff of snapshots streamed (what gstat diff reads) equals the diff of
// the same runs read whole and analysed (what it read before DiffSamples,
// and what the report still gives Diff): every gstat sample of testdata
// and the corpus against the shop database, against itself, its first
// run against its last, and runs made to try the matching: a table block
// printed twice, an index moved to another table, a table dropped.
func TestDiffStreamedEqualsWhole(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	shopPath := filepath.Join("..", "testdata", "fb30", "shop-gstat-a-r.txt")
	shop := read(shopPath)
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "*gstat*.txt"))
	more, _ := filepath.Glob(filepath.Join("..", "testdata", "growth", "*.txt"))
	files = append(files, more...)
	if len(files) < 15 {
		t.Fatalf("%d gstat files in testdata, want 15 or more", len(files))
	}
	t.Run("corpus", func(t *testing.T) {
		dir := filepath.Join(testutil.CorpusDir(t), "public", "gstat")
		more, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		out, _ := filepath.Glob(filepath.Join(dir, "*.out"))
		more = append(more, out...)
		if len(more) < 55 {
			t.Fatalf("%d gstat samples in the corpus, want 55 or more", len(more))
		}
		compareStreamedDiffs(t, more, shop)
	})

	// The made runs: ORDERS printed twice (the second block with other
	// data pages), STOCK dropped.
	orders := block(t, shop, "ORDERS (130)", "ORDER_LINE (131)")
	twice := strings.Replace(shop, orders, orders+strings.Replace(orders, "Data pages: 808", "Data pages: 9808", 1), 1)
	dropped := strings.Replace(shop, block(t, shop, "STOCK (132)", "WAREHOUSE (128)"), "", 1)
	for name, text := range map[string]string{"twice.txt": twice, "dropped.txt": dropped} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	compareStreamedDiffs(t, files, shop)

	// Every figure of the real pair's streamed diff is the one its runs'
	// analyses hold, table by table and index by index.
	later := string(testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt"))
	checkDiffFigures(t, Diff(streamedSnapshots(t, "shop", shop)[0], streamedSnapshots(t, "later", later)[0]),
		wholeSnapshots(t, "shop", shop)[0].Analysis, wholeSnapshots(t, "later", later)[0].Analysis)

	// What the made runs must show, streamed.
	s, tw := streamedSnapshots(t, "shop", shop), streamedSnapshots(t, "twice", twice)
	d := Diff(s[0], tw[0])
	if n := countNamed(d, "ORDERS"); n != 2 {
		t.Errorf("ORDERS printed twice: %d diffs of it, want 2 (each block of the later run)", n)
	}
	d = Diff(tw[0], s[0])
	if td := tableDiff(t, d, "ORDERS"); *td.DataPages[0] != 9808 || *td.DataPages[1] != 808 {
		t.Errorf("ORDERS from the run that prints it twice: data pages %s, want the later block's 9808 → 808", pairString(td.DataPages))
	}
	dr := streamedSnapshots(t, "dropped", dropped)
	d = Diff(s[0], dr[0])
	if td := tableDiff(t, d, "STOCK"); td.Status != StatusDropped {
		t.Errorf("STOCK: %s, want dropped", td.Status)
	}
	resolvedGone := 0
	for _, w := range d.WarningsResolved {
		if w.Table == "STOCK" || w.Object == "STOCK" {
			if !strings.HasPrefix(w.Reason, "the ") {
				t.Errorf("%s on %s resolved as %q: want the reason to say the object is gone", w.Rule, w.Object, w.Reason)
			}
			resolvedGone++
		}
	}
	if resolvedGone == 0 {
		t.Errorf("dropping STOCK resolved none of its warnings: %+v", d.WarningsResolved)
	}
}

// compareStreamedDiffs compares, for each file, the diffs of its runs
// streamed and read whole: the file against shop, shop against it, it
// against itself, and its first run against its last.
func compareStreamedDiffs(t *testing.T, files []string, shop string) {
	type pair struct{ name, before, after string }
	var pairs []pair
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		pairs = append(pairs, pair{f + " / shop", text, shop}, pair{"shop / " + f, shop, text})
		pairs = append(pairs, pair{f + " itself", text, text})
	}
	compared, changes := 0, 0
	for _, p := range pairs {
		wb, sb := wholeSnapshots(t, "before.txt", p.before), streamedSnapshots(t, "before.txt", p.before)
		wa, sa := wholeSnapshots(t, "after.txt", p.after), streamedSnapshots(t, "after.txt", p.after)
		if len(wb) != len(sb) || len(wa) != len(sa) {
			t.Fatalf("%s: %d and %d runs whole, %d and %d streamed", p.name, len(wb), len(wa), len(sb), len(sa))
		}
		if len(wb) == 0 || len(wa) == 0 {
			continue
		}
		cases := [][4]*HistorySnapshot{{wb[len(wb)-1], wa[len(wa)-1], sb[len(sb)-1], sa[len(sa)-1]}}
		if len(wb) > 1 { // (a file of several runs: its first against its last, as gstat diff FILE)
			cases = append(cases, [4]*HistorySnapshot{wb[0], wb[len(wb)-1], sb[0], sb[len(sb)-1]})
		}
		for _, c := range cases {
			want, got := diffJSON(t, c[0], c[1]), diffJSON(t, c[2], c[3])
			if got != want {
				t.Errorf("%s: streamed diff differs from the whole one:\n%s", p.name, firstDifference(want, got))
				continue
			}
			compared++
			d := Diff(c[2], c[3])
			changes += len(d.WarningsAppeared) + len(d.WarningsResolved) + len(d.WarningsChanged)
		}
	}
	t.Logf("%d diffs compared, %d warning changes among them", compared, changes)
	if compared < 3*len(files) || changes == 0 {
		t.Errorf("%d diffs compared (want %d or more), %d warning changes: the comparison did not cover what it should", compared, 3*len(files), changes)
	}

}

// checkDiffFigures checks d's figures against the analyses of its two
// runs, for snapshots that print each table and index once.
func checkDiffFigures(t *testing.T, d *SnapshotDiff, before, after *GstatAnalysis) {
	t.Helper()
	i64 := func(p *int) *int64 {
		if p == nil {
			return nil
		}
		v := int64(*p)
		return &v
	}
	tables := func(a *GstatAnalysis) map[string]*TableStats {
		m := map[string]*TableStats{}
		for i := range a.Tables {
			m[a.Tables[i].Name] = &a.Tables[i]
		}
		return m
	}
	indices := func(a *GstatAnalysis) map[string]*IndexStats {
		m := map[string]*IndexStats{}
		for i := range a.Tables {
			for j := range a.Tables[i].Indices {
				m[a.Tables[i].Indices[j].Name] = &a.Tables[i].Indices[j]
			}
		}
		return m
	}
	same := func(what string, p Pair, b, a *int64) {
		if pairString(p) != pairString(Pair{b, a}) {
			t.Errorf("%s: %s, want %s", what, pairString(p), pairString(Pair{b, a}))
		}
	}
	bt, at := tables(before), tables(after)
	for _, td := range d.Tables {
		b, a := bt[td.Name], at[td.Name]
		if b == nil || a == nil {
			t.Fatalf("%s: not in both runs", td.Name)
		}
		same(td.Name+" records", td.Records, b.Records, a.Records)
		same(td.Name+" versions", td.Versions, b.Versions, a.Versions)
		same(td.Name+" fragments", td.Fragments, b.Fragments, a.Fragments)
		same(td.Name+" data pages", td.DataPages, b.DataPages, a.DataPages)
		same(td.Name+" size", td.SizeBytes, b.SizeBytes, a.SizeBytes)
		same(td.Name+" index bytes", td.IndexBytes, b.IndexBytes, a.IndexBytes)
		same(td.Name+" fill", td.AverageFill, i64(b.AverageFill), i64(a.AverageFill))
	}
	bi, ai := indices(before), indices(after)
	for _, id := range d.Indices {
		b, a := bi[id.Name], ai[id.Name]
		if b == nil || a == nil {
			t.Fatalf("%s: not in both runs", id.Name)
		}
		same(id.Name+" depth", id.Depth, b.Depth, a.Depth)
		same(id.Name+" leaf buckets", id.LeafBuckets, b.LeafBuckets, a.LeafBuckets)
		same(id.Name+" nodes", id.Nodes, b.Nodes, a.Nodes)
		same(id.Name+" total dup", id.TotalDup, b.TotalDup, a.TotalDup)
		same(id.Name+" max dup", id.MaxDup, b.MaxDup, a.MaxDup)
		same(id.Name+" size", id.SizeBytes, b.SizeBytes, a.SizeBytes)
	}
	if len(d.Tables) != 6 || len(d.Indices) != 10 {
		t.Errorf("%d tables and %d indices compared, want the shop's 6 and 10", len(d.Tables), len(d.Indices))
	}
}

// block is the text of s from the line starting with from to the line
// starting with to (excluded).
func block(t *testing.T, s, from, to string) string {
	t.Helper()
	i, j := strings.Index(s, "\n"+from), strings.Index(s, "\n"+to)
	if i < 0 || j < i {
		t.Fatalf("no block %q before %q", from, to)
	}
	return s[i+1 : j+1]
}

func countNamed(d *SnapshotDiff, name string) int {
	n := 0
	for _, td := range d.Tables {
		if td.Name == name {
			n++
		}
	}
	return n
}

// firstDifference shows where two texts part.
func firstDifference(want, got string) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(0, i-200)
	return "want …" + want[from:min(len(want), i+200)] + "\ngot  …" + got[from:min(len(got), i+200)]
}

// A pile hands back every record it took, at the address it first had,
// across its growing blocks (16, 32, … 2048) and the fixed ones past
// them; a pile of one record holds a block of 16.
func TestPile(t *testing.T) {
	var p pile[int]
	var addrs []*int
	const n = pileGrown + 3*pileBlock + 5
	for i := range n {
		p.add(i)
		addrs = append(addrs, p.at(i))
	}
	if p.len() != n {
		t.Fatalf("%d records, want %d", p.len(), n)
	}
	for i := range n {
		if r := p.at(i); r != addrs[i] || *r != i {
			t.Fatalf("record %d: %d at %p, want %d at %p", i, *r, r, i, addrs[i])
		}
	}
	var sizes []int
	for _, b := range p.blocks {
		sizes = append(sizes, cap(b))
	}
	want := "[16 32 64 128 256 512 1024 2048 4096 4096 4096 4096]"
	if fmt.Sprint(sizes) != want {
		t.Errorf("blocks of %v, want %s", sizes, want)
	}
	var one pile[diffWarning]
	one.add(diffWarning{id: 7})
	if len(one.blocks) != 1 || cap(one.blocks[0]) != pileFirst || one.at(0).id != 7 {
		t.Errorf("a pile of one: blocks %d of %d", len(one.blocks), cap(one.blocks[0]))
	}
}

// A file of 2,000 runs of one warning each (a gstat that failed to log
// in, appended again and again), read as gstat diff reads a file of many
// runs, allocates a few kilobytes a run: each run's side held a block of
// 4096 warnings before (1.2 GB allocated here; 36,315 such runs took 12 s).
func TestDiffSamplesManySmallRuns(t *testing.T) {
	one := testutil.ReadTestdata(t, "gstat", "shop-auth-failure.txt")
	data := bytes.Repeat(one, 2000)
	var ds DiffSamples
	runs, warnings := 0, 0
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := StreamGstat(bytes.NewReader(data), "many.txt", NewThresholds(), GstatOptions{}, ds.Stream(SnapshotOptions{},
		func(s *HistorySnapshot, _ *parse.GstatReport) error {
			runs++
			warnings += len(s.diff.warnings)
			return nil
		}))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	perRun := (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
	t.Logf("%d runs, %d warnings, %d bytes allocated a run", runs, warnings, perRun)
	if runs != 2000 || warnings != 2000 || perRun > 64<<10 {
		t.Errorf("%d runs, %d warnings, %d bytes allocated a run; want 2000, 2000, 64 KiB at most", runs, warnings, perRun)
	}
}
