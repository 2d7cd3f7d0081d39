package report

import "github.com/fbdiag/fbdiag/analyze"

// appendWarning appends w as encoding/json with SetIndent("    ", "  ")
// writes it in the warnings array, without reflection: a big run spools
// hundreds of thousands. ok is false on a NaN or an infinity, which
// encoding/json refuses; the caller then lets it say so.
func appendWarning(b []byte, w *analyze.Warning) (_ []byte, ok bool) {
	const in = "\n      "
	ok = true
	b = append(b, "{"+in+`"rule": `...)
	b = appendJSONString(b, w.Rule)
	b = append(b, ","+in+`"severity": `...)
	b = appendJSONString(b, string(w.Severity))
	b = append(b, ","+in+`"kind": `...)
	b = appendJSONString(b, w.Kind)
	b = append(b, ","+in+`"object": `...)
	b = appendJSONString(b, w.Object)
	if w.Table != "" {
		b = append(b, ","+in+`"table": `...)
		b = appendJSONString(b, w.Table)
	}
	b = append(b, ","+in+`"value": `...)
	b, ok = appendFloatP(b, &w.Value, ok)
	b = append(b, ","+in+`"threshold": `...)
	b, ok = appendFloatP(b, &w.Threshold, ok)
	b = append(b, ","+in+`"unit": `...)
	b = appendJSONString(b, w.Unit)
	b = append(b, ","+in+`"reason": `...)
	b = appendJSONString(b, w.Reason)
	b = append(b, ","+in+`"advice": `...)
	b = appendJSONString(b, w.Advice)
	b = append(b, ","+in+`"source": `...)
	b = appendJSONString(b, w.Source)
	b = append(b, ","+in+`"magnitude": `...)
	b, ok = appendFloatP(b, &w.Magnitude, ok)
	return append(b, "\n    }"...), ok
}
