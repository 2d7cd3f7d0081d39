// Package units prints and reads the figures every fbdiag output shares,
// so that one figure reads the same in text, markdown, HTML, charts and
// on the command line:
//
//   - sizes in binary multiples with IEC symbols (KiB, MiB, GiB, TiB,
//     PiB), three significant digits: "512 B", "35.6 MiB", "2.00 TiB";
//     ParseSize reads "100GB" as 100 GiB, as Firebird and gstat count;
//   - durations as "12.345 s" under a minute, "3:41:44" (h:mm:ss) above,
//     "1d 2:03:04" beyond a day;
//   - names in natural order (RDB$PRIMARY2 before RDB$PRIMARY10);
//   - ratios and other figures with three significant digits.
//
// It is a leaf: it imports only the standard library.
package units

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// plurals are the nouns (and verbs, which agree with a count) whose
// plural is not the singular and an s.
var plurals = map[string]string{"index": "indices", "table or view": "tables or views", "deep index": "deep indices", "has": "have", "is": "are", "was": "were", "retry": "retries"}

// Plural is noun as it agrees with a count of n: the singular for 1
// ("table", "index", "was"), else its plural ("tables", "indices",
// "were"; "0 tables").
func Plural[N ~int | ~int32 | ~int64 | ~uint32 | ~uint64](n N, noun string) string {
	if n == 1 {
		return noun
	}
	if p, ok := plurals[noun]; ok {
		return p
	}
	return noun + "s"
}

// Count is n and the noun agreeing with it: "1 table", "2 tables",
// "1 index", "3 indices". Every count a label prints goes through it, so
// that none reads "1 tables".
func Count[N ~int | ~int32 | ~int64 | ~uint32 | ~uint64](n N, noun string) string {
	return fmt.Sprintf("%d %s", n, Plural(n, noun))
}

// List joins words as a sentence lists them: "a", "a and b", "a, b
// and c"; "" for none.
func List(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// Dash is what Size, Seconds and Sig3 print for a figure that is not a
// number (NaN, ±Inf).
const Dash = "–"

// iec are the size symbols, each 1024 times the one before.
var iec = []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}

// Size prints a byte count in the largest IEC unit that keeps the figure
// under 1024, with three significant digits ("35.6 MiB", "2.00 TiB", a
// figure of 1000 to 1023 with four: "1000 KiB"); bytes are whole
// ("512 B"). A negative size keeps its sign.
func Size(b int64) string {
	if b < 0 {
		if b == math.MinInt64 {
			return "-8.00 EiB"
		}
		return "-" + Size(-b)
	}
	if b < 1024 {
		return strconv.FormatInt(b, 10) + " B"
	}
	return SizeFloat(float64(b))
}

// SizeFloat is Size for a figure that need not be whole (an estimate, a
// mean); below 1 KiB it is rounded to whole bytes.
func SizeFloat(b float64) string {
	if math.IsNaN(b) || math.IsInf(b, 0) {
		return Dash
	}
	if b < 0 {
		return "-" + SizeFloat(-b)
	}
	if math.Round(b) < 1024 {
		return strconv.FormatFloat(math.Round(b), 'f', 0, 64) + " B"
	}
	i := 0
	for i < len(iec)-1 && b >= 1024 {
		b /= 1024
		i++
	}
	// 1023.7 KiB rounds to 1024: that is 1.00 MiB.
	if shown(b) >= 1024 && i < len(iec)-1 {
		b /= 1024
		i++
	}
	return Sig3(b) + " " + iec[i]
}

// Unit factors of ParseSize: the decimal names mean the binary multiples
// (GB is GiB), as Firebird, gstat and the DBAs' articles count.
var sizeUnits = map[string]int{
	"": 0, "b": 0,
	"k": 1, "kb": 1, "kib": 1,
	"m": 2, "mb": 2, "mib": 2,
	"g": 3, "gb": 3, "gib": 3,
	"t": 4, "tb": 4, "tib": 4,
	"p": 5, "pb": 5, "pib": 5,
}

// ErrTooLarge is a size beyond what an int64 counts in bytes (8 EiB).
var ErrTooLarge = errors.New("too large")

// ParseSize reads a size such as "100GB", "512 MiB", "2T", "1.5GiB" or
// "4096" or "1e9" (bytes). The unit is case-insensitive, and KB, MB, GB, TB and PB
// mean KiB, MiB, GiB, TiB and PiB. A comma may stand for the decimal
// point. Negative sizes, sizes beyond 8 EiB and unknown units are errors
// that quote the text.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.' || t[i] == ',' || i == 0 && (t[i] == '+' || t[i] == '-')) {
		i++
		// An exponent: 1e9, 2.5E+6.
		if i+1 < len(t) && (t[i] == 'e' || t[i] == 'E') && t[i-1] >= '0' && t[i-1] <= '9' &&
			(t[i+1] >= '0' && t[i+1] <= '9' || (t[i+1] == '+' || t[i+1] == '-') && i+2 < len(t) && t[i+2] >= '0' && t[i+2] <= '9') {
			i += 2
		}
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	if num == "" {
		return 0, fmt.Errorf("size %q: no number (want a size such as 100GB, 512MiB or 2T)", s)
	}
	v, err := strconv.ParseFloat(strings.Replace(num, ",", ".", 1), 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: %q is not a number", s, num)
	}
	if v < 0 {
		return 0, fmt.Errorf("size %q: negative", s)
	}
	p, ok := sizeUnits[strings.ToLower(unit)]
	if !ok {
		return 0, fmt.Errorf("size %q: unknown unit %q (want B, KiB, MiB, GiB, TiB or PiB; GB means GiB)", s, unit)
	}
	b := v * math.Pow(1024, float64(p))
	if b >= math.MaxInt64 {
		return 0, fmt.Errorf("size %q: %w", s, ErrTooLarge)
	}
	return int64(math.Round(b)), nil
}

// HasUnit reports whether a size text names its unit ("16GB", not "16"):
// a memory size given without one is more likely a slip than bytes.
func HasUnit(s string) bool {
	return strings.ContainsAny(strings.ToLower(s), "bkmgtp")
}

// Seconds prints a duration: under a minute to the millisecond
// ("12.345 s"), longer as h:mm:ss ("3:41:44", "0:01:05"), beyond a day
// with the days in front ("1d 2:03:04"). Longer durations are rounded to
// the second. A negative duration keeps its sign; NaN and ±Inf are Dash.
// Beyond 2^53 s (285 million years: a corrupt time column), where whole
// seconds no longer count exactly, the days with three significant
// digits ("1.16e+15d").
func Seconds(s float64) string {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return Dash
	}
	if s < 0 {
		return "-" + Seconds(-s)
	}
	if s < 59.9995 {
		return strconv.FormatFloat(s, 'f', 3, 64) + " s"
	}
	if s >= 1<<53 {
		return strconv.FormatFloat(s/86400, 'g', 3, 64) + "d"
	}
	t := int64(math.Round(s))
	d, h, m, sec := t/86400, t/3600%24, t/60%60, t%60
	if d > 0 {
		return fmt.Sprintf("%dd %d:%02d:%02d", d, h, m, sec)
	}
	return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
}

// WholeSeconds prints a duration counted in whole seconds, as Seconds
// does but without the milliseconds it does not have under a minute
// ("12 s", not "12.000 s"): a transaction's age that DATEDIFF(SECOND …)
// gave.
func WholeSeconds(n int64) string {
	if n > -60 && n < 60 {
		return strconv.FormatInt(n, 10) + " s"
	}
	return Seconds(float64(n))
}

// shown is v as Sig3 rounds it.
func shown(v float64) float64 {
	if math.Abs(v) >= 999.5 {
		return math.Round(v)
	}
	return round3(v)
}

// round3 rounds v to three significant digits.
func round3(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return r
}

// Figure is a plain number as a table cell prints it: a whole number as
// it is ("1", "33333"), else Sig3 without trailing zeros ("0.929",
// "0.2"); a caveat's words that name a table's figure print it so too.
// A figure short of ±1 never reads as ±1: with the digits that tell it
// apart ("0.9998"), since a leverage of 1 says the point sets its fitted
// value exactly and an R² of 1 an exact fit, which 0.99984 does not.
func Figure(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return Dash
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	s := Sig3(v)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	// Up to six decimals: a float's last bit off 1 (an exact fit's R²
	// computed as 0.9999999999999999) is 1.
	if math.Abs(v) < 1 && (s == "1" || s == "-1") {
		for d := 4; d <= 6; d++ {
			if t := strconv.FormatFloat(v, 'f', d, 64); strings.Trim(t, "-0.") != "1" {
				return strings.TrimRight(t, "0")
			}
		}
	}
	return s
}

// Ratio is Sig3 of a ratio, which reads "1.00" only when it is 1: one a
// hair off ("0.9998", 999.8 tps against 1000) gets the digits that show
// which way, as the words beside it ("slower") say.
func Ratio(v float64) string {
	s := Sig3(v)
	if s != "1.00" || v == 1 {
		return s
	}
	for d := 3; d <= 6; d++ { // (a float's last bit off 1 is 1, as in Figure)
		if t := strconv.FormatFloat(v, 'f', d, 64); strings.Trim(t, "0.") != "1" {
			return strings.TrimRight(t, "0")
		}
	}
	return s
}

// SignedPercent prints a change as a signed percentage with one decimal
// ("+24.6 %", "-17.5 %"); a change that is not 0 gets the decimals that
// keep it off "±0.0 %" ("-0.02 %"): the words beside it say which way.
func SignedPercent(f float64) string {
	s := strconv.FormatFloat(100*f, 'f', 1, 64)
	for d := 2; f != 0 && strings.Trim(s, "-0.") == "" && d <= 6; d++ {
		if t := strconv.FormatFloat(100*f, 'f', d, 64); strings.Trim(t, "-0.") != "" {
			s = t
		}
	}
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s + " %"
}

// Sig3 prints a figure with three significant digits, trailing zeros
// kept ("1.85", "0.451", "2.00", "35.6"), a figure of 1000 or more as a
// whole number ("1235"), never with an exponent; NaN and ±Inf are Dash.
func Sig3(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return Dash
	case v == 0:
		return "0"
	case math.Abs(v) >= 999.5:
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	r := round3(v)
	digits := int(math.Floor(math.Log10(math.Abs(r))))
	return strconv.FormatFloat(r, 'f', max(0, 2-digits), 64)
}

// Compare orders names naturally: runs of digits compare as numbers
// (RDB$PRIMARY2 before RDB$PRIMARY10, "T9" before "T10"), other text
// without regard to case ("apple", "Banana", "cherry"). Names equal so far
// are told apart by case, then by leading zeros, then byte by byte, so
// that only equal strings compare equal.
func Compare(a, b string) int {
	// The bytes both names start with compare equal whichever way they
	// are read: skip them, back to the start of a rune and of a run of
	// digits (a number compares whole). A text run compares rune by rune
	// then by length, so it may be cut; what is left compares as the
	// names do ("CUSTOMER_00017" and "CUSTOMER_00018": "17" and "18").
	i := CommonPrefix(a, b)
	if i == len(a) && i == len(b) {
		return 0
	}
	// Every run before the first bytes that differ is the same in both
	// names, so the run they are in decides, as compareNames would, when
	// it differs at its first level: names of a big run's sort, tied on
	// their size by the thousand, mostly part in text ("RDB$PRIMARY…" and
	// "RDB$FOREIGN…": the bytes' lower cases, ASCII, not digits, in a text
	// run that started at the same place in both) or in the digits of
	// their copies ("CUSTOMER_00017" and "CUSTOMER_00018": the value of
	// the run of digits around them).
	if i < len(a) && i < len(b) {
		ca, cb := a[i], b[i]
		switch da, db := isDigit(ca), isDigit(cb); {
		case da && db:
			// Runs of digits as long in both names are numbers in the
			// order of their bytes, the first that differ.
			ra, _ := digitRun(a[i:])
			rb, _ := digitRun(b[i:])
			if len(ra) == len(rb) {
				return cmp.Compare(ca, cb)
			}
			s := i
			for s > 0 && isDigit(a[s-1]) {
				s--
			}
			na, _ := digitRun(a[s:])
			nb, _ := digitRun(b[s:])
			if c := compareDigits(na, nb); c != 0 {
				return c
			}
		case !da && !db && ca < utf8.RuneSelf && cb < utf8.RuneSelf:
			ca, cb = lowerASCII(ca), lowerASCII(cb)
			if ca != cb {
				return cmp.Compare(ca, cb)
			}
		}
	}
	for i > 0 && (isDigit(a[i-1]) || i < len(a) && !utf8.RuneStart(a[i]) || i < len(b) && !utf8.RuneStart(b[i])) {
		i--
	}
	return compareNames(a[i:], b[i:])
}

// LastNumber finds the last run of digits of a name, s[from:to], and its
// value: two names with the same bytes before their last runs of digits
// and runs of different values compare (Compare) as the values do,
// whatever follows. A sort can then tell such names apart by
// a number, as the copies of a replicated table's indices are
// ("RDB$INDEX_15_00017", "RDB$INDEX_15_00018"). ok is false for a name
// without digits or whose last run has more than 19 (a value beyond
// uint64's).
func LastNumber(s string) (from, to int, v uint64, ok bool) {
	to = len(s)
	for to > 0 && !isDigit(s[to-1]) {
		to--
	}
	from = to
	for from > 0 && isDigit(s[from-1]) {
		from--
	}
	if from == to || to-from > 19 {
		return 0, 0, 0, false
	}
	for _, c := range []byte(s[from:to]) {
		v = v*10 + uint64(c-'0')
	}
	return from, to, v, true
}

// compareNames is Compare without its shortcut.
func compareNames(a, b string) int {
	if c := natural(a, b, true); c != 0 {
		return c
	}
	if c := natural(a, b, false); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// compareFolded is strings.Compare(strings.ToLower(a), strings.ToLower(b))
// without building the lower-case copies (a sort compares names many
// times): UTF-8 orders bytes as code points, so comparing the lowered
// runes gives the same order.
func compareFolded(a, b string) int {
	for a != "" && b != "" {
		ca, cb := a[0], b[0]
		if ca < utf8.RuneSelf && cb < utf8.RuneSelf {
			ca, cb = lowerASCII(ca), lowerASCII(cb)
			if ca != cb {
				return cmp.Compare(ca, cb)
			}
			a, b = a[1:], b[1:]
			continue
		}
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if la, lb := unicode.ToLower(ra), unicode.ToLower(rb); la != lb {
			return cmp.Compare(la, lb)
		}
		a, b = a[na:], b[nb:]
	}
	return cmp.Compare(len(a), len(b))
}

// natural compares a and b run by run; fold ignores case in text runs.
func natural(a, b string, fold bool) int {
	for a != "" && b != "" {
		da, db := isDigit(a[0]), isDigit(b[0])
		switch {
		case da && db:
			na, ra := digitRun(a)
			nb, rb := digitRun(b)
			if c := compareDigits(na, nb); c != 0 {
				return c
			}
			a, b = ra, rb
		case da != db:
			// A number sorts before text ("T1" before "TA").
			if da {
				return -1
			}
			return 1
		default:
			ta, ra := textRun(a)
			tb, rb := textRun(b)
			c := 0
			if fold {
				c = compareFolded(ta, tb)
			} else {
				c = strings.Compare(ta, tb)
			}
			if c != 0 {
				// One run may be a prefix of the other followed by a digit
				// in the other name: "A" then "1" against "AB".
				return c
			}
			a, b = ra, rb
		}
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	}
	return 1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// CommonPrefix is the length of the prefix a and b share, eight bytes a
// step: index names of a big run that tie on their size share most of
// theirs ("RDB$FOREIGN13_00017"), a warning's reason most of its rule's
// first (extsort.TextRefs).
func CommonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := load8(a, i) ^ load8(b, i); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// CommonSuffix is the length of the suffix a and b share, eight bytes a
// step: a warning's reason ends as its rule's first does
// (extsort.TextRefs).
func CommonSuffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := load8(a, len(a)-i-8) ^ load8(b, len(b)-i-8); x != 0 {
			return i + bits.LeadingZeros64(x)/8
		}
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// load8 is the eight bytes of s from i, little-endian: printable.Load8,
// written again because units imports only the standard library.
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func digitRun(s string) (run, rest string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

func textRun(s string) (run, rest string) {
	i := 0
	for i < len(s) && !isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// compareDigits compares two runs of digits as numbers of any length.
func compareDigits(a, b string) int {
	for a != "" && a[0] == '0' {
		a = a[1:]
	}
	for b != "" && b[0] == '0' {
		b = b[1:]
	}
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
