package parse

import (
	"math"
	"testing"
)

func TestParseNumber(t *testing.T) {
	cases := []struct {
		in    string
		comma bool
		want  float64
		ok    bool
	}{
		{"9,04", false, 9.04, true},               // seed 000, decimal comma
		{"1813,969025", false, 1813.969025, true}, // seed 000
		{"3,65166075", false, 3.65166075, true},   // seed 000
		{"424,5", false, 424.5, true},             // seed 000
		{"1,500", false, 1500, true},              // thousands by default
		{"1,500", true, 1.5, true},                // a decimal-comma column
		{"1.500", true, 1500, true},               // thousands in a decimal-comma column
		{"1.234.567", false, 1234567, true},       //
		{"1,234,567.5", false, 1234567.5, true},   //
		{"1.234,5", false, 1234.5, true},          //
		{"1 234,5", false, 1234.5, true},          //
		{"1\u00a0234", false, 1234, true},         // no-break space
		{"+24.6%", false, 24.6, true},             //
		{"-0.5", false, -0.5, true},               //
		{"NaN", false, 0, false},                  //
		{"Inf", false, 0, false},                  //
		{"Equilibrado", false, 0, false},          //
		{"", false, 0, false},                     //
		{"12a", false, 0, false},                  //
	}
	for _, c := range cases {
		got, ok := ParseNumber(c.in, c.comma)
		if ok != c.ok || (ok && math.Abs(got-c.want) > 1e-9) {
			t.Errorf("ParseNumber(%q, %v) = %v, %v; want %v, %v", c.in, c.comma, got, ok, c.want, c.ok)
		}
	}
}

func TestHeaderUnit(t *testing.T) {
	cases := map[string]string{
		"size_gb":                         "GB",
		"ops_per_s":                       "ops/s",
		"load_time_s":                     "s",
		"load_speed_mb_s":                 "MB/s",
		"db_bytes":                        "B",
		"classic_points":                  "points",
		"tpcc_score":                      "score",
		"tamaño de base de datos, gb":     "GB",
		"tiempo de carga, seg":            "s",
		"velocidad de carga SATA, Mb/seg": "MB/s",
		"Classic, points de test":         "points",
		"Size (GiB)":                      "GB",
		"NOPM":                            "NOPM",
		"page_buffers":                    "",
		"rendimiento en SATA":             "",
		"db":                              "",
		"#":                               "",
		"s":                               "s",
		// (a count per time is a rate, not a time: "queries per second"
		// was a load time in seconds, 2026-12-06)
		"queries per second":        "queries/s",
		"Transactions per second":   "transactions/s",
		"transacciones por segundo": "transacciones/s",
		"requêtes par seconde":      "requêtes/s",
		"MB per second":             "MB/s",
		// (no unit until 2026-12-06: a count over a time, DBT-2's NOTPM;
		// ops/min read as ops/s)
		"Transactions/sec": "transactions/s",
		"req/s":            "req/s",
		"requests/min":     "requests/min",
		"NOTPM":            "NOTPM",
		"TPM":              "TPM",
		"ops/min":          "ops/min",
		"ops/sec":          "ops/s",
	}
	for h, want := range cases {
		if got := HeaderUnit(h).Symbol; got != want {
			t.Errorf("HeaderUnit(%q) = %q, want %q", h, got, want)
		}
	}
}

func TestParseQuantity(t *testing.T) {
	cases := []struct {
		in   string
		want float64
		unit string
	}{
		{"16GB", 16, "GB"},
		{"1.7 TB", 1.7, "TB"},
		{"512MiB", 512, "MB"},
		{"2T", 2, "TB"},
		{"812 tps", 812, "tps"},
		{"4 horas 7 minutos", 4*3600 + 7*60, "s"}, // seed 003
		{"2 horas 35 minutos", 2*3600 + 35*60, "s"},
		{"2h35m", 9300, "s"},
		{"1:02:03", 3723, "s"},
		{"9,04", 9.04, ""},
	}
	for _, c := range cases {
		v, u, ok := ParseQuantity(c.in, false)
		if !ok || math.Abs(v-c.want) > 1e-9 || u.Symbol != c.unit {
			t.Errorf("ParseQuantity(%q) = %v %q %v; want %v %q", c.in, v, u.Symbol, ok, c.want, c.unit)
		}
	}
	if b, ok := ParseSize("2TB"); !ok || b != 2*(1<<40) {
		t.Errorf("ParseSize(2TB) = %v, %v", b, ok)
	}
	if _, ok := ParseSize("2000"); ok {
		t.Error("ParseSize(2000) accepted a size without unit")
	}
	if u := SizeUnitFor(164650343); u.Symbol != "MB" {
		t.Errorf("SizeUnitFor(164650343) = %s, want MB", u.Symbol)
	}
}
