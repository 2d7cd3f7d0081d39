package report

import (
	"math"
	"math/bits"
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
	// How many digits: t, the bit length times log10(2) (1233/4096), or
	// t+1 when u is 10^t or more.
	n := bits.Len64(u) * 1233 >> 12
	if u >= pow10u[n] {
		n++
	}
	at := len(b)
	b = slices.Grow(b, n)[:at+n]
	// Two digits a division, from a table, and the count from the bit
	// length: BenchmarkAppendInt 57 → 32 µs.
	i := at + n
	for u >= 100 {
		q := u / 100
		d := (u - q*100) * 2
		i -= 2
		b[i], b[i+1] = digitPairs[d], digitPairs[d+1]
		u = q
	}
	if u >= 10 {
		b[i-2], b[i-1] = digitPairs[u*2], digitPairs[u*2+1]
	} else {
		b[i-1] = byte('0' + u)
	}
	return b
}

// pow10u are the powers of ten a uint64 holds.
var pow10u = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19}

// digitPairs are "00" to "99", for appendInt.
const digitPairs = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" +
	"30313233343536373839" + "40414243444546474849" + "50515253545556575859" + "60616263646566676869" +
	"70717273747576777879" + "80818283848586878889" + "90919293949596979899"

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
