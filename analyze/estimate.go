package analyze

import (
	"io"
	"strconv"

	"github.com/fbdiag/fbdiag/parse"
)

// Estimate predicts how long a running backup or restore still takes
// from an earlier complete log of the same kind and database: the step
// the run has reached is found in the earlier log, the run's pace so far
// is compared with the earlier one at that step, and the earlier rest of
// the run is scaled by it. It is fbdiag's own rule, stated with its
// source so that a DBA can judge it: "about Ns left, from LOG".
type Estimate struct {
	File  string
	Op    string  // "backup" or "restore"
	Total float64 // seconds the earlier run took (its last T)
	at    map[string]float64
}

// StepKey names a step so that the same step of two runs has the same
// key: its message, the table for record counts (every table prints
// "10000 records restored"), and how many times the key came before.
func StepKey(message, table string, kind parse.GbakKind, occurrence int) string {
	return stepBase(message, table, kind) + strconv.Itoa(occurrence)
}

func stepBase(message, table string, kind parse.GbakKind) string {
	if kind == parse.GbakRecords {
		return table + "\x00" + message + "\x00"
	}
	return message + "\x00"
}

// NewEstimate reads an earlier log. It is usable only when the log has
// gbak's T column and completed; ok is false otherwise.
func NewEstimate(r io.Reader, name string) (e *Estimate, ok bool) {
	rd := parse.NewGbakReader(r, name)
	e = &Estimate{File: name, at: map[string]float64{}}
	seen := map[string]int{}
	table := ""
	finished := false
	for rd.Next() {
		l := rd.Line()
		if l.Has&parse.ColTime == 0 {
			continue
		}
		switch l.Kind {
		case parse.GbakData:
			table = l.Name
		case parse.GbakFinish:
			finished = true
		}
		base := stepBase(l.Message, table, l.Kind)
		k := base + strconv.Itoa(seen[base])
		seen[base]++
		if _, dup := e.at[k]; !dup {
			e.at[k] = l.Time
		}
		if l.Time > e.Total {
			e.Total = l.Time
		}
	}
	e.Op = rd.Op()
	return e, rd.Err() == nil && finished && e.Total > 0 && len(e.at) > 0
}

// Remaining is the estimated time left, in seconds, when the current run
// printed the step key at elapsed seconds and has been on it for since
// seconds. ok is false when the earlier run has no such step. A run
// slower than before gets a longer estimate; one past the earlier run's
// end gets 0.
func (e *Estimate) Remaining(key string, elapsed, since float64) (left float64, ok bool) {
	prev, ok := e.at[key]
	if !ok {
		return 0, false
	}
	pace := 1.0
	if prev >= 1 && elapsed > 0 {
		// Early steps last milliseconds: a pace from them would be noise.
		pace = min(max(elapsed/prev, 0.1), 10)
	}
	left = (e.Total-prev)*pace - since
	return max(left, 0), true
}
