package analyze

import (
	"cmp"
	"slices"
)

// Severity grades a warning the way IBAnalyst colours its cells: info is
// worth knowing, warning (yellow) needs attention, critical (red) hurts
// now or will soon.
type Severity string

// The three severities, lowest first.
const (
	Info     Severity = "info"
	Warn     Severity = "warning"
	Critical Severity = "critical"
)

// Rank orders severities: info 1, warning 2, critical 3, unknown 0.
func (s Severity) Rank() int {
	switch s {
	case Info:
		return 1
	case Warn:
		return 2
	case Critical:
		return 3
	}
	return 0
}

// ParseSeverity accepts the names used by --fail-on.
func ParseSeverity(s string) (Severity, bool) {
	switch Severity(s) {
	case Info, Warn, Critical:
		return Severity(s), true
	case "warn", "yellow":
		return Warn, true
	case "red":
		return Critical, true
	}
	return "", false
}

// Warning is one rule that fired on one object.
type Warning struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// Kind is database, table or index.
	Kind string `json:"kind"`
	// Object names what the warning is about: a table, an index, or
	// "database".
	Object string `json:"object"`
	// Table is the owning table of an index warning.
	Table     string  `json:"table,omitempty"`
	Value     float64 `json:"value"`
	Threshold float64 `json:"threshold"`
	Unit      string  `json:"unit"`
	// Reason says what the value means for this object; Advice what to
	// run or change, naming the object ("" when there is nothing to do).
	Reason string `json:"reason"`
	Advice string `json:"advice"`
	Source string `json:"source"`
	// Magnitude is how far past the threshold the value is (≥ 1 when it
	// fired); it orders warnings of one severity.
	Magnitude float64 `json:"magnitude"`
}

// SortWarnings orders warnings critical first, then by magnitude, then by
// rule, object and table so that output is stable.
func SortWarnings(ws []Warning) {
	slices.SortFunc(ws, func(a, b Warning) int { return CompareWarningKeys(a.Key(), b.Key()) })
}

// WarningKey is what orders warnings: a writer that keeps warnings
// elsewhere (a spool file) sorts by it.
type WarningKey struct {
	Severity            Severity
	Magnitude           float64
	Rule, Object, Table string
}

// Key is the warning's WarningKey.
func (w *Warning) Key() WarningKey {
	return WarningKey{w.Severity, w.Magnitude, w.Rule, w.Object, w.Table}
}

// CompareWarningKeys is SortWarnings's order: critical first, then by
// magnitude, then rule, object and table.
func CompareWarningKeys(a, b WarningKey) int {
	if c := cmp.Compare(b.Severity.Rank(), a.Severity.Rank()); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Magnitude, a.Magnitude); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Rule, b.Rule); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Object, b.Object); c != 0 {
		return c
	}
	return cmp.Compare(a.Table, b.Table)
}

// Worst returns the highest severity among ws ("" when there is none).
func Worst(ws []Warning) Severity {
	var w Severity
	for _, x := range ws {
		if x.Severity.Rank() > w.Rank() {
			w = x.Severity
		}
	}
	return w
}
