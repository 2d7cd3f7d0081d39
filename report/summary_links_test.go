package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The summary's "→" link to a finding's section had no name but the
// arrow: a screen reader read "right arrow, link". Each is named by the
// section it leads to; the page shows the same arrow.
func TestSummaryLinksNamed(t *testing.T) {
	ins, _, errs := Inputs([]string{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log")})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := Build("t", "fbdiag test", ins)
	var b bytes.Buffer
	if err := WriteHTML(&b, r, 400, 300); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	want := `<a href="#db-shop.fdb" aria-label="to the section Database /var/lib/firebird/data/shop.fdb">→</a>`
	if n := strings.Count(page, want); n == 0 || n != strings.Count(page, ">→</a>") {
		t.Errorf("%d links named %q of %d arrows", n, want, strings.Count(page, ">→</a>"))
	}
}
