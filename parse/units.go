package parse

import (
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Kind is what a figure measures. Columns and benchmark figures of the
// same kind can be converted into each other (GB and MB, ms and s);
// figures of different kinds cannot.
type Kind int

// The kinds of figure throughput inputs carry.
const (
	KindNone    Kind = iota // a bare number: a setting, a row number
	KindSize                // bytes: database size
	KindTime                // seconds: load or restore time
	KindSpeed               // bytes per second: load speed
	KindRate                // work per time or a score: tps, ops/s, NOPM, points
	KindPercent             // a percentage
)

func (k Kind) String() string {
	switch k {
	case KindSize:
		return "size"
	case KindTime:
		return "time"
	case KindSpeed:
		return "speed"
	case KindRate:
		return "rate"
	case KindPercent:
		return "percent"
	}
	return "none"
}

// Unit is a recognised unit. Factor converts a value in this unit to the
// base of its kind (bytes, seconds, bytes/s); rates and scores keep their
// own unit (a NOPM is not a tps), so their factor is 1.
//
// Sizes are binary (1 GB = 1024 MB), as Firebird, gstat and the seed
// articles count them ("1813 GB", load speed with 1024 MB per GB). "Gb"
// and "Mb/seg" are read as bytes too: that is what the articles mean.
type Unit struct {
	Kind   Kind
	Symbol string
	Factor float64
}

// IsZero reports whether no unit was recognised.
func (u Unit) IsZero() bool { return u.Symbol == "" }

const (
	kib = 1024.0
	mib = kib * 1024
	gib = mib * 1024
	tib = gib * 1024
	pib = tib * 1024
)

// SizeUnits are the display units of sizes, smallest first.
var SizeUnits = []Unit{
	{KindSize, "B", 1}, {KindSize, "KB", kib}, {KindSize, "MB", mib},
	{KindSize, "GB", gib}, {KindSize, "TB", tib}, {KindSize, "PB", pib},
}

var sizeWords = map[string]Unit{
	"b": SizeUnits[0], "byte": SizeUnits[0], "bytes": SizeUnits[0], "octets": SizeUnits[0],
	"k": SizeUnits[1], "kb": SizeUnits[1], "kib": SizeUnits[1], "ko": SizeUnits[1],
	"m": SizeUnits[2], "mb": SizeUnits[2], "mib": SizeUnits[2], "mo": SizeUnits[2],
	"g": SizeUnits[3], "gb": SizeUnits[3], "gib": SizeUnits[3], "go": SizeUnits[3],
	"t": SizeUnits[4], "tb": SizeUnits[4], "tib": SizeUnits[4], "to": SizeUnits[4],
	"p": SizeUnits[5], "pb": SizeUnits[5], "pib": SizeUnits[5],
}

var timeWords = map[string]Unit{
	"us": {KindTime, "µs", 1e-6}, "µs": {KindTime, "µs", 1e-6},
	"ms": {KindTime, "ms", 1e-3}, "msec": {KindTime, "ms", 1e-3},
	"s": {KindTime, "s", 1}, "sec": {KindTime, "s", 1}, "secs": {KindTime, "s", 1},
	"seg": {KindTime, "s", 1}, "second": {KindTime, "s", 1}, "seconds": {KindTime, "s", 1},
	"segundos": {KindTime, "s", 1}, "secondes": {KindTime, "s", 1},
	"segundo": {KindTime, "s", 1}, "seconde": {KindTime, "s", 1},
	"min": {KindTime, "min", 60}, "mins": {KindTime, "min", 60}, "minutes": {KindTime, "min", 60},
	"minute": {KindTime, "min", 60}, "minuto": {KindTime, "min", 60}, "minutos": {KindTime, "min", 60},
	"h": {KindTime, "h", 3600}, "hr": {KindTime, "h", 3600}, "hours": {KindTime, "h", 3600},
	"hour": {KindTime, "h", 3600}, "hora": {KindTime, "h", 3600}, "horas": {KindTime, "h", 3600},
	"heure": {KindTime, "h", 3600}, "heures": {KindTime, "h", 3600},
}

// perWords join a count to its time in a header: "queries per second",
// "transacciones por segundo", "requêtes par seconde".
var perWords = map[string]bool{"per": true, "por": true, "par": true}

// countWords are what a throughput counts, written out in a header
// ("transactions per second", "consultas por segundo").
var countWords = map[string]bool{
	"transactions": true, "transaction": true, "txn": true, "txns": true, "queries": true, "query": true,
	"requests": true, "request": true, "operations": true, "operation": true, "statements": true,
	"events": true, "commits": true, "orders": true, "transacciones": true, "consultas": true,
	"operaciones": true, "requêtes": true, "requetes": true, "opérations": true,
	"req": true, "reqs": true,
}

// rateWords are the throughput units benchmark tools and articles use.
// Per-minute figures (NOPM, TPM) stay per minute: that is how HammerDB
// users quote them.
var rateWords = map[string]Unit{
	"tps": {KindRate, "tps", 1}, "qps": {KindRate, "qps", 1}, "eps": {KindRate, "eps", 1},
	"ops": {KindRate, "ops/s", 1}, "op/s": {KindRate, "ops/s", 1}, "ops/s": {KindRate, "ops/s", 1},
	"ops/sec": {KindRate, "ops/s", 1},
	"nopm":    {KindRate, "NOPM", 1}, "tpm": {KindRate, "TPM", 1}, "tpmc": {KindRate, "tpmC", 1},
	"notpm":  {KindRate, "NOTPM", 1}, // (DBT-2's new-order transactions per minute)
	"points": {KindRate, "points", 1}, "point": {KindRate, "points", 1}, "puntos": {KindRate, "points", 1},
	"score": {KindRate, "score", 1}, "포인트": {KindRate, "points", 1},
}

// ParseUnit recognises a unit written on its own: "GB", "GiB", "Mb/seg",
// "ops/s", "tps", "ms".
func ParseUnit(s string) (Unit, bool) {
	w := strings.ToLower(strings.TrimSpace(s))
	w = strings.Trim(w, "()[]{}")
	if w == "" {
		return Unit{}, false
	}
	if w == "%" {
		return Unit{KindPercent, "%", 1}, true
	}
	if u, ok := rateWords[w]; ok {
		return u, true
	}
	if u, ok := timeWords[w]; ok {
		return u, true
	}
	if u, ok := sizeWords[w]; ok && w != "m" && w != "k" && w != "g" && w != "t" && w != "p" {
		return u, true
	}
	if i := strings.IndexByte(w, '/'); i > 0 {
		num, den := w[:i], w[i+1:]
		t, tok := timeWords[den]
		if !tok {
			return Unit{}, false
		}
		if sz, ok := sizeWords[num]; ok {
			return Unit{KindSpeed, sz.Symbol + "/s", sz.Factor / t.Factor}, true
		}
		if r, ok := rateWords[num]; ok && t.Symbol == "s" {
			return Unit{KindRate, strings.TrimSuffix(r.Symbol, "/s") + "/s", 1}, true
		}
		// A count per time ("ops/min", "Transactions/sec", "req/s") is a
		// rate of what it counts in that time: per minute stays per
		// minute, as NOPM does.
		if num == "op" || num == "ops" || num == "tx" || num == "trans" {
			return Unit{KindRate, "ops/" + t.Symbol, 1}, true
		}
		if countWords[num] {
			return Unit{KindRate, num + "/" + t.Symbol, 1}, true
		}
	}
	return Unit{}, false
}

// HeaderUnit finds the unit in a column header or config key: "size_gb",
// "load_speed_mb_s", "ops_per_s", "db_bytes", "tamaño de base de datos, gb",
// "velocidad de carga SATA, Mb/seg", "Size (GiB)". The unit is looked for
// in the last words, where headers put it.
func HeaderUnit(h string) Unit {
	words := headerWords(h)
	n := len(words)
	if n == 0 {
		return Unit{}
	}
	// "x/s", "mb s", "ops per s": a speed or a rate at the end.
	last := words[n-1]
	if u, ok := ParseUnit(last); ok && strings.Contains(last, "/") {
		return u
	}
	if n >= 2 {
		if t, isTime := timeWords[last]; isTime {
			prev, per := words[n-2], false
			if perWords[prev] && n >= 3 {
				prev, per = words[n-3], true
			}
			if u, ok := ParseUnit(prev + "/" + last); ok {
				return u
			}
			if per && countWords[prev] {
				// A count of work per time ("queries per second") is a
				// rate of what it counts, not a time: read as seconds it
				// made a throughput table a load table. (Rows per second
				// is how fast a load goes: bench init's rows_per_s.)
				return Unit{KindRate, prev + "/" + t.Symbol, 1}
			}
		}
	}
	// A unit word anywhere near the end ("size_gb", "classic_points", "points de test").
	for i := n - 1; i >= 0 && i >= n-3; i-- {
		w := words[i]
		if i == 0 && n > 1 && (w == "b" || w == "s") {
			break
		}
		if u, ok := ParseUnit(w); ok {
			return u
		}
	}
	return Unit{}
}

// headerWords splits a header into lower-case words, keeping "/" inside
// words ("mb/seg") and "%".
func headerWords(h string) []string {
	f := func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '/' || r == '%' || r == 'µ')
	}
	words := strings.FieldsFunc(strings.ToLower(h), f)
	return words
}

// ParseNumber reads a number as people write it in tables: "9,04" and
// "1813,969025" (decimal comma), "1,234.5", "1.234,5", "1 234" and
// "1'234" (thousands separators), a leading "+", a trailing "%".
// decimalComma settles "1,234": true reads it as 1.234, false as 1234.
func ParseNumber(s string, decimalComma bool) (float64, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, "%")
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return 0, false
		}
		if decimalComma && strings.Count(s, ".") == 1 && isGroupedBy(s, '.') {
			// "1.234" in a column written with decimal commas is a thousand.
			return ParseNumber(strings.ReplaceAll(s, ".", ""), false)
		}
		return v, true
	}
	var b strings.Builder
	b.Grow(len(s))
	lastComma, lastDot := strings.LastIndexByte(s, ','), strings.LastIndexByte(s, '.')
	commas, dots := strings.Count(s, ","), strings.Count(s, ".")
	dec := byte(0)
	switch {
	case commas > 0 && dots > 0:
		if lastComma > lastDot {
			dec = ','
		} else {
			dec = '.'
		}
	case commas == 1:
		if decimalComma || !isGroupedBy(s, ',') {
			dec = ','
		}
	case dots == 1:
		dec = '.'
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c == '-', c == '+', c == 'e', c == 'E':
			b.WriteByte(c)
		case c == dec:
			b.WriteByte('.')
		case c == ',' || c == '.' || c == ' ' || c == '\'' || c == '_':
			// thousands separator
		case c == 0xC2 && i+1 < len(s) && s[i+1] == 0xA0: // no-break space
			i++
		case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && s[i+2] == 0xAF: // narrow no-break space
			i += 2
		default:
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(b.String(), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// isGroupedBy reports whether s looks like thousands grouped by sep: one to
// three digits, then groups of exactly three.
func isGroupedBy(s string, sep byte) bool {
	s = strings.TrimLeft(s, "+-")
	parts := strings.Split(s, string(sep))
	if len(parts) < 2 || len(parts[0]) == 0 || len(parts[0]) > 3 {
		return false
	}
	for _, p := range parts[1:] {
		if len(p) != 3 {
			return false
		}
	}
	return true
}

// ParseQuantity reads a number with an optional unit written after it:
// "10GB", "1.7 TB", "812 tps", "2,5 min", "9,04", and durations written
// in several parts ("4 horas 7 minutos", "2h35m", "1:02:03"), in seconds.
func ParseQuantity(s string, decimalComma bool) (float64, Unit, bool) {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) && !decimalComma {
		return v, Unit{}, true // the common case, first
	}
	if v, ok := parseDuration(s, decimalComma); ok {
		return v, timeWords["s"], true
	}
	i := len(s)
	for i > 0 {
		c := s[i-1]
		if (c >= '0' && c <= '9') || c == '.' || c == ',' {
			break
		}
		i--
	}
	num, unit := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i:])
	if unit == "" {
		v, ok := ParseNumber(num, decimalComma)
		return v, Unit{}, ok
	}
	u, ok := ParseUnit(unit)
	if !ok {
		// A lone letter after a number is a size: "16G", "2T".
		if w := strings.ToLower(unit); len(w) == 1 {
			u, ok = sizeWords[w]
		}
	}
	if !ok {
		return 0, Unit{}, false
	}
	v, ok := ParseNumber(num, decimalComma)
	return v, u, ok
}

// ParseSize reads a size such as "2TB", "16GB", "1813.97 GB" or "512MiB"
// and returns bytes. A bare number has no unit and ok is false.
func ParseSize(s string) (bytes float64, ok bool) {
	v, u, ok := ParseQuantity(s, false)
	if !ok || u.Kind != KindSize {
		return 0, false
	}
	return v * u.Factor, true
}

// SizeUnitFor picks the display unit in which a typical size (bytes) reads
// between 1 and 1024.
func SizeUnitFor(bytes float64) Unit {
	u := SizeUnits[0]
	for _, c := range SizeUnits[1:] {
		if bytes >= c.Factor {
			u = c
		}
	}
	return u
}

// parseDuration reads a duration of two parts or more ("4 horas 7
// minutos", "2h35m", "1:02:03", "12:30" as minutes:seconds) in seconds.
func parseDuration(s string, decimalComma bool) (float64, bool) {
	if strings.Count(s, ":") >= 1 && strings.Count(s, ":") <= 2 {
		parts := strings.Split(s, ":")
		total := 0.0
		for i, p := range parts {
			if p == "" || (i > 0 && len(p) != 2) {
				return 0, false
			}
			v, ok := ParseNumber(p, decimalComma)
			if !ok || v < 0 {
				return 0, false
			}
			total = total*60 + v
		}
		return total, true
	}
	total, pairs := 0.0, 0
	rest := s
	for rest != "" {
		rest = strings.TrimLeft(rest, " ")
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9' || rest[i] == '.' || rest[i] == ',') {
			i++
		}
		if i == 0 {
			return 0, false
		}
		num := rest[:i]
		rest = strings.TrimLeft(rest[i:], " ")
		j := 0
		for j < len(rest) && rest[j] != ' ' && !(rest[j] >= '0' && rest[j] <= '9') {
			j++
		}
		word := strings.ToLower(rest[:j])
		rest = rest[j:]
		u, ok := timeWords[word]
		if word == "m" {
			u, ok = timeWords["min"], true
		}
		if !ok {
			return 0, false
		}
		v, ok := ParseNumber(num, decimalComma)
		if !ok {
			return 0, false
		}
		total += v * u.Factor
		pairs++
	}
	return total, pairs >= 2
}
