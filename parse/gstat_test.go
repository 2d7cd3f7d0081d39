package parse_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

func readGstatBytes(t testing.TB, b []byte, name string) []*parse.GstatReport {
	t.Helper()
	reps, err := parse.ReadGstat(bytes.NewReader(b), name)
	if err != nil {
		t.Fatalf("ReadGstat: %v", err)
	}
	return reps
}

func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// toUTF16LE encodes s as PowerShell 5.1's `>` does: BOM, UTF-16LE, CRLF.
func toUTF16LE(s string) []byte {
	s = strings.ReplaceAll(s, "\n", "\r\n")
	var buf bytes.Buffer
	buf.Write([]byte{0xFF, 0xFE})
	for _, u := range utf16.Encode([]rune(s)) {
		binary.Write(&buf, binary.LittleEndian, u)
	}
	return buf.Bytes()
}

func TestGstatUTF16CRLF(t *testing.T) {
	src := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	want := readGstatBytes(t, src, "shop.txt")
	got := readGstatBytes(t, toUTF16LE(string(src)), "shop.txt")
	if g, w := jsonOf(t, got), jsonOf(t, want); g != w {
		t.Errorf("UTF-16LE+CRLF result differs from UTF-8\n got: %.300s\nwant: %.300s", g, w)
	}
	if len(got[0].Tables) != 6 || len(got[0].Indices) != 10 {
		t.Errorf("UTF-16: %d tables, %d indices", len(got[0].Tables), len(got[0].Indices))
	}
	// Same again with the odd names (non-ASCII, <, &, quotes).
	src = testutil.ReadTestdata(t, "gstat", "shop-odd-names-corrupt.txt")
	if g, w := jsonOf(t, readGstatBytes(t, toUTF16LE(string(src)), "x")), jsonOf(t, readGstatBytes(t, src, "x")); g != w {
		t.Errorf("UTF-16 odd names differ")
	}
}

func TestGstatConcatenated(t *testing.T) {
	a := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	b := testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt")
	reps := readGstatBytes(t, append(append([]byte{}, a...), b...), "two.txt")
	if len(reps) != 2 {
		t.Fatalf("%d reports, want 2", len(reps))
	}
	if n := *reps[0].Header.NextTransaction; n != 18 {
		t.Errorf("report 0 next transaction %d, want 18", n)
	}
	if n := *reps[1].Header.NextTransaction; n != 26 {
		t.Errorf("report 1 next transaction %d, want 26", n)
	}
	aLines := bytes.Count(a, []byte("\n"))
	if reps[1].Header.Line != aLines+2 {
		t.Errorf("report 1 header at line %d, want %d", reps[1].Header.Line, aLines+2)
	}
	for i, r := range reps {
		if len(r.Tables) != 6 || len(r.Indices) != 10 {
			t.Errorf("report %d: %d tables, %d indices", i, len(r.Tables), len(r.Indices))
		}
		if r.Completion == nil {
			t.Errorf("report %d: no completion", i)
		}
	}
	// The later snapshot: garbage collected, fill changed.
	if f := *tableByName(t, reps[1], "CUSTOMER").AverageFill; f != 76 {
		t.Errorf("later CUSTOMER fill %d, want 76", f)
	}
}

func TestGstatTruncated(t *testing.T) {
	src := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	lines := strings.SplitAfter(string(src), "\n")
	cut := strings.Join(lines[:42], "") // ends after "Primary pages: 368, ..." of CUSTOMER
	reps, err := parse.ReadGstat(strings.NewReader(cut), "cut.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := reps[0]
	if len(r.Tables) != 1 || r.Tables[0].Name != "CUSTOMER" || *r.Tables[0].PrimaryPages != 368 || r.Tables[0].EmptyPages != nil {
		t.Fatalf("tables = %s", jsonOf(t, r.Tables))
	}
	if len(r.Notices) != 1 || r.Notices[0].Line != 42 || !strings.Contains(r.Notices[0].Msg, "truncated") {
		t.Errorf("notices = %v", r.Notices)
	}
	// Cut inside a fill distribution.
	cut = strings.Join(lines[:47], "")
	reps = readGstatBytes(t, []byte(cut), "cut.txt")
	if f := reps[0].Tables[0].Fill; f == nil || *f != (parse.GstatFill{1, 0, 0, 0, 0}) {
		t.Errorf("partial fill = %v", f)
	}
	if n := reps[0].Notices; len(n) != 1 || !strings.Contains(n[0].Msg, "3 of 5") {
		t.Errorf("notices = %v", n)
	}
}

func TestGstatPreamble(t *testing.T) {
	src := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	in := "# captured by cron\n$ fbstat -a -r shop\n" + string(src)
	reps := readGstatBytes(t, []byte(in), "pre.txt")
	if len(reps) != 1 {
		t.Fatalf("%d reports", len(reps))
	}
	r := reps[0]
	if len(r.Notices) != 1 || r.Notices[0].Line != 1 || !strings.Contains(r.Notices[0].Msg, "skipped 2 lines") {
		t.Errorf("notices = %v", r.Notices)
	}
	if r.Header.Line != 4 || tableByName(t, r, "CUSTOMER").Line != 35 {
		t.Errorf("header line %d, CUSTOMER line %d; want 4 and 35", r.Header.Line, tableByName(t, r, "CUSTOMER").Line)
	}
}

func TestGstatFB6Names(t *testing.T) {
	r := readGstatBytes(t, testutil.ReadTestdata(t, "gstat", "shop-fb6-names.txt"), "fb6.txt")[0]
	h := r.Header
	if h.ODSVersion != "14.0" || *h.ODSMajor != 14 || h.SequenceNumber != nil || h.NextHeaderPage != nil ||
		h.GUID != "{0A1B2C3D-0000-4000-8000-123456789ABC}" {
		t.Errorf("header = %s", jsonOf(t, h))
	}
	if len(r.Tables) != 6 || len(r.Indices) != 10 {
		t.Fatalf("%d tables, %d indices", len(r.Tables), len(r.Indices))
	}
	c := tableByName(t, r, "CUSTOMER")
	if c.Schema != "PUBLIC" || c.ID != 129 || *c.TotalRecords != 30000 || len(r.Tables[0].Indices) != 2 {
		t.Errorf("CUSTOMER = %s", jsonOf(t, r.Tables[0]))
	}
	x := indexByName(t, r, "CUSTOMER_LAST")
	if x.Schema != "PUBLIC" || x.TableSchema != "PUBLIC" || x.Table != "CUSTOMER" || *x.MaxDup != 29 {
		t.Errorf("CUSTOMER_LAST = %s", jsonOf(t, x))
	}
	if len(r.Notices) != 0 {
		t.Errorf("notices: %v", r.Notices)
	}
}

func TestGstatOddNamesAndCorruption(t *testing.T) {
	r := readGstatBytes(t, testutil.ReadTestdata(t, "gstat", "shop-odd-names-corrupt.txt"), "odd.txt")[0]
	names := []string{}
	for _, tb := range r.Tables {
		names = append(names, tb.Name)
	}
	want := []string{"ORDER LINES", `A<B&C "x" (1)`, "ЗАКАЗЫ", "ORDER_LINE", "STOCK", "WAREHOUSE"}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("names = %q, want %q", names, want)
	}
	if tb := tableByName(t, r, `A<B&C "x" (1)`); tb.ID != 133 || *tb.Blobs != 2000 {
		t.Errorf("odd table = %s", jsonOf(t, tb))
	}
	if tb := tableByName(t, r, "ЗАКАЗЫ"); tb.Tablespace != "TS_ORDERS" || *tb.TotalRecords != 100000 {
		t.Errorf("ЗАКАЗЫ = %s", jsonOf(t, tb))
	}
	if len(r.Findings) != 2 {
		t.Fatalf("findings = %s", jsonOf(t, r.Findings))
	}
	f := r.Findings[0]
	if f.Kind != parse.FindingExpectedData || *f.Page != 4711 || f.FromPage != nil || f.Line != 33 || f.Table != "" {
		t.Errorf("finding 0 = %s", jsonOf(t, f))
	}
	f = r.Findings[1]
	if f.Kind != parse.FindingExpectedBucket || *f.Page != 243 || *f.FromPage != 241 || f.Line != 58 || f.Table != "ORDER LINES" {
		t.Errorf("finding 1 = %s", jsonOf(t, f))
	}
	// The finding inside the index block does not cut it.
	if x := indexByName(t, r, "CUSTOMER_LAST"); x.Table != "ORDER LINES" || x.Fill == nil || x.Fill[4] != 5 {
		t.Errorf("CUSTOMER_LAST = %s", jsonOf(t, x))
	}
	if len(r.Notices) != 0 {
		t.Errorf("notices: %v", r.Notices)
	}
}

func TestGstatAuthFailure(t *testing.T) {
	reps := readGstatBytes(t, testutil.ReadTestdata(t, "gstat", "shop-auth-failure.txt"), "auth.txt")
	r := reps[0]
	if len(reps) != 1 || r.Header == nil || r.Header.HeaderPage || r.Header.Database != "/var/lib/firebird/data/shop.fdb" {
		t.Fatalf("reports = %s", jsonOf(t, reps))
	}
	if len(r.Findings) != 2 || r.Findings[0].Kind != parse.FindingError || r.Findings[0].Line != 4 ||
		!strings.HasPrefix(r.Findings[0].Text, "Your user name and password") || r.Findings[1].Line != 5 {
		t.Errorf("findings = %s", jsonOf(t, r.Findings))
	}
}

// TestGstatStream checks the order and positions of the streamed records.
func TestGstatStream(t *testing.T) {
	r := parse.NewGstatReader(bytes.NewReader(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")), "s.txt")
	var kinds []string
	for r.Next() {
		switch rec := r.Record().(type) {
		case *parse.GstatHeader:
			kinds = append(kinds, "H")
		case *parse.GstatTable:
			kinds = append(kinds, "T")
		case *parse.GstatIndex:
			kinds = append(kinds, "I")
			if rec.Pos().Line <= 0 {
				t.Errorf("index without a line")
			}
		case *parse.GstatCompletion:
			kinds = append(kinds, "C")
		default:
			kinds = append(kinds, "?")
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(kinds, ""), "H"+"TIITITIIITIITITI"+"C"; got != want {
		t.Errorf("record order %s, want %s", got, want)
	}
}

func TestGstatNotGstat(t *testing.T) {
	reps, err := parse.ReadGstat(strings.NewReader("hello\nworld (x)\n\x00\x01\n"), "junk.txt")
	if err == nil || err.Error() != "junk.txt: no gstat output found" || !errors.Is(err, parse.ErrNoGstat) {
		t.Errorf("err = %v", err)
	}
	if len(reps) != 1 || len(reps[0].Notices) != 1 || reps[0].Notices[0].Line != 1 {
		t.Errorf("reports = %s", jsonOf(t, reps))
	}
	if _, err := parse.ReadGstat(strings.NewReader(""), "-"); err == nil || !strings.Contains(err.Error(), "<stdin>") {
		t.Errorf("empty stdin: err = %v", err)
	}
}

// TestGstatHeaderVariants reads every attribute, variable header item,
// -e line and file-sequence form on one edited copy of shop-gstat-h.txt.
func TestGstatHeaderVariants(t *testing.T) {
	reps := readGstatBytes(t, testutil.ReadTestdata(t, "gstat", "shop-header-variants.txt"), "hv.txt")
	if len(reps) != 1 {
		t.Fatalf("%d reports", len(reps))
	}
	h := reps[0].Header
	if len(h.Attributes) != 10 || !h.ForceWrite || !h.NoReserve || !h.ActiveShadow || !h.Encrypted || !h.CryptProcess ||
		h.CryptPlugin != "KEYHOLDER" || h.ShutdownMode != "full shutdown" || !h.ReadOnly || h.BackupState != "backup merge" ||
		h.ReplicaMode != "read-write replica" || h.SharedCacheDisabled {
		t.Errorf("attributes: %s", jsonOf(t, h))
	}
	if *h.SweepInterval != 20000 || h.ContinuationFile != "/var/lib/firebird/data/shop.fd2" || *h.LastLogicalPage != 99999 ||
		h.EncryptionKeyName != "RED" || h.KeyHash != "frB4s2oOqNT1YDaSk1q8p4O0Vb8=" || h.CryptChecksum != "MUB1LCsDLJ2h6YMp3XJ7QvRnM9Y=" ||
		h.GUID != "{55DDC0F0-2FDE-4EC0-8CAF-4280F6E3F8AA}" || *h.ReplicationSequence != 42 || len(h.Variable) != 9 ||
		h.Variable[8].Key != "Encoded option 12, length 16" {
		t.Errorf("variable header: %s", jsonOf(t, h))
	}
	if len(h.Unknown) != 1 || h.Unknown[0].Key != "Clumplet End" || h.Unknown[0].Value != "118" || h.Unknown[0].Line != 19 {
		t.Errorf("unknown: %s", jsonOf(t, h.Unknown))
	}
	wantCrypt := []parse.GstatPageCrypt{
		{Line: 38, Kind: "Data", Total: 6604, Encrypted: 6000, NonCrypted: 604},
		{Line: 39, Kind: "Index", Total: 1342, Encrypted: 1342},
		{Line: 40, Kind: "Blob"},
		{Line: 41, Kind: "Generator", Total: 1, Encrypted: 1},
		{Line: 42, Kind: "Other", Total: 10, Encrypted: 2, NonCrypted: 8, DBProblem: true},
	}
	if jsonOf(t, h.Encryption) != jsonOf(t, wantCrypt) {
		t.Errorf("encryption: %s", jsonOf(t, h.Encryption))
	}
	wantFiles := []parse.GstatFile{
		{Name: "/var/lib/firebird/data/shop.fdb", Next: "/var/lib/firebird/data/shop.fd2", Kind: "continues"},
		{Name: "/var/lib/firebird/data/shop.fd2", Kind: "last"},
	}
	if jsonOf(t, h.Files) != jsonOf(t, wantFiles) {
		t.Errorf("files: %s", jsonOf(t, h.Files))
	}
	if n := reps[0].Notices; len(n) != 1 || n[0].Line != 19 || !strings.Contains(n[0].Msg, "Clumplet End") {
		t.Errorf("notices: %v", n)
	}
}

// TestGstatEditedLines changes lines of the fb30 sample the way other
// versions and locales print them.
func TestGstatEditedLines(t *testing.T) {
	src := string(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"))
	edit := strings.NewReplacer(
		// a server whose locale prints a decimal comma
		"Average record length: 60.13, total records: 30000", "Average record length: 60,13, total records: 30000",
		// DOCS in the 5.0.2+ form: one line per level, then Table size;
		// the blob pages of the levels (30) disagree with the Blobs line (0)
		"        Level 0: 2000, Level 1: 0, Level 2: 0\n",
		"        Level 0: 1990, total length: 2000000, blob pages: 0\n"+
			"        Level 1: 10, total length: 199000, blob pages: 30\n"+
			"    Big record pages: 7\n"+
			"    Table size: 2940928 bytes\n",
	)
	r := readGstatBytes(t, []byte(edit.Replace(src)), "edited.txt")[0]
	c := tableByName(t, r, "CUSTOMER")
	if *c.AverageRecordLength != 60.13 || *c.TotalRecords != 30000 {
		t.Errorf("decimal comma: %v %v", *c.AverageRecordLength, *c.TotalRecords)
	}
	d := tableByName(t, r, "DOCS")
	want := []parse.GstatBlobLevel{
		{Level: 0, Count: 1990, TotalLength: i64(2000000), BlobPages: i64(0)},
		{Level: 1, Count: 10, TotalLength: i64(199000), BlobPages: i64(30)},
	}
	if !reflectEqual(d.BlobLevels, want) || *d.Blobs != 2000 || *d.BlobTotalLength != 2199000 || *d.BlobPages != 0 ||
		*d.BigRecordPages != 7 || *d.TableSize != 2940928 {
		t.Errorf("DOCS = %s", jsonOf(t, d))
	}
	if n := r.Notices; len(n) != 1 || n[0].Line != 77 || !strings.Contains(n[0].Msg, "blob pages 30, the Blobs line says 0") {
		t.Errorf("notices = %v", n)
	}
}

func reflectEqual(a, b any) bool { return jsonOfAny(a) == jsonOfAny(b) }

func jsonOfAny(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A gstat output with a 4 KiB block of zeros (a file cut by a crash and
// zero-filled) read "Average \x00\x00… (128)", the rest of an index line
// and the WAREHOUSE block's name, as a table named "Average \x00…" whose
// every line then gave an "unknown line in table Average \x00…" notice of
// 16 KB. The line is skipped: no Firebird name holds a NUL.
func TestGstatZeroBlock(t *testing.T) {
	src := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	for i := 4096; i < 8192; i++ {
		src[i] = 0
	}
	reps := readGstatBytes(t, src, "zeros.txt")
	if len(reps) != 1 {
		t.Fatalf("%d reports", len(reps))
	}
	r := reps[0]
	var names []string
	for _, tb := range r.Tables {
		names = append(names, tb.Name)
	}
	if got := strings.Join(names, " "); got != "CUSTOMER DOCS ORDERS" {
		t.Errorf("tables %q; want CUSTOMER DOCS ORDERS", got)
	}
	if len(r.Notices) != 1 || r.Notices[0].Line != 132 || !strings.HasPrefix(r.Notices[0].Msg, `skipped a line that is not gstat output: "Average \x00\x00`) {
		t.Errorf("notices = %v", r.Notices)
	}
}
