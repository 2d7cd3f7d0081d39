package analyze

import (
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// The employee database of fdb's 3.0 sample: Firebird names the indices
// of unnamed constraints RDB$PRIMARYn, RDB$FOREIGNn and RDB$n (UNIQUE);
// the others (NAMEX, BUDGETX) are of the user's choosing, which the text
// alone cannot place.
func TestIndexKindFromNames(t *testing.T) {
	a := analyzeFile(t, fb30Full.path(t), nil)[0]
	for name, want := range map[string]string{
		"RDB$PRIMARY1":  "primary_key name",
		"RDB$FOREIGN10": "foreign_key name",
		"RDB$4":         "unique name",
		"NAMEX":         "unknown name",
		"RDB$INDEX_30":  "system system_table",
	} {
		ix := index(t, a, name)
		if got := ix.Kind + " " + ix.KindSource; got != want {
			t.Errorf("%s: kind %s, want %s", name, got, want)
		}
		if ix.Constraint != nil {
			t.Errorf("%s: constraint %q without the catalogue", name, *ix.Constraint)
		}
	}
}

// shopCatalogue is RDB$INDICES joined to RDB$RELATION_CONSTRAINTS of the
// shop schema (testdata/fb30/shop-schema.sql) as Firebird 3.0.11 made it.
var shopCatalogue = []CatalogueIndex{
	{"CUSTOMER", "CUSTOMER_LAST", "", ""},
	{"CUSTOMER", "RDB$PRIMARY2", "INTEG_5", "PRIMARY KEY"},
	{"DOCS", "RDB$PRIMARY6", "INTEG_15", "PRIMARY KEY"},
	{"ORDERS", "ORDERS_CARRIER", "", ""},
	{"ORDERS", "ORDERS_DATE_D", "", ""},
	{"ORDERS", "RDB$PRIMARY3", "INTEG_7", "PRIMARY KEY"},
	{"ORDER_LINE", "OL_ITEM", "", ""},
	{"ORDER_LINE", "RDB$PRIMARY4", "INTEG_10", "PRIMARY KEY"},
	{"STOCK", "RDB$PRIMARY5", "INTEG_13", "PRIMARY KEY"},
	{"WAREHOUSE", "RDB$PRIMARY1", "INTEG_2", "PRIMARY KEY"},
}

// With the live catalogue the advice names the constraint, and a plain
// index gets ALTER INDEX without the hedge a guessed kind needs.
func TestIndexAdviceFromCatalogue(t *testing.T) {
	a := GstatWith(mustReport(t, shopAR), NewThresholds(), GstatOptions{Catalogue: shopCatalogue})
	advice := map[string]string{}
	for _, w := range a.Warnings {
		if w.Rule == "index-sparse" || w.Rule == "index-low-selectivity" {
			advice[w.Rule+" "+w.Object] = w.Reason + " | " + w.Advice
		}
	}
	for key, want := range map[string][]string{
		"index-sparse RDB$PRIMARY2": {"constraint INTEG_5, from RDB$RELATION_CONSTRAINTS",
			"| ALTER INDEX RDB$PRIMARY2 ACTIVE; (rebuilds it while it stays active, constraint and all)"},
		"index-sparse ORDERS_DATE_D":           {"a plain index (no constraint uses it) (from RDB$RELATION_CONSTRAINTS) | ALTER INDEX ORDERS_DATE_D ACTIVE; (rebuilds it while it stays active)"},
		"index-low-selectivity ORDERS_CARRIER": {"| if no query plan uses it: DROP INDEX ORDERS_CARRIER;"},
	} {
		got, ok := advice[key]
		if !ok {
			t.Errorf("%s did not fire", key)
			continue
		}
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", key, got, w)
			}
		}
		if strings.Contains(got, "if Firebird refuses") || strings.Contains(got, "INACTIVE") {
			t.Errorf("%s: hedged or impossible advice: %s", key, got)
		}
	}
	if ix := index(t, a, "RDB$PRIMARY2"); ix.Kind != IndexPrimaryKey || ix.KindSource != KindFromCatalogue || ix.Constraint == nil || *ix.Constraint != "INTEG_5" {
		t.Errorf("RDB$PRIMARY2: %s %s %v", ix.Kind, ix.KindSource, ix.Constraint)
	}
}

// A name that needs quotes is quoted in the advice, in the statement and
// in the string literal of the catalogue query.
func TestIndexAdviceQuotes(t *testing.T) {
	ix := &IndexStats{Name: `my "odd" idx`, Table: "ORDER", Kind: IndexUnknown, KindSource: KindFromName}
	if got, want := ix.RebuildAdvice("", nil), `ALTER INDEX "my ""odd"" idx" INACTIVE; ALTER INDEX "my ""odd"" idx" ACTIVE; (if Firebird refuses`; !strings.HasPrefix(got, want) {
		t.Errorf("rebuild: %s\nwant prefix %s", got, want)
	}
	ix.Kind = IndexForeignKey
	if got, want := ix.RebuildAdvice("", nil), `ALTER TABLE "ORDER" DROP CONSTRAINT <the name from SELECT RDB$CONSTRAINT_NAME FROM RDB$RELATION_CONSTRAINTS WHERE RDB$INDEX_NAME = 'my "odd" idx'>`; !strings.Contains(got, want) {
		t.Errorf("rebuild: %s\nwant %s", got, want)
	}
	if got := ix.StatisticsAdvice("PUBLIC"); got != `SET STATISTICS INDEX PUBLIC."my ""odd"" idx";` {
		t.Errorf("statistics: %s", got)
	}
}

// isGeneratedName accepts what the patterns ^RDB\$PRIMARY[0-9]+$,
// ^RDB\$FOREIGN[0-9]+$ and ^RDB\$[0-9]+$ accept, and nothing else.
func TestIsGeneratedName(t *testing.T) {
	res := map[string]*regexp.Regexp{
		"RDB$PRIMARY": regexp.MustCompile(`^RDB\$PRIMARY[0-9]+$`),
		"RDB$FOREIGN": regexp.MustCompile(`^RDB\$FOREIGN[0-9]+$`),
		"RDB$":        regexp.MustCompile(`^RDB\$[0-9]+$`),
	}
	names := []string{"", "RDB$", "RDB$1", "RDB$12x", "RDB$PRIMARY", "RDB$PRIMARY1", "RDB$PRIMARY01", "RDB$PRIMARY1 ",
		"rdb$primary1", "RDB$FOREIGN9", "RDB$FOREIGN", "RDB$FOREIGN9\n", "RDB$٣", "RDB$PRIMARY١", "XRDB$1", "RDB$1$", "RDB$INDEX_1", "ORDERS_PK"}
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := "RDB$PRIMAYFOEGN0123456789x_ "
	for range 20000 {
		b := []byte([]string{"RDB$PRIMARY", "RDB$FOREIGN", "RDB$"}[rng.IntN(3)])
		for range rng.IntN(4) {
			b = append(b, alphabet[rng.IntN(len(alphabet))])
		}
		if rng.IntN(4) == 0 && len(b) > 0 {
			b = b[rng.IntN(len(b)):]
		}
		names = append(names, string(b))
	}
	matched := 0
	for _, n := range names {
		for prefix, re := range res {
			if got, want := isGeneratedName(n, prefix), re.MatchString(n); got != want {
				t.Fatalf("isGeneratedName(%q, %q) = %v, the pattern says %v", n, prefix, got, want)
			} else if got {
				matched++
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d matches: the names do not test it", matched)
	}
}

// generatedKind tests "RDB$" once: it must tell what the three prefixes
// tested in turn told.
func TestGeneratedKindAsPrefixes(t *testing.T) {
	old := func(name string) string {
		switch {
		case isGeneratedName(name, "RDB$PRIMARY"):
			return IndexPrimaryKey
		case isGeneratedName(name, "RDB$FOREIGN"):
			return IndexForeignKey
		case isGeneratedName(name, "RDB$"):
			return IndexUnique
		}
		return IndexUnknown
	}
	heads := []string{"", "R", "RDB", "RDB$", "rdb$", "RDB$PRIMARY", "RDB$PRIMAR", "RDB$FOREIGN", "RDB$FOREIGNX", "RDB$INDEX_", "IX_", "RDB$1"}
	tails := []string{"", "0", "12", "007", "1a", "x", "_1", " 1", "99999999999999999999"}
	for _, h := range heads {
		for _, tl := range tails {
			name := h + tl
			if got, want := generatedKind(name), old(name); got != want {
				t.Errorf("generatedKind(%q) = %s, want %s", name, got, want)
			}
		}
	}
	if got := generatedKind("RDB$PRIMARY12"); got != IndexPrimaryKey {
		t.Errorf("RDB$PRIMARY12: %s", got)
	}
}

// oat-stuck on what collect read: when the oldest active transaction of
// another attachment is the header's OAT, the advice names its
// attachment, who opened it, and the statement that ends it; another
// transaction (the OAT is fbdiag's own, or a system attachment's) leaves
// the advice as it is for a file. The fb30 header (OAT 21) with its Next
// transaction made 30021, so that the rule fires.
func TestOldestActiveAdviceFromCollect(t *testing.T) {
	th := NewThresholds()
	raw, err := os.ReadFile(testutil.Testdata(t, "fb30", "shop-gstat-h.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(raw), "Next transaction\t21\n", "Next transaction\t30021\n", 1)
	reps, err := parse.ReadGstat(strings.NewReader(text), "shop-gstat-h.txt")
	if err != nil || len(reps) != 1 || text == string(raw) {
		t.Fatalf("%v, %d reports", err, len(reps))
	}
	rep := reps[0]
	addr, proc, pid := "10.0.0.5/51234", "/usr/bin/app", int64(4242)
	holder := &LiveTransaction{ID: 21, AgeSeconds: 3725, AttachmentID: 42, User: "APP", RemoteAddress: &addr, RemoteProcess: &proc, RemotePID: &pid}
	advice := func(h *LiveTransaction) string {
		for _, w := range GstatWith(rep, th, GstatOptions{OldestActive: h}).Warnings {
			if w.Rule == "oat-stuck" {
				return w.Advice
			}
		}
		t.Fatal("oat-stuck did not fire")
		return ""
	}
	const plain = "find it in MON$TRANSACTIONS (2.1+) and end it; fbdiag collect names its attachment, user and process"
	if got, want := advice(holder), "it is transaction 21 of attachment 42 (user APP, from 10.0.0.5/51234, process /usr/bin/app (pid 4242)), "+
		"open for 1:02:05: have that client commit or roll back; or end the attachment, which rolls back its uncommitted work: "+
		"DELETE FROM MON$ATTACHMENTS WHERE MON$ATTACHMENT_ID = 42;"; got != want {
		t.Errorf("advice\n%s\nwant\n%s", got, want)
	}
	local := &LiveTransaction{ID: 21, AttachmentID: 7, User: "SYSDBA"}
	if got := advice(local); !strings.HasPrefix(got, "it is transaction 21 of attachment 7 (user SYSDBA), open for 0 s:") {
		t.Errorf("a local attachment's advice: %s", got)
	}
	other := *holder
	other.ID = 22
	for _, h := range []*LiveTransaction{nil, &other} {
		if got := advice(h); got != plain {
			t.Errorf("%+v: advice %s", h, got)
		}
	}
}

// The gfix commands of a snapshot fbdiag collect read on a server are
// typed where fbdiag runs, with the client tools' host/port prefix: the
// path, a Windows server's here, is quoted for this machine's shell (in a
// POSIX shell a bare backslash is dropped); a gstat file's commands are
// typed on the server, quoted as its path shows.
func TestRemoteGfixQuotedForThisShell(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "fb30", "shop-gstat-h.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(raw), `Database "/var/lib/firebird/data/shop.fdb"`, `Database "C:\DATA\SHOP.FDB"`, 1)
	text = strings.Replace(text, "Attributes\t\tforce write\n", "Attributes\t\t\n", 1)
	reps, err := parse.ReadGstat(strings.NewReader(text), "shop-gstat-h.txt")
	if err != nil || len(reps) != 1 || !strings.Contains(text, `C:\DATA`) || strings.Contains(text, "force write") {
		t.Fatalf("%v, %d reports", err, len(reps))
	}
	advice := func(remote string) string {
		for _, w := range GstatWith(reps[0], NewThresholds(), GstatOptions{Remote: remote}).Warnings {
			if w.Rule == "forced-writes-off" {
				return w.Advice
			}
		}
		t.Fatal("forced-writes-off did not fire")
		return ""
	}
	remote := `'win/3050:C:\DATA\SHOP.FDB'`
	if runtime.GOOS == "windows" {
		remote = `win/3050:C:\DATA\SHOP.FDB`
	}
	if got, want := advice("win/3050:"), "gfix -write sync "+remote; got != want {
		t.Errorf("collect's advice %q, want %q", got, want)
	}
	if got, want := advice(""), `gfix -write sync C:\DATA\SHOP.FDB`; got != want {
		t.Errorf("a file's advice %q, want %q", got, want)
	}
}
