package collect

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	fb "github.com/nakagami/firebirdsql"
)

// A restore of a backup cut in half ended, in one CI run on 3.0.11, in a
// reply the driver could not read, after 63 lines and "committing
// metadata": the error said "Error op_response:291362718" and no more. It
// now says that gbak's log stopped there and what ends a restore so; the
// restore that ends without an error keeps its words, and other errors
// (a backup's, a completed run's, one that is not the driver's reading)
// are left as they are.
func TestGbakEnd(t *testing.T) {
	garbled := fb.NewErrOpResonse(291362718)
	other := errors.New("I/O error during \"read\" operation for file \"x.fbk\"")
	for _, c := range []struct {
		action    string
		completed bool
		err       error
		want      string
	}{
		{"restore", false, garbled, "gbak stopped before its final line (63 lines): the server's reply could not be read " +
			"(the driver: Error op_response:291362718); a backup file that ends early (a copy cut short, a disk that filled " +
			"during the backup) ends a restore so, or without an error"},
		{"restore", false, nil, "gbak stopped before its final line (63 lines): the server ended the restore without an " +
			"error, as it does when the backup file ends early (a copy cut short, a disk that filled during the backup; " +
			"gbak -c asks for the next volume there)"},
		{"backup", false, nil, "gbak stopped before its final line (63 lines)"},
		{"backup", false, garbled, "Error op_response:291362718"},
		{"restore", true, garbled, "Error op_response:291362718"},
		{"restore", false, other, other.Error()},
		{"restore", true, nil, ""},
	} {
		run := &GbakRun{Action: c.action, Completed: c.completed, Lines: 63}
		got := ""
		if err := gbakEnd(run, c.err); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s, completed %v, %v: %q, want %q", c.action, c.completed, c.err, got, c.want)
		}
	}
}

// A restore stopped at a duplicate primary key: the status vector the
// Services API gave (Firebird 3.0.11, the driver's message) is written to
// the log as the gbak command printed the same error in its own log.
func TestWriteStatusAsGbakPrints(t *testing.T) {
	cli, err := os.ReadFile("../testdata/gbak/fb30-restore-pk-duplicate.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(cli), "\n"), "\n")
	want := strings.Join(lines[len(lines)-3:], "") + "\n"
	var b bytes.Buffer
	status := "action cancelled by trigger (3) to preserve data integrity\nCannot deactivate index used by a PRIMARY/UNIQUE constraint\nExiting before completion due to errors\n"
	if err := writeStatus(&b, &GbakRun{}, status); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("wrote\n%s\nwant (the gbak command's log)\n%s", b.String(), want)
	}
}
