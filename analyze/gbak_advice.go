package analyze

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/fbdiag/fbdiag/internal/units"
)

// parallelRange is Firebird 5.0's message when gbak -par asks for more
// workers than the server allows: "Wrong parallel workers value 4, valid
// range are from 1 to 1" (a warning in 5.0, an error in its first betas).
var parallelRange = regexp.MustCompile(`^Wrong parallel workers value (\d+), valid range are from (\d+) to (\d+)`)

// GbakMessageAdvice is what to change for one of gbak's error or warning
// messages, "" when fbdiag has nothing to add to gbak's words.
//
// The parallel workers' range is the server's: MaxParallelWorkers in
// firebird.conf (Firebird 5.0, default 1) caps -par, and the run went on
// with no more workers than that (firebird#8140, the log that says "use up
// to 4 parallel workers" and then this warning; firebird#7552, hvlad:
// -par N runs once the firebird.conf values are raised). The setting is
// read when the server process starts: SuperServer and SuperClassic need
// a restart, Classic starts a process per connection.
func GbakMessageAdvice(msg string) string {
	if m := parallelRange.FindStringSubmatch(msg); m != nil {
		most, _ := strconv.Atoi(m[3]) // (digits: the pattern's)
		return fmt.Sprintf("the run had at most %s, not the %s of -par: MaxParallelWorkers in the server's firebird.conf "+
			"(Firebird 5.0, default 1) caps -par; set MaxParallelWorkers = %s there and restart the server (SuperServer, SuperClassic; "+
			"Classic reads it at the next connection), or give -par %s", units.Count(most, "parallel worker"), m[1], m[1], m[3])
	}
	return ""
}
