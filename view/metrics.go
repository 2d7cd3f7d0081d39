package view

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/internal/numfmt"
	"github.com/fbdiag/fbdiag/internal/printable"
)

// writeMetrics writes the metric families of every document as one
// OpenMetrics exposition: a family's samples together, those of later
// documents after the first's, then "# EOF".
func writeMetrics(w io.Writer, docs []*Doc) error {
	return writeMetricsWith(w, docs, nil)
}

// familySamples writes the samples of family name (their names sample) in
// place of the documents' own.
type familySamples func(b *bufio.Writer, name, sample string) error

// writeMetricsWith is writeMetrics, but the samples of a family for which
// samplesOf (when not nil) gives a writer are written by it, once the
// family's type and unit are checked in every document.
func writeMetricsWith(w io.Writer, docs []*Doc, samplesOf func(name string) familySamples) error {
	var names []string
	byName := map[string][]MetricFamily{}
	for _, d := range docs {
		for _, f := range d.Metrics {
			if _, ok := byName[f.Name]; !ok {
				names = append(names, f.Name)
			}
			byName[f.Name] = append(byName[f.Name], f)
		}
	}
	if len(names) == 0 {
		return ErrNoMetrics
	}
	b := bufio.NewWriter(w)
	for _, name := range names {
		fams := byName[name]
		f := fams[0]
		if err := checkFamily(f); err != nil {
			return err
		}
		sample := writeFamilyHead(b, &f)
		var write familySamples
		if samplesOf != nil {
			write = samplesOf(name)
		}
		seen := map[string]bool{}
		for _, g := range fams {
			if g.Type != f.Type || g.Unit != f.Unit {
				return fmt.Errorf("metric %s: type %s %q and %s %q in two documents", name, f.Type, f.Unit, g.Type, g.Unit)
			}
			if write != nil {
				continue
			}
			if err := writeSamples(b, name, sample, &g, seen); err != nil {
				return err
			}
		}
		if write != nil {
			if err := write(b, name, sample); err != nil {
				return err
			}
		}
	}
	fmt.Fprintln(b, "# EOF")
	return b.Flush()
}

func checkFamily(f MetricFamily) error {
	switch {
	case !validName(f.Name, true):
		return fmt.Errorf("metric name %q is not valid", f.Name)
	case f.Type != Gauge && f.Type != Counter:
		return fmt.Errorf("metric %s: type %q is not gauge or counter", f.Name, f.Type)
	case f.Unit != "" && !strings.HasSuffix(f.Name, "_"+f.Unit):
		return fmt.Errorf("metric %s: the name must end with its unit %q", f.Name, f.Unit)
	case f.Type == Counter && strings.HasSuffix(f.Name, "_total"):
		return fmt.Errorf("metric %s: a counter's family name has no _total", f.Name)
	}
	return nil
}

// validName reports whether s is a metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)
// or, without colon, a label name ([a-zA-Z_][a-zA-Z0-9_]*).
func validName(s string, colon bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_':
		case c == ':' && colon:
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// labelText is {a="x",b="y"}, or "" without labels.
func labelText(ls []Label) (string, error) {
	if len(ls) == 0 {
		return "", nil
	}
	b := []byte{'{'}
	for i, l := range ls {
		if !validName(l.Name, false) || strings.HasPrefix(l.Name, "__") {
			return "", fmt.Errorf("label name %q is not valid", l.Name)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, l.Name...)
		b = append(b, `="`...)
		b = appendLabelValue(b, l.Value)
		b = append(b, '"')
	}
	return string(append(b, '}')), nil
}

// escapeLabel escapes a label value: control characters, bidi controls
// and invalid UTF-8 as printable writes them (\x1b, \u202e: inert text),
// then backslash, double quote and newline as the format wants.
func escapeLabel(s string) string {
	return labelReplacer.Replace(safe(s))
}

var labelReplacer = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// appendLabelValue appends escapeLabel(s): s itself when it is printable
// ASCII without a backslash or double quote, as most names are. The names
// are checked eight bytes at a time: a big run's OpenMetrics makes the
// labels of 600,000 tables and indices.
func appendLabelValue(b []byte, s string) []byte {
	if len(s) >= 8 {
		for i := 0; i < len(s)-8; i += 8 {
			if !plainLabel8(printable.Load8(s, i)) {
				return append(b, escapeLabel(s)...)
			}
		}
		// (the last eight bytes, some of them checked already)
		if !plainLabel8(printable.Load8(s, len(s)-8)) {
			return append(b, escapeLabel(s)...)
		}
		return append(b, s...)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '\\' || c == '"' {
			return append(b, escapeLabel(s)...)
		}
	}
	return append(b, s...)
}

// plainLabel8 reports whether the eight bytes of x are all printable
// ASCII that a label value holds as it is: none has its high bit set, none
// is below 0x20 (subtracting 0x20 from each borrows only where a byte is
// smaller) or DEL (adding one sets the high bit of 0x7f alone), none is a
// double quote or a backslash (no byte of x XOR the repeated one is zero).
func plainLabel8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return (x|(x-0x20*ones)|(x+ones))&highs|printable.Has8(x, '"')|printable.Has8(x, '\\') == 0
}

// escapeHelp escapes a HELP text: as a label value, but a double quote
// becomes an apostrophe, since OpenMetrics wants it escaped and the
// Prometheus text parser (node_exporter's textfile collector) refuses \".
func escapeHelp(s string) string {
	return helpReplacer.Replace(safe(s))
}

var helpReplacer = strings.NewReplacer(`\`, `\\`, `"`, "'", "\n", `\n`)

// metricValue prints a sample value: whole numbers in full, others in
// the shortest form that reads back the same; NaN, +Inf, -Inf.
func metricValue(v float64) string { return string(appendMetricValue(nil, v)) }

// appendMetricValue appends metricValue(v).
func appendMetricValue(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, "NaN"...)
	case math.IsInf(v, 1):
		return append(b, "+Inf"...)
	case math.IsInf(v, -1):
		return append(b, "-Inf"...)
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.AppendFloat(b, v, 'f', 0, 64)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// appendMetricInt appends metricValue(float64(v)): the digits of v below
// 1e15 (which a float64 holds exactly).
func appendMetricInt(b []byte, v int64) []byte {
	if -1e15 < v && v < 1e15 {
		return numfmt.AppendInt(b, v)
	}
	return appendMetricValue(b, float64(v))
}

// writeFamilyHead writes a family's HELP, TYPE and UNIT lines and returns
// the name its samples take (a counter's ends in _total).
func writeFamilyHead(b *bufio.Writer, f *MetricFamily) string {
	fmt.Fprintf(b, "# HELP %s %s\n", f.Name, escapeHelp(f.Help))
	fmt.Fprintf(b, "# TYPE %s %s\n", f.Name, f.Type)
	if f.Unit != "" {
		fmt.Fprintf(b, "# UNIT %s %s\n", f.Name, f.Unit)
	}
	if f.Type == Counter {
		return f.Name + "_total"
	}
	return f.Name
}

// writeSamples writes the samples of one document's family, refusing a
// set of labels seen before in the family.
func writeSamples(b *bufio.Writer, name, sample string, f *MetricFamily, seen map[string]bool) error {
	if f.Samples == nil {
		return nil
	}
	for s := range f.Samples {
		labels, err := labelText(s.Labels)
		if err != nil {
			return fmt.Errorf("metric %s: %w", name, err)
		}
		if seen[labels] {
			return fmt.Errorf("metric %s%s: %w", name, labels, ErrDuplicateSample)
		}
		seen[labels] = true
		fmt.Fprintf(b, "%s%s %s\n", sample, labels, metricValue(s.Value))
	}
	return nil
}
