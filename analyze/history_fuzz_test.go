package analyze

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// FuzzDiff feeds two gstat texts to Diff and TrendOf: whatever the reader
// makes of them, the comparison must not panic, its JSON must encode (no
// NaN or infinity reaches a figure), statuses must agree with the values,
// and the runs read as streams (gstat diff, gstat trend) must give the
// diff and the trend of the runs read whole.
//
// The seeds are excerpts (one table of the real pair, as it is, with lone
// CRs, huge numbers and long names): on the whole files it ran 7 inputs
// in 20 s.
func FuzzDiff(f *testing.F) {
	before, after := testutil.FuzzSeeds(f, testutil.GstatSeed), testutil.FuzzSeeds(f, testutil.GstatLaterSeed)
	for i := range before {
		f.Add(before[i], after[i])
	}
	f.Add(testutil.ReadTestdata(f, "fb30", "shop-gstat-h.txt"), after[0])
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ra, errA := parse.ReadGstat(bytes.NewReader(a), "a")
		rb, errB := parse.ReadGstat(bytes.NewReader(b), "b")
		if errA != nil || errB != nil || len(ra) == 0 || len(rb) == 0 {
			return
		}
		sa, sb := NewHistorySnapshot(ra[len(ra)-1], SnapshotOptions{}), NewHistorySnapshot(rb[len(rb)-1], SnapshotOptions{})
		d := Diff(sa, sb)
		wholeDiff, err := json.Marshal(d)
		if err != nil {
			t.Fatalf("diff JSON: %v", err)
		}
		// Read as gstat diff reads them, each run streamed (DiffSamples):
		// the same diff.
		streamed := func(name string, text []byte) *HistorySnapshot {
			ss := streamedSnapshots(t, name, string(text))
			if len(ss) == 0 {
				t.Fatalf("%s: no run streamed, %d read whole", name, len(ra))
			}
			return ss[len(ss)-1]
		}
		if got, err := json.Marshal(Diff(streamed("a", a), streamed("b", b))); err != nil || !bytes.Equal(got, wholeDiff) {
			t.Fatalf("streamed diff (%v):\n%s\nwhole:\n%s", err, got, wholeDiff)
		}
		for _, td := range d.Tables {
			switch td.Status {
			case StatusAdded:
				if td.Records[0] != nil || td.DataPages[0] != nil {
					t.Fatalf("added table %s has before values", td.Name)
				}
			case StatusUnchanged:
				if td.Records.Differs() || td.DataPages.Differs() {
					t.Fatalf("unchanged table %s differs", td.Name)
				}
			}
		}
		var snaps []*HistorySnapshot
		for _, r := range append(ra, rb...) {
			snaps = append(snaps, NewHistorySnapshot(r, SnapshotOptions{}))
		}
		whole, err := json.Marshal(TrendOf(snaps, 1<<30))
		if err != nil {
			t.Fatalf("trend JSON: %v", err)
		}
		// Read as gstat trend reads them, each run streamed and sampled:
		// the same trend.
		sampled, err := json.Marshal(TrendOf(sampledSnapshots(t, new(TrendSamples), [2]string{"a", string(a)}, [2]string{"b", string(b)}), 1<<30))
		if err != nil || !bytes.Equal(sampled, whole) {
			t.Fatalf("sampled trend (%v):\n%s\nwhole:\n%s", err, sampled, whole)
		}
	})
}

// BenchmarkDiff measures reading the real pair and comparing it, per
// input byte.
func BenchmarkDiff(b *testing.B) {
	a := testutil.ReadTestdata(b, "fb30", "shop-gstat-a-r.txt")
	c := testutil.ReadTestdata(b, "fb30", "shop-gstat-r-later.txt")
	b.SetBytes(int64(len(a) + len(c)))
	for b.Loop() {
		ra, err := parse.ReadGstat(bytes.NewReader(a), "a")
		if err != nil {
			b.Fatal(err)
		}
		rc, err := parse.ReadGstat(bytes.NewReader(c), "c")
		if err != nil {
			b.Fatal(err)
		}
		Diff(NewHistorySnapshot(ra[0], SnapshotOptions{}), NewHistorySnapshot(rc[0], SnapshotOptions{}))
	}
}

// BenchmarkTrend measures a month of daily snapshots (the real -a -r
// output with ORDERS growing), read and fitted, per input byte: each run
// kept whole, and streamed with its trend samples alone (gstat trend).
func BenchmarkTrend(b *testing.B) {
	var texts [][]byte
	n := 0
	for day := range 30 {
		s := []byte(growingShop(b, day, int64(808+100*day)))
		texts = append(texts, s)
		n += len(s)
	}
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(n))
		b.ReportAllocs()
		var snaps []*HistorySnapshot
		for b.Loop() {
			snaps = make([]*HistorySnapshot, 0, len(texts))
			for _, s := range texts {
				r, err := parse.ReadGstat(bytes.NewReader(s), "s")
				if err != nil {
					b.Fatal(err)
				}
				snaps = append(snaps, NewHistorySnapshot(r[0], SnapshotOptions{}))
			}
			TrendOf(snaps, 1<<30)
		}
		reportHeld(b, func() { snaps = nil })
	})
	// As gstat trend reads them: streamed, five figures a table kept.
	b.Run("sampled", func(b *testing.B) {
		b.SetBytes(int64(n))
		b.ReportAllocs()
		inputs := make([][2]string, len(texts))
		for i, s := range texts {
			inputs[i] = [2]string{"s", string(s)}
		}
		var snaps []*HistorySnapshot
		for b.Loop() {
			snaps = sampledSnapshots(b, new(TrendSamples), inputs...)
			TrendOf(snaps, 1<<30)
		}
		reportHeld(b, func() { snaps = nil })
	})
}

// reportHeld reports as "held-KB" the heap that drop lets go of: the
// snapshots a trend holds while it reads the next ones.
func reportHeld(b *testing.B, drop func()) {
	var held, left runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&held)
	drop()
	runtime.GC()
	runtime.ReadMemStats(&left)
	b.ReportMetric(float64(int64(held.HeapAlloc)-int64(left.HeapAlloc))/1024, "held-KB")
}

// The fuzz seeds are real data: the excerpt pair compares STOCK, whose
// 15000 back versions were collected; the gbak excerpt is a completed
// restore with DOCS and STOCK; the variants read as lone-CR text, huge
// numbers (refused one by one) and long names.
func TestFuzzSeedsAreReal(t *testing.T) {
	before, after := testutil.FuzzSeeds(t, testutil.GstatSeed), testutil.FuzzSeeds(t, testutil.GstatLaterSeed)
	for i, want := range []string{"STOCK", "STOCK", "STOCK", "STOCK" + strings.Repeat("X", 295)} {
		ra, err := parse.ReadGstat(bytes.NewReader(before[i]), "a")
		if err != nil {
			t.Fatal(err)
		}
		rb, err := parse.ReadGstat(bytes.NewReader(after[i]), "b")
		if err != nil {
			t.Fatal(err)
		}
		d := Diff(NewHistorySnapshot(ra[0], SnapshotOptions{}), NewHistorySnapshot(rb[0], SnapshotOptions{}))
		if i == 2 {
			// Every number past 2^64: each value refused with a notice,
			// the table block skipped.
			skipped := ra[0].Notices[len(ra[0].Notices)-2].Msg
			if len(d.Tables) != 0 || len(ra[0].Notices) != 10 || skipped != `skipped 29 lines that are not gstat output, the first: "STOCK (184467440737095516150)"` {
				t.Errorf("huge numbers: %d tables, notices %v", len(d.Tables), ra[0].Notices)
			}
			continue
		}
		if len(d.Tables) != 1 || d.Tables[0].Name != want {
			t.Fatalf("seed %d: tables %+v", i, d.Tables)
		}
		if d.Tables[0].BackVersions == nil || *d.Tables[0].BackVersions != VersionsCollected {
			t.Errorf("seed %d: STOCK back versions %v", i, d.Tables[0].BackVersions)
		}
	}
	if n := len(before[0]); n > 1600 {
		t.Errorf("gstat seed is %d bytes", n)
	}
	gbak := testutil.FuzzSeeds(t, testutil.GbakSeed)
	tl, err := ReadGbakTimeline(bytes.NewReader(gbak[1]), "cr")
	// STOCK's cost is unknown: the excerpt leaves out the lines after it.
	if err != nil || tl.Outcome != GbakCompleted || len(tl.Tables) != 2 || !nearMs(tl.Tables[0].Seconds, 0.454) ||
		!is(tl.Tables[1].Records, 20000) || tl.Tables[1].Seconds != nil || len(gbak[0]) > 1200 {
		t.Errorf("gbak seed (lone CR): %v, outcome %s, tables %+v, %d bytes", err, tl.Outcome, tl.Tables, len(gbak[0]))
	}
}
