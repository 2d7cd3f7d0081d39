package bench

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/fbdiag/fbdiag/parse"
)

// WriteResult writes a run's result file, JSON Lines: summary (the run and
// its figures, whose first key is "format": parse.BenchFormat) on the
// first line, then one line per second (docs/bench-json.md).
func WriteResult(w io.Writer, summary any, seconds []parse.BenchSecond) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(summary); err != nil {
		return err
	}
	for _, s := range seconds {
		if err := enc.Encode(s); err != nil {
			return err
		}
	}
	return bw.Flush()
}
