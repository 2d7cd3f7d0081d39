package analyze

import (
	"fmt"
	"regexp"
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
		return fmt.Sprintf("the run had at most %s parallel worker(s), not the %s of -par: MaxParallelWorkers in the server's firebird.conf "+
			"(Firebird 5.0, default 1) caps -par; set MaxParallelWorkers = %s there and restart the server (SuperServer, SuperClassic; "+
			"Classic reads it at the next connection), or give -par %s", m[3], m[1], m[1], m[3])
	}
	return ""
}
