package parse

import (
	"strconv"
	"testing"
)

// atof must give exactly strconv.ParseFloat's value for what gstat prints.
func TestGstatAtof(t *testing.T) {
	for _, s := range []string{"0.00", "60.13", "9.00", "0.06", "2090.00", "34.76", "101451015", "0.44",
		"33018.92", "123456789012.34", "1.5", "007.50", "99999999999999.99", "12345678901234567890.5"} {
		want, _ := strconv.ParseFloat(s, 64)
		got, ok := atof([]byte(s))
		if !ok || got != want {
			t.Errorf("atof(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	if v, ok := atof([]byte("22,07")); !ok || v != 22.07 {
		t.Errorf("decimal comma: %v %v", v, ok)
	}
	for _, s := range []string{"", ".", "1.", ".5", "1.2.3", "x", "1e5", "-", "12a"} {
		if _, ok := atof([]byte(s)); ok {
			t.Errorf("atof(%q) accepted", s)
		}
	}
	if _, ok := atoi64([]byte("9223372036854775808")); ok {
		t.Error("atoi64 accepted an overflow")
	}
	if v, ok := atoi64([]byte("9223372036854775807")); !ok || v != 9223372036854775807 {
		t.Errorf("atoi64 max = %v %v", v, ok)
	}
}

func TestGstatAtoi(t *testing.T) {
	for _, s := range []string{"0", "7", "30000", "999999999999999999", "1000000000000000000", "9223372036854775807", "-5"} {
		want, _ := strconv.ParseInt(s, 10, 64)
		if got, ok := atoi64([]byte(s)); !ok || got != want {
			t.Errorf("atoi64(%q) = %d, %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "-", "9223372036854775808", "18446744073709551616", "99999999999999999999", "1x", "1 "} {
		if v, ok := atoi64([]byte(s)); ok {
			t.Errorf("atoi64(%q) accepted: %d", s, v)
		}
	}
}
