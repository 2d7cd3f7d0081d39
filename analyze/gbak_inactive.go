package analyze

import (
	"fmt"

	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// Indices a completed restore left inactive.
//
// From Firebird 3.0 a restore defines every index with its table
// ("restoring index X", -v) and builds them after the data, after
// "creating indexes": each index active in the database backed up gets
// "activating and creating deferred index X" (3.0.11, checked here: the
// shop restore 10 of 10). An index inactive in the database backed up is
// restored inactive and gets no such line (P_NOTE of
// testdata/gbak/fb30-restore-one-inactive.log), and gbak -i (-inactive)
// leaves every index so (fb30-restore-pk-duplicate-inactive.log: 5
// restored, none activated). An index gbak could not build is an error,
// advised on apart (gbakIndexAdvice). Logs before 3.0 build indices
// without the "creating indexes" line and are not judged.

// maxTrackedIndices bounds the index names a log's restore keeps to
// tell which were not activated: past it only the count is known.
const maxTrackedIndices = 10000

// inactiveIndices is what a restore's log says of its indices.
type inactiveIndices struct {
	restored  []string // in log order, the first maxTrackedIndices
	activated map[string]struct{}
	// nRestored and nActivated count every line.
	nRestored, nActivated int
}

// add takes a restore's index line.
func (x *inactiveIndices) add(l *parse.GbakLine) {
	if l.Op != parse.GbakRestore || l.Object != "index" {
		return
	}
	switch l.Kind {
	case parse.GbakMetadata:
		x.nRestored++
		if len(x.restored) < maxTrackedIndices {
			x.restored = append(x.restored, l.Name)
		}
	case parse.GbakActivateIndex:
		x.nActivated++
		if x.activated == nil {
			x.activated = map[string]struct{}{}
		}
		if len(x.activated) < maxTrackedIndices {
			x.activated[l.Name] = struct{}{}
		}
	}
}

// set gives t the count of the indices restored, of those left
// inactive and their names in log order (empty when more than
// maxTrackedIndices were restored or activated: the count alone); nil
// when the log cannot tell: not a completed restore of Firebird 3.0 or
// later logged with -v.
func (x *inactiveIndices) set(t *Timeline, afterCreate bool) {
	if t.Kind == nil || *t.Kind != parse.GbakRestore || t.Outcome != GbakCompleted || !afterCreate || x.nRestored == 0 {
		return
	}
	restored := x.nRestored
	t.RestoredIndices = &restored
	if x.nRestored > maxTrackedIndices || x.nActivated > maxTrackedIndices {
		n := max(x.nRestored-x.nActivated, 0)
		t.InactiveIndices, t.InactiveIndexNames = &n, []string{}
		return
	}
	names := []string{}
	seen := make(map[string]struct{}, len(x.restored))
	for _, name := range x.restored {
		if _, ok := x.activated[name]; ok {
			continue
		}
		if _, ok := seen[name]; ok {
			continue
		}
		seen[name] = struct{}{}
		names = append(names, name)
	}
	n := len(names)
	t.InactiveIndices, t.InactiveIndexNames = &n, names
}

// maxInactiveNamed bounds the names InactiveIndexFinding's message gives.
const maxInactiveNamed = 10

// InactiveIndexFinding is fbdiag's verdict on the indices a completed
// restore left inactive: a warning when it left every one (gbak -i, or a
// database backed up with none active: no query uses an index, no key
// is checked), else information (they were inactive in the database
// backed up, perhaps on purpose). ok is false when it left none or the
// log cannot tell.
func (t *Timeline) InactiveIndexFinding() (severity, message, advice string, ok bool) {
	if t.InactiveIndices == nil || *t.InactiveIndices == 0 || t.RestoredIndices == nil {
		return "", "", "", false
	}
	n, of := *t.InactiveIndices, *t.RestoredIndices
	names := ""
	for i, name := range t.InactiveIndexNames {
		if i == maxInactiveNamed {
			names += fmt.Sprintf(" and %d more", n-maxInactiveNamed)
			break
		}
		if i > 0 {
			names += ", "
		}
		names += indexIdent(name)
	}
	if names != "" {
		names = ": " + names
	}
	// (an index of a primary or unique key can be activated, not
	// deactivated: testdata/gbak's README, 3.0.11)
	activate := "ALTER INDEX name ACTIVE for each, in the restored database, primary and unique keys first " +
		"(a foreign key's index does not activate while the key it references is inactive: \"Partner index does not exist " +
		"or is inactive\"; a key whose value repeats in the rows fails until the duplicates are deleted); " +
		"SELECT RDB$INDEX_NAME FROM RDB$INDICES WHERE RDB$INDEX_INACTIVE = 1 lists them"
	if n >= of {
		all := "All " + units.Count(of, "index")
		if of == 1 {
			all = "The one index"
		}
		return "warning", fmt.Sprintf("%s the restore defined %s left inactive, none activated (gbak -i restores every index "+
			"inactive): no query uses them and no primary, unique or foreign key they serve is checked%s.", all,
			wasWere(of), names), activate, true
	}
	return "info", fmt.Sprintf("%d of %s the restore defined %s not activated and %s inactive in the restored database, as in the "+
			"database backed up (gbak restores an inactive index inactive)%s.", n, units.Count(of, "index"), wasWere(n), isAre(n), names),
		"nothing if deactivated on purpose there; else " + activate, true
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
