package analyze

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Firebird 6 changed how gstat computes a table's average fill: over the
// pages holding data only (empty pages are now counted on their own), with
// the alignment of records counted as used space (FirebirdSQL/firebird
// pull request #8816). The same table reads fuller under 6.0 than under
// 5.0 or before, with nothing changed. gstat 6.0 opens ODS 14 only, so the
// ODS of a snapshot says which computation it printed.

// fillODS is the first ODS whose gstat computes the new average fill.
const fillODS = 14

// fillReason says why average fill figures do not compare.
func fillReason(before, after string) string {
	return fmt.Sprintf("average fill: ODS %s and %s snapshots do not compare: Firebird 6 (ODS 14) computes it over "+
		"the pages holding data only and counts record alignment (firebird#8816)", before, after)
}

func odsMajor(s *string) (int, bool) {
	if s == nil {
		return 0, false
	}
	major, _, _ := strings.Cut(*s, ".")
	n, err := strconv.Atoi(major)
	return n, err == nil
}

// fillBreak tells whether the average fill of two snapshots was computed
// differently, and says so.
func fillBreak(before, after *string) (string, bool) {
	b, okb := odsMajor(before)
	a, oka := odsMajor(after)
	if !okb || !oka || (b >= fillODS) == (a >= fillODS) {
		return "", false
	}
	return fillReason(*before, *after), true
}

// TrendBreak marks where figures of a trend stop comparing: from Time
// (the first snapshot after the break) on, the named fields were computed
// another way.
type TrendBreak struct {
	Time   time.Time `json:"time"`
	Before string    `json:"before"`
	After  string    `json:"after"`
	// Fields are the JSON names of the figures that do not compare
	// across the break.
	Fields []string `json:"fields"`
	Reason string   `json:"reason"`
}

// breaks finds the fill breaks of time-ordered snapshots.
func breaks(timed []*HistorySnapshot) []TrendBreak {
	out := []TrendBreak{}
	var last *string
	for _, s := range timed {
		h := s.Analysis.Header
		if h == nil || h.ODSVersion == nil {
			continue
		}
		if last != nil {
			if why, ok := fillBreak(last, h.ODSVersion); ok {
				out = append(out, TrendBreak{Time: *s.Time, Before: *last, After: *h.ODSVersion,
					Fields: []string{"average_fill"}, Reason: why})
			}
		}
		last = h.ODSVersion
	}
	return out
}

// odsChanges says where the ODS of time-ordered snapshots changes without
// a fill break (which says so itself): another Firebird version, or an
// upgrade, as gstat diff warns of two ODS versions.
func odsChanges(timed []*HistorySnapshot) []string {
	var out []string
	var last, lastFB *string
	for _, s := range timed {
		h := s.Analysis.Header
		if h == nil || h.ODSVersion == nil {
			continue
		}
		fb := s.Info().FirebirdVersion
		if last != nil && *last != *h.ODSVersion {
			if _, fill := fillBreak(last, h.ODSVersion); !fill {
				w := fmt.Sprintf("from %s: ODS %s → %s", s.Time.Format(time.DateTime), *last, *h.ODSVersion)
				if lastFB != nil && fb != nil && *lastFB != *fb {
					w += fmt.Sprintf(" (Firebird %s → %s)", *lastFB, *fb)
				}
				out = append(out, w+": another Firebird version, or an upgrade in between")
			}
		}
		last, lastFB = h.ODSVersion, fb
	}
	return out
}
