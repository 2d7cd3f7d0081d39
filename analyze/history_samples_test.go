package analyze

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// sampledSnapshots reads inputs (name, text) as gstat trend does: each
// run streamed, only its trend samples kept.
func sampledSnapshots(t testing.TB, ts *TrendSamples, inputs ...[2]string) []*HistorySnapshot {
	t.Helper()
	var snaps []*HistorySnapshot
	for _, in := range inputs {
		err := StreamGstat(strings.NewReader(in[1]), in[0], NewThresholds(), GstatOptions{}, GstatStream{
			CountWarnings: true,
			Table:         func(_ *GstatAnalysis, tb *TableStats) error { ts.Add(tb); return nil },
			Run: func(a *GstatAnalysis, rep *parse.GstatReport) error {
				snaps = append(snaps, ts.Snapshot(a, rep, SnapshotOptions{}))
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return snaps
}

// A trend of snapshots read as streams, keeping five figures a table, is
// the trend of the same snapshots read whole, to the byte of its JSON; the
// snapshots hold no tables, and a table's name is held once for all of
// them.
func TestTrendSamplesAgree(t *testing.T) {
	var inputs [][2]string
	var whole []*HistorySnapshot
	for day := range 30 {
		in := [2]string{fmt.Sprintf("day%d.txt", day), growingShop(t, day, int64(808+100*day))}
		inputs = append(inputs, in)
		whole = append(whole, snapshotText(t, in[0], in[1]))
	}
	var ts TrendSamples
	sampled := sampledSnapshots(t, &ts, inputs...)
	want, err := json.Marshal(TrendOf(whole, 1<<30))
	if err != nil {
		t.Fatal(err)
	}
	tr := TrendOf(sampled, 1<<30)
	got, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("sampled trend differs from the whole one:\n%s\nwant\n%s", got, want)
	}
	// The figures themselves: ORDERS, 808 data pages of 8 KiB on day 0,
	// 100 more a day, the fastest.
	orders := trendTable(t, tr, "ORDERS")
	first, last := orders.Points[0], orders.Points[29]
	if len(tr.Snapshots) != 30 || tr.Tables[0].Name != "ORDERS" || !orders.Fastest ||
		*first.SizeBytes != 808*8192 || *last.SizeBytes != 3708*8192 || *last.Records != 3708*124 {
		t.Errorf("%d snapshots, first table %s, ORDERS %d → %d bytes, %d records", len(tr.Snapshots), tr.Tables[0].Name,
			*first.SizeBytes, *last.SizeBytes, *last.Records)
	}
	for _, s := range sampled {
		if len(s.Analysis.Tables) != 0 || len(s.samples) != 6 || s.Analysis.Totals.Tables != 6 {
			t.Fatalf("%s: %d tables kept, %d samples, %d tables counted", s.Analysis.File, len(s.Analysis.Tables), len(s.samples), s.Analysis.Totals.Tables)
		}
	}
	a, b := sampled[0].samples[0].name, sampled[29].samples[0].name
	if a != b || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Errorf("table %q of day 0 and %q of day 29 are two copies", a, b)
	}
}

// Random series of snapshots of the shop taken with other switches (-a -r,
// -r, -d, -h, -s -r, -i, -e), some undated, some of another database,
// days repeated: the trend of the sampled snapshots is the trend of the
// whole ones, to the byte of its JSON (what is left out and why, the
// breaks, the fits).
func TestTrendSamplesAgreeRandom(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	sources := []string{"shop-gstat-a-r.txt", "shop-gstat-r-later.txt", "shop-gstat-d.txt", "shop-gstat-h.txt",
		"shop-gstat-s-r.txt", "shop-gstat-i.txt", "shop-gstat-e.txt"}
	var texts []string
	for _, f := range sources {
		texts = append(texts, string(testutil.ReadTestdata(t, "fb30", f)))
	}
	rng := rand.New(rand.NewPCG(16, 2027))
	for round := range 200 {
		var inputs [][2]string
		var whole []*HistorySnapshot
		for i := range 2 + rng.IntN(9) {
			s := texts[rng.IntN(len(texts))]
			switch rng.IntN(6) {
			case 0: // undated: the trend skips it
				s = strings.Replace(s, "Gstat execution time", "Gstat run time", 1)
			default:
				when := time.Date(2026, 12, 2, 14, 9, 54, 0, time.UTC).AddDate(0, 0, rng.IntN(8)).Format("Mon Jan _2 15:04:05 2006")
				s = strings.Replace(s, "Gstat execution time Wed Dec  2 14:09:54 2026", "Gstat execution time "+when, 1)
			}
			if rng.IntN(8) == 0 {
				s = strings.Replace(s, "/var/lib/firebird/data/shop.fdb", "/var/lib/firebird/data/other.fdb", 1)
			}
			in := [2]string{fmt.Sprintf("s%d.txt", i), s}
			inputs = append(inputs, in)
			reps, err := parse.ReadGstat(strings.NewReader(s), in[0])
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range reps {
				whole = append(whole, NewHistorySnapshot(r, SnapshotOptions{}))
			}
		}
		want, err := json.Marshal(TrendOf(whole, 1<<30))
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(TrendOf(sampledSnapshots(t, new(TrendSamples), inputs...), 1<<30))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: sampled trend\n%s\nwhole\n%s", round, got, want)
		}
	}
}
