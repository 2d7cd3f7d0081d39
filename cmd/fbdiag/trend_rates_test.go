package main

import (
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The fb30 pair is 4 min 38 s apart: trend printed "Growth -143.3 MiB per
// day (-235.34%/day)" and ORDERS at -1577.62 %/day, figures gstat diff
// already hides for snapshots less than an hour apart.
func TestGstatTrendMinutesApartHidesRates(t *testing.T) {
	code, out, errs := runCmd(t, nil, "gstat", "trend",
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
	_, js, _ := runCmd(t, nil, "gstat", "trend", "--format", "json",
		testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	if !strings.Contains(js, `"bytes_per_day": -`) {
		t.Errorf("JSON lost bytes_per_day:\n%.2000s", js)
	}
}
