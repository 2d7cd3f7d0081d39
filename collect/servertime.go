package collect

import (
	"database/sql"
	"strings"
	"time"
)

// ServerTime is a moment as the server states it. Firebird 3 keeps
// MON$TIMESTAMP as a wall-clock time of the server's zone and does not
// say which zone that is: the time is kept without one and written
// without an offset ("2026-12-02T09:29:00.123"), since any offset fbdiag
// added would be invented (the client's zone is not the server's).
// Firebird 4 and later store the zone with the value; it is kept and
// written ("2026-12-02T09:29:00.123+01:00").
type ServerTime struct {
	// Time is the moment; without Zoned only its wall clock (date and
	// time of day) means anything, and its location is UTC.
	Time  time.Time
	Zoned bool
}

const (
	serverTimeLayout      = "2006-01-02T15:04:05.9999"
	serverTimeZonedLayout = "2006-01-02T15:04:05.9999Z07:00"
)

// String is ISO 8601: with the server's offset when it gave one, else the
// bare wall clock.
func (t ServerTime) String() string {
	if t.Zoned {
		return t.Time.Format(serverTimeZonedLayout)
	}
	return t.Time.Format(serverTimeLayout)
}

// MarshalJSON writes String as a JSON string.
func (t ServerTime) MarshalJSON() ([]byte, error) {
	return []byte(`"` + t.String() + `"`), nil
}

// UnmarshalJSON reads either form back.
func (t *ServerTime) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if v, err := time.Parse(serverTimeZonedLayout, s); err == nil {
		*t = ServerTime{Time: v, Zoned: true}
		return nil
	}
	v, err := time.Parse(serverTimeLayout, s)
	if err != nil {
		return err
	}
	*t = ServerTime{Time: v}
	return nil
}

// scanServerTime reads a MON$TIMESTAMP selected twice: as itself (a
// TIMESTAMP WITH TIME ZONE on Firebird 4+, which the driver returns in the
// server's zone) and cast to text (on Firebird 3, whose zone-less TIMESTAMP
// the driver would place in the client's zone). zoned says which one the
// server sent, from the column's type.
func scanServerTime(typed time.Time, text sql.NullString, zoned bool) (ServerTime, error) {
	if zoned {
		return ServerTime{Time: typed, Zoned: true}, nil
	}
	v, err := time.Parse("2006-01-02 15:04:05", strings.TrimSpace(text.String))
	if err != nil {
		return ServerTime{}, err
	}
	return ServerTime{Time: v}, nil
}
