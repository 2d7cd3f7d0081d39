package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A report given no title names what it is about, in its page, its
// heading and report.json: every report read "fbdiag report", whichever
// database it was of.
func TestReportDefaultTitle(t *testing.T) {
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{[]string{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt")},
			"fbdiag report: shop.fdb"},
		// A Windows path, wherever fbdiag runs.
		{[]string{testutil.Corpus(t, "public", "gstat", "Delapro-DelaproImport__Firebird3oder4-fb40-h.snippet.txt")},
			`fbdiag report: TEST.FDB`},
		{[]string{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"),
			testutil.Corpus(t, "public", "gstat", "Delapro-DelaproImport__Firebird3oder4-fb40-h.snippet.txt"),
			testutil.Corpus(t, "public", "gstat", "05_fb21_doc_header_and_2x_table_index.txt")},
			"fbdiag report: 3 databases"},
		{[]string{testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")},
			"fbdiag report: gbak restore: shop-gbak-restore-v-st.log"},
	} {
		r, out := writeReportOf(t, "", c.paths)
		if r.Title != c.want {
			t.Errorf("%s: title %q; want %q", c.paths, r.Title, c.want)
		}
		page, err := os.ReadFile(filepath.Join(out, IndexFile))
		if err != nil {
			t.Fatal(err)
		}
		js, err := os.ReadFile(filepath.Join(out, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), "<title>"+c.want+"</title>") || !strings.Contains(string(page), "<h1>"+c.want+"</h1>") ||
			!strings.Contains(string(js), `"title": "`+c.want+`"`) {
			t.Errorf("%s: page or report.json not titled %q", c.paths, c.want)
		}
	}
	// A title given is kept.
	if r, _ := writeReportOf(t, "nightly", []string{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")}); r.Title != "nightly" {
		t.Errorf("title %q; want nightly", r.Title)
	}
}
