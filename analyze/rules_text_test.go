package analyze

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// The reasons of the most frequent warnings are appended into a stack
// buffer; they read as the fmt.Sprintf and + of before, which this test
// keeps as the oracle, through every branch: table-versions (no markers,
// held, not held), table-fragments (unknown length and page size, records
// near the page size, big record pages, small records; with and without
// the unpacked length), table-version-length, index-max-dup (ODS 11+, an
// older ODS, none; with and without the share), index-sparse and
// index-low-selectivity for each way fbdiag knows an index's kind.
func TestReasonTexts(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	f64 := func(v float64) *float64 { return &v }
	str := func(s string) *string { return &s }
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	size := func(b float64) string {
		units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
		i := 0
		for b >= 1024 && i < len(units)-1 {
			b /= 1024
			i++
		}
		s := strconv.FormatFloat(b, 'f', 2, 64)
		return strings.TrimRight(strings.TrimRight(s, "0"), ".") + " " + units[i]
	}
	kindText := func(ix *IndexStats) string {
		what := map[string]string{IndexPrimaryKey: "the index of a PRIMARY KEY", IndexForeignKey: "the index of a FOREIGN KEY",
			IndexUnique: "the index of a UNIQUE constraint", IndexPlain: "a plain index (no constraint uses it)",
			IndexSystem: "an index of a system table"}[ix.Kind]
		switch {
		case ix.KindSource == KindFromCatalogue && ix.Constraint != nil:
			return fmt.Sprintf("%s (constraint %s, from RDB$RELATION_CONSTRAINTS)", what, *ix.Constraint)
		case ix.KindSource == KindFromCatalogue:
			return what + " (from RDB$RELATION_CONSTRAINTS)"
		case ix.KindSource == KindFromName && ix.Kind != IndexUnknown:
			return what + " (by its name, which Firebird gives the index of an unnamed constraint)"
		case ix.Kind == IndexUnknown:
			return "a plain index or the index of a named constraint (the gstat text cannot tell; fbdiag collect reads the catalogue)"
		}
		return what
	}
	reasons := func(h *HeaderStats, fire func(c *checker)) map[string]string {
		c := &checker{a: &GstatAnalysis{Header: h}, th: NewThresholds(), collect: true}
		fire(c)
		got := map[string]string{}
		for _, w := range c.fired {
			got[w.Rule] = w.Reason
		}
		return got
	}
	check := func(what string, got map[string]string, rule, want string) {
		t.Helper()
		if got[rule] != want {
			t.Errorf("%s: %s reason\n%q, want\n%q", what, rule, got[rule], want)
		}
	}

	// Tables.
	held := &HeaderStats{NextMinusOAT: i64(250000), NextMinusOST: i64(250010), OATMinusOIT: i64(3), PageSize: i64(8192), ODSVersion: str("12.2")}
	calm := &HeaderStats{NextMinusOAT: i64(12), OATMinusOIT: i64(1), PageSize: i64(4096), ODSVersion: str("13.1")}
	for _, h := range []*HeaderStats{nil, held, calm} {
		for _, tc := range []TableStats{
			{Name: "T1", Records: i64(5000), Versions: i64(5000), AvgRecord: f64(25.07), AvgVersion: f64(26.25), Fragments: i64(900), FragmentsPerRecord: f64(0.18)},
			{Name: "T2", Records: i64(2000), Versions: i64(1500), AvgRecord: f64(6000), AvgUnpacked: f64(12000.4), AvgVersion: f64(5900.555), Fragments: i64(2500), FragmentsPerRecord: f64(1.25)},
			{Name: "T3", Records: i64(3000), Versions: i64(3100), Fragments: i64(700), FragmentsPerRecord: f64(0.23), BigRecordPages: i64(7), AvgRecord: f64(120.5), AvgVersion: f64(119)},
			{Name: "T4", Records: i64(1200), Versions: i64(0), Fragments: i64(300), FragmentsPerRecord: f64(0.25), AvgUnpacked: f64(40)},
		} {
			what := fmt.Sprintf("%s, header %v", tc.Name, h != nil)
			got := reasons(h, func(c *checker) { c.table(&tc) })

			// table-versions
			if *tc.Versions >= 1000 {
				want := itoa(*tc.Versions) + " back versions for " + itoa(*tc.Records) + " records"
				switch {
				case h == nil:
					want += "; the input has no transaction markers, so whether garbage collection is blocked is unknown"
				case h == held:
					want += "; the header shows Next - OAT = 250000, Next - OST = 250010 and OAT - OIT = 3: a transaction that old keeps these versions from garbage collection"
				default:
					want += "; the header shows Next - OAT = 12, Next - OST = 0 and OAT - OIT = 1: the oldest active transaction, while it is open, keeps the versions made since it began (the header's markers are those of the last transaction start: it may have ended since); the older ones are not collected yet"
				}
				check(what, got, "table-versions", want)
			}

			// table-fragments
			lengths := "records of unknown length"
			if tc.AvgRecord != nil {
				lengths = fmt.Sprintf("records average %.0f bytes stored", *tc.AvgRecord)
				if tc.AvgUnpacked != nil && *tc.AvgUnpacked > 0 {
					lengths += fmt.Sprintf(" (%.0f unpacked)", *tc.AvgUnpacked)
				}
			}
			want := fmt.Sprintf("%d fragments for %d records; %s", *tc.Fragments, *tc.Records, lengths)
			switch {
			case h != nil && tc.AvgRecord != nil && *tc.AvgRecord >= 0.5*float64(*h.PageSize):
				want += fmt.Sprintf(" on %d-byte pages: records near or over the page size are split", *h.PageSize)
			case tc.BigRecordPages != nil:
				want += fmt.Sprintf("; %d big record pages: some records are bigger than a page", *tc.BigRecordPages)
			case h != nil && tc.AvgRecord != nil:
				want += fmt.Sprintf(" on %d-byte pages, far smaller than a page: the fragments are records that grew on an update while their page was full, not records too big for the page, so a bigger page size would not help", *h.PageSize)
			default:
				want += "; the page size is not in the input, so whether records are too big for a page is unknown"
			}
			check(what, got, "table-fragments", want)

			// table-version-length
			if tc.AvgVersion != nil && tc.AvgRecord != nil && *tc.AvgVersion / *tc.AvgRecord >= 0.8 {
				check(what, got, "table-version-length", fmt.Sprintf("back versions average %.2f bytes for %.2f-byte records (%d versions, %s): whole-record versions, from deleted rows (a delete keeps the last version whole) or updates that rewrite most of a row; an update that changes little leaves a shorter difference",
					*tc.AvgVersion, *tc.AvgRecord, *tc.Versions, size(*tc.AvgVersion*float64(*tc.Versions))))
			}
		}
	}

	// Indices.
	tbl := &TableStats{Name: "ORDERS", Records: i64(100000), DataPages: i64(808)}
	for _, ods := range []*int{nil, new(int), new(int)} {
		if ods != nil && *ods == 0 {
			*ods = 10
		}
		for k, ix := range []IndexStats{
			{Name: "IX_A", Table: "ORDERS", Kind: IndexUnknown, KindSource: KindFromName, MaxDup: i64(33333), MaxDupShare: f64(0.33333),
				Nodes: i64(100000), UniqueKeys: i64(11), LeafBuckets: i64(75), SizeBytes: i64(614400), ClusteringRatio: f64(0.09), LightShare: f64(0.81), ClusteringFactor: i64(9000)},
			{Name: "RDB$FOREIGN9", Table: "ORDERS", Kind: IndexForeignKey, KindSource: KindFromName, MaxDup: i64(20000),
				Nodes: i64(100000), UniqueKeys: i64(40), LeafBuckets: i64(120), LightShare: f64(0.9)},
			{Name: "FK_X", Table: "ORDERS", Kind: IndexForeignKey, KindSource: KindFromCatalogue, Constraint: str("FK_ORDERS_CUST"), MaxDup: i64(50000), MaxDupShare: f64(0.5),
				Nodes: i64(100000), UniqueKeys: i64(2), LeafBuckets: i64(99), SizeBytes: i64(811008), LightShare: f64(1)},
			{Name: "UQ_Y", Table: "ORDERS", Kind: IndexUnique, KindSource: KindFromCatalogue, LeafBuckets: i64(30), LightShare: f64(0.85)},
			{Name: "IX_P", Table: "ORDERS", Kind: IndexPlain, KindSource: KindFromCatalogue, MaxDup: i64(15000), Nodes: i64(60000), UniqueKeys: i64(3),
				LeafBuckets: i64(45), LightShare: f64(0.95), ClusteringRatio: f64(0.5)},
		} {
			what := fmt.Sprintf("index %d, ods %v", k, ods)
			got := reasons(nil, func(c *checker) { c.index(&ix, tbl, ods) })
			if ix.MaxDup != nil && *ix.MaxDup > 10000 {
				share := ""
				if ix.MaxDupShare != nil {
					share = fmt.Sprintf(" (%.1f%% of the index)", *ix.MaxDupShare*100)
				}
				var want string
				switch {
				case ods != nil && *ods >= 11 || ods == nil && ix.ClusteringFactor != nil:
					want = fmt.Sprintf("%d more keys share one value%s: since Firebird 2.0 (ODS 11) duplicates are kept in record-number order, so garbage collection finds each entry without walking the chain; a lookup on that value returns %d rows",
						*ix.MaxDup, share, *ix.MaxDup+1)
				case ods != nil:
					want = fmt.Sprintf("%d more keys share one value%s: before Firebird 2.0 (ODS %d here) deletes and garbage collection walk the whole chain", *ix.MaxDup, share, *ods)
				default:
					want = fmt.Sprintf("%d more keys share one value%s; the ODS is not in the input: before Firebird 2.0 deletes and garbage collection walk such a chain, since 2.0 only lookups on the value are slow", *ix.MaxDup, share)
				}
				check(what, got, "index-max-dup", want)
			}
			check(what, got, "index-sparse", strconv.FormatFloat(*ix.LightShare*100, 'f', 0, 64)+"% of "+itoa(*ix.LeafBuckets)+" leaf pages under 60% full; "+kindText(&ix))
			if ix.UniqueKeys != nil && *ix.UniqueKeys > 100 || ix.UniqueKeys == nil {
				continue
			}
			if rule := "index-low-selectivity"; got[rule] != "" || *ix.UniqueKeys > 2 {
				check(what, got, rule, ix.costText(tbl)+"; "+kindText(&ix))
			} else {
				check(what, got, "index-useless", "the optimizer gains nothing from "+ix.costText(tbl)+"; "+kindText(&ix))
			}
		}
	}
	if got := SizeText(614400); got != "600 KiB" {
		t.Errorf("SizeText(614400) = %q", got)
	}
	for _, v := range []float64{0, 0.5, 1023, 1024, 1536, 10240, 1 << 40, 3 << 50, 5 << 60} {
		if got, want := SizeText(v), size(v); got != want {
			t.Errorf("SizeText(%v) = %q, want %q", v, got, want)
		}
	}
}
