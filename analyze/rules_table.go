package analyze

import (
	"fmt"
	"slices"

	"github.com/fbdiag/fbdiag/internal/numfmt"
	"github.com/fbdiag/fbdiag/internal/units"
)

func (c *checker) table(t *TableStats) {
	const kind = "table"
	c.tableVersions(t)
	if t.MaxVersions != nil && float64(*t.MaxVersions) >= c.th.at(thTableMaxVersionsWarning) {
		f := finding{rule: "table-max-versions", sev: Warn, kind: kind, object: t.QualifiedName(), value: float64(*t.MaxVersions), threshold: c.th.at(thTableMaxVersionsWarning), unit: "versions"}
		if c.wants(&f) {
			c.maxVersionsWhy(&f, *t.MaxVersions)
		}
		c.fire(&f)
	}
	if t.AvgRecord != nil && *t.AvgRecord == 0 && t.Records != nil && float64(*t.Records) >= c.th.at(thTableDeletedMinRecords) {
		f := finding{rule: "table-deleted", sev: Info, kind: kind, object: t.QualifiedName(), value: float64(*t.Records), threshold: c.th.at(thTableDeletedMinRecords), unit: "records"}
		if c.wants(&f) {
			c.deletedWhy(&f, t)
		}
		c.fire(&f)
	}
	c.tableFragments(t)
	if t.TotalFormats != nil {
		warn, crit := c.th.at(thTableFormatsWarning), c.th.at(thTableFormatsCritical)
		if n := float64(*t.TotalFormats); n >= warn || n >= crit {
			f := finding{rule: "table-formats", kind: kind, object: t.QualifiedName(), value: n, unit: "formats"}
			if n >= crit {
				f.sev, f.threshold, f.key = Critical, crit, "critical"
			} else {
				f.sev, f.threshold, f.key = Warn, warn, "warning"
			}
			if c.wants(&f) {
				f.reason = fmt.Sprintf("%d record formats of 255: at 255 the table can no longer be altered", *t.TotalFormats)
				f.advice = "gbak backup and restore, which resets the formats"
			}
			c.fire(&f)
		}
	}
	// System tables are not the DBA's to repack; the index rules leave
	// them out for the same reason.
	system := IsSystemTable(t.Name) || t.Schema == "SYSTEM"
	if !system && t.AverageFill != nil && t.DataPages != nil && float64(*t.DataPages) >= c.th.at(thTableSparseMinDataPages) &&
		float64(*t.AverageFill) < c.th.at(thTableSparseMinFill) &&
		(t.AvgRecord == nil || *t.AvgRecord > c.th.at(thTableSparseMinRecordLength)) {
		f := finding{rule: "table-sparse", sev: Warn, kind: kind, object: t.QualifiedName(), value: float64(*t.AverageFill), threshold: c.th.at(thTableSparseMinFill), key: "min_fill", unit: "%", below: true}
		if c.wants(&f) {
			f.reason = fmt.Sprintf("data pages %d%% full on average over %s: mass deletes left holes", *t.AverageFill, units.Count(*t.DataPages, "page"))
			f.advice = "gbak backup and restore compacts the table"
		}
		c.fire(&f)
	}
	if t.AvgVersion != nil && t.AvgRecord != nil && *t.AvgRecord > 0 && t.Versions != nil &&
		float64(*t.Versions) >= c.th.at(thTableVersionLengthMinVersions) {
		r := *t.AvgVersion / *t.AvgRecord
		if r >= c.th.at(thTableVersionLengthRatio) {
			f := finding{rule: "table-version-length", sev: Info, kind: kind, object: t.QualifiedName(), value: r, threshold: c.th.at(thTableVersionLengthRatio), key: "ratio", unit: "version/record length"}
			if c.wants(&f) {
				b := append(c.textBuf(), "back versions average "...)
				b = numfmt.AppendFixed(b, *t.AvgVersion, 2)
				b = append(b, " bytes for "...)
				b = numfmt.AppendFixed(b, *t.AvgRecord, 2)
				b = append(b, "-byte records ("...)
				b = numfmt.AppendInt(b, *t.Versions)
				b = append(b, " versions, "...)
				b = appendSize(b, *t.AvgVersion*float64(*t.Versions))
				b = append(b, "): whole-record versions, from deleted rows (a delete keeps the last version whole) or updates that rewrite most of a row; an update that changes little leaves a shorter difference"...)
				f.reason = c.keepText(b)
				f.advice = "if updates rewrite whole rows, update only the columns that change; the versions go when garbage is collected"
			}
			c.fire(&f)
		}
	}
	c.blobLevels(t)
}

// tableVersions says what the header shows about why the back versions
// are still there: a transaction old enough to hold garbage collection
// back, or recent work not collected yet.
func (c *checker) tableVersions(t *TableStats) {
	if t.Versions == nil || t.Records == nil || float64(*t.Versions) < c.th.at(thTableVersionsMinVersions) {
		return
	}
	r := float64(*t.Versions) / float64(max(*t.Records, 1))
	warn, crit := c.th.at(thTableVersionsWarning), c.th.at(thTableVersionsCritical)
	var sev Severity
	var threshold float64
	var key string
	switch {
	case r >= crit:
		sev, threshold, key = Critical, crit, "critical"
	case r > warn:
		sev, threshold, key = Warn, warn, "warning"
	default:
		return
	}
	f := finding{rule: "table-versions", sev: sev, kind: "table", object: t.QualifiedName(), value: r, threshold: threshold, key: key, unit: "versions/record"}
	h := c.a.Header
	known, held := c.gcHeld()
	ro := c.readOnly()
	if known && !held || ro {
		// Nothing holds them (a read-only database's markers are frozen):
		// worth knowing, one step less severe.
		f.sev = lessSevere(f.sev)
	}
	if c.wants(&f) && ro {
		f.reason = fmt.Sprintf("%d back versions for %d records; %s, so they stay while it is read only", *t.Versions, *t.Records, readOnlyNoGC)
		f.advice = "nothing while it stays read only; if it is made writable: " + c.gfix("-mode read_write") + ", then " + c.gfix("-sweep")
	} else if c.wants(&f) {
		// (One of the most frequent warnings of a big file: appended, not
		// Sprintf or +.)
		b := numfmt.AppendInt(c.textBuf(), *t.Versions)
		b = append(b, " back versions for "...)
		b = numfmt.AppendInt(b, *t.Records)
		b = append(b, " records"...)
		if known {
			b = append(b, "; the header shows Next - OAT = "...)
			b = numfmt.AppendInt(b, *h.NextMinusOAT)
			b = append(b, ", Next - OST = "...)
			b = numfmt.AppendInt(b, val0(h.NextMinusOST))
			b = append(b, " and OAT - OIT = "...)
			b = numfmt.AppendInt(b, val0(h.OATMinusOIT))
		}
		switch {
		case !known:
			b = append(b, "; the input has no transaction markers, so whether garbage collection is blocked is unknown"...)
			f.advice = "gstat -h (or fbdiag collect) shows whether an old transaction holds them"
		case held:
			b = append(b, ": a transaction that old keeps these versions from garbage collection"...)
			f.advice = endOldestAdvice(h)
		case gcGap(h) <= 1:
			b = append(b, ": nothing holds garbage collection back now, these are versions of recent updates and deletes not collected yet"...)
			f.advice = c.sweepRecent()
		default:
			b = appendYoungerHeld(append(b, ": "...), h)
			f.advice = c.sweepOlder(h)
		}
		f.reason = c.keepText(b)
	}
	c.fire(&f)
}

// gcGap is the age, in transactions, of the oldest transaction the
// header shows open: the larger of Next − OAT and Next − OST. A back
// version made after that transaction began may still be needed by it,
// so garbage collection keeps it until it ends; at 1 or less no older
// transaction is open.
func gcGap(h *HeaderStats) int64 {
	if h == nil || h.NextMinusOAT == nil {
		return 0
	}
	return max(*h.NextMinusOAT, val0(h.NextMinusOST))
}

// appendYoungerHeld says which versions an open transaction under the
// oat-stuck threshold still keeps: those made since it began. Saying
// "nothing holds garbage collection back" there was wrong: a transaction
// 14,999 transactions old keeps every version made since. The header's
// markers are those of the last transaction start, so it may have ended
// since: "while it is open".
func appendYoungerHeld(b []byte, h *HeaderStats) []byte {
	marker, tx := "oldest active", h.OldestActive
	if h.NextMinusOST != nil && *h.NextMinusOST > *h.NextMinusOAT {
		marker, tx = "oldest snapshot", h.OldestSnapshot
	}
	b = append(b, "the "...)
	b = append(b, marker...)
	b = append(b, " transaction"...)
	if tx != nil {
		b = append(b, " ("...)
		b = numfmt.AppendInt(b, *tx)
		b = append(b, ')')
	}
	return append(b, ", while it is open, keeps the versions made since it began (the header's markers are those of the last transaction start: it may have ended since); the older ones are not collected yet"...)
}

// stillOpenAdvice asks to end the transaction appendYoungerHeld names
// if it is still open.
func stillOpenAdvice(h *HeaderStats) string {
	if noMonitoringTables(h) {
		return "if that transaction is still open, end it (" + noMonWhy + ": find the client that keeps it open)"
	}
	return "if that transaction is still open (MON$TRANSACTIONS), end it"
}

// deletedWhy explains a table whose records all have length 0 (deleted,
// not collected) by the header, as table-versions does: reading the rows
// collects them only when no transaction old enough to need them is open.
func (c *checker) deletedWhy(f *finding, t *TableStats) {
	h := c.a.Header
	count := fmt.Sprintf("SELECT COUNT(*) FROM %s;", QuoteName(t.Schema, t.Name))
	f.reason = units.Count(*t.Records, "record") + " with average length 0: all rows deleted, not collected yet"
	if c.readOnly() {
		f.reason += "; " + readOnlyNoGC
		f.advice = "if it is made writable: " + c.gfix("-mode read_write") + ", then " + count + " (reading the rows collects them) or " + c.gfix("-sweep")
		return
	}
	switch known, held := c.gcHeld(); {
	case !known:
		f.reason += "; the input has no transaction markers, so whether an old transaction keeps them is unknown"
		f.advice = count + " (reading the rows collects them, unless a transaction older than the deletes is open: gstat -h shows it) or " + c.gfix("-sweep")
	case held:
		f.reason += fmt.Sprintf(": a transaction old enough to keep them is open (Next - OAT = %d, Next - OST = %d)", *h.NextMinusOAT, val0(h.NextMinusOST))
		f.advice = endOldestAdvice(h) + "; then " + count + " (reading the rows collects them) or " + c.gfix("-sweep")
	case gcGap(h) <= 1:
		f.advice = count + " (reading the rows collects them) or " + c.gfix("-sweep")
	default:
		f.reason = string(appendYoungerHeld([]byte(f.reason+"; "), h))
		f.advice = count + " (reading the rows collects those deleted before that transaction began) or " + c.gfix("-sweep") + "; the others go once it ends: " + stillOpenAdvice(h)
	}
}

// sweepRecent is table-versions' advice for versions nothing holds back.
func (c *checker) sweepRecent() string {
	m := c.dbTexts()
	if m.sweepRecent == "" {
		m.sweepRecent = "they go when the rows are next read (garbage collection) or at the next sweep (" + c.gfix("-sweep") +
			"); if they keep growing between snapshots (fbdiag gstat diff), look for long transactions"
	}
	return m.sweepRecent
}

// sweepOlder is table-versions' advice when a transaction younger than
// the oldest interesting holds the newer versions back (h is the run's
// header, whose markers the text depends on).
func (c *checker) sweepOlder(h *HeaderStats) string {
	m := c.dbTexts()
	if m.sweepOlder == "" {
		m.sweepOlder = "the older ones go when the rows are next read (garbage collection) or at the next sweep (" + c.gfix("-sweep") +
			"); the newer ones once that transaction ends: " + stillOpenAdvice(h)
	}
	return m.sweepOlder
}

// readOnlyNoGC says why nothing collects a read-only database's garbage:
// its attachments do no cleanup (jrd.cpp: "Attachments to a ReadOnly
// database need NOT do garbage collection", ATT_no_cleanup) and its sweep
// is skipped (Database::allowSweepRun), gfix's too.
const readOnlyNoGC = "the database is read only: Firebird collects no garbage in it (its readers clean nothing up and gfix -sweep does nothing)"

// readOnly says whether the header shows the database read only.
func (c *checker) readOnly() bool {
	h := c.a.Header
	return h != nil && h.ReadOnly != nil && *h.ReadOnly
}

// gcHeld says whether the header shows the transaction markers (known)
// and, if so, whether a transaction old enough to keep back versions
// from garbage collection is open: Next − OAT or Next − OST past the
// oat-stuck threshold.
func (c *checker) gcHeld() (known, held bool) {
	h := c.a.Header
	if h == nil || h.NextMinusOAT == nil {
		return false, false
	}
	gap := *h.NextMinusOAT
	if h.NextMinusOST != nil && *h.NextMinusOST > gap {
		gap = *h.NextMinusOST
	}
	return true, float64(gap) > c.th.at(thOatStuckWarning)
}

// endOldestAdvice is the advice for back versions an old transaction
// keeps: end it, found in MON$TRANSACTIONS where the ODS has them.
func endOldestAdvice(h *HeaderStats) string {
	if noMonitoringTables(h) {
		return "end the oldest active transaction (" + noMonWhy + ": find the client that keeps it open); the versions go once it ends"
	}
	return "find the oldest active transaction in MON$TRANSACTIONS and end it; the versions go once it ends"
}

// maxVersionsWhy explains a record's long version chain by what the
// header shows, as table-versions does: an old transaction keeps the
// chain, or nothing does now, and either one that has ended kept it or
// the row was updated faster than garbage collection removed its
// versions (a hot row: a counter, a total). The header cannot tell
// which: fbdiag bench's own runs, before 2026-12-06, left WAREHOUSE's row
// 1504 versions long by a transaction held through the run, 5 without.
func (c *checker) maxVersionsWhy(f *finding, n int64) {
	h := c.a.Header
	if c.readOnly() {
		f.reason = fmt.Sprintf("one record has %d back versions; %s, so the chain stays while it is read only and each read of the row walks it", n, readOnlyNoGC)
		f.advice = "if it is made writable: " + c.gfix("-mode read_write") + ", then " + c.gfix("-sweep")
		return
	}
	switch known, held := c.gcHeld(); {
	case !known:
		f.reason = fmt.Sprintf("one record has %d back versions: updated many times since garbage collection last reached it; "+
			"the input has no transaction markers, so whether an old transaction keeps them is unknown", n)
		f.advice = "gstat -h (or fbdiag collect) shows whether an old transaction holds them; update a hot row less often"
	case held:
		f.reason = fmt.Sprintf("one record has %d back versions: updated many times while a transaction old enough to keep them "+
			"(Next - OAT = %d, Next - OST = %d) was open", n, *h.NextMinusOAT, val0(h.NextMinusOST))
		f.advice = endOldestAdvice(h)
	case gcGap(h) > 1:
		f.reason = string(appendYoungerHeld([]byte(fmt.Sprintf("one record has %d back versions, not collected yet (Next - OAT = %d, Next - OST = %d): ",
			n, *h.NextMinusOAT, val0(h.NextMinusOST))), h)) +
			"; if it has ended, a transaction kept them until then, or the row was updated faster than garbage collection removed its versions: a hot row (a counter, a running total)"
		f.advice = stillOpenAdvice(h) + "; otherwise reading the row or a sweep (" + c.gfix("-sweep") + ") collects the chain; if it is long in every snapshot, update the row less often " +
			"(keep a counter in rows that are summed on read)"
	default:
		f.reason = fmt.Sprintf("one record has %d back versions, not collected yet: the header shows nothing holding garbage collection "+
			"back now (Next - OAT = %d, Next - OST = %d), so a transaction since ended kept them, or the row was updated faster than "+
			"garbage collection removed its versions: a hot row (a counter, a running total); reading it walks the chain", n, *h.NextMinusOAT, val0(h.NextMinusOST))
		f.advice = "reading the row or a sweep (" + c.gfix("-sweep") + ") collects the chain; if it is long in every snapshot, update the row less often " +
			"(keep a counter in rows that are summed on read)"
	}
}

// dataPageOverhead is what a data page and a record take beside the
// record's data: page header, slot and record header, about 64 bytes
// (src/jrd/ods.h data_page, rhd).
const dataPageOverhead = 64

// tableFragments tells records too big for the page, which a bigger page
// size keeps whole, from records that grew on an update while their page
// was full, which a restore re-packs. The stored (compressed) length is
// what has to fit: on Firebird 3.0.11 a VARCHAR(8000) table of 8010-byte
// unpacked, 138-byte stored rows had no fragments on 4 KB pages.
func (c *checker) tableFragments(t *TableStats) {
	if t.FragmentsPerRecord == nil || float64(val0(t.Records)) < c.th.at(thTableFragmentsMinRecords) || *t.FragmentsPerRecord <= c.th.at(thTableFragmentsPerRecord) {
		return
	}
	f := finding{rule: "table-fragments", sev: Warn, kind: "table", object: t.QualifiedName(), value: *t.FragmentsPerRecord, threshold: c.th.at(thTableFragmentsPerRecord),
		key: "per_record", unit: "fragments/record"}
	if !c.wants(&f) {
		c.fire(&f)
		return
	}
	var pageSize int64
	var odsMajor *int
	if h := c.a.Header; h != nil && h.PageSize != nil {
		pageSize = *h.PageSize
		odsMajor = c.odsOf(h)
	}
	share := c.th.at(thTableFragmentsRecordShare)
	// (Fired for every table of a big file made of one: appended, not
	// Sprintf.)
	b := numfmt.AppendInt(c.textBuf(), val0(t.Fragments))
	b = append(b, " fragments for "...)
	b = numfmt.AppendInt(b, val0(t.Records))
	b = append(b, " records; "...)
	if t.AvgRecord == nil {
		b = append(b, "records of unknown length"...)
	} else {
		b = append(b, "records average "...)
		b = numfmt.AppendFixed(b, *t.AvgRecord, 0)
		b = append(b, " bytes stored"...)
		if t.AvgUnpacked != nil && *t.AvgUnpacked > 0 {
			b = append(b, " ("...)
			b = numfmt.AppendFixed(b, *t.AvgUnpacked, 0)
			b = append(b, " unpacked)"...)
		}
	}
	switch {
	case pageSize > 0 && t.AvgRecord != nil && *t.AvgRecord >= share*float64(pageSize):
		b = append(b, " on "...)
		b = numfmt.AppendInt(b, pageSize)
		b = append(b, "-byte pages: records near or over the page size are split"...)
		f.advice = fmt.Sprintf("records bigger than the largest page size (%d): keep the wide columns in blobs", maxPageSize(odsMajor))
		for p := pageSize * 2; p <= maxPageSize(odsMajor); p *= 2 {
			if *t.AvgRecord+dataPageOverhead <= float64(p) {
				f.advice = fmt.Sprintf("gbak backup, then restore into a new file with -page_size %d, where such records fit whole", p)
				if two := p * 2; *t.AvgRecord >= share*float64(p) && two <= maxPageSize(odsMajor) {
					f.advice += fmt.Sprintf(", one to a page (%d holds two)", two)
				}
				break
			}
		}
	case val0(t.BigRecordPages) > 0:
		b = append(b, "; "...)
		b = numfmt.AppendInt(b, *t.BigRecordPages)
		b = append(b, " big record pages: some records are bigger than a page"...)
		f.advice = "keep the widest columns in blobs; a bigger page size helps only if those records then fit"
	case pageSize > 0 && t.AvgRecord != nil:
		b = append(b, " on "...)
		b = numfmt.AppendInt(b, pageSize)
		b = append(b, "-byte pages, far smaller than a page: the fragments are records that grew on an update while their page was full, not records too big for the page, so a bigger page size would not help"...)
		f.advice = "gbak backup and restore re-packs them"
	default:
		b = append(b, "; the page size is not in the input, so whether records are too big for a page is unknown"...)
		f.advice = "gstat -h gives the page size"
	}
	f.reason = c.keepText(b)
	if h := c.a.Header; h != nil && slices.Contains(h.Attributes, "no reserve") && f.advice == "gbak backup and restore re-packs them" {
		f.advice += "; the database has \"no reserve\" (gfix -use full), which leaves no room on a page for updates: " + c.gfix("-use reserve")
	}
	c.fire(&f)
}

// blobLevels: a level 1 blob lists its pages on its header page, a level 2
// blob lists pages of such lists (Jim Starkey, firebird-architect 2000-04
// msg 362), so level 2 means a blob over about (page size / 4) pages of
// page size bytes: 16 MiB on 8 KB pages.
func (c *checker) blobLevels(t *TableStats) {
	if len(t.BlobLevels) <= 2 || float64(t.BlobLevels[2]) <= c.th.at(thBlobLevelsMaxLevel2) {
		return
	}
	f := finding{rule: "blob-levels", sev: Info, kind: "table", object: t.QualifiedName(), value: float64(t.BlobLevels[2]), threshold: c.th.at(thBlobLevelsMaxLevel2), unit: "blobs"}
	if !c.wants(&f) {
		c.fire(&f)
		return
	}
	f.reason = units.Count(t.BlobLevels[2], "blob") + " at level 2 (pages of blob page numbers)"
	f.advice = "nothing to fix: the blobs are stored whole"
	if h := c.a.Header; h != nil && h.PageSize != nil {
		p := float64(*h.PageSize)
		each := "each "
		if t.BlobLevels[2] == 1 {
			each = ""
		}
		f.reason += fmt.Sprintf(": %sbigger than about %s at %d-byte pages", each, SizeText(p/4*p), *h.PageSize)
		// (Not past the largest page size of the ODS: 16384 up to 3.0.)
		if *h.PageSize*2 <= maxPageSize(c.odsOf(h)) {
			f.advice += fmt.Sprintf("; at %d-byte pages a blob stays at level 1 up to about %s", *h.PageSize*2, SizeText(p*p))
		}
	}
	if len(t.BlobLevelBytes) > 2 && t.BlobLevels[2] > 0 {
		avg := "; they average "
		if t.BlobLevels[2] == 1 {
			avg = "; it holds "
		}
		f.reason += avg + SizeText(float64(t.BlobLevelBytes[2])/float64(t.BlobLevels[2]))
	}
	c.fire(&f)
}

// lessSevere is the severity one step below s (Info stays Info).
func lessSevere(s Severity) Severity {
	switch s {
	case Critical:
		return Warn
	case Warn:
		return Info
	}
	return s
}

// odsOf is odsVersion of h, parsed once a header (tableFragments asks
// for it on every table it fires on).
func (c *checker) odsOf(h *HeaderStats) *int {
	if c.odsFor != h {
		c.odsFor, c.ods = h, odsVersion(h)
	}
	return c.ods
}

// odsVersion is the header's ODS major version, parsed from its text.
func odsVersion(h *HeaderStats) *int {
	if h == nil || h.ODSVersion == nil {
		return nil
	}
	var major int
	if _, err := fmt.Sscanf(*h.ODSVersion, "%d", &major); err != nil {
		return nil
	}
	return &major
}
