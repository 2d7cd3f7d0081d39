package parse

import (
	"fmt"
	"strings"
	"testing"
)

// A table of 2000 rows, every other with a bad cell, gave 1000 notices (30,000 in
// a CSV grown to 8 MB, all in memory and on the report's page); the
// reader keeps 200 and says how many more there were.
func TestTableNoticesCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("size_gb,tps\n")
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&b, "%d,%d\n%d.5,x%d\n", i, 1000+i, i, i)
	}
	_, notices, err := ReadTables(strings.NewReader(b.String()), "bad.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(notices) != maxTableNotices+1 {
		t.Fatalf("%d notices, want %d", len(notices), maxTableNotices+1)
	}
	if got := notices[0].String(); got != `bad.csv:3: column "tps": "x1" is not a number; cell left out` {
		t.Errorf("first notice %q", got)
	}
	if got := notices[maxTableNotices].String(); got != "bad.csv:403: 800 more notices not printed, from this line on" {
		t.Errorf("last notice %q", got)
	}
}
