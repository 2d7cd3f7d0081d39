package analyze

import (
	"fmt"
	"strings"
	"time"
)

// OATAge is what two snapshots say about how long the oldest active
// transaction of one of them had been open.
//
// The estimate divides Next − OAT by the transaction rate between the
// snapshots, as if transactions had started at that rate all along. The
// headers bound it: the transaction started after the database was
// created (its creation date; a restore resets it), and before the first
// snapshot when its number is below that snapshot's Next transaction, or
// after it otherwise. An estimate outside its bounds is left out.
type OATAge struct {
	EstimateHours *float64 `json:"estimate_hours"`
	MinHours      *float64 `json:"min_hours"`
	MaxHours      *float64 `json:"max_hours"`
	// Note says where a bound comes from, or why the estimate was left
	// out.
	Note string `json:"note,omitempty"`
}

// oatAges bounds the rate estimates of both snapshots; rate is
// transactions per hour (0 when unknown).
func (d *SnapshotDiff) oatAges(b, a *HeaderStats, rate float64) {
	times := [2]*time.Time{d.Before.Time, d.After.Time}
	for i, h := range []*HeaderStats{b, a} {
		age := &d.OATAge[i]
		if h == nil {
			continue
		}
		var notes []string
		if t, c := times[i], h.CreationDate; t != nil && c != nil {
			// A creation date in UTC against a local snapshot time is off
			// by the server's zone: the bound takes the widest.
			slack := h.CreationZoneSlack()
			switch since := secondsBetween(*t, *c) + slack.Seconds(); {
			case since < 0:
				notes = append(notes, "the creation date is after the snapshot time: the clocks differ, no bound from it")
			case slack > 0:
				age.MaxHours = ptr(since / 3600)
				notes = append(notes, fmt.Sprintf("the database was created at most %s before (its creation date is in UTC, the snapshot time local: up to %s apart)",
					humanSeconds(since), humanSeconds(slack.Seconds())))
			default:
				age.MaxHours = ptr(since / 3600)
				notes = append(notes, fmt.Sprintf("the database was created %s before", humanSeconds(since)))
			}
		}
		if i == 1 && d.TransactionsBetween != nil && b != nil && b.NextTransaction != nil && a.OldestActive != nil &&
			d.SecondsBetween != nil && *d.SecondsBetween >= 0 {
			between := *d.SecondsBetween / 3600
			if *a.OldestActive < *b.NextTransaction {
				age.MinHours = ptr(between)
				notes = append(notes, fmt.Sprintf("it started before the first snapshot, %s earlier", humanSeconds(*d.SecondsBetween)))
			} else if age.MaxHours == nil || between < *age.MaxHours {
				age.MaxHours = ptr(between)
				notes = append(notes, fmt.Sprintf("it started after the first snapshot, %s earlier", humanSeconds(*d.SecondsBetween)))
			}
		}
		if age.MinHours == nil {
			age.MinHours = ptr(0.0)
		}
		if rate > 0 && h.NextMinusOAT != nil {
			est := float64(*h.NextMinusOAT) / rate
			// A second of slack: gstat prints times to the second.
			const slack = 1.0 / 3600
			switch {
			case age.MaxHours != nil && est > *age.MaxHours+slack:
				notes = append(notes, fmt.Sprintf("the rate estimate, %s, is longer than that: left out", humanSeconds(est*3600)))
			case est < *age.MinHours-slack:
				notes = append(notes, fmt.Sprintf("the rate estimate, %s, is shorter than that: left out", humanSeconds(est*3600)))
			default:
				age.EstimateHours = ptr(est)
			}
		}
		age.Note = strings.Join(notes, "; ")
		d.OATAgeHours[i] = age.EstimateHours
	}
}
