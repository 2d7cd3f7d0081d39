package parse

import (
	"strconv"
	"strings"
)

// gbakFixed are the messages without an object name, with the wording of
// every version from 2.5 to 6.0 (2.5 indents "committing metadata"; 4.0
// renamed "fixing" to "adjusting"; leading blanks are already gone).
var gbakFixed = map[string]struct {
	kind GbakKind
	op   string
}{
	"transportable backup -- data in XDR format":                             {GbakBackupInfo, ""},
	"backup file is compressed":                                              {GbakBackupInfo, GbakRestore},
	"started transaction":                                                    {GbakTransaction, GbakRestore},
	"starting transaction":                                                   {GbakTransaction, GbakBackup},
	"committing metadata":                                                    {GbakCommitMetadata, GbakRestore},
	"creating indexes":                                                       {GbakCreateIndexes, GbakRestore},
	"fixing views dbkey length":                                              {GbakFinishStep, GbakRestore},
	"adjusting views dbkey length":                                           {GbakFinishStep, GbakRestore},
	"updating ownership of packages, procedures and tables":                  {GbakFinishStep, GbakRestore},
	"adding missing privileges":                                              {GbakFinishStep, GbakRestore},
	"fixing system generators":                                               {GbakFinishStep, GbakRestore},
	"adjusting system generators":                                            {GbakFinishStep, GbakRestore},
	"finishing, closing, and going home":                                     {GbakFinish, GbakRestore},
	"total statistics":                                                       {GbakTotal, ""},
	"adjusting the ONLINE and FORCED WRITES flags":                           {GbakOnlineFlags, GbakRestore},
	"Exiting before completion due to errors":                                {GbakExiting, ""},
	"Database is not online due to failure to activate one or more indices.": {GbakNotOnline, GbakRestore},
	"Run gfix -online to bring database online without active indices.":      {GbakNotOnline, GbakRestore},
}

// gbakNamed are messages "prefix NAME": the rest of the line is the name.
var gbakNamed = []struct {
	prefix string
	kind   GbakKind
	op     string
	object string
}{
	{"restoring data for table ", GbakData, GbakRestore, "table"},
	{"writing data for table ", GbakData, GbakBackup, "table"},
	{"activating and creating deferred index ", GbakActivateIndex, GbakRestore, "index"},
	{"cannot commit index ", GbakIndexFailed, GbakRestore, "index"},
	{"skipping data for table ", GbakSkipData, GbakRestore, "table"},
	{"opened file ", GbakOpenFile, GbakRestore, "file"},
	{"creating file ", GbakOpenFile, GbakBackup, "file"},
	{"restoring index ", GbakMetadata, GbakRestore, "index"},
	{"writing index ", GbakMetadata, GbakBackup, "index"},
	{"restoring privilege for user ", GbakMetadata, GbakRestore, "privilege for user"},
	{"writing privilege for user ", GbakMetadata, GbakBackup, "privilege for user"},
	{"restoring stored procedure ", GbakMetadata, GbakRestore, "stored procedure"},
	{"writing stored procedure ", GbakMetadata, GbakBackup, "stored procedure"},
	{"restoring security class ", GbakMetadata, GbakRestore, "security class"},
	{"writing security class ", GbakMetadata, GbakBackup, "security class"},
	{"restoring SQL role ", GbakMetadata, GbakRestore, "SQL role"},
	{"writing SQL role ", GbakMetadata, GbakBackup, "SQL role"},
	{"restoring character set ", GbakMetadata, GbakRestore, "character set"},
	{"restoring names mapping ", GbakMetadata, GbakRestore, "names mapping"},
	{"use up to ", GbakBackupInfo, "", ""},
	{"backup version is ", GbakBackupInfo, GbakRestore, ""},
	{"gbak version ", GbakVersion, "", ""},
	{"Version(s) for database ", GbakVersion, "", "database"},
}

// gbakNamedBy indexes gbakNamed by the first byte of the prefix, so that a
// line is tested against a few prefixes only.
var gbakNamedBy = func() (idx [256][]int) {
	for i, p := range gbakNamed {
		idx[p.prefix[0]] = append(idx[p.prefix[0]], i)
	}
	return idx
}()

// classify sets Kind, Op, Object, Name and Count from r.cur.Message.
func (r *GbakReader) classify() {
	l := &r.cur
	m := l.Message
	l.Kind = GbakOther
	if m == "" {
		return
	}
	// "N records restored" / "N records written" / "N records ignored":
	// the bulk of a big log, so tested first.
	if c := m[0]; c >= '0' && c <= '9' {
		num, rest, _ := strings.Cut(m, " ")
		n, err := strconv.ParseInt(num, 10, 64)
		if err == nil {
			switch rest {
			case "records restored":
				l.Kind, l.Op, l.Count = GbakRecords, GbakRestore, n
			case "records written":
				l.Kind, l.Op, l.Count = GbakRecords, GbakBackup, n
			case "records ignored":
				l.Kind, l.Op, l.Count = GbakIgnored, GbakRestore, n
			}
		}
		return
	}
	if f, ok := gbakFixed[m]; ok {
		l.Kind, l.Op = f.kind, f.op
		return
	}
	for _, i := range gbakNamedBy[m[0]] {
		p := &gbakNamed[i]
		if strings.HasPrefix(m, p.prefix) {
			l.Kind, l.Op, l.Object = p.kind, p.op, p.object
			if p.object != "" {
				l.Name = m[len(p.prefix):]
			}
			return
		}
	}
	switch {
	case strings.HasPrefix(m, "created database "):
		// created database X, page_size N bytes
		l.Kind, l.Op, l.Object = GbakCreateDatabase, GbakRestore, "database"
		name := m[len("created database "):]
		if i := strings.LastIndex(name, ", page_size "); i >= 0 {
			name = name[:i]
		}
		l.Name = name
	case strings.HasPrefix(m, "readied database ") && strings.HasSuffix(m, " for backup"):
		l.Kind, l.Op, l.Object = GbakOpenDatabase, GbakBackup, "database"
		l.Name = m[len("readied database ") : len(m)-len(" for backup")]
	case strings.HasPrefix(m, "closing file, committing, and finishing."):
		// closing file, committing, and finishing. N bytes written
		l.Kind, l.Op = GbakFinish, GbakBackup
		rest := strings.TrimSpace(m[len("closing file, committing, and finishing."):])
		if num, _, ok := strings.Cut(rest, " bytes written"); ok {
			l.Count, _ = strconv.ParseInt(num, 10, 64)
		}
	case strings.HasPrefix(m, "database ") && strings.Contains(m, " has a page size of "):
		l.Kind, l.Op = GbakBackupInfo, GbakBackup
	case strings.HasPrefix(m, "table ") && strings.HasSuffix(m, " is a view"):
		l.Kind, l.Op, l.Object = GbakMetadata, GbakRestore, "view"
		l.Name = m[len("table ") : len(m)-len(" is a view")]
	case strings.HasPrefix(m, "restoring "):
		r.item(m[len("restoring "):], GbakRestore)
	case strings.HasPrefix(m, "writing "):
		r.item(m[len("writing "):], GbakBackup)
	}
}

// item reads "OBJECT NAME" after "restoring " / "writing ": the last word
// is the name (a quoted, schema-qualified 6.0 name has no blanks), the
// words before it the object. A backup line without a name ("writing
// domains") starts a section.
func (r *GbakReader) item(m, op string) {
	l := &r.cur
	l.Op = op
	// generators carry their value: "restoring generator G value: 12",
	// "writing generator G value 12".
	if i := strings.Index(m, " value"); i > 0 && strings.HasPrefix(m, "generator ") {
		m = m[:i]
	}
	i := strings.LastIndexByte(m, ' ')
	if i < 0 {
		if op == GbakBackup {
			l.Kind = GbakSection
			l.Object = m
			return
		}
		l.Kind = GbakOther
		return
	}
	object, name := m[:i], m[i+1:]
	if op == GbakBackup && gbakSections[m] {
		l.Kind, l.Object = GbakSection, m
		return
	}
	l.Kind, l.Object, l.Name = GbakMetadata, object, name
}

// gbakSections are backup headings of several words (one-word headings
// such as "writing domains" are recognised by having no name).
var gbakSections = map[string]bool{
	"shadow files": true, "character sets": true, "id generators": true,
	"stored procedures": true, "trigger messages": true, "security classes": true,
	"table constraints": true, "referential constraints": true, "check constraints": true,
	"SQL roles": true, "names mapping": true, "database create grants": true,
	"publications": true, "schemas": true,
}
