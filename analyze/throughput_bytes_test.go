package analyze

import (
	"fmt"
	"testing"
)

// A size past 8 EiB (2^63 bytes, what an int64 byte count holds) is a
// typo or a wrong unit: the row or run is left out with a notice naming
// it, once whatever the number of y columns, instead of a size that
// wraps to -8 EiB in every output (FuzzThroughput's find, 2026-12-05).
func TestThroughputSizeBeyondBytes(t *testing.T) {
	cases := []struct {
		name, text string
		points     int
		notices    []string
	}{
		{"table", "size_gb,tps,qps\n1,100,1000\n2,90,900\n4,80,800\n16000000000000,5,50\n,6,60\n8589934592,70,700\n", 6,
			[]string{`table.csv:5: size_gb "16000000000000" is beyond 8 EiB, more than a byte count holds: row skipped`,
				"table.csv:6: row without x: skipped",
				`table.csv:7: size_gb "8589934592" is beyond 8 EiB, more than a byte count holds: row skipped`}},
		{"just under", "size_gb,tps\n1,100\n2,90\n8589934591.99,80\n", 3, nil},
		{"runs", "scale=1 db_bytes=1e308\npgbench (15)\ntps = 5 (without initial connection time)\n" +
			"scale=2 db_bytes=2000000\npgbench (15)\ntps = 4 (without initial connection time)\n", 1,
			[]string{`runs.txt:3: db_bytes="1e308" is beyond 8 EiB, more than a byte count holds: run skipped`}},
		{"load", "size_gb,load_time_s\n1,10\n2,21\n4,40\n-9000000000000,50\n", 3,
			[]string{`load.csv:5: size_gb "-9000000000000" is beyond 8 EiB, more than a byte count holds: row skipped`}},
	}
	for _, c := range cases {
		file := map[string]string{"table": "table.csv", "just under": "under.csv", "runs": "runs.txt", "load": "load.csv"}[c.name]
		r, err := Throughput(readString(t, file, c.text), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		points := 0
		for _, s := range r.Series {
			points += len(s.Points)
		}
		var notices []string
		for _, n := range r.Notices {
			notices = append(notices, n.String())
		}
		if points != c.points || fmt.Sprint(notices) != fmt.Sprint(c.notices) {
			t.Errorf("%s: %d points, notices %q; want %d, %q", c.name, points, notices, c.points, c.notices)
		}
	}
}
