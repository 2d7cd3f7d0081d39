package parse

// Detected is what one input was recognised as, and why: the line or
// table header that decided (Detect). It is one element of fbdiag detect
// --format json: {"file", "kind", "reason"}.
type Detected struct {
	File   string    `json:"file"`
	Kind   InputKind `json:"kind"`
	Reason string    `json:"reason"`
}
