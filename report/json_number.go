package report

import (
	"math"
	"slices"
)

// appendInt is strconv.AppendInt(b, v, 10) with the digits written in
// place: a big gstat run writes some twenty million numbers, and
// strconv's copy of each from its own buffer was 3 % of the JSON's CPU.
// b is resliced over its spare capacity, not extended with zeros: the
// zeroing was 7 % of a table's encoding.
func appendInt(b []byte, v int64) []byte {
	u := uint64(v)
	if v < 0 {
		b = append(b, '-')
		u = -u
	}
	if u < 10 {
		return append(b, byte('0'+u))
	}
	n := 1
	for x := u; x >= 10; x /= 10 {
		n++
	}
	at := len(b)
	b = slices.Grow(b, n)[:at+n]
	for i := at + n - 1; i >= at; i-- {
		b[i] = byte('0' + u%10)
		u /= 10
	}
	return b
}

// appendShortFloat appends f as strconv.AppendFloat(b, f, 'f', -1, 64)
// does when f is a whole number or has one or two decimals (most figures
// of a gstat run: counts, percentages, rounded ratios), without its
// shortest-digits search; short is false for any other f. The decimal
// k/100 is f's shortest form when it parses back to f: two decimals with
// at most 15 significant digits (DBL_DIG) cannot name one float64 twice,
// and k/100, two exact floats divided, rounds as parsing does.
func appendShortFloat(b []byte, f float64) (_ []byte, short bool) {
	const limit = 1e13 // k under 1e15
	switch {
	case f == 0:
		if math.Signbit(f) {
			return append(b, "-0"...), true
		}
		return append(b, '0'), true
	case !(f > -limit && f < limit):
		return b, false
	case f == math.Trunc(f):
		return appendInt(b, int64(f)), true
	}
	k := math.Round(f * 100)
	if k/100 != f {
		return b, false
	}
	n := int64(k)
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	b = appendInt(b, n/100)
	d1, d2 := byte('0'+n/10%10), byte('0'+n%10)
	if d2 == '0' {
		return append(b, '.', d1), true
	}
	return append(b, '.', d1, d2), true
}
