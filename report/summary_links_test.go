package report

import (
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The summary's "→" link to a finding's section had no name but the
// arrow: a screen reader read "right arrow, link". Each is named by the
// section it leads to; the page shows the same arrow.
func TestSummaryLinksNamed(t *testing.T) {
	r := buildReport(t, "t", []string{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log")})
	page := htmlOf(t, r)
	want := `<a href="#db-shop.fdb" aria-label="to the section Database /var/lib/firebird/data/shop.fdb">→</a>`
	if n := strings.Count(page, want); n == 0 || n != strings.Count(page, ">→</a>") {
		t.Errorf("%d links named %q of %d arrows", n, want, strings.Count(page, ">→</a>"))
	}
}
