package labels

import (
	"slices"
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

func TestRepeats(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"remote-run1", "remote-run2", "service-run1", "service-run2"}, []string{"remote", "remote", "service", "service"}},
		{[]string{"bu50_Run1", "bu50_Run2", "bu100_Run1"}, []string{"bu50", "bu50", "bu100"}},
		// Two runs of one side only, or no repeat: as they were.
		{[]string{"remote-run1", "remote-run2"}, []string{"remote-run1", "remote-run2"}},
		{[]string{"a-run1", "b-run1"}, []string{"a-run1", "b-run1"}},
		{[]string{"run1", "run2"}, []string{"run1", "run2"}},
		// A label that is not a numbered run keeps them all apart.
		{[]string{"remote-run1", "remote-run2", "service"}, []string{"remote-run1", "remote-run2", "service"}},
		{[]string{"x-runs", "x-runs", "y-run1"}, []string{"x-runs", "x-runs", "y-run1"}},
	} {
		if got := Repeats(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Repeats(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
