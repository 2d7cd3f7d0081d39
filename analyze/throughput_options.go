package analyze

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// The choices of Options an OptionError names, in the words of the
// Options fields: the caller (the command line) knows what each is
// called on its side.
const (
	OptionX       = "x"
	OptionY       = "y"
	OptionSeries  = "series"
	OptionTable   = "table"
	OptionPredict = "predict"
	OptionKnee    = "knee"
)

// ErrOption is what every OptionError is (errors.Is): the caller asked
// for something the input does not have.
var ErrOption = errors.New("the input does not have what was asked for")

// ErrNoColumn is an input in which no column can serve as x or y, none
// being named: the caller can name one.
var ErrNoColumn = errors.New("no column to use")

// OptionError is a choice of the caller that the input cannot meet: a
// column that is not there, a size when the x values are not sizes, a
// table number beyond the file's. Option is one of the Option…
// constants, Value the choice as given, Msg what is wrong with it.
type OptionError struct {
	Option string
	Value  string
	Msg    string
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("%s %q: %s", e.Option, e.Value, e.Msg)
}

// Unwrap makes errors.Is(err, ErrOption) true.
func (e *OptionError) Unwrap() error { return ErrOption }

// At is a place on the x axis the caller asks about (a prediction, a
// knee): a size in bytes, or a figure in the x column's own unit
// (warehouses, a scale factor). The zero At asks for nothing, and a
// degradation then uses fbdiag's default (DefaultPredictAt, DefaultKnee).
type At struct {
	Value float64
	// Size is true when Value is a size in bytes.
	Size bool
}

// IsZero reports whether nothing was asked for.
func (a At) IsZero() bool { return a == At{} }

// String is the place as people read it: "2.00 TiB", "1000".
func (a At) String() string {
	if a.Size {
		return units.SizeFloat(a.Value)
	}
	return strconv.FormatFloat(a.Value, 'g', -1, 64)
}

// ParseAt reads a place on the x axis: a size with its unit ("16GB",
// "2TiB"; GB means GiB, see units.ParseSize) or a positive figure in the
// x unit ("1000"). Empty text is the zero At.
func ParseAt(s string) (At, error) {
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return At{}, nil
	case units.HasUnit(t):
		b, err := units.ParseSize(t)
		if err != nil {
			return At{}, err
		}
		if b <= 0 {
			return At{}, fmt.Errorf("size %q: want a positive size such as 16GB or 2TB", s)
		}
		return At{Value: float64(b), Size: true}, nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return At{}, fmt.Errorf("%q: want a positive size such as 16GB or 2TB, or a figure in the x unit", s)
	}
	return At{Value: v}, nil
}

// inX converts a place to the unit of the x values: a size is divided
// by the bytes of one x unit; a figure is taken as it is.
func (g *gathered) inX(a At, option string) (float64, error) {
	if a.IsZero() {
		return math.NaN(), nil
	}
	if !a.Size {
		return a.Value, nil
	}
	if g.xUnit.Kind != parse.KindSize || g.xUnit.Factor == 0 {
		return 0, &OptionError{Option: option, Value: a.String(), Msg: fmt.Sprintf("the x values (%s) are not sizes", g.xName)}
	}
	return a.Value / g.xUnit.Factor, nil
}

// DefaultPredictAt is where a degradation is extrapolated when no size
// was asked for: the throughput-degradation.predict_factor threshold
// times the largest size measured; NaN without a positive size or with
// the factor set to 0.
func DefaultPredictAt(xs []float64) float64 {
	f := NewThresholds().Get("throughput-degradation", "predict_factor")
	hi := math.Inf(-1)
	for _, x := range xs {
		hi = math.Max(hi, x)
	}
	if !(hi > 0) || f <= 0 || math.IsInf(hi, 0) {
		return math.NaN()
	}
	return hi * f
}

// DefaultKnee is where the cliff test runs when no knee was asked for:
// at the size before the largest jump between consecutive measured
// sizes, when that jump is at least the throughput-degradation.knee_jump
// threshold and leaves two sizes on each side (the test needs them).
// ok is false when no jump qualifies (the seed's 30 GB → 1.8 TB has one
// size above it).
func DefaultKnee(xs []float64) (at float64, ok bool) {
	jump := NewThresholds().Get("throughput-degradation", "knee_jump")
	var sizes []float64
	seen := map[float64]bool{}
	for _, x := range xs {
		if x > 0 && !seen[x] && !math.IsInf(x, 0) {
			seen[x] = true
			sizes = append(sizes, x)
		}
	}
	sort.Float64s(sizes)
	best := 0.0
	for i := 1; i < len(sizes); i++ {
		r := sizes[i] / sizes[i-1]
		if r <= best {
			continue
		}
		best = r
		// Two sizes at or below the knee and two above it.
		ok = jump > 0 && r >= jump && i >= 2 && len(sizes)-i >= 2
		at = sizes[i-1]
	}
	if !ok {
		return 0, false
	}
	return at, true
}

// The figures of the throughput verdicts are written as every output
// writes them (package view): changes "+0.8 %", shares "10.0 %", p
// "p=0.541" or "p<0.001", other figures with three significant digits.

// signedPct writes a change as a signed percentage: "+0.8 %".
func signedPct(f float64) string { return units.SignedPercent(f) }

// pct writes a share as a percentage: "10.0 %".
func pct(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + " %" }

// pText writes a p-value: "p=0.541", "p<0.001".
func pText(p float64) string {
	if p < 0.0005 {
		return "p<0.001"
	}
	return "p=" + strconv.FormatFloat(p, 'f', 3, 64)
}
