package parse_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/parse"
)

// A block keeps its first 20 unknown lines, each with a notice, and
// counts the others in one notice at the first left out: text whose
// lines look like a table name and labels (100 MiB of random text) kept
// 674 MB and printed 212 MB of notices.
func TestGstatUnknownLinesBounded(t *testing.T) {
	in := "T (128)\n" + numbered("    Foo %d: %d\n", 50) + "\nU (129)\n    Bar: 1\n"
	reps := readGstatBytes(t, []byte(in), "unknown.txt")
	if len(reps) != 1 || len(reps[0].Tables) != 2 {
		t.Fatalf("%d runs", len(reps))
	}
	tb := reps[0].Tables[0]
	if len(tb.Unknown) != 20 || tb.Unknown[19].Key != "Foo 19" || tb.Unknown[19].Line != 21 || len(reps[0].Tables[1].Unknown) != 1 {
		t.Errorf("kept %d unknown lines, the last %+v; the next table %d", len(tb.Unknown), tb.Unknown[len(tb.Unknown)-1], len(reps[0].Tables[1].Unknown))
	}
	ns := reps[0].Notices
	if len(ns) != 22 || ns[20].String() != "unknown.txt:22: 30 more unknown lines in table T not kept, from this one" ||
		ns[21].String() != `unknown.txt:54: unknown line in table U kept as text: "Bar: 1"` {
		t.Errorf("%d notices: %v", len(ns), ns[min(20, len(ns)):])
	}
}

// A header keeps its first 20 unknown fields so too.
func TestGstatHeaderUnknownBounded(t *testing.T) {
	in := "Database \"/data/x.fdb\"\nDatabase header page information:\n" + numbered("\tNew field %d     %d\n", 30) + "\n"
	reps := readGstatBytes(t, []byte(in), "header.txt")
	h := reps[0].Header
	if len(reps) != 1 || h == nil || len(h.Unknown) != 20 || h.Unknown[19].Key != "New field 19" || h.Unknown[19].Value != "19" {
		t.Fatalf("%d runs, header %+v", len(reps), h)
	}
	ns := reps[0].Notices
	if len(ns) != 21 || ns[20].String() != "header.txt:23: 10 more unknown lines in the header not kept, from this one" {
		t.Errorf("%d notices: %v", len(ns), ns[min(19, len(ns)):])
	}
}

// A run queues its first 1000 notices and counts the others in one, at
// the first left out; the next run starts its count anew.
func TestGstatNoticesBounded(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 1500; i++ {
		fmt.Fprintf(&b, "T%d (%d)\nzzz\n", i, i+127)
	}
	b.WriteString("Database \"/data/second.fdb\"\nT (128)\nzzz\n")
	reps := readGstatBytes(t, []byte(b.String()), "notices.txt")
	if len(reps) != 2 || len(reps[0].Tables) != 1500 {
		t.Fatalf("%d runs", len(reps))
	}
	ns := reps[0].Notices
	if len(ns) != 1001 || ns[999].String() != `notices.txt:2000: skipped a line that is not gstat output: "zzz"` ||
		ns[1000].String() != "notices.txt:2002: 500 more notices of this run not printed, from this line on" {
		t.Errorf("%d notices, the last %v", len(ns), ns[max(0, len(ns)-2):])
	}
	if ns := reps[1].Notices; len(ns) != 1 || ns[0].String() != `notices.txt:3003: skipped a line that is not gstat output: "zzz"` {
		t.Errorf("the second run's notices: %v", ns)
	}
}

// A run keeps its first 20 page count lines of gstat -e (gstat prints
// one a page kind) and counts the others in one notice.
func TestGstatCryptLinesBounded(t *testing.T) {
	in := "Database \"/data/x.fdb\"\nDatabase header page information:\n\tPage size\t\t8192\n\n" +
		numbered("Data pages: total %d, encrypted 0, non-crypted %d\n", 25)
	reps := readGstatBytes(t, []byte(in), "crypt.txt")
	h := reps[0].Header
	if len(reps) != 1 || h == nil || len(h.Encryption) != 20 || h.Encryption[19].Total != 19 || h.Encryption[19].Line != 24 {
		t.Fatalf("%d runs, header %+v", len(reps), h)
	}
	if ns := reps[0].Notices; len(ns) != 1 || ns[0].String() != "crypt.txt:25: 5 more page count lines (gstat -e) not kept, from this one" {
		t.Errorf("notices %v", ns)
	}
}

// numbered is n lines of format, each with its number (from 0) twice.
func numbered(format string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i, i)
	}
	return b.String()
}

// Notices come in line order: the count of a block's unknown lines left
// out, known when the block ends, comes before the notices of the lines
// after the first of them; past the run's bound, the count notice holds
// its place and the notices left out are counted from the first of
// them (it came after the block's later notices were met).
func TestGstatNoticesInLineOrder(t *testing.T) {
	const item = "    Average record length: 1.5, total records: 2, odd item: 3\n"
	in := "T (128)\n" + numbered("    Foo %d: %d\n", 25) + item + "\n"
	ns := readGstatBytes(t, []byte(in), "order.txt")[0].Notices
	if len(ns) != 22 || ns[20].String() != "order.txt:22: 5 more unknown lines in table T not kept, from this one" ||
		ns[21].String() != `order.txt:27: unknown item "odd item" in table T` {
		t.Errorf("%d notices, the last %v", len(ns), ns[max(0, len(ns)-2):])
	}
	in = "T (128)\n" + numbered("    Foo %d: %d\n", 25) + strings.Repeat(item, 1200) + "\n"
	ns = readGstatBytes(t, []byte(in), "order.txt")[0].Notices
	if len(ns) != 1001 || ns[20].Line != 22 || ns[999].String() != `order.txt:1005: unknown item "odd item" in table T` ||
		ns[1000].String() != "order.txt:1006: 221 more notices of this run not printed, from this line on" {
		t.Errorf("%d notices, the last %v", len(ns), ns[max(0, len(ns)-2):])
	}
	if !slices.IsSortedFunc(ns, func(a, b parse.Notice) int { return cmp.Compare(a.Line, b.Line) }) {
		t.Error("notices out of line order")
	}
}
