package analyze

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// oldLimited is the limited checker before the floor: every warning held
// until a trim at twice the limit sorts them all. The floor must change
// nothing of what it keeps and counts.
type oldLimited struct {
	limit   int
	ws      []Warning
	seen    map[warningKey]int
	omitted map[Severity]int
}

func (o *oldLimited) add(w Warning) {
	k := keyOf(w)
	if i, ok := o.seen[k]; ok {
		if i >= 0 && worse(w, o.ws[i].Severity, o.ws[i].Magnitude) {
			o.ws[i] = w
		}
		return
	}
	o.seen[k] = len(o.ws)
	o.ws = append(o.ws, w)
	if len(o.ws) >= 2*o.limit {
		o.trim()
	}
}

func (o *oldLimited) trim() {
	SortWarnings(o.ws)
	if len(o.ws) > o.limit {
		for _, w := range o.ws[o.limit:] {
			o.omitted[w.Severity]++
			o.seen[keyOf(w)] = -1
		}
		o.ws = o.ws[:o.limit]
	}
	for i, w := range o.ws {
		o.seen[keyOf(w)] = i
	}
}

func TestWarningFloor(t *testing.T) {
	sevs := []Severity{Info, Warn, Critical}
	rng := rand.New(rand.NewPCG(1, 2))
	early, revived := 0, 0
	for run := range 3000 {
		limit := 1 + rng.IntN(4)
		c := &checker{a: &GstatAnalysis{}, limit: limit}
		o := &oldLimited{limit: limit, seen: map[warningKey]int{}, omitted: map[Severity]int{}}
		n := rng.IntN(60)
		keys := 1 + rng.IntN(20) // few objects: many repeats
		for range n {
			w := Warning{Rule: "r", Kind: "table", Object: fmt.Sprint("T", rng.IntN(keys)),
				Severity: sevs[rng.IntN(3)], Magnitude: float64(rng.IntN(5))}
			c.accept(w)
			early += len(c.early)
			revived += c.earlyGone
			o.add(w)
		}
		c.trimWarnings()
		o.trim()
		SortWarnings(c.a.Warnings)
		if len(o.omitted) == 0 {
			o.omitted = nil
		}
		if !reflect.DeepEqual(c.a.Warnings, o.ws) && !(len(c.a.Warnings) == 0 && len(o.ws) == 0) {
			t.Fatalf("run %d (limit %d): kept\n%v\nwant\n%v", run, limit, c.a.Warnings, o.ws)
		}
		if !reflect.DeepEqual(c.a.WarningsOmitted, o.omitted) {
			t.Fatalf("run %d (limit %d): omitted %v, want %v", run, limit, c.a.WarningsOmitted, o.omitted)
		}
	}
	if early == 0 || revived == 0 {
		t.Fatalf("%d warnings dropped under the floor, %d of them held again by a worse one: the test must see both", early, revived)
	}
}
