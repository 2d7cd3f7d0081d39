// Package numfmt writes numbers as strconv does, faster: integers with
// their digits in place, and floats in strconv's shortest 'f' form
// (strconv.AppendFloat(b, f, 'f', -1, 64)) for the whole numbers, the
// decimals of two places and the ratios a gstat run is made of, and at
// a fixed 0 to 3 decimals (AppendFixed, the warnings' texts), leaving
// the rest to strconv. Every byte is strconv's; the JSON and CSV of a big
// gstat run write some twenty million numbers through here.
//
// It is a leaf: it imports only the standard library.
package numfmt

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unsafe"
)

// AppendInt is strconv.AppendInt(b, v, 10) with the digits written in
// place: a big gstat run writes some twenty million numbers, and
// strconv's copy of each from its own buffer was 3 % of the JSON's CPU.
// b is resliced over its spare capacity, not extended with zeros: the
// zeroing was 7 % of a table's encoding.
func AppendInt(b []byte, v int64) []byte {
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
	// length: BenchmarkAppendInt 57 → 32 µs. They are written through
	// the pointer to b[at:], which holds n bytes, the table's pairs read
	// through its own: u has n digits and a pair is under 200, so the
	// bounds tests of each index (four a pair) were never failed.
	p := unsafe.Pointer(unsafe.SliceData(b[at:]))
	pairs := unsafe.Pointer(unsafe.StringData(digitPairs))
	i := uintptr(n)
	for u >= 100 {
		q := u / 100
		d := (u - q*100) * 2
		i -= 2
		*(*[2]byte)(unsafe.Add(p, i)) = *(*[2]byte)(unsafe.Add(pairs, d))
		u = q
	}
	if u >= 10 {
		*(*[2]byte)(unsafe.Add(p, i-2)) = *(*[2]byte)(unsafe.Add(pairs, u*2))
	} else {
		*(*byte)(unsafe.Add(p, i-1)) = byte('0' + u)
	}
	return b
}

// pow10u are the powers of ten a uint64 holds.
var pow10u = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19}

// digitPairs are "00" to "99", for AppendInt.
const digitPairs = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" +
	"30313233343536373839" + "40414243444546474849" + "50515253545556575859" + "60616263646566676869" +
	"70717273747576777879" + "80818283848586878889" + "90919293949596979899"

// AppendShortFloat appends f as strconv.AppendFloat(b, f, 'f', -1, 64)
// does when f is a whole number or has one or two decimals (most figures
// of a gstat run: counts, percentages, rounded ratios), without its
// shortest-digits search; short is false for any other f. The decimal
// k/100 is f's shortest form when it parses back to f: two decimals with
// at most 15 significant digits (DBL_DIG) cannot name one float64 twice,
// and k/100, two exact floats divided, rounds as parsing does.
func AppendShortFloat(b []byte, f float64) (_ []byte, short bool) {
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
		return AppendInt(b, int64(f)), true
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
	b = AppendInt(b, n/100)
	d1, d2 := byte('0'+n/10%10), byte('0'+n%10)
	if d2 == '0' {
		return append(b, '.', d1), true
	}
	return append(b, '.', d1, d2), true
}

// AppendShortestFloat appends f as strconv.AppendFloat(b, f, 'f', -1, 64)
// does, the shortest digits that parse back to f and the nearest to f of
// those, when 2^-19 <= |f| < 2^43 and f is not a power of two; ok is
// false for any other f. strconv finds the digits quickly but writes them
// slowly (990 instructions a float, the fraction a digit at a time; 430
// here), and a big gstat run's ratios (selectivity, fan-out, shares) have
// 16 and 17 digits. In that range the search is exact in 128 bits: with f =
// m·2^e scaled by 10^q to V, an integer of 17 or 18 digits and a
// fraction, the halfway points to f's neighbours, V ∓ 10^q·2^(e-1), are
// never integers, and the digits are those of the integer between them
// with the most trailing zeros (dropped), or the nearest to V of several
// such. A power of two, whose lower neighbour is nearer than its upper,
// is left to strconv.
func AppendShortestFloat(b []byte, f float64) (_ []byte, ok bool) {
	fb := math.Float64bits(f)
	lg := int(fb>>52&0x7ff) - 1023 // 2^lg <= |f| < 2^(lg+1)
	frac := fb & (1<<52 - 1)
	if frac == 0 || lg < -19 || lg > 42 {
		return b, false
	}
	m := frac | 1<<52
	// q makes V = |f|·10^q at least 10^16 (17 digits before the point):
	// lg·log10(2), floored, is (lg·78913)>>18 for |lg| < 1650. V stays
	// under 2·10^17, and (2m+1)·10^q under 2^128 (q is 22 at most).
	q := 16 - (lg*78913)>>18
	s := uint(1 + 52 - lg) // V = m·10^q / 2^(s-1); f's neighbours' halfway points (2m ± 1)·10^q / 2^s
	bh, bl := mul128(m, q)
	ph, pl := mul128(1, q)
	// The integers from lo to hi are those between the halfway points.
	uh, ul := add128(bh, bl, bh, bl)
	lh, ll := uh, ul
	uh, ul = add128(uh, ul, ph, pl)
	lh, ll = sub128(lh, ll, ph, pl)
	lo, exact := shr128(lh, ll, s)
	hi, exact2 := shr128(uh, ul, s)
	if exact || exact2 || lo >= hi {
		// (Neither can be: 2^s does not divide (2m ± 1)·10^q while s >
		// q, and the halfway points are 1.1 or more apart. So whether
		// parsing takes them as f's does not matter either.)
		return b, false
	}
	lo++
	// The fewest digits: drop eight while an integer of fewer remains
	// (0.001 drops 16), then one.
	p := 0
	for {
		l, h := (lo+1e8-1)/1e8, hi/1e8
		if l > h {
			break
		}
		lo, hi, p = l, h, p+8
	}
	for {
		l, h := (lo+9)/10, hi/10
		if l > h {
			break
		}
		lo, hi, p = l, h, p+1
	}
	// The nearest to V of lo to hi: V's integer part v, whether its
	// fraction is half or more (half) and whether any of it is left
	// after that half (rest).
	w, exact := shr128(bh, bl, s-2) // 2V's integer part
	rest := !exact
	half := w&1 == 1
	v := w >> 1
	pow := pow10u[p]
	c := v / pow
	r := v - c*pow
	switch h := pow / 2; {
	case p == 0 && half && rest, p > 0 && (r > h || r == h && (half || rest)):
		c++
	case p == 0 && half, p > 0 && r == h:
		return b, false // (a tie cannot be: V/10^p would be f·10^(q-p), a multiple of 2^e ending in 5)
	}
	// c is between lo and hi: the halfway points are as far from V
	// either way, and one of lo to hi is at most half of 10^p from V.
	// f = c·10^(p-q), and is not a whole number, so p < q.
	if p >= q {
		return b, false
	}
	n := bits.Len64(c) * 1233 >> 12 // c's digits, as AppendInt counts them
	if c >= pow10u[n] {
		n++
	}
	if f < 0 {
		b = append(b, '-')
	}
	at := len(b)
	point := n + p - q // digits before the decimal point
	if point <= 0 {
		b = append(b, "0.000000"[:2-point]...) // (|f| >= 2^-19: five zeros at most)
		at = len(b)
		b = slices.Grow(b, n)[:at+n]
		putDigits(b[at:], c)
		return b, true
	}
	b = slices.Grow(b, n+1)[:at+n+1]
	ip := c / pow10u[n-point]
	putDigits(b[at+point+1:], c-ip*pow10u[n-point])
	b[at+point] = '.'
	putDigits(b[at:at+point], ip)
	return b, true
}

// putDigits writes u's last len(d) digits to d, zeros first where u has
// fewer.
func putDigits(d []byte, u uint64) {
	i := len(d)
	for i >= 2 {
		q := u / 100
		x := (u - q*100) * 2
		d[i-2], d[i-1] = digitPairs[x], digitPairs[x+1]
		u = q
		i -= 2
	}
	if i == 1 {
		d[0] = byte('0' + u%10)
	}
}

// mul128 is x·10^q for q <= 38, as high and low words.
func mul128(x uint64, q int) (hi, lo uint64) {
	if q < 20 {
		return bits.Mul64(x, pow10u[q])
	}
	hi, lo = bits.Mul64(x, pow10u[19])
	h, l := bits.Mul64(lo, pow10u[q-19])
	return hi*pow10u[q-19] + h, l
}

func add128(ah, al, bh, bl uint64) (hi, lo uint64) {
	lo, carry := bits.Add64(al, bl, 0)
	hi, _ = bits.Add64(ah, bh, carry)
	return hi, lo
}

func sub128(ah, al, bh, bl uint64) (hi, lo uint64) {
	lo, borrow := bits.Sub64(al, bl, 0)
	hi, _ = bits.Sub64(ah, bh, borrow)
	return hi, lo
}

// shr128 is the integer part of (hi, lo) / 2^s, for 0 < s < 128 and a
// quotient under 2^64, and whether the division is exact.
func shr128(hi, lo uint64, s uint) (uint64, bool) {
	if s < 64 {
		return hi<<(64-s) | lo>>s, lo<<(64-s) == 0
	}
	return hi >> (s - 64), lo == 0 && hi<<(128-s) == 0
}

// AppendFloat is strconv.AppendFloat(b, f, 'f', -1, 64): AppendShortFloat's
// or AppendShortestFloat's bytes when one of them takes f, strconv's for
// the rest (NaN and infinities included).
func AppendFloat(b []byte, f float64) []byte {
	if s, short := AppendShortFloat(b, f); short {
		return s
	}
	if s, ok := AppendShortestFloat(b, f); ok {
		return s
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

// AppendFixed is strconv.AppendFloat(b, f, 'f', prec, 64) for prec from 0
// to 3: f rounded to prec decimals, a tie to the even last digit, as the
// exact value of f·10^prec in 64 bits gives it for |f| < 2^52, and
// strconv's bytes for the rest. The warnings' texts write their figures
// so ("9.1% of the keys", "clustering ratio 0.09"): some 390
// instructions a figure through strconv, a third of that here.
func AppendFixed(b []byte, f float64, prec int) []byte {
	fb := math.Float64bits(f)
	exp := int(fb >> 52 & 0x7ff)
	if prec < 0 || prec > 3 || exp >= 1075 { // (|f| >= 2^52, NaN and the infinities too)
		return strconv.AppendFloat(b, f, 'f', prec, 64)
	}
	m, e := fb&(1<<52-1)|1<<52, 1075-exp // |f| = m / 2^e, e > 0
	if exp == 0 {
		m, e = fb&(1<<52-1), 1074
	}
	var q uint64 // |f|·10^prec, rounded
	if e < 64 {
		n := m * pow10u[prec] // (under 2^63)
		q = n >> e
		r, half := n&(1<<e-1), uint64(1)<<(e-1)
		if r > half || r == half && q&1 == 1 {
			q++
		}
	} // else |f| < 2^-11: under half of 10^-prec, q is 0
	if fb>>63 == 1 {
		b = append(b, '-')
	}
	if prec == 0 {
		return AppendInt(b, int64(q))
	}
	p := pow10u[prec]
	b = AppendInt(b, int64(q/p))
	at := len(b)
	b = slices.Grow(b, prec+1)[:at+prec+1]
	b[at] = '.'
	putDigits(b[at+1:], q%p)
	return b
}
