package analyze

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// pgbenchExcerpt is lines of bench/pgbench-scales/pgbench-rw-scale50.txt
// (the shared corpus): the capture's header, pgbench's banner, a
// progress line and the result.
const pgbenchExcerpt = "scale=50 db_bytes=791895399\npgbench (15.18 (Debian 15.18-0+deb12u1))\n" +
	"progress: 5.0 s, 1761.8 tps, lat 2.235 ms stddev 1.306, 0 failed\n" +
	"tps = 1740.173002 (without initial connection time)\n"

// FuzzThroughput feeds any input through the readers and every analysis:
// no panic, and the result must always be writable as JSON (no NaN or
// infinity left in it).
func FuzzThroughput(f *testing.F) {
	for _, name := range []string{"degradation-throughput-sata.csv", "degradation-load-sata.csv",
		"page-buffers-1.7tb.csv", "power-plan-tpcc.tsv"} {
		data := testutil.ReadTestdata(f, "seeds", name)
		f.Add(data, uint8(0))
	}
	f.Add([]byte("size_gb,tps\n1,0\n2,0\n4,0\n8,0\n16,0\n32,0\n"), uint8(1))
	f.Add([]byte("size_gb,tps\n1,5\n2,5\n4,5\n8,5\n16,5\n32,5\n"), uint8(1))
	f.Add([]byte("scale=1 db_bytes=1e308\npgbench (15)\ntps = 5 (without initial connection time)\n"), uint8(2))
	csv := testutil.ReadTestdata(f, "seeds", "degradation-throughput-sata.csv")
	for _, v := range append(testutil.Variants(csv), testutil.Variants([]byte(pgbenchExcerpt))...) {
		f.Add(v, uint8(0))
	}
	// A form feed parts the input into files, given together as
	// fbdiag throughput gives several (one experiment, or left out).
	f.Add(append(append(bytes.Clone(csv), '\f'), testutil.ReadTestdata(f, "seeds", "page-buffers-1.7tb.csv")...), uint8(0))
	f.Add(append(append(testutil.ReadTestdata(f, "seeds", "degradation-load-sata.csv"), '\f'), csv...), uint8(0))
	f.Add([]byte("size_gb,tps\n1,100\n2,90\n\fsize_mb,tps\n4096,80\n\fclients,tps\n1,5\n"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		var tables []*parse.Table
		var runs []*parse.Run
		var notes []parse.Notice
		for i, part := range bytes.SplitN(data, []byte("\f"), 4) {
			ts, rs, ns, err := parse.ReadThroughput(bytes.NewReader(part), fmt.Sprintf("fuzz%d.txt", i))
			if err != nil {
				return
			}
			tables, runs, notes = append(tables, ts...), append(runs, rs...), append(notes, ns...)
		}
		modes := []string{"", ModeDegradation, ModeSweep, ModeAB, ModeLoad}
		opt := Options{Mode: modes[int(mode)%len(modes)], Knee: At{Value: 16 << 30, Size: true}, Predict: At{Value: 2 << 40, Size: true}}
		r, err := Throughput(Input{Tables: tables, Runs: runs, Notices: notes}, opt)
		if err != nil {
			return
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("result not writable as JSON: %v", err)
		}
	})
}
