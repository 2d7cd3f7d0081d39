package parse_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// Every field of the header, of two tables and of two indices, for the
// fb30 sample (Firebird 3.0.11 -a -r) and the fdb 2.5 and 3.0 -a samples.
// The values are copied from the files (line numbers in comments).

func i64(v int64) *int64     { return &v }
func f64(v float64) *float64 { return &v }
func pint(v int) *int        { return &v }
func fill(v ...int64) *parse.GstatFill {
	var f parse.GstatFill
	copy(f[:], v)
	return &f
}
func tm(t *testing.T, layout, s string) *time.Time {
	t.Helper()
	v, err := time.Parse(layout, s)
	if err != nil {
		t.Fatal(err)
	}
	return &v
}

const ctimeLayout = "Mon Jan 2 15:04:05 2006"
const creationLayout = "Jan 2, 2006 15:04:05"

// sameRecord compares two records field by field, through JSON so that a
// difference is shown by name.
func sameRecord(t *testing.T, what string, got, want any) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	g, _ := json.MarshalIndent(got, "", " ")
	w, _ := json.MarshalIndent(want, "", " ")
	t.Errorf("%s differs\n got: %s\nwant: %s", what, g, w)
}

func tableByName(t *testing.T, r *parse.GstatReport, name string) parse.GstatTable {
	t.Helper()
	for _, tb := range r.Tables {
		if tb.Name == name {
			c := *tb
			c.Indices = nil
			return c
		}
	}
	t.Fatalf("no table %s", name)
	return parse.GstatTable{}
}

func indexByName(t *testing.T, r *parse.GstatReport, name string) parse.GstatIndex {
	t.Helper()
	for _, x := range r.Indices {
		if x.Name == name {
			return *x
		}
	}
	t.Fatalf("no index %s", name)
	return parse.GstatIndex{}
}

func TestGstatFieldsFB30(t *testing.T) {
	reps := readGstatFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	if len(reps) != 1 {
		t.Fatalf("%d reports", len(reps))
	}
	r := reps[0]
	sameRecord(t, "header", *r.Header, parse.GstatHeader{
		GstatPos:           parse.GstatPos{Line: 2},
		Database:           "/var/lib/firebird/data/shop.fdb",
		ExecutionTime:      tm(t, ctimeLayout, "Wed Dec 2 14:09:54 2026"),
		ExecutionTimeText:  "Wed Dec  2 14:09:54 2026",
		HeaderPage:         true,
		Flags:              i64(0),
		Generation:         i64(20),
		SCN:                i64(0),
		PageSize:           i64(8192),
		ODSVersion:         "12.0",
		ODSMajor:           pint(12),
		ODSMinor:           pint(0),
		OldestTransaction:  i64(16),
		OldestActive:       i64(17),
		OldestSnapshot:     i64(17),
		NextTransaction:    i64(18),
		SequenceNumber:     i64(0),
		NextAttachmentID:   i64(3),
		ImplementationText: "HW=AMD/Intel/x64 little-endian OS=Linux CC=gcc",
		HW:                 "AMD/Intel/x64",
		Endian:             "little",
		OS:                 "Linux",
		CC:                 "gcc",
		ShadowCount:        i64(0),
		PageBuffers:        i64(0),
		NextHeaderPage:     i64(0),
		Dialect:            pint(3),
		CreationDate:       tm(t, creationLayout, "Dec 2, 2026 14:09:44"),
		CreationDateText:   "Dec 2, 2026 14:09:44",
		Attributes:         []string{"force write"},
		ForceWrite:         true,
		Files:              []parse.GstatFile{{Name: "/var/lib/firebird/data/shop.fdb", Kind: "only"}},
	})
	sameRecord(t, "CUSTOMER", tableByName(t, r, "CUSTOMER"), parse.GstatTable{
		GstatPos:              parse.GstatPos{Line: 33},
		Name:                  "CUSTOMER",
		ID:                    129,
		PrimaryPointerPage:    i64(187),
		IndexRootPage:         i64(188),
		TotalFormats:          i64(1),
		UsedFormats:           i64(1),
		AverageRecordLength:   f64(60.13),
		TotalRecords:          i64(30000),
		AverageVersionLength:  f64(9.00),
		TotalVersions:         i64(10000),
		MaxVersions:           i64(1),
		AverageFragmentLength: f64(5.01),
		TotalFragments:        i64(3125),
		MaxFragments:          i64(1),
		AverageUnpackedLength: f64(2090.00),
		CompressionRatio:      f64(34.76),
		PointerPages:          i64(1),
		DataPageSlots:         i64(392),
		DataPages:             i64(392),
		AverageFill:           pint(84),
		PrimaryPages:          i64(368),
		SecondaryPages:        i64(24),
		SweptPages:            i64(0),
		EmptyPages:            i64(1),
		FullPages:             i64(389),
		Fill:                  fill(1, 0, 0, 245, 146),
	})
	sameRecord(t, "DOCS", tableByName(t, r, "DOCS"), parse.GstatTable{
		GstatPos:              parse.GstatPos{Line: 77},
		Name:                  "DOCS",
		ID:                    133,
		PrimaryPointerPage:    i64(208),
		IndexRootPage:         i64(209),
		TotalFormats:          i64(1),
		UsedFormats:           i64(1),
		AverageRecordLength:   f64(16.95),
		TotalRecords:          i64(2000),
		AverageVersionLength:  f64(0),
		TotalVersions:         i64(0),
		MaxVersions:           i64(0),
		AverageFragmentLength: f64(0),
		TotalFragments:        i64(0),
		MaxFragments:          i64(0),
		AverageUnpackedLength: f64(16.00),
		CompressionRatio:      f64(0.94),
		PointerPages:          i64(1),
		DataPageSlots:         i64(328),
		DataPages:             i64(328),
		AverageFill:           pint(87),
		PrimaryPages:          i64(21),
		SecondaryPages:        i64(307),
		SweptPages:            i64(0),
		EmptyPages:            i64(6),
		FullPages:             i64(320),
		Blobs:                 i64(2000),
		BlobTotalLength:       i64(2199000),
		BlobPages:             i64(0),
		BlobLevels:            []parse.GstatBlobLevel{{Level: 0, Count: 2000}, {Level: 1, Count: 0}, {Level: 2, Count: 0}},
		Fill:                  fill(7, 1, 14, 32, 274),
	})
	sameRecord(t, "CUSTOMER_LAST", indexByName(t, r, "CUSTOMER_LAST"), parse.GstatIndex{
		GstatPos:            parse.GstatPos{Line: 51},
		Table:               "CUSTOMER",
		TableID:             i64(129),
		Name:                "CUSTOMER_LAST",
		ID:                  1,
		RootPage:            i64(243),
		Depth:               i64(2),
		LeafBuckets:         i64(23),
		Nodes:               i64(30000),
		AverageNodeLength:   f64(4.01),
		TotalDup:            i64(29000),
		MaxDup:              i64(29),
		AverageKeyLength:    f64(2.04),
		CompressionRatio:    f64(3.38),
		AveragePrefixLength: f64(6.85),
		AverageDataLength:   f64(0.04),
		ClusteringFactor:    i64(30000),
		ClusteringRatio:     f64(1.00),
		Fill:                fill(0, 0, 12, 6, 5),
	})
	sameRecord(t, "RDB$PRIMARY6", indexByName(t, r, "RDB$PRIMARY6"), parse.GstatIndex{
		GstatPos:            parse.GstatPos{Line: 97},
		Table:               "DOCS",
		TableID:             i64(133),
		Name:                "RDB$PRIMARY6",
		ID:                  0,
		RootPage:            i64(7687),
		Depth:               i64(2),
		LeafBuckets:         i64(2),
		Nodes:               i64(2000),
		AverageNodeLength:   f64(4.86),
		TotalDup:            i64(0),
		MaxDup:              i64(0),
		AverageKeyLength:    f64(3.00),
		CompressionRatio:    f64(0.98),
		AveragePrefixLength: f64(1.93),
		AverageDataLength:   f64(1.00),
		ClusteringFactor:    i64(15),
		ClusteringRatio:     f64(0.01),
		Fill:                fill(0, 1, 0, 0, 1),
	})
	if c := r.Completion; c == nil || c.Text != "Wed Dec  2 14:09:54 2026" || !c.Time.Equal(*tm(t, ctimeLayout, "Wed Dec 2 14:09:54 2026")) {
		t.Errorf("completion = %+v", c)
	}
	if len(r.Notices) != 0 {
		t.Errorf("notices on a clean file: %v", r.Notices)
	}
}

func TestGstatFieldsFdb25(t *testing.T) {
	reps := readGstatFile(t, testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat25-a.out"))
	r := reps[0]
	sameRecord(t, "header", *r.Header, parse.GstatHeader{
		GstatPos:          parse.GstatPos{Line: 2},
		Database:          "/home/fdb/test/fbtest25.fdb",
		ExecutionTime:     tm(t, ctimeLayout, "Wed Apr 4 15:30:10 2018"),
		ExecutionTimeText: "Wed Apr  4 15:30:10 2018",
		HeaderPage:        true,
		Flags:             i64(0),
		Checksum:          i64(12345),
		Generation:        i64(2844),
		PageSize:          i64(4096),
		ODSVersion:        "11.2",
		ODSMajor:          pint(11),
		ODSMinor:          pint(2),
		OldestTransaction: i64(204),
		OldestActive:      i64(1807),
		OldestSnapshot:    i64(1807),
		NextTransaction:   i64(1807),
		BumpedTransaction: i64(1),
		SequenceNumber:    i64(0),
		NextAttachmentID:  i64(1067),
		ImplementationID:  i64(24),
		ShadowCount:       i64(0),
		PageBuffers:       i64(0),
		NextHeaderPage:    i64(0),
		Dialect:           pint(3),
		CreationDate:      tm(t, creationLayout, "May 27, 2013 23:40:53"),
		CreationDateText:  "May 27, 2013 23:40:53",
		Attributes:        []string{"force write"},
		ForceWrite:        true,
		SweepInterval:     i64(20000),
		Variable:          []parse.GstatKV{{Line: 27, Key: "Sweep interval", Value: "20000"}},
		Files:             []parse.GstatFile{{Name: "/home/fdb/test/fbtest25.fdb", Kind: "only"}},
	})
	sameRecord(t, "AR", tableByName(t, r, "AR"), parse.GstatTable{
		GstatPos:           parse.GstatPos{Line: 35},
		Name:               "AR",
		ID:                 142,
		PrimaryPointerPage: i64(209),
		IndexRootPage:      i64(210),
		DataPages:          i64(1),
		DataPageSlots:      i64(1),
		AverageFill:        pint(86),
		Fill:               fill(0, 0, 0, 0, 1),
	})
	sameRecord(t, "CUSTOMER", tableByName(t, r, "CUSTOMER"), parse.GstatTable{
		GstatPos:           parse.GstatPos{Line: 65},
		Name:               "CUSTOMER",
		ID:                 132,
		PrimaryPointerPage: i64(188),
		IndexRootPage:      i64(189),
		DataPages:          i64(1),
		DataPageSlots:      i64(1),
		AverageFill:        pint(53),
		Fill:               fill(0, 0, 1, 0, 0),
	})
	sameRecord(t, "RDB$PRIMARY1", indexByName(t, r, "RDB$PRIMARY1"), parse.GstatIndex{
		GstatPos:          parse.GstatPos{Line: 55},
		Table:             "COUNTRY",
		TableID:           i64(128),
		Name:              "RDB$PRIMARY1",
		Depth:             i64(1),
		LeafBuckets:       i64(1),
		Nodes:             i64(14),
		AverageDataLength: f64(6.50),
		TotalDup:          i64(0),
		MaxDup:            i64(0),
		Fill:              fill(1, 0, 0, 0, 0),
	})
	sameRecord(t, "CUSTNAMEX", indexByName(t, r, "CUSTNAMEX"), parse.GstatIndex{
		GstatPos:          parse.GstatPos{Line: 75},
		Table:             "CUSTOMER",
		TableID:           i64(132),
		Name:              "CUSTNAMEX",
		ID:                1,
		Depth:             i64(1),
		LeafBuckets:       i64(1),
		Nodes:             i64(15),
		AverageDataLength: f64(15.87),
		TotalDup:          i64(0),
		MaxDup:            i64(0),
		Fill:              fill(1, 0, 0, 0, 0),
	})
	if r.Completion != nil {
		t.Errorf("2.5 prints no completion time, got %+v", r.Completion)
	}
}

func TestGstatFieldsFdb30(t *testing.T) {
	reps := readGstatFile(t, testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat30-a.out"))
	r := reps[0]
	sameRecord(t, "header", *r.Header, parse.GstatHeader{
		GstatPos:           parse.GstatPos{Line: 2},
		Database:           "/home/fdb/test/FBTEST30.FDB",
		ExecutionTime:      tm(t, ctimeLayout, "Wed Apr 4 15:42:00 2018"),
		ExecutionTimeText:  "Wed Apr 04 15:42:00 2018",
		HeaderPage:         true,
		Flags:              i64(0),
		Generation:         i64(2176),
		SCN:                i64(24),
		PageSize:           i64(8192),
		ODSVersion:         "12.0",
		ODSMajor:           pint(12),
		ODSMinor:           pint(0),
		OldestTransaction:  i64(179),
		OldestActive:       i64(2140),
		OldestSnapshot:     i64(2140),
		NextTransaction:    i64(2141),
		SequenceNumber:     i64(0),
		NextAttachmentID:   i64(1199),
		ImplementationText: "HW=AMD/Intel/x64 little-endian OS=Linux CC=gcc",
		HW:                 "AMD/Intel/x64",
		Endian:             "little",
		OS:                 "Linux",
		CC:                 "gcc",
		ShadowCount:        i64(0),
		PageBuffers:        i64(0),
		NextHeaderPage:     i64(0),
		Dialect:            pint(3),
		CreationDate:       tm(t, creationLayout, "Nov 27, 2015 11:19:39"),
		CreationDateText:   "Nov 27, 2015 11:19:39",
		Attributes:         []string{"force write"},
		ForceWrite:         true,
		BackupGUID:         "{F978F787-7023-4C4A-F79D-8D86645B0487}",
		Variable:           []parse.GstatKV{{Line: 26, Key: "Database backup GUID", Value: "{F978F787-7023-4C4A-F79D-8D86645B0487}"}},
		Files:              []parse.GstatFile{{Name: "/home/fdb/test/FBTEST30.FDB", Kind: "only"}},
	})
	sameRecord(t, "AR", tableByName(t, r, "AR"), parse.GstatTable{
		GstatPos:           parse.GstatPos{Line: 34},
		Name:               "AR",
		ID:                 140,
		PrimaryPointerPage: i64(297),
		IndexRootPage:      i64(299),
		PointerPages:       i64(1),
		DataPageSlots:      i64(3),
		DataPages:          i64(3),
		AverageFill:        pint(86),
		PrimaryPages:       i64(1),
		SecondaryPages:     i64(2),
		SweptPages:         i64(0),
		EmptyPages:         i64(0),
		FullPages:          i64(1),
		Fill:               fill(0, 0, 0, 1, 2),
	})
	sameRecord(t, "COUNTRY", tableByName(t, r, "COUNTRY"), parse.GstatTable{
		GstatPos:           parse.GstatPos{Line: 47},
		Name:               "COUNTRY",
		ID:                 128,
		PrimaryPointerPage: i64(182),
		IndexRootPage:      i64(183),
		PointerPages:       i64(1),
		DataPageSlots:      i64(1),
		DataPages:          i64(1),
		AverageFill:        pint(8),
		PrimaryPages:       i64(1),
		SecondaryPages:     i64(0),
		SweptPages:         i64(0),
		EmptyPages:         i64(0),
		FullPages:          i64(0),
		Fill:               fill(1, 0, 0, 0, 0),
	})
	sameRecord(t, "RDB$PRIMARY1", indexByName(t, r, "RDB$PRIMARY1"), parse.GstatIndex{
		GstatPos:            parse.GstatPos{Line: 60},
		Table:               "COUNTRY",
		TableID:             i64(128),
		Name:                "RDB$PRIMARY1",
		RootPage:            i64(186),
		Depth:               i64(1),
		LeafBuckets:         i64(1),
		Nodes:               i64(16),
		AverageNodeLength:   f64(10.44),
		TotalDup:            i64(0),
		MaxDup:              i64(0),
		AverageKeyLength:    f64(8.63),
		CompressionRatio:    f64(0.80),
		AveragePrefixLength: f64(0.44),
		AverageDataLength:   f64(6.44),
		ClusteringFactor:    i64(1),
		ClusteringRatio:     f64(0.06),
		Fill:                fill(1, 0, 0, 0, 0),
	})
	sameRecord(t, "CUSTNAMEX", indexByName(t, r, "CUSTNAMEX"), parse.GstatIndex{
		GstatPos:            parse.GstatPos{Line: 86},
		Table:               "CUSTOMER",
		TableID:             i64(137),
		Name:                "CUSTNAMEX",
		ID:                  2,
		RootPage:            i64(276),
		Depth:               i64(1),
		LeafBuckets:         i64(1),
		Nodes:               i64(15),
		AverageNodeLength:   f64(19.87),
		TotalDup:            i64(0),
		MaxDup:              i64(0),
		AverageKeyLength:    f64(18.27),
		CompressionRatio:    f64(0.90),
		AveragePrefixLength: f64(0.60),
		AverageDataLength:   f64(15.87),
		ClusteringFactor:    i64(1),
		ClusteringRatio:     f64(0.07),
		Fill:                fill(1, 0, 0, 0, 0),
	})
	if c := r.Completion; c == nil || c.Text != "Wed Apr 04 15:42:00 2018" {
		t.Errorf("completion = %+v", c)
	}
}
