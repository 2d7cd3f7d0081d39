package parse

// Detected is what one input was recognised as, and why: the line or
// table header that decided (Detect). It is one element of fbdiag detect
// --format json: {"file", "kind", "reason"}, and for a part of an input
// holding several kinds (SplitInput) "source", "first_line", "last_line"
// and "skipped_lines" too.
type Detected struct {
	File   string    `json:"file"`
	Kind   InputKind `json:"kind"`
	Reason string    `json:"reason"`
	// Source is the file a part was cut from (File is then the part's
	// name, "SOURCE#gbak-1"); FirstLine and LastLine its lines there.
	Source    string `json:"source,omitempty"`
	FirstLine int    `json:"first_line,omitempty"`
	LastLine  int    `json:"last_line,omitempty"`
	// SkippedLines counts the source's lines that are not blank and that
	// no part reads (the prose around the parts): the same on every part
	// of one source. Set on parts only.
	SkippedLines *int `json:"skipped_lines,omitempty"`
}
