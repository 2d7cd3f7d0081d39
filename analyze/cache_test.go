package analyze

import (
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/parse"
)

var fb5Horses = input{"public", "02_fb5_header_remote_issue8282.txt"}

// horsesWith is the Firebird 5.0 header of 16 KB pages with its page
// buffers edited from 0 to n.
func horsesWith(t *testing.T, n string, srv ServerSetup) *GstatAnalysis {
	t.Helper()
	text := replace("Page buffers            0", "Page buffers            "+n)(readText(t, fb5Horses))
	reps, err := parse.ReadGstat(strings.NewReader(text), fb5Horses.name)
	if err != nil || len(reps) != 1 {
		t.Fatalf("%v, %d reports", err, len(reps))
	}
	return GstatWith(reps[0], NewThresholds(), GstatOptions{Server: srv})
}

func pageBuffersWarning(t *testing.T, a *GstatAnalysis) Warning {
	t.Helper()
	for _, w := range a.Warnings {
		if w.Rule == "page-buffers" {
			return w
		}
	}
	t.Fatal("page-buffers did not fire")
	return Warning{}
}

// The example: 200 Classic connections × 2048 buffers × 16 KB is
// 6.25 GiB, a verdict once the server's RAM is known.
func TestPageCacheMemory(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		buffers string
		srv     ServerSetup
		sev     Severity
		value   float64
		says    string
		advice  string
	}{
		{"2048", ServerSetup{Classic, 200, 8 * gib}, Warn, 0.78125,
			"header page buffers 2048 × 16384-byte pages = 32 MiB per cache, overriding DefaultDbCachePages; classic: 200 connections × 32 MiB = 6.25 GiB, 78% of the 8 GiB of RAM",
			`gfix -buffers N d:\fbdata\5.0\horses.fdb) so that the caches fit: 1311 pages keep them under 50% of RAM`},
		{"2048", ServerSetup{SuperClassic, 200, 4 * gib}, Critical, 1.5625, "superclassic: 200 connections × 32 MiB = 6.25 GiB, 156% of the 4 GiB of RAM", "655 pages"},
		{"2048", ServerSetup{SuperServer, 200, 8 * gib}, Info, 2048, "SuperServer shares one cache among all connections, 0% of the 8 GiB of RAM", `gfix -buffers N d:\fbdata\5.0\horses.fdb sets`},
		// The seeds' sweep: 1500 buffers of 16 KB per connection.
		{"1500", ServerSetup{Classic, 0, 0}, Info, 1500, "1500 × 16384-byte pages = 23.44 MiB per cache, overriding DefaultDbCachePages; classic gives every connection its own cache", ""},
	} {
		a := horsesWith(t, c.buffers, c.srv)
		w := pageBuffersWarning(t, a)
		if w.Severity != c.sev || w.Value != c.value || !strings.Contains(w.Reason, c.says) || !strings.Contains(w.Advice, c.advice) {
			t.Errorf("%s buffers, %+v: %s %g\n%s\n%s\nwant %s %g, %q, %q", c.buffers, c.srv, w.Severity, w.Value, w.Reason, w.Advice, c.sev, c.value, c.says, c.advice)
		}
		h := a.Header
		if c.srv.Connections == 200 {
			total := int64(16384 * 2048 * 200)
			if c.srv.Architecture == SuperServer {
				total = 16384 * 2048
			}
			wantInt(t, "page_cache_total_bytes", h.PageCacheTotalBytes, total)
		}
	}
	// Without the flags: no total, no verdict, the figures of one cache.
	h := horsesWith(t, "2048", ServerSetup{}).Header
	wantInt(t, "page_cache_bytes", h.PageCacheBytes, 16384*2048)
	if h.PageCacheTotalBytes != nil || h.Architecture != nil || h.RAMBytes != nil {
		t.Errorf("total %v, architecture %v, ram %v without flags", h.PageCacheTotalBytes, h.Architecture, h.RAMBytes)
	}
}

func TestParseArchitecture(t *testing.T) {
	for in, want := range map[string]string{"SuperServer": SuperServer, "ss": SuperServer, "Super": SuperServer,
		"SC": SuperClassic, "super-classic": SuperClassic, "ThreadedShared": SuperClassic, "CS": Classic, "classic": Classic} {
		if got, err := ParseArchitecture(in); got != want || err != nil {
			t.Errorf("%s: %s %v, want %s", in, got, err, want)
		}
	}
	if _, err := ParseArchitecture("embedded"); err == nil {
		t.Error("embedded accepted")
	}
}

func TestSizeText(t *testing.T) {
	for b, want := range map[float64]string{6.25 * (1 << 30): "6.25 GiB", 1500 * 16384: "23.44 MiB", 512: "512 B", 1 << 20: "1 MiB", 1.5 * (1 << 10): "1.5 KiB"} {
		if got := SizeText(b); got != want {
			t.Errorf("SizeText(%g) = %s, want %s", b, got, want)
		}
	}
}

func readText(t *testing.T, in input) string {
	t.Helper()
	b, err := os.ReadFile(in.path(t))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
