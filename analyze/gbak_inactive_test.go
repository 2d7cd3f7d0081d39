package analyze

import (
	"slices"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// TestInactiveIndices: a completed 3.0.11 restore names the indices it
// defined and never activated; a log that cannot tell says nothing.
func TestInactiveIndices(t *testing.T) {
	cases := []struct {
		path  []string
		count int // -1: nil, the log cannot tell
		names []string
		of    int // restored
		sev   string
	}{
		// -i: every index restored inactive, in log order
		{[]string{"gbak", "fb30-restore-pk-duplicate-inactive.log"}, 5, []string{"UX_U_CODE", "PK_D", "FK_D_M", "PK_M", "PK_A3"}, 5, "warning"},
		// P_NOTE was inactive in the database backed up
		{[]string{"gbak", "fb30-restore-one-inactive.log"}, 1, []string{"P_NOTE"}, 5, "info"},
		{[]string{"fb30", "shop-gbak-restore-v-st.log"}, 0, []string{}, 10, ""},
		{[]string{"gbak", "fb30-restore-unique-duplicate.log"}, -1, nil, 0, ""},  // failed
		{[]string{"gbak", "fb30-restore-pk-duplicate-no-v.log"}, -1, nil, 0, ""}, // no -v, failed
		{[]string{"gbak", "shop-restore-cut.log"}, -1, nil, 0, ""},               // incomplete
		{[]string{"fb30", "shop-gbak-backup-v-st.log"}, -1, nil, 0, ""},          // a backup
	}
	for _, c := range cases {
		tl := timelineOf(t, testutil.Testdata(t, c.path...))
		switch {
		case c.count < 0 && (tl.InactiveIndices != nil || tl.InactiveIndexNames != nil):
			t.Errorf("%s: inactive %v %q, want nil", c.path[1], tl.InactiveIndices, tl.InactiveIndexNames)
		case c.count >= 0 && (tl.InactiveIndices == nil || *tl.InactiveIndices != c.count || !slices.Equal(tl.InactiveIndexNames, c.names)):
			t.Errorf("%s: inactive %v %q, want %d %q", c.path[1], tl.InactiveIndices, tl.InactiveIndexNames, c.count, c.names)
		case c.count >= 0 && (tl.RestoredIndices == nil || *tl.RestoredIndices != c.of):
			t.Errorf("%s: restored %v, want %d", c.path[1], tl.RestoredIndices, c.of)
		}
		sev, msg, _, ok := tl.InactiveIndexFinding()
		if sev != c.sev || ok != (c.sev != "") {
			t.Errorf("%s: finding %q %v, want %q", c.path[1], sev, ok, c.sev)
		}
		if c.sev == "warning" && msg != "All 5 indices the restore defined were left inactive, none activated (gbak -i restores every index "+
			"inactive): no query uses them and no primary, unique or foreign key they serve is checked: UX_U_CODE, PK_D, FK_D_M, PK_M, PK_A3." {
			t.Errorf("%s: message %q", c.path[1], msg)
		}
	}
}
