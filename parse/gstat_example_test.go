package parse_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/fbdiag/fbdiag/parse"
)

// Stream the records of a gstat -a -r output.
func ExampleNewGstatReader() {
	f, err := os.Open("../testdata/fb30/shop-gstat-a-r.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	r := parse.NewGstatReader(f, "shop-gstat-a-r.txt")
	for r.Next() {
		switch rec := r.Record().(type) {
		case *parse.GstatHeader:
			fmt.Printf("ODS %s, OIT %d, OAT %d, next %d\n", rec.ODSVersion, *rec.OldestTransaction, *rec.OldestActive, *rec.NextTransaction)
		case *parse.GstatTable:
			fmt.Printf("%s (%d): %d records, %d versions\n", rec.Name, rec.ID, *rec.TotalRecords, *rec.TotalVersions)
		case *parse.GstatIndex:
			if *rec.MaxDup > 1000 {
				fmt.Printf("  %s.%s: nodes %d, max dup %d\n", rec.Table, rec.Name, *rec.Nodes, *rec.MaxDup)
			}
		case *parse.GstatNotice:
			fmt.Println(rec.Notice)
		}
	}
	if err := r.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ODS 12.0, OIT 16, OAT 17, next 18
	// CUSTOMER (129): 30000 records, 10000 versions
	// DOCS (133): 2000 records, 0 versions
	// ORDERS (130): 100000 records, 5000 versions
	//   ORDERS.ORDERS_CARRIER: nodes 100000, max dup 33333
	// ORDER_LINE (131): 500000 records, 0 versions
	// STOCK (132): 50000 records, 15000 versions
	// WAREHOUSE (128): 5 records, 0 versions
}

// Collect a file holding two gstat runs, the second taken after garbage
// collection, and compare them.
func ExampleReadGstat() {
	a, _ := os.ReadFile("../testdata/fb30/shop-gstat-a-r.txt")
	b, _ := os.ReadFile("../testdata/fb30/shop-gstat-r-later.txt")
	reps, err := parse.ReadGstat(bytes.NewReader(append(a, b...)), "two-runs.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, rep := range reps {
		t := rep.Tables[0]
		fmt.Printf("run %d at %s: %s versions %d, fill %d%%, %d indices\n",
			rep.Index, rep.Header.ExecutionTimeText, t.Name, *t.TotalVersions, *t.AverageFill, len(t.Indices))
	}
	// Output:
	// run 0 at Wed Dec  2 14:09:54 2026: CUSTOMER versions 10000, fill 84%, 2 indices
	// run 1 at Wed Dec  2 14:14:32 2026: CUSTOMER versions 0, fill 76%, 2 indices
}
