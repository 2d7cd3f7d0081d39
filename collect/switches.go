package collect

import (
	"fmt"
	"strings"
)

// Switches are gstat's switches as `fbdiag collect --switches` takes them
// (the same letters gstat/fbstat accept): -h header only, -d data pages,
// -i index pages, -r record versions, -s system tables too, -t TABLE…
// only those tables, -a = -d -i.
type Switches struct {
	Header  bool // -h: header page only; overrides the others
	Data    bool // -d
	Index   bool // -i
	Records bool // -r
	System  bool // -s
	Tables  []string
}

// DefaultSwitches is what collect runs without --switches: everything the
// analysis uses (-a -r).
const DefaultSwitches = "-a -r"

// Statistics option bits of isc_action_svc_db_stats (ibase.h,
// isc_spb_sts_*).
const (
	stsDataPages      = 0x01
	stsHdrPages       = 0x04
	stsIdxPages       = 0x08
	stsSysRelations   = 0x10
	stsRecordVersions = 0x20
	stsTable          = 0x40
)

// ParseSwitches reads a switch string like "-a -r" or "-d -t ORDERS
// ORDER_LINE". Switch names may be spelled out (-data, -index, -record,
// -system, -header, -all, -table) as gstat allows.
func ParseSwitches(s string) (Switches, error) {
	var sw Switches
	words := strings.Fields(s)
	for i := 0; i < len(words); i++ {
		w := strings.ToLower(words[i])
		if !strings.HasPrefix(w, "-") || len(w) < 2 {
			return Switches{}, fmt.Errorf("switch %q: gstat switches start with '-' (e.g. \"-a -r\")", words[i])
		}
		name := w[1:]
		switch {
		case isAbbrev(name, "all", 1):
			sw.Data, sw.Index = true, true
		case isAbbrev(name, "data", 1):
			sw.Data = true
		case isAbbrev(name, "index", 1):
			sw.Index = true
		case isAbbrev(name, "record", 1):
			sw.Records = true
		case isAbbrev(name, "system", 1):
			sw.System = true
		case isAbbrev(name, "header", 1):
			sw.Header = true
		case isAbbrev(name, "table", 1):
			for i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
				i++
				sw.Tables = append(sw.Tables, strings.ToUpper(words[i]))
			}
			if len(sw.Tables) == 0 {
				return Switches{}, fmt.Errorf("switch -t needs at least one table name")
			}
		default:
			return Switches{}, fmt.Errorf("switch %q: not a gstat statistics switch (use -a -d -i -r -s -h -t)", words[i])
		}
	}
	if !sw.Header && !sw.Data && !sw.Index && !sw.Records && !sw.System && len(sw.Tables) == 0 {
		return Switches{}, fmt.Errorf("no switches: use e.g. %q", DefaultSwitches)
	}
	return sw, nil
}

// isAbbrev reports whether w abbreviates full to at least min letters.
func isAbbrev(w, full string, min int) bool {
	return len(w) >= min && len(w) <= len(full) && strings.HasPrefix(full, w)
}

// String is the canonical switch string, as written in the snapshot.
func (sw Switches) String() string {
	if sw.Header {
		return "-h"
	}
	var parts []string
	for _, p := range []struct {
		on   bool
		flag string
	}{{sw.Data, "-d"}, {sw.Index, "-i"}, {sw.Records, "-r"}, {sw.System, "-s"}} {
		if p.on {
			parts = append(parts, p.flag)
		}
	}
	if len(sw.Tables) > 0 {
		parts = append(parts, "-t", strings.Join(sw.Tables, " "))
	}
	return strings.Join(parts, " ")
}

// options is the isc_spb_options word for the statistics service. As in
// gstat, -r and -s imply data pages and -t restricts to tables.
func (sw Switches) options() int32 {
	if sw.Header {
		return stsHdrPages
	}
	var o int32
	if sw.Data {
		o |= stsDataPages
	}
	if sw.Index {
		o |= stsIdxPages
	}
	if sw.Records {
		o |= stsRecordVersions
	}
	if sw.System {
		o |= stsSysRelations
	}
	if len(sw.Tables) > 0 {
		o |= stsTable
	}
	return o
}
