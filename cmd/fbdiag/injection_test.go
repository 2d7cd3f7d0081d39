package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// hostileShop is the fb30 gstat output with hostile names: CUSTOMER
// carries an escape sequence that retitles the terminal and rings its
// bell, DOCS is a spreadsheet formula, ORDERS a right-to-left override
// that shows "exe.ORD" as "DRO.exe", and the database path holds an ESC.
func hostileShop(t *testing.T) []byte {
	b := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	return []byte(strings.NewReplacer(
		"\nCUSTOMER (129)\n", "\n\x1b]0;owned\x07CUST (129)\n",
		"\nDOCS (133)\n", "\n=HYPERLINK(\"http://x\") (133)\n",
		"\nORDERS (130)\n", "\n\u202eexe.ORD (130)\n",
		"data/shop.fdb", "data/\x1b[2Jshop.fdb",
		// An unknown line in a table block makes a notice naming it.
		"    Total formats: 1, used formats: 1\n    Average record length: 60.13", "    Total formats: 1, used formats: 1\n    Odd: 1\n    Average record length: 60.13",
	).Replace(string(b)))
}

// Names with control characters were printed raw in text, CSV and
// markdown (the terminal was retitled and recoloured), formulas were left
// for the spreadsheet to run, and bidi overrides went raw into the HTML.
func TestHostileNames(t *testing.T) {
	in := hostileShop(t)
	out, errs, code := runCLI(t, in, "gstat", "-")
	if code != 0 {
		t.Fatalf("text: exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"\nDatabase              /var/lib/firebird/data/\\x1b[2Jshop.fdb\n",
		"\n\\x1b]0;owned\\…    30000     10000    0.333        1     0.104    392  84 %  3.06 MiB     480 KiB\n",
		"\n\\u202eexe.ORD    100000      5000     0.05        1         0    808  67 %  6.31 MiB    2.55 MiB\n",
		"\n=HYPERLINK(\"h…     2000         0        0        0         0    328  87 %  2.56 MiB    16.0 KiB\n",
		"\nRDB$PRIMARY2    \\x1b]0;owne…  pk        2    37   30000  0.0000333   0.0 %        0   296 KiB\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if want := `<stdin>:36: unknown line in table \x1b]0;owned\x07CUST kept as text: "Odd: 1"`; !strings.Contains(errs, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errs)
	}
	for what, s := range map[string]string{"stdout": out, "stderr": errs} {
		if strings.ContainsAny(s, "\x1b\x07\u202e") {
			t.Errorf("%s keeps a control character", what)
		}
	}

	out, _, code = runCLI(t, in, "gstat", "--format", "csv", "-")
	if code != 0 {
		t.Fatalf("csv: exit %d", code)
	}
	rows := map[string][]string{}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("bad CSV %q: %v", out, err)
	}
	for _, r := range recs {
		rows[r[0]] = r
	}
	for _, name := range []string{`\x1b]0;owned\x07CUST`, `'=HYPERLINK("http://x")`, `\u202eexe.ORD`} {
		if rows[name] == nil {
			t.Errorf("CSV has no table %q:\n%s", name, out)
		}
	}

	out, _, code = runCLI(t, in, "gstat", "--format", "markdown", "-")
	if code != 0 || !strings.Contains(out, `| \\x1b\]0;owned\\x07CUST | 30000 |`) || strings.ContainsAny(out, "\x1b\x07\u202e") {
		t.Errorf("markdown (exit %d):\n%s", code, out)
	}

	// JSON keeps the exact names.
	out, _, code = runCLI(t, in, "gstat", "--format", "json", "-")
	var doc struct {
		Tables []struct {
			Name string `json:"name"`
		} `json:"tables"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("json: exit %d, %v", code, err)
	}
	names := map[string]bool{}
	for _, tb := range doc.Tables {
		names[tb.Name] = true
	}
	if !names["\x1b]0;owned\x07CUST"] || !names[`=HYPERLINK("http://x")`] || !names["\u202eexe.ORD"] {
		t.Errorf("JSON names %v", names)
	}

	// The HTML report isolates the override in <bdi> where it shows the
	// name as the input has it (summary, verdict, recommendations, chart captions); the gstat view's
	// fragment writes it escaped, as text does (\u202e), in <bdi> too.
	dir := t.TempDir()
	src := filepath.Join(dir, "shop.txt")
	if err := os.WriteFile(src, in, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCLI(t, nil, "report", "--out", filepath.Join(dir, "r"), src)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	page, err := os.ReadFile(filepath.Join(dir, "r", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	isolated := regexp.MustCompile("<bdi>[^<]*\u202eexe\\.ORD[^<]*</bdi>")
	if n, iso := strings.Count(html, "\u202e"), len(isolated.FindAllString(html, -1)); n != 10 || iso != n {
		t.Errorf("HTML: %d U+202E, %d of them isolated", n, iso)
	}
	// The tables table, and the table column of ORDERS' three indices.
	if n := strings.Count(html, "<td><bdi>\\u202eexe.ORD</bdi></td>"); n != 4 {
		t.Errorf("HTML: the name escaped in %d cells, want 4", n)
	}
}

// A gbak log naming a hostile table: text escaped, CSV neutralised.
func TestHostileGbakTable(t *testing.T) {
	b := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	in := []byte(strings.ReplaceAll(string(b), "table STOCK\n", "table @STOCK\x1b[31m\n"))
	out, _, code := runCLI(t, in, "gbak", "-")
	if code != 0 || !strings.Contains(out, `@STOCK\x1b[31m    50000            3.176 s      15743`) || strings.Contains(out, "\x1b") {
		t.Errorf("text (exit %d):\n%s", code, out)
	}
	out, _, code = runCLI(t, in, "gbak", "--format", "csv", "--table", "tables", "-")
	if code != 0 || !strings.Contains(out, "\n'@STOCK\\x1b[31m,50000,,3.176,") {
		t.Errorf("csv (exit %d):\n%s", code, out)
	}
}
