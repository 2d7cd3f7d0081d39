package analyze

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// fleetWhole is Fleet as it was before FleetBuilder, every snapshot
// kept whole and judged at the end: the oracle of TestFleetBuilderAgrees.
func fleetWhole(snaps []*GstatAnalysis) []Database {
	byKey := map[string][]*GstatAnalysis{}
	var order []string
	for _, a := range snaps {
		k := DatabaseKey(a)
		if byKey[k] == nil {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], a)
	}
	var out []Database
	for _, k := range order {
		runs := byKey[k]
		slices.SortStableFunc(runs, func(a, b *GstatAnalysis) int {
			ta, oka := snapTime(a)
			tb, okb := snapTime(b)
			switch {
			case oka && okb:
				return ta.Compare(tb)
			case oka:
				return -1
			case okb:
				return 1
			}
			return 0
		})
		// The findings as judge read them, every warning of every run.
		type key struct{ rule, kind, table, object string }
		count, lastSeen, latest := map[key]int{}, map[key]int{}, map[key]Warning{}
		var keys []key
		for i, a := range runs {
			for _, w := range a.Warnings {
				k := key{w.Rule, w.Kind, w.Table, w.Object}
				if count[k] == 0 {
					keys = append(keys, k)
				}
				count[k]++
				lastSeen[k] = i
				latest[k] = w
			}
		}
		d := Database{Database: k}
		for _, a := range runs {
			d.Snapshots = append(d.Snapshots, SnapshotName(a))
		}
		var current, resolved []Warning
		for _, k := range keys {
			w, at := latest[k], -1
			for i := len(runs) - 1; i >= 0; i-- {
				if canShow(runs[i], w) {
					at = i
					break
				}
			}
			if lastSeen[k] == at {
				current = append(current, w)
			} else {
				resolved = append(resolved, w)
			}
		}
		SortWarnings(current)
		SortWarnings(resolved)
		for _, w := range current {
			d.Findings = append(d.Findings, DatabaseFinding{Rule: w.Rule, Object: w.Object, Table: w.Table, Reason: w.Reason,
				Snapshots: count[key{w.Rule, w.Kind, w.Table, w.Object}]})
		}
		for _, w := range resolved {
			d.Resolved = append(d.Resolved, DatabaseFinding{Rule: w.Rule, Object: w.Object, Table: w.Table, Reason: w.Reason,
				Snapshots: count[key{w.Rule, w.Kind, w.Table, w.Object}]})
		}
		d.Verdict, d.Reason = verdict(current, runs[len(runs)-1])
		out = append(out, d)
	}
	slices.SortStableFunc(out, func(a, b Database) int { return compareStrings(a.Database, b.Database) })
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// The fleet fed one snapshot at a time, keeping one copy of each finding,
// judges as the whole snapshots did: the same snapshots in order, the same
// findings current and resolved with their counts and texts, the same
// verdict, whatever order the snapshots come in (the seven of the
// embedded sample, the growing series and the published ones, as given,
// reversed and shuffled).
func TestFleetBuilderAgrees(t *testing.T) {
	var paths []string
	for _, dir := range []string{testutil.Testdata(t, "fb30"), testutil.Testdata(t, "growth")} {
		m, _ := filepath.Glob(filepath.Join(dir, "*gstat*"))
		g, _ := filepath.Glob(filepath.Join(dir, "grow-*"))
		paths = append(append(paths, m...), g...)
	}
	snaps := analyseFiles(t, paths...)
	if len(snaps) != 14 {
		t.Fatalf("%d snapshots, want 14", len(snaps))
	}
	rng := rand.New(rand.NewPCG(16, 2026))
	for round := range 12 {
		order := slices.Clone(snaps)
		switch round {
		case 0:
		case 1:
			slices.Reverse(order)
		default:
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		got := Fleet(order)
		slices.SortStableFunc(got, func(a, b Database) int { return compareStrings(a.Database, b.Database) })
		want := fleetWhole(order)
		if len(got) != len(want) {
			t.Fatalf("round %d: %d databases, want %d", round, len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			gj, _ := json.Marshal([]any{g.Database, g.Snapshots, briefFindings(g.Findings), briefFindings(g.Resolved), g.Verdict, g.Reason})
			wj, _ := json.Marshal([]any{w.Database, w.Snapshots, briefFindings(w.Findings), briefFindings(w.Resolved), w.Verdict, w.Reason})
			if string(gj) != string(wj) {
				t.Errorf("round %d:\n%s\nwant\n%s", round, gj, wj)
			}
		}
	}
}

func briefFindings(fs []DatabaseFinding) []DatabaseFinding {
	out := []DatabaseFinding{}
	for _, f := range fs {
		out = append(out, DatabaseFinding{Rule: f.Rule, Object: f.Object, Table: f.Table, Reason: f.Reason, Snapshots: f.Snapshots})
	}
	return out
}
