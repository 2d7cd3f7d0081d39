package view

import (
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The public sample of Firebird #8027: lines 1 and 2 read −920 and +920
// pages (a wrapped counter and its jump, on two steps). Their reads and
// writes are "?" in text and markdown, empty in CSV, with a note saying
// why; the same from a streamed timeline kept in memory or sorted on
// disk; the phase has the pair's sum, 0.
func TestGbakWrappedCounterUnknown(t *testing.T) {
	data, err := os.ReadFile(testutil.Corpus(t, "public", "gbak", "08_broken_stats_wraparound_issue8027.log"))
	if err != nil {
		t.Fatal(err)
	}
	tl, err := analyze.ReadGbakTimeline(strings.NewReader(string(data)), "08.log")
	if err != nil {
		t.Fatal(err)
	}
	text := write(t, Text, Options{}, Gbak(tl, GbakOptions{}))
	for _, w := range []string{
		"   1  domain RDB$235968  metadata  0.976 s  0.000 s      ?       ?\n",
		"   2  domain RDB$235969  metadata  0.976 s  0.000 s      ?       ?\n",
		"metadata      3        1  0.000 s             0       0\n",
		"reads and writes ?: gbak printed a negative delta (a wrapped counter, Firebird #8027)",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "-920") {
		t.Errorf("text shows -920:\n%s", text)
	}
	md := write(t, Markdown, Options{}, Gbak(tl, GbakOptions{}))
	if !strings.Contains(md, "| 1 | domain RDB$235968 | metadata | 0.976 s | 0.000 s | ? | ? |  |\n") {
		t.Errorf("markdown:\n%s", md)
	}
	want := "line,step,phase,start_seconds,seconds,reads,writes,bound,kind,object,name\n" +
		"1,domain RDB$235968,metadata,0.976,0,,,false,metadata,domain,RDB$235968\n" +
		"2,domain RDB$235969,metadata,0.976,0,,,false,metadata,domain,RDB$235969\n" +
		"3,domain RDB$235970,metadata,0.976,,,,false,metadata,domain,RDB$235970\n"
	opt := Options{Table: "steps"}
	same(t, "CSV steps", write(t, CSV, opt, Gbak(tl, GbakOptions{})), want)
	// (a view of steps on disk is written once)
	for _, f := range []Format{CSV, Text} {
		onDisk := f == CSV
		k := NewGbakKeeper(-1, -1)
		if onDisk {
			k = k.StepsOnDisk()
		}
		stl, err := analyze.StreamGbakTimeline(strings.NewReader(string(data)), "08.log", k.Stream())
		if err != nil {
			t.Fatal(err)
		}
		d := Gbak(stl, GbakOptions{Kept: k.Kept()})
		if f == CSV {
			same(t, "CSV steps on disk", write(t, CSV, opt, d), want)
		} else if got := write(t, Text, Options{}, d); !strings.Contains(got, "0.976 s  0.000 s      ?       ?\n") ||
			!strings.Contains(got, "reads and writes ?:") {
			t.Errorf("streamed text:\n%s", got)
		}
	}
}
