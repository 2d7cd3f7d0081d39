package report

import (
	"bytes"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
)

// plainJSON is WriteJSON as it was: the whole document through one
// indenting encoder (stdJSON), with its newline.
func plainJSON(t *testing.T, v any) []byte {
	t.Helper()
	s, err := stdJSON(v, "")
	if err != nil {
		t.Fatal(err)
	}
	return []byte(s + "\n")
}

// WriteJSON, field by field, gives the bytes of the whole-document
// encoder for every analysis the commands write: a restore and a backup
// timeline, a comparison, throughput results, values with omitted
// fields, an empty struct and things that are not structs.
func TestWriteJSONStreamedSameBytes(t *testing.T) {
	a := timeline(t, "fb30", "shop-gbak-restore-v-st.log")
	b := timeline(t, "fb30", "shop-gbak-backup-v-st.log")
	cmp := analyze.CompareTimelines(analyze.GbakRun{Label: "restore", Timeline: a}, analyze.GbakRun{Label: "again", Timeline: a})
	values := []any{a, b, cmp, seedResult(t, "page-buffers-1.7tb.csv"), seedResult(t, "degradation-throughput-sata.csv"),
		struct{}{}, struct {
			A string `json:"a,omitempty"`
			B []int  `json:"b"`
			C []int  `json:"c"`
			D string `json:"-"`
			E map[string]int
			F []byte `json:"f"`
		}{B: []int{}, E: map[string]int{"x": 1}, F: []byte("<&>")},
		[]int{1, 2}, 3, "s", map[string][]int{"a": {1}}}
	for i, v := range values {
		var got bytes.Buffer
		if err := WriteJSON(&got, v); err != nil {
			t.Fatal(err)
		}
		if want := plainJSON(t, v); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("value %d (%T): streamed JSON differs:\n%.300s\nwant\n%.300s", i, v, got.Bytes(), want)
		}
	}
}
