package report

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// hostileTable names things the way an attacker would: a terminal escape
// that retitles the window and rings the bell, spreadsheet formulas, a
// right-to-left override that spoofs a file type.
func hostileTable() *Table {
	t := &Table{Name: "tables", Title: "Tables \x1b[2J", Columns: Cols("table", ">records", ">change", "note")}
	t.Add("\x1b]0;owned\x07CUST", "30000", "-12.5", "-")
	t.Add(`=HYPERLINK("http://x")`, "2000", "+13.4%", "@SUM(A1)")
	t.Add("\u202eexe.ORD", "-1e+06", "-0.5", "+cmd|' /C calc'!A0")
	t.Add("tab\there", "5", "0", "-2+3+cmd")
	t.Notes = []string{"note on \x1b[31mred\x1b[0m"}
	return t
}

func writeAs(t *testing.T, f Format, tb *Table) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteTables(&b, f, tb); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Text shows control characters escaped, so a name cannot retitle or
// recolour the terminal, and the columns still line up.
func TestTextEscapesControls(t *testing.T) {
	out := writeAs(t, Text, hostileTable())
	want := `Tables \x1b[2J
table                   records  change  note
\x1b]0;owned\x07CUST      30000   -12.5  -
=HYPERLINK("http://x")     2000  +13.4%  @SUM(A1)
\u202eexe.ORD            -1e+06    -0.5  +cmd|' /C calc'!A0
tab\there                     5       0  -2+3+cmd
note on \x1b[31mred\x1b[0m
`
	if out != want {
		t.Errorf("text:\n%s\nwant\n%s", out, want)
	}
}

// CSV escapes control characters and neutralises text cells a spreadsheet
// would run as a formula (OWASP CSV injection): a quote before =, +, -
// and @; numbers stay numbers.
func TestCSVNeutralisesFormulas(t *testing.T) {
	out := writeAs(t, CSV, hostileTable())
	want := `table,table,records,change,note
tables,\x1b]0;owned\x07CUST,30000,-12.5,-
tables,"'=HYPERLINK(""http://x"")",2000,+13.4%,'@SUM(A1)
tables,\u202eexe.ORD,-1e+06,-0.5,'+cmd|' /C calc'!A0
tables,tab\there,5,0,'-2+3+cmd
`
	if out != want {
		t.Errorf("CSV:\n%s\nwant\n%s", out, want)
	}
	// A hostile header (a throughput input's columns) is a cell too.
	h := &Table{Columns: Cols("=1+1", "-x")}
	if out := writeAs(t, CSV, h); out != "'=1+1,'-x\n" {
		t.Errorf("CSV header: %q", out)
	}
}

func TestMarkdownEscapesControls(t *testing.T) {
	out := writeAs(t, Markdown, hostileTable())
	for _, want := range []string{
		"### Tables \\x1b[2J\n",
		"| \\x1b]0;owned\\x07CUST | 30000 | -12.5 | - |\n",
		"| \\u202eexe.ORD | -1e+06 | -0.5 | +cmd\\|' /C calc'!A0 |\n",
		"| tab\\there | 5 | 0 | -2+3+cmd |\n",
		"note on \\x1b[31mred\\x1b[0m\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07\u202e\t") {
		t.Errorf("markdown keeps a control character:\n%q", out)
	}
}

// JSON keeps the exact name: encoding/json escapes C0 controls itself.
func TestJSONKeepsNames(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, map[string]string{"name": "\x1b]0;owned\x07\u202eexe"}); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"name\": \"\\u001b]0;owned\\u0007\u202eexe\"\n}\n"; b.String() != want {
		t.Errorf("JSON %q, want %q", b.String(), want)
	}
}

// In HTML a name with bidi controls is isolated in <bdi>, so an override
// cannot reorder the sentence around it; the name itself is kept.
func TestHTMLIsolatesBidi(t *testing.T) {
	r := &Report{Title: "r", Generator: "fbdiag test", Sections: []*Section{{
		ID: "s", Title: "shop \u202egnp.exe", Kind: "gstat",
		Findings: []Finding{{Severity: "warning", Text: "table \u202eexe.ORD has 5000 back versions"}},
		Tables:   []*Table{hostileTable()},
	}}}
	r.finish()
	var b bytes.Buffer
	if err := WriteHTML(&b, r, 600, 340); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"<h2>shop <bdi>\u202egnp.exe</bdi></h2>",
		"table <bdi>\u202eexe.ORD</bdi> has 5000 back versions",
		"<td class=\"\"><bdi>\u202eexe.ORD</bdi></td>",
		"<td class=\"\">=HYPERLINK(&#34;http://x&#34;)</td>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	// Every U+202E is inside a <bdi>.
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	outside := 0
	walk(doc, func(n *html.Node) {
		if n.Type == html.TextNode && strings.ContainsRune(n.Data, '\u202e') && (n.Parent == nil || n.Parent.Data != "bdi") {
			outside++
		}
	})
	if outside != 0 {
		t.Errorf("%d text nodes with U+202E outside <bdi>", outside)
	}
}
