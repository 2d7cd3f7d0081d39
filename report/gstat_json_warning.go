package report

import "github.com/fbdiag/fbdiag/analyze"

// appendWarning appends w as encoding/json with SetIndent("    ", "  ")
// writes it in the warnings array, without reflection: a big run spools
// hundreds of thousands. ok is false on a NaN or an infinity, which
// encoding/json refuses; the caller then lets it say so. With guard, the
// strings are escaped as printable.Writer would (appendString with guard).
func appendWarning(b []byte, w *analyze.Warning, guard bool) (_ []byte, ok bool) {
	const in = "\n      "
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
	b = appendString(b, w.Unit, guard)
	b = append(b, ","+in+`"reason": `...)
	b = appendString(b, w.Reason, guard)
	b = append(b, ","+in+`"advice": `...)
	b = appendString(b, w.Advice, guard)
	b = append(b, ","+in+`"source": `...)
	b = appendString(b, w.Source, guard)
	b = append(b, ","+in+`"magnitude": `...)
	b, ok = appendFloatP(b, &w.Magnitude, ok)
	return append(b, "\n    }"...), ok
}
