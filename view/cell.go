package view

import (
	"math"
	"strconv"
	"time"

	"github.com/fbdiag/fbdiag/internal/numfmt"
	"github.com/fbdiag/fbdiag/internal/units"
)

// Kind is what a cell holds, which decides how it is printed.
type Kind uint8

// The kinds of cell.
const (
	TextKind    Kind = iota // a name or a word
	CountKind               // a whole number: records, pages, transactions
	NumberKind              // a figure: versions per record, selectivity
	BytesKind               // a size in bytes
	SecondsKind             // a duration in seconds
	ShareKind               // a part of a whole, 0..1 ("69.0 %")
	ChangeKind              // a relative change, signed ("+12.3 %")
	RatioKind               // other / base ("×1.85")
	TimeKind                // a date and time
	PKind                   // a p-value ("0.541", "<0.001")
	R2Kind                  // a growth fit's R² ("0.9999": four decimals)
	PercentKind             // a whole percentage as gstat prints it, kept as a share ("69 %")
)

// numeric reports whether cells of the kind are figures (right-aligned,
// with data-sort in HTML).
func (k Kind) numeric() bool { return k != TextKind && k != TimeKind }

// Cell is one typed value of a table or field.
type Cell struct {
	Kind Kind
	// Text is the value of a text cell.
	Text string
	// Int is the value of a count or bytes cell, Num of the other
	// figures, T of a time.
	Int int64
	Num float64
	T   time.Time
	// Null is a value the input did not hold: empty in every format.
	Null bool
}

// Str is a text cell.
func Str(s string) Cell { return Cell{Kind: TextKind, Text: s} }

// StrP is a text cell, null for nil.
func StrP(p *string) Cell {
	if p == nil {
		return Cell{Kind: TextKind, Null: true}
	}
	return Str(*p)
}

// Int is a count.
func Int(n int64) Cell { return Cell{Kind: CountKind, Int: n} }

// IntP is a count, null for nil.
func IntP(p *int64) Cell {
	if p == nil {
		return Cell{Kind: CountKind, Null: true}
	}
	return Int(*p)
}

// Num is a figure.
func Num(v float64) Cell { return Cell{Kind: NumberKind, Num: v} }

// NumP is a figure, null for nil.
func NumP(p *float64) Cell { return floatP(NumberKind, p) }

// Bytes is a size.
func Bytes(b int64) Cell { return Cell{Kind: BytesKind, Int: b} }

// bytesOf is a size in bytes that need not be whole (a size a day, a
// fitted size) as a cell, rounded; null where a byte count cannot hold
// it (8 EiB or more, a NaN) rather than a wrapped int64.
func bytesOf(v float64) Cell {
	n := math.Round(v)
	if !(math.Abs(n) < 1<<63) {
		return Null(BytesKind)
	}
	return Bytes(int64(n))
}

// BytesP is a size, null for nil.
func BytesP(p *int64) Cell {
	if p == nil {
		return Cell{Kind: BytesKind, Null: true}
	}
	return Bytes(*p)
}

// Sec is a duration in seconds.
func Sec(v float64) Cell { return Cell{Kind: SecondsKind, Num: v} }

// SecP is a duration, null for nil.
func SecP(p *float64) Cell { return floatP(SecondsKind, p) }

// Share is a part of a whole, 0..1.
func Share(v float64) Cell { return Cell{Kind: ShareKind, Num: v} }

// ShareP is a share, null for nil.
func ShareP(p *float64) Cell { return floatP(ShareKind, p) }

// Percent is a whole percentage as gstat prints it ("average fill: 69%"):
// a share in machine formats (0.69), without a decimal gstat did not
// give in the others ("69 %", not "69.0 %").
func Percent(v int) Cell { return Cell{Kind: PercentKind, Num: float64(v) / 100} }

// Change is a relative change, (other − base) / base.
func Change(v float64) Cell { return Cell{Kind: ChangeKind, Num: v} }

// ChangeP is a change, null for nil.
func ChangeP(p *float64) Cell { return floatP(ChangeKind, p) }

// Ratio is other / base.
func Ratio(v float64) Cell { return Cell{Kind: RatioKind, Num: v} }

// RatioP is a ratio, null for nil.
func RatioP(p *float64) Cell { return floatP(RatioKind, p) }

// Time is a date and time.
func Time(t time.Time) Cell { return Cell{Kind: TimeKind, T: t} }

// TimeP is a time, null for nil.
func TimeP(p *time.Time) Cell {
	if p == nil {
		return Cell{Kind: TimeKind, Null: true}
	}
	return Time(*p)
}

// P is the p-value of a test.
func P(v float64) Cell { return Cell{Kind: PKind, Num: v} }

// PP is a p-value, null for nil (no test).
func PP(p *float64) Cell { return floatP(PKind, p) }

// R2P is a fit's coefficient of determination, null for nil.
func R2P(p *float64) Cell { return floatP(R2Kind, p) }

// Null is an empty cell of a kind.
func Null(k Kind) Cell { return Cell{Kind: k, Null: true} }

// Unknown is a null cell that human formats print as "?": a figure the
// input holds but that cannot be right (a wrapped counter), where an
// empty cell would read as a figure it never gave. Machine formats leave
// it empty, as any null.
func Unknown(k Kind) Cell { return Cell{Kind: k, Null: true, Text: "?"} }

func floatP(k Kind, p *float64) Cell {
	if p == nil {
		return Cell{Kind: k, Null: true}
	}
	return Cell{Kind: k, Num: *p}
}

// Value is the cell as a number (counts and sizes converted); NaN for
// text, times and null cells.
func (c Cell) Value() float64 {
	switch {
	case c.Null || c.Kind == TextKind || c.Kind == TimeKind:
		return math.NaN()
	case c.Kind == CountKind || c.Kind == BytesKind:
		return float64(c.Int)
	}
	return c.Num
}

// Human prints the cell for people: sizes in IEC units, durations as
// h:mm:ss above a minute, shares and changes in percent, ratios with ×,
// figures with three significant digits. A null cell is "", an Unknown
// one "?".
func (c Cell) Human() string {
	if c.Null {
		return c.Text
	}
	switch c.Kind {
	case TextKind:
		return c.Text
	case CountKind:
		return strconv.FormatInt(c.Int, 10)
	case NumberKind:
		return figure(c.Num)
	case BytesKind:
		return units.Size(c.Int)
	case SecondsKind:
		return units.Seconds(c.Num)
	case ShareKind, PercentKind, ChangeKind:
		if bad(c.Num) {
			return units.Dash
		}
		decimals := 1
		if c.Kind == PercentKind {
			decimals = 0 // (gstat gave none)
		}
		s := strconv.FormatFloat(100*c.Num, 'f', decimals, 64)
		// A share just short of the whole must not read as all of it (total
		// dup 99989 of 100000 keys is 11 distinct values, not "100.0 %"),
		// nor one a hair below zero as "-0.0 %".
		if c.Kind == ShareKind {
			switch {
			case s == "100.0" && c.Num < 1:
				s = "99.9"
			case s == "-0.0":
				s = "0.0"
			}
		}
		if c.Kind == ChangeKind {
			return units.SignedPercent(c.Num)
		}
		return s + " %"
	case RatioKind:
		if bad(c.Num) {
			return units.Dash
		}
		return "×" + units.Ratio(c.Num)
	case TimeKind:
		return c.T.Format("2006-01-02 15:04:05")
	case R2Kind:
		if bad(c.Num) {
			return units.Dash
		}
		// Four decimals, as the trend chart's legend has it: three
		// significant figures, as other figures print, read 0.99986 as
		// "1", an exact fit; nor does one below 1 round up to 1.0000.
		if c.Num < 1 && c.Num > 0.99995 {
			return "0.9999"
		}
		return strconv.FormatFloat(c.Num, 'f', 4, 64)
	case PKind:
		// Three decimals, as the tests are read at alpha 0.05; a smaller
		// p says only that it is smaller.
		switch {
		case bad(c.Num):
			return units.Dash
		case c.Num < 0.0005:
			return "<0.001"
		}
		return strconv.FormatFloat(c.Num, 'f', 3, 64)
	}
	return ""
}

// Machine prints the cell for a spreadsheet or a script: counts and
// sizes as whole numbers, shares, changes and ratios as plain fractions
// (0.69), seconds as a plain figure, times as ISO 8601 without a zone (the
// inputs give none). A null cell, NaN and infinities are "".
func (c Cell) Machine() string {
	if c.Null {
		return ""
	}
	switch c.Kind {
	case TextKind:
		return c.Text
	case CountKind, BytesKind:
		return strconv.FormatInt(c.Int, 10)
	case TimeKind:
		return c.T.Format("2006-01-02T15:04:05")
	}
	if bad(c.Num) {
		return ""
	}
	return plain(c.Num)
}

// plain prints a float in full without an exponent, unless it is huge.
func plain(v float64) string {
	var buf [32]byte
	return string(appendPlain(buf[:0], v))
}

// appendPlain appends plain(v) to b. Below 1e21 that is strconv's 'f'
// form, which numfmt writes faster (a big run's selectivities have 17
// digits); NaN takes that branch too, and numfmt leaves it to strconv.
func appendPlain(b []byte, v float64) []byte {
	if math.Abs(v) >= 1e21 {
		return strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	return numfmt.AppendFloat(b, v)
}

// figure prints a figure for people: whole numbers as they are, others
// with three significant digits, trailing zeros dropped ("0.3", "1.85").
func figure(v float64) string { return units.Figure(v) }

func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
