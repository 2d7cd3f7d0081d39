package bench

import (
	"regexp"
	"strings"
	"testing"
)

// The loader's procedures call no PSQL function (a call cost some 4 µs,
// two thirds of a load): every expression of load.sql is written
// out, as the SQL its header describes.
func TestLoaderScript(t *testing.T) {
	s := loaderScript()
	if i := strings.Index(s, "{{"); i >= 0 {
		t.Fatalf("an expression left: %.60s", s[i:])
	}
	body := s[strings.Index(s, "SET TERM ^ ;"):]
	if m := regexp.MustCompile(`BENCH_(RND|NURAND|STR|DIGITS|DATA|LAST|ZIP) *\(`).FindAllString(body, -1); m != nil {
		t.Errorf("calls of the old helper functions: %q", m)
	}
	for _, want := range []string{
		// STR 24 24: a slice of 24 characters of the pool.
		"SUBSTRING(:POOL FROM 1 + CAST(FLOOR(RAND() * (1024 - 24)) AS INTEGER) FOR 24)",
		// STR 8 16: 8 to 16 characters, from where 16 fit.
		"SUBSTRING(:POOL FROM 1 + CAST(FLOOR(RAND() * (1024 - 16)) AS INTEGER) FOR CAST(8 + FLOOR(RAND() * (16 - 8 + 1)) AS INTEGER))",
		// RND 1 100000, an item number.
		"CAST(1 + FLOOR(RAND() * (100000 - 1 + 1)) AS INTEGER)",
		// ZIP and DIGITS 16.
		"SUBSTRING(:DPOOL FROM 1 + CAST(FLOOR(RAND() * (64 - 4)) AS INTEGER) FOR 4) || '11111'",
		"SUBSTRING(:DPOOL FROM 1 + CAST(FLOOR(RAND() * (64 - 16)) AS INTEGER) FOR 16)",
		// NURAND 255 0 999 157: C_LAST's number at load (clause 2.1.6).
		"LNUM = IIF(I <= 1000, I - 1, (MOD(BIN_OR(CAST(0 + FLOOR(RAND() * (255 - 0 + 1)) AS INTEGER), CAST(0 + FLOOR(RAND() * (999 - 0 + 1)) AS INTEGER)) + 157, 999 - 0 + 1) + 0));",
		// LAST: three syllables of LNUM.
		"DECODE(:LNUM / 100, 0, 'BAR', 1, 'OUGHT', 2, 'ABLE', 3, 'PRI', 4, 'PRES', 5, 'ESE', 6, 'ANTI', 7, 'CALLY', 8, 'ATION', 'EING') || DECODE(MOD(:LNUM / 10, 10), 0, 'BAR',",
		"|| DECODE(MOD(:LNUM, 10), 0, 'BAR', 1, 'OUGHT',",
		// DATA: ORIGINAL in 10 % of I_DATA and S_DATA.
		"XDATA = SUBSTRING(:POOL FROM 1 + CAST(FLOOR(RAND() * (1024 - 50)) AS INTEGER) FOR CAST(26 + FLOOR(RAND() * (50 - 26 + 1)) AS INTEGER));\n    IF (RAND() < 0.1) THEN",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("no %s", want)
		}
	}
	// Strings of 24 characters: the ten S_DIST_xx and OL_DIST_INFO. ITEM
	// and STOCK set XDATA first.
	if n := strings.Count(body, "FOR 24)"); n != 11 {
		t.Errorf("%d strings of 24 characters, want 11", n)
	}
	if n := strings.Count(body, "XDATA = SUBSTRING(:POOL"); n != 2 {
		t.Errorf("XDATA set %d times, want 2", n)
	}
	// The pools are the fixed seed's, whole.
	if !regexp.MustCompile(`POOL VARCHAR\(1024\) CHARACTER SET ASCII = '[A-Za-z0-9]{1000}[A-Za-z0-9]{24}';`).MatchString(body) ||
		!regexp.MustCompile(`DPOOL VARCHAR\(64\) CHARACTER SET ASCII = '[0-9]{64}';`).MatchString(body) {
		t.Error("pools")
	}
}
