package view

import (
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
)

// shopLive is fbdiag collect's live figures for the fb30 shop sample:
// the markers, page size and file size are the sample's (its gstat header
// and 64069632-byte file, 7821 pages of 8 KiB); the stored selectivity of
// three indices is set to show each case: CUSTOMER_LAST never computed,
// OL_ITEM off by 3×, the others as gstat's. The page I/O counters are
// not the sample's (no recorded MON$IO_STATS): reads 1375 of 212389
// fetches.
func shopLive(t *testing.T) (*analyze.GstatAnalysis, *analyze.LiveAnalysis) {
	t.Helper()
	g := gstatRuns(t, "fb30", "shop-gstat-a-r.txt")[0]
	th := analyze.NewThresholds()
	var stored []analyze.StoredSelectivity
	for _, tb := range g.Tables {
		for _, ix := range tb.Indices {
			s := analyze.StoredSelectivity{Table: tb.Name, Index: ix.Name}
			if ix.UniqueKeys != nil && *ix.UniqueKeys > 0 && ix.Name != "CUSTOMER_LAST" {
				v := 1 / float64(*ix.UniqueKeys)
				if ix.Name == "OL_ITEM" {
					v *= 3
				}
				s.Stored = &v
			}
			stored = append(stored, s)
		}
	}
	login, enc, addr, proc, pid := "Srp", true, "127.0.0.1/50412", "/usr/bin/isql-fb", int64(4711)
	in := analyze.LiveInput{
		Server: "localhost:3050", ServerVersion: "LI-V3.0.11.33703 Firebird 3.0", Database: "/var/lib/firebird/data/shop.fdb",
		Switches: "-a -r", CollectedAt: time.Date(2026, 12, 2, 14, 9, 54, 0, time.UTC), File: "shop-20261202-140954.gstat.txt", Lines: 214,
		Login: &login, WireEncrypted: &enc, WireCipher: "Arc4", ServicesCipher: "Arc4", WireCrypt: "enabled",
		Attachments: 1, PageSize: 8192, Pages: 7821, PageBuffers: 0, SweepInterval: 20000,
		OIT: 16, OAT: 17, OST: 17, NextTransaction: 18,
		OldestActive: &analyze.LiveTransaction{ID: 17, AgeSeconds: 4000, AttachmentID: 2, User: "SYSDBA",
			RemoteAddress: &addr, RemoteProcess: &proc, RemotePID: &pid},
		PageReads: 1375, PageWrites: 96, PageFetches: 212389, PageMarks: 310,
		Selectivity: analyze.CheckSelectivity(g, stored, th),
	}
	return g, analyze.Live(in, th)
}

// The live tables of fbdiag collect in every format, and the figures
// they hold.
func TestCollectLiveGolden(t *testing.T) {
	g, l := shopLive(t)
	if l.SizeBytes != 64069632 || l.Stale != 2 || len(l.Statements) != 2 ||
		l.Statements[0] != "SET STATISTICS INDEX CUSTOMER_LAST;" || l.Statements[1] != "SET STATISTICS INDEX OL_ITEM;" {
		t.Errorf("size %d, %d stale: %q", l.SizeBytes, l.Stale, l.Statements)
	}
	if l.CacheHit == nil || *l.CacheHit != 1-1375.0/212389 {
		t.Errorf("cache hit %v", l.CacheHit)
	}
	if m := l.Markers; len(m) != 4 || m[1].Name != "oldest active (OAT)" || m[1].BehindNext != 1 || m[0].BehindNext != 2 {
		t.Errorf("markers %+v", m)
	}
	goldenDoc(t, "collect-live", &Doc{Tables: LiveTables(l)}, "io", "selectivity", "transactions")
	text := write(t, Text, Options{}, &Doc{Tables: LiveTables(l)})
	for _, want := range []string{
		"\nreads  writes  fetches  marks  cache hit\n 1375      96   212389    310     99.4 %\n",
		"1 other attachment; page size 8.00 KiB, 7821 pages (61.1 MiB), 0 page buffers, sweep interval 20000\n",
		"oldest active transaction 17: 1:06:40 old, user SYSDBA, attachment 2, from 127.0.0.1/50412,\n",
		"\nORDER_LINE  OL_ITEM           0.00006    0.00002        50000  stale\n",
		"2 of 10 indices have stale stored selectivity (never computed, or off by more than 2x);\n",
		"\n  SET STATISTICS INDEX OL_ITEM;\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// collect's document is gstat's with the live tables after its own.
	d := Collect(g, l, GstatOptions{Sort: "size", Top: GstatTop})
	names := strings.Join(TableNames(d), " ")
	if !strings.HasPrefix(names, "tables indices snapshot transactions io selectivity ") {
		t.Errorf("collect tables %v", names)
	}
}
