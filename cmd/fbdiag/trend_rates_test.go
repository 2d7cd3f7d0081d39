package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The fb30 pair is 4 min 38 s apart: trend printed "Growth -143.3 MiB per
// day (-235.34%/day)" and ORDERS at -1577.62 %/day, figures gstat diff
// already hides for snapshots less than an hour apart.
func TestGstatTrendMinutesApartHidesRates(t *testing.T) {
	out, errs, code := runCLI(t, nil, "gstat", "trend",
		testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"gstat trend over 2 snapshots, 4 min 38 s (2026-12-02 14:09:54 -> 2026-12-02 14:14:32)\n",
		"Growth      per day not shown: snapshots less than an hour apart (the JSON has it)\n",
		"ORDERS       6.0 MiB  -320.0 KiB                  line (2 sizes)\n",
		"STOCK        3.6 MiB   -64.0 KiB                  line (2 sizes)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"%/day)", "-1577.62", "transactions per day"} {
		if strings.Contains(out, bad) {
			t.Errorf("output has %q:\n%s", bad, out)
		}
	}
	// The JSON keeps the figures.
	js, _, _ := runCLI(t, nil, "gstat", "trend", "--format", "json",
		testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	if !strings.Contains(js, `"bytes_per_day": -`) {
		t.Errorf("JSON lost bytes_per_day:\n%.2000s", js)
	}
}

// A folder of snapshots that also holds the charts 'gstat trend --png'
// wrote there: the PNGs are skipped as not gstat, not an error.
func TestGstatTrendFolderWithCharts(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"shop-gstat-a-r.txt", "shop-gstat-r-later.txt"} {
		data, err := os.ReadFile(testutil.Testdata(t, "fb30", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, errs, code := runCLI(t, nil, "gstat", "trend", "--png", dir, dir)
	if code != 0 || !strings.Contains(errs, "wrote "+filepath.Join(dir, "history-size.png")) {
		t.Fatalf("first run: exit %d, stderr %q", code, errs)
	}
	out, errs, code := runCLI(t, nil, "gstat", "trend", dir)
	want := "skipped: " + filepath.Join(dir, "history-size.png") + ": binary data"
	if code != 0 || !strings.Contains(errs, want) || !strings.Contains(out, "gstat trend over 2 snapshots, 4 min 38 s") {
		t.Errorf("second run: exit %d, stderr %q; want %q\n%s", code, errs, want, out)
	}
}

// A 2018 snapshot before the fb30 pair: the span is 3164 days, but STOCK and
// ORDERS have sizes only in the pair, minutes apart, and showed -540.51 and
// -1577.62 %/day; the header "reaches 100.0GiB" made the line 102 columns;
// the JSON failed on an exponential intercept of +Inf. The 2018 snapshot is
// of another database (FBTEST30.FDB, whose CUSTOMER made a "+3.1 MiB" line):
// since issue 13 it is left out of the sizes and the counters, and the
// pair's two sizes forecast nothing.
func TestGstatTrendTableRatesOwnSpan(t *testing.T) {
	args := []string{"gstat", "trend", "--until", "100GB",
		testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"),
		testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat30-a.out")}
	out, errs, code := runCLI(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"Growth      per day not shown: snapshots less than an hour apart (the JSON has it)\n",
		"Left out    FirebirdSQL-fdb__gstat30-a.out: another database (/home/fdb/test/FBTEST30.FDB)\n",
		"table           size      change  per day  %/day  fit             R²  at 100.0GiB\n",
		"CUSTOMER     3.1 MiB         0 B                  line (2 sizes)      refused\n",
		"STOCK        3.6 MiB   -64.0 KiB                  line (2 sizes)      refused\n",
		"per day: not shown for sizes less than an hour apart (the JSON has it)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "transactions per day") {
		t.Errorf("a daily rate from another database's counters:\n%s", out)
	}
	assertWidth(t, out)
	js, errs, code := runCLI(t, nil, append([]string{"gstat", "trend", "--format", "json"}, args[2:]...)...)
	if code != 0 || !strings.Contains(js, `"exponential": null`) {
		t.Errorf("JSON: exit %d, stderr %q", code, errs)
	}
}
