package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fbdiag/fbdiag/internal/units"
)

// WarningChange is a health warning that appeared, was resolved or
// changed severity between two snapshots: the rule, the object and the
// figures of each snapshot that has it.
type WarningChange struct {
	Rule   string `json:"rule"`
	Kind   string `json:"kind"`
	Object string `json:"object"`
	Table  string `json:"table,omitempty"`
	// Severity is the one of the snapshot that has the warning (the
	// later one when both have it).
	Severity Severity `json:"severity"`
	// SeverityBefore is set when both snapshots have the warning with
	// another severity.
	SeverityBefore *Severity `json:"severity_before,omitempty"`
	// Values are the rule's figure [before, after]; null in the snapshot
	// without the warning (the rule did not fire there).
	Values    FloatPair `json:"values"`
	Threshold float64   `json:"threshold"`
	Unit      string    `json:"unit"`
	Reason    string    `json:"reason"`
}

func keyOf(w Warning) warningKey { return warningKey{w.Rule, w.Kind, w.Object, w.Table} }

// coverage says which objects a snapshot shows well enough for a rule to
// fire or stay silent on them: a warning missing from a snapshot that
// does not show its object (a gstat -d run has no indices, one without -r
// no back versions) is not resolved, just not looked at.
type coverage struct {
	header  bool
	tables  map[string]*diffTable // by name, as warnings name them
	indices map[string]bool
	anyIdx  bool
	system  bool // system tables listed
}

func coverageOf(d *diffSide) coverage {
	c := coverage{header: d.header, tables: map[string]*diffTable{}, indices: map[string]bool{}}
	for i := range d.tables.len() {
		t := d.tables.at(i)
		c.tables[tableKey(t.schema, t.name)] = t
		c.system = c.system || IsSystemTable(t.name)
	}
	for i := range d.indices.len() {
		x := d.indices.at(i)
		k := indexKey(x.tableSchema, x.table, x.name)
		c.indices[k.schema+"."+k.name], c.anyIdx = true, true
	}
	return c
}

// canonical is w's key as both sides name it: Firebird 6 names objects
// SCHEMA.NAME (QualifiedName) and earlier versions by their name alone,
// which a diff matches as the schema a restore into 6.0 gives it
// (tableKey): without it, every warning of a 5.0 snapshot diffed with a
// 6.0 one read resolved and appeared again, and a 6.0 pair's objects gone.
func (d *diffSide) canonical(w *diffWarning) warningKey {
	k := w.key()
	if d.schemas {
		return k
	}
	switch w.kind {
	case "table":
		k.object = tableKey("", w.object)
	case "index":
		k.object, k.table = defaultSchema(w.table)+"."+w.object, tableKey("", w.table)
	}
	return k
}

// sees tells whether the snapshot of coverage c could have raised w, seen
// on the same object in the other snapshot (other). absent is true when
// it shows objects of that kind but not this one: the object was dropped
// or created in between.
func (c coverage) sees(w *diffWarning, key warningKey, other coverage) (ok, absent bool) {
	switch w.kind {
	case "database":
		return c.header, false
	case "table":
		t, o := c.tables[key.object], other.tables[key.object]
		switch {
		case t == nil && len(c.tables) > 0 && (c.system || !IsSystemTable(t0(key.object))):
			return true, true
		case t == nil || o == nil:
			return false, false
		}
		// With and without -r the same table shows other figures.
		return (t.has&dRecords == 0) == (o.has&dRecords == 0), false
	case "index":
		switch {
		case c.indices[key.object]:
			return true, false
		case c.anyIdx:
			return true, true
		}
		return false, false
	}
	return false, false
}

// warnings fills the warnings that appeared, were resolved or changed
// severity, and says how many could not be compared.
func (d *SnapshotDiff) warnings(b, a *diffSide) {
	d.WarningsAppeared, d.WarningsResolved, d.WarningsChanged = []WarningChange{}, []WarningChange{}, []WarningChange{}
	bc, ac := coverageOf(b), coverageOf(a)
	before, after := map[warningKey]*diffWarning{}, map[warningKey]*diffWarning{}
	for _, w := range b.warnings {
		before[b.canonical(w)] = w
	}
	for _, w := range a.warnings {
		after[a.canonical(w)] = w
	}
	notSeen := map[string]int{}
	for _, w := range b.warnings {
		aw, both := after[b.canonical(w)]
		switch {
		case both && aw.severity != w.severity:
			ch := change(a, aw, ptr(w.value), ptr(aw.value))
			sev := w.severity
			ch.SeverityBefore = &sev
			d.WarningsChanged = append(d.WarningsChanged, ch)
		case both:
		default:
			ok, dropped := ac.sees(w, b.canonical(w), bc)
			if !ok {
				notSeen["after"]++
				continue
			}
			ch := change(b, w, ptr(w.value), nil)
			if dropped {
				ch.Reason = "the " + w.kind + " is gone: " + ch.Reason
			}
			d.WarningsResolved = append(d.WarningsResolved, ch)
		}
	}
	for _, w := range a.warnings {
		if _, both := before[a.canonical(w)]; both {
			continue
		}
		ok, created := bc.sees(w, a.canonical(w), ac)
		if !ok {
			notSeen["before"]++
			continue
		}
		ch := change(a, w, nil, ptr(w.value))
		if created {
			ch.Reason = "new " + w.kind + ": " + ch.Reason
		}
		d.WarningsAppeared = append(d.WarningsAppeared, ch)
	}
	for _, side := range []string{"before", "after"} {
		if n := notSeen[side]; n > 0 {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s not compared: the %s snapshot does not show %s "+
				"(other gstat switches: -d has no indices, -r adds back versions)", units.Count(n, "warning"), side, map[bool]string{true: "its object", false: "their objects"}[n == 1]))
		}
	}
	for _, l := range [][]WarningChange{d.WarningsAppeared, d.WarningsResolved, d.WarningsChanged} {
		slices.SortStableFunc(l, func(x, y WarningChange) int {
			return cmp.Or(cmp.Compare(y.Severity.Rank(), x.Severity.Rank()), cmp.Compare(x.Rule, y.Rule),
				cmp.Compare(x.Table, y.Table), cmp.Compare(x.Object, y.Object))
		})
	}
}

func change(s *diffSide, w *diffWarning, before, after *float64) WarningChange {
	return WarningChange{Rule: w.rule, Kind: w.kind, Object: w.object, Table: w.table, Severity: w.severity,
		Values: FloatPair{before, after}, Threshold: w.threshold, Unit: w.unit, Reason: s.reason(w)}
}

// t0 is the name part of a canonical SCHEMA.NAME key.
func t0(key string) string {
	if i := strings.IndexByte(key, '.'); i >= 0 {
		return key[i+1:]
	}
	return key
}
