package bench

import (
	"fmt"
	"io"
	"strconv"
)

// WriteLoadCSV writes the load history as the table fbdiag throughput
// reads in load mode (the articles' load-speed chart): one row per init,
// the database size after it against the time spent loading up to it,
// so that load_speed_mb_s = size_mb / load_time_s as in the seed's
// degradation-load table.
func WriteLoadCSV(w io.Writer, history []LoadStep) error {
	if _, err := fmt.Fprintln(w, "step,warehouses,size_mb,load_time_s,load_speed_mb_s,rows,rows_per_s,jobs"); err != nil {
		return err
	}
	var secs float64
	var rows int64
	for i, s := range history {
		secs += s.Seconds
		rows += s.Rows
		mb := float64(s.BytesTo) / (1 << 20)
		speed, rps := "", ""
		if secs > 0 {
			speed = strconv.FormatFloat(mb/secs, 'f', 3, 64)
			rps = strconv.FormatFloat(float64(rows)/secs, 'f', 0, 64)
		}
		if _, err := fmt.Fprintf(w, "%d,%d,%s,%s,%s,%d,%s,%d\n", i+1, s.Warehouses,
			strconv.FormatFloat(mb, 'f', 2, 64), strconv.FormatFloat(secs, 'f', 2, 64), speed, rows, rps, s.Jobs); err != nil {
			return err
		}
	}
	return nil
}
