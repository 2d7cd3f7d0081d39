package report

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

func seed003Path(t *testing.T) string {
	return testutil.Testdata(t, "mixed", "003_f44fd1243848db85.txt")
}

// Seed 003 is four inputs, one per part, each analysed as its kind: the
// two restore excerpts as gbak logs, compared; the two tables as A/B
// benchmarks. The article's own totals are the excerpts' spans: "Tiempo
// total: 3775 segundos" (1:02:55) and "2593 segundos" (0:43:13).
func TestReportMixedSeed003(t *testing.T) {
	p := seed003Path(t)
	ins, _, errs := Inputs([]string{p})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, in := range ins {
		if in.File != p || in.Part == nil || in.Split == nil || in.Part.Name != in.Name {
			t.Fatalf("%s: file %q part %v", in.Name, in.File, in.Part)
		}
		got = append(got, strings.TrimPrefix(in.Name, p)+" "+string(in.Kind)+" "+itoa(in.Part.First)+"-"+itoa(in.Part.Last))
	}
	if strings.Join(got, ", ") != "#table-1 throughput 15-17, #table-2 throughput 23-25, #gbak-1 gbak 35-39, #gbak-2 gbak 45-52" {
		t.Fatalf("inputs: %s", strings.Join(got, ", "))
	}
	r := Build("seed 003", "fbdiag test", ins)
	got = nil
	for _, s := range r.Sections {
		var hs []string
		for _, h := range s.Headlines {
			hs = append(hs, h.Label+" = "+h.Value)
		}
		got = append(got, s.ID+" ("+s.Kind+"): "+strings.Join(hs, "; "))
		if s.Err != "" {
			t.Errorf("%s: %s", s.ID, s.Err)
		}
	}
	want := []string{
		"003_f44fd1243848db85.txt-gbak-1 (gbak): restore incomplete = last timestamp 3:41:44",
		"003_f44fd1243848db85.txt-gbak-2 (gbak): restore incomplete = last timestamp 2:11:34",
		"compare-003_f44fd1243848db85.txt-gbak-1-003_f44fd1243848db85 (comparison): " +
			"Last timestamp, gbak-2 / gbak-1 = ×0.593 (-40.7 %, faster); Span of matched steps, gbak-2 / gbak-1 = ×0.687 (-31.3 %, faster)",
		"003_f44fd1243848db85.txt-table-1 (throughput): Alto rendimiento vs Equilibrado (×1.25, faster; 1 run each, no test) = +24.6 %",
		"003_f44fd1243848db85.txt-table-2 (throughput): Alto rendimiento vs Equilibrado (time ×0.628: 1.59× as fast; 1 run each, no test) = -37.2 %",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sections:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Each excerpt: 5 index builds, the last one's cost unknown; the
	// messages name the file and its line.
	for i, c := range []struct {
		seconds, human, notice string
	}{
		{"3774.995", "1:02:55", p + ":35: no statistics header line: read 4 leading numbers as the columns TDRW, guessed from their form"},
		{"2592.555", "0:43:13", p + ":45: no statistics header line: read 4 leading numbers as the columns TDRW, guessed from their form"},
	} {
		s := r.Sections[i]
		row := `<tr><td><bdi>indices</bdi></td><td class="num" data-sort="5">5</td><td class="num" data-sort="1">1</td>` +
			`<td class="num" data-sort="` + c.seconds + `">` + c.human + `</td>`
		if !strings.Contains(string(s.Fragment), row) {
			t.Errorf("%s: no phase row %s in\n%s", s.ID, row, s.Fragment)
		}
		if len(s.Notices) != 1 || s.Notices[0] != c.notice {
			t.Errorf("%s: notices %q", s.ID, s.Notices)
		}
		if s.Run == nil || s.Run.Kind != "restore" || s.Run.Outcome != "incomplete" || s.Run.TotalSeconds != nil {
			t.Errorf("%s: run %+v", s.ID, s.Run)
		}
	}
	// The balanced plan's slowest index build against the high
	// performance one's: 1258.271 s and 622.882 s.
	if !strings.Contains(string(r.Sections[2].Fragment), "<td><bdi>index INDMF_TAG_PLC_DATA_DT_D (build)</bdi></td>"+
		`<td class="num" data-sort="1258.271">0:20:58</td><td class="num" data-sort="622.882">0:10:23</td>`+
		`<td class="num" data-sort="0.49503008493400863">×0.495</td>`) {
		t.Errorf("comparison fragment:\n%s", r.Sections[2].Fragment)
	}
	// The tables' points come from the article's lines.
	for i, src := range []string{":16", ":24"} {
		if s := r.Sections[3+i]; s.Mode != "ab" || !strings.Contains(string(s.Fragment), "<bdi>"+p+src+"</bdi>") {
			t.Errorf("%s: mode %s, no source %s", s.ID, s.Mode, src)
		}
	}
	if n := r.SplitNotes(); len(n) != 1 || n[0] != p+": 4 parts of 2 kinds; 22 lines of prose around them skipped (blank lines not counted)." {
		t.Errorf("notes %q", n)
	}
	j := r.JSON()
	if len(j.Runs) != 2 || j.Runs[1].File != filepath.ToSlash(p)+"#gbak-2" || j.Runs[1].Section != "003_f44fd1243848db85.txt-gbak-2" ||
		len(j.Benchmarks) != 2 || j.Benchmarks[0].Files[0] != p+"#table-1" || j.Benchmarks[1].Value != "-37.2 %" || len(j.Skipped) != 0 {
		t.Errorf("report.json: %+v", j)
	}
}

func itoa(n int) string { return itoa64(int64(n)) }

// The report's inputs table names each part with its lines and says how
// the file was cut.
func TestReportMixedHTML(t *testing.T) {
	ins, _, _ := Inputs([]string{seed003Path(t)})
	var b bytes.Buffer
	if err := WriteHTML(&b, Build("seed 003", "fbdiag test", ins), 1200, 675); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`#gbak-2 <span class="muted">(lines 45–52)</span></td><td>gbak</td><td>line 45: &#34;gbak: 5301.785 615.045 5028900 346529 a…&#34;</td></tr>`,
		`003_f44fd1243848db85.txt: 4 parts of 2 kinds; 22 lines of prose around them skipped (blank lines not counted).</p>`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %s", want)
		}
	}
}

// A file of one kind is one input, as before: no part.
func TestReportOneKindNotCut(t *testing.T) {
	ins, _, errs := Inputs([]string{testutil.Testdata(t, "seeds"), testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")})
	if len(errs) > 0 || len(ins) != 7 {
		t.Fatalf("%d inputs, %v", len(ins), errs)
	}
	for _, in := range ins {
		if in.Part != nil || in.File != "" || in.Source() != in.Name || strings.Contains(in.Name, "#") {
			t.Errorf("%s: cut (%v)", in.Name, in.Part)
		}
	}
}

// Standard input holding seed 003 is cut the same way; a stream longer
// than parse.DetectSize is not (it cannot be read twice), whereas the
// same text in a file is.
func TestStreamInputMixed(t *testing.T) {
	data, err := os.ReadFile(seed003Path(t))
	if err != nil {
		t.Fatal(err)
	}
	ins, err := StreamInput("<stdin>", io.NopCloser(bytes.NewReader(data)))
	if err != nil || len(ins) != 4 || ins[3].Name != "<stdin>#gbak-2" || ins[3].Part.First != 45 || ins[0].closer == nil {
		t.Fatalf("stdin: %d inputs, %v", len(ins), err)
	}
	rc, err := ins[3].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	log, err := parse.ReadGbak(rc, "<stdin>")
	if err != nil || len(log.Lines) != 5 || log.Lines[1].Line != 49 {
		t.Errorf("part read: %v, %+v", err, log)
	}

	// The TPC-C table, 52 KiB of gstat -s -r, then a backup log past
	// the first 64 KiB.
	var big bytes.Buffer
	for _, rel := range [][]string{{"seeds", "power-plan-tpcc.tsv"}, {"fb30", "shop-gstat-s-r.txt"}, {"fb30", "shop-gbak-backup-v-st.log"}} {
		b := testutil.ReadTestdata(t, rel...)
		big.Write(b)
		big.WriteString("\nnext:\n")
	}
	// Taken whole, as before: gbak output (Detect's first rule, the
	// backup log starting within the first 64 KiB).
	ins, err = StreamInput("<stdin>", io.NopCloser(bytes.NewReader(big.Bytes())))
	if err != nil || len(ins) != 1 || ins[0].Kind != parse.InputGbak || ins[0].Part != nil {
		t.Errorf("long stdin: %d inputs (%s), %v", len(ins), ins[0].Kind, err)
	}
	f := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(f, big.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ins, _, _ = Inputs([]string{f})
	var got []string
	for _, in := range ins {
		got = append(got, strings.TrimPrefix(in.Name, f)+" "+itoa(in.Part.First)+"-"+itoa(in.Part.Last))
	}
	if strings.Join(got, ", ") != "#table-1 1-3, #gstat-1 7-1642, #gbak-1 1646-1884" {
		t.Errorf("long file: %s", strings.Join(got, ", "))
	}
}
