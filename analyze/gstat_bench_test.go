package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// bigReport builds a large gstat -a -r text from the real shop output:
// its header once, then its table and index blocks repeated n times with
// the names and ids made unique (6 tables and 10 indices per copy).
func bigReport(b *testing.B, n int) string {
	data := testutil.ReadTestdata(b, "fb30", "shop-gstat-a-r.txt")
	text := string(data)
	start := strings.Index(text, "Analyzing database pages ...\n") + len("Analyzing database pages ...\n")
	end := strings.Index(text, "Gstat completion time")
	head, blocks, tail := text[:start], text[start:end], text[end:]
	var sb strings.Builder
	sb.WriteString(head)
	for i := range n {
		r := strings.NewReplacer(
			"CUSTOMER", fmt.Sprintf("CUSTOMER%d", i), "ORDERS", fmt.Sprintf("ORDERS%d", i),
			"ORDER_LINE", fmt.Sprintf("ORDER_LINE%d", i), "STOCK", fmt.Sprintf("STOCK%d", i),
			"DOCS", fmt.Sprintf("DOCS%d", i), "WAREHOUSE", fmt.Sprintf("WAREHOUSE%d", i),
			"RDB$PRIMARY", fmt.Sprintf("RDB$PRIMARY%d_", i), "OL_ITEM", fmt.Sprintf("OL_ITEM%d", i))
		sb.WriteString(r.Replace(blocks))
	}
	sb.WriteString(tail)
	return sb.String()
}

// BenchmarkGstatAnalysis measures the analysis alone (the text is parsed
// once, outside the timer) on 6000 tables and 10000 indices; MB/s is over
// the size of the gstat text, to compare with the reader's benchmark.
func BenchmarkGstatAnalysis(b *testing.B) {
	text := bigReport(b, 1000)
	reps, err := parse.ReadGstat(strings.NewReader(text), "big.txt")
	if err != nil || len(reps) != 1 {
		b.Fatalf("%v, %d reports", err, len(reps))
	}
	if len(reps[0].Tables) != 6000 {
		b.Fatalf("%d tables, want 6000", len(reps[0].Tables))
	}
	th := NewThresholds()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		a := Gstat(reps[0], th)
		if len(a.Warnings) == 0 {
			b.Fatal("no warnings")
		}
	}
}

// BenchmarkGstatReadAndAnalyze is the whole path of fbdiag gstat minus
// the output: read the text, then analyse it.
func BenchmarkGstatReadAndAnalyze(b *testing.B) {
	text := bigReport(b, 1000)
	th := NewThresholds()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		reps, err := parse.ReadGstat(strings.NewReader(text), "big.txt")
		if err != nil {
			b.Fatal(err)
		}
		Gstat(reps[0], th)
	}
}
