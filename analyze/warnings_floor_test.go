package analyze

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// wholeLimited is what a limited run must give: the run's warnings all
// kept, one per key (the worst, the first of equals), then the limit
// worst shown and the others counted by severity.
func wholeLimited(ws []Warning, limit int) (kept []Warning, omitted map[Severity]int) {
	var all []Warning
	seen := map[warningKey]int{}
	for _, w := range ws {
		if i, ok := seen[keyOf(w)]; ok {
			if worse(&w, all[i].Severity, all[i].Magnitude) {
				all[i] = w
			}
			continue
		}
		seen[keyOf(w)] = len(all)
		all = append(all, w)
	}
	SortWarnings(all)
	n := min(limit, len(all))
	for _, w := range all[n:] {
		if omitted == nil {
			omitted = map[Severity]int{}
		}
		omitted[w.Severity]++
	}
	return all[:n], omitted
}

// A limited run keeps and counts what a run that keeps every warning
// would show and leave out, whatever the order in which the warnings of
// a few objects, many of them repeated, worse or not, come: among them,
// a worse copy of a warning left out (trimmed, or under the floor) that
// is then shown, and repeats that are counted once.
func TestWarningFloor(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	sevs := []Severity{Info, Warn, Critical}
	rng := rand.New(rand.NewPCG(1, 2))
	revived, repeatsLeftOut := 0, 0
	for run := range 3000 {
		limit := 1 + rng.IntN(4)
		c := &checker{a: &GstatAnalysis{}, limit: limit}
		n := rng.IntN(60)
		keys := 1 + rng.IntN(20) // few objects: many repeats
		var ws []Warning
		outAt := map[warningKey]bool{} // left out when they came
		for range n {
			w := Warning{Rule: "r", Kind: "table", Object: fmt.Sprint("T", rng.IntN(keys)),
				Severity: sevs[rng.IntN(3)], Magnitude: float64(rng.IntN(5))}
			ws = append(ws, w)
			c.accept(&w)
			if c.sinkErr != nil {
				t.Fatal(c.sinkErr)
			}
			if _, held := c.heldH.get(c.warningHash(&w)); !held {
				outAt[keyOf(w)] = true
			}
		}
		c.endLimited()
		c.closeSunk()
		kept, omitted := wholeLimited(ws, limit)
		if !reflect.DeepEqual(c.a.Warnings, kept) && !(len(c.a.Warnings) == 0 && len(kept) == 0) {
			t.Fatalf("run %d (limit %d): kept\n%v\nwant\n%v", run, limit, c.a.Warnings, kept)
		}
		if len(c.a.WarningsOmitted) == 0 {
			c.a.WarningsOmitted = nil
		}
		if !reflect.DeepEqual(c.a.WarningsOmitted, omitted) {
			t.Fatalf("run %d (limit %d): omitted %v, want %v", run, limit, c.a.WarningsOmitted, omitted)
		}
		for _, w := range kept {
			if outAt[keyOf(w)] {
				revived++
			}
		}
		count := map[warningKey]int{}
		for _, w := range ws {
			count[keyOf(w)]++
		}
		for k, m := range count {
			if m > 1 && outAt[k] {
				repeatsLeftOut++
			}
		}
	}
	if revived == 0 || repeatsLeftOut == 0 {
		t.Fatalf("%d warnings shown after a copy was left out, %d keys repeated and left out: the test must see both", revived, repeatsLeftOut)
	}
}

// A table block printed again at the end of a big run, worse (300 back
// versions a record where the first copy had 0.33), shows in a run
// limited to the 20 worst warnings as in the whole run: its first
// copy's warning was left out long before, and its key was then
// forgotten, not closed. The warnings left out are counted as the whole
// run leaves them out, by severity (before, the worse copy was ignored:
// the key stayed closed).
func TestLimitedWorseCopyShown(t *testing.T) {
	_, big := testutil.BigGstat(t, 1<<20)
	start := bytes.Index(big, []byte("\nCUSTOMER_00001 ("))
	end := bytes.Index(big[start+1:], []byte("\nDOCS_00001 ("))
	if start < 0 || end < 0 {
		t.Fatal("no CUSTOMER_00001 block")
	}
	block := big[start+1 : start+1+end+1]
	worse := bytes.Replace(block, []byte("total versions: 10000,"), []byte("total versions: 9000000,"), 1)
	at := bytes.LastIndex(big, []byte("Gstat completion"))
	if bytes.Equal(worse, block) || at < 0 {
		t.Fatal("sample changed")
	}
	in := slices.Concat(big[:at], worse, big[at:])
	whole, err := wholeRuns(in, "in", NewThresholds())
	if err != nil || len(whole) != 1 {
		t.Fatal(len(whole), err)
	}
	want := whole[0].Warnings
	var got *GstatAnalysis
	err = StreamGstat(bytes.NewReader(in), "in", NewThresholds(), GstatOptions{}, GstatStream{
		WarningLimit: 20,
		Run:          func(a *GstatAnalysis, _ *parse.GstatReport) error { got = a; return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	shown := false
	for _, w := range got.Warnings {
		shown = shown || w.Rule == "table-versions" && w.Object == "CUSTOMER_00001" && w.Severity == Warn
	}
	omitted := map[Severity]int{}
	for _, w := range want[20:] {
		omitted[w.Severity]++
	}
	if !shown || !reflect.DeepEqual(got.Warnings, want[:20]) || !reflect.DeepEqual(got.WarningsOmitted, omitted) {
		t.Errorf("limited run: table-versions on CUSTOMER_00001 shown %v; omitted %v, want %v (%d warnings)",
			shown, got.WarningsOmitted, omitted, len(want))
	}
}
