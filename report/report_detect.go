package report

import "io"

// Detected is one line of `fbdiag detect` (JSON: file, kind, reason).
type Detected struct {
	File   string `json:"file"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// WriteDetected prints what each input was recognised as, and why.
func WriteDetected(w io.Writer, f Format, ins []Input) error {
	if f == JSON {
		out := make([]Detected, len(ins))
		for i, in := range ins {
			out[i] = Detected{File: in.Name, Kind: string(in.Kind), Reason: in.Reason}
		}
		return WriteJSON(w, out)
	}
	t := &Table{Name: "detect", Columns: Cols("file", "kind", "why")}
	for _, in := range ins {
		t.Add(in.Name, string(in.Kind), in.Reason)
	}
	return WriteTables(w, f, t)
}
