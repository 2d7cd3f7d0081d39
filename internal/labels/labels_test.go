package labels

import (
	"strings"
	"testing"
)

func TestDistinct(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// issue 14's examples
		{"deep-gbak-restore-A.log deep-gbak-restore-B.log", "A B"},
		{"restore-bu50-run1.log restore-bu50-run2.log restore-bu100-run1.log", "bu50-run1 bu50-run2 bu100-run1"},
		{"/tmp/restore-bu50-run1.log /tmp/restore-bu100-run1.log", "bu50 bu100"},
		// testdata: the seed restores, the remote and service runs
		{"testdata/seeds/restore-balanced.log testdata/seeds/restore-high-performance.log", "balanced high-performance"},
		{"testdata/restores/restore-remote-run1.log testdata/restores/restore-service-run1.log", "remote service"},
		{"testdata/restores/restore-remote-run1.log testdata/restores/restore-remote-run2.log", "run1 run2"},
		// a word is not split: run1/run2, not 1/2
		{"run1.log run2.log run10.log", "run1 run2 run10"},
		// one name in two folders: the folders tell them apart
		{"a/restore.log b/restore.log", "a b"},
		{"x/restore.log x/restore.log", "restore restore#2"},
		// one name, standard input
		{"logs/restore-balanced.log", "restore-balanced"},
		{"- restore-balanced.log", "stdin restore-balanced"},
		// a name that is the other's prefix
		{"restore.log restore-2.log", "restore restore-2"},
	} {
		got := strings.Join(Distinct(strings.Fields(c.in)), " ")
		if got != c.want {
			t.Errorf("Distinct(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}
