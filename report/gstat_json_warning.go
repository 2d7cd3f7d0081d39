package report

import "github.com/fbdiag/fbdiag/analyze"

// warningIn starts a field of a warning in the warnings array.
const warningIn = "\n      "

// appendWarning appends w as encoding/json with SetIndent("    ", "  ")
// writes it in the warnings array, without reflection: a big run spools
// hundreds of thousands. ok is false on a NaN or an infinity, which
// encoding/json refuses; the caller then lets it say so. With guard, the
// strings are escaped as printable.Writer would (appendString with guard).
// (The spool's tail writes the same fields with its texts already
// escaped, tailEncoder.)
func appendWarning(b []byte, w *analyze.Warning, guard bool) (_ []byte, ok bool) {
	b, ok = appendWarningHead(b, w, guard)
	b = append(b, ","+warningIn+`"reason": `...)
	b = appendString(b, w.Reason, guard)
	b = append(b, ","+warningIn+`"advice": `...)
	b = appendString(b, w.Advice, guard)
	b = append(b, ","+warningIn+`"source": `...)
	b = appendString(b, w.Source, guard)
	return appendWarningEnd(b, w, ok)
}

// appendWarningHead appends w's fields up to its unit.
func appendWarningHead(b []byte, w *analyze.Warning, guard bool) (_ []byte, ok bool) {
	const in = warningIn
	ok = true
	b = append(b, "{"+in+`"rule": `...)
	b = appendString(b, w.Rule, guard)
	b = append(b, ","+in+`"severity": `...)
	b = appendString(b, string(w.Severity), guard)
	b = append(b, ","+in+`"kind": `...)
	b = appendString(b, w.Kind, guard)
	b = append(b, ","+in+`"object": `...)
	b = appendString(b, w.Object, guard)
	if w.Table != "" {
		b = append(b, ","+in+`"table": `...)
		b = appendString(b, w.Table, guard)
	}
	b = append(b, ","+in+`"value": `...)
	b, ok = appendFloatP(b, &w.Value, ok)
	b = append(b, ","+in+`"threshold": `...)
	b, ok = appendFloatP(b, &w.Threshold, ok)
	b = append(b, ","+in+`"unit": `...)
	return appendString(b, w.Unit, guard), ok
}

// appendWarningEnd appends w's magnitude and ends the warning.
func appendWarningEnd(b []byte, w *analyze.Warning, ok bool) ([]byte, bool) {
	b = append(b, ","+warningIn+`"magnitude": `...)
	b, ok = appendFloatP(b, &w.Magnitude, ok)
	return append(b, "\n    }"...), ok
}
