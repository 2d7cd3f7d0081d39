// Package labels names inputs after the part of their file names that
// differs: deep-gbak-restore-A.log and deep-gbak-restore-B.log are "A"
// and "B", restore-bu50-run1.log and restore-bu100-run1.log "bu50" and
// "bu100". Comparisons (gbak compare, throughput A/B) label their columns
// so, instead of clipping a long common start ("deep-gbak-res…") into
// labels that all read the same.
//
// It is a leaf: it imports only the standard library.
package labels

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Stdin is the label of standard input ("-").
const Stdin = "stdin"

// Distinct labels each name by what sets it apart from the others: the
// base names without the common prefix and suffix, cut at a separator
// (- _ . space) so that a word is not split ("run1"/"run2" stay whole,
// not "1"/"2"). When stripping leaves a label empty or two alike (one
// file name in two folders), the paths are used the same way; names
// still alike get "#2", "#3". One name is its base name without the
// extension; "-" is "stdin".
func Distinct(names []string) []string {
	out := make([]string, len(names))
	if len(names) == 0 {
		return out
	}
	bases := make([]string, len(names))
	for i, n := range names {
		bases[i] = base(n)
	}
	if len(names) == 1 {
		out[0] = strings.TrimSuffix(bases[0], filepath.Ext(bases[0]))
		if out[0] == "" {
			out[0] = bases[0]
		}
		return out
	}
	copy(out, strip(bases))
	if !usable(out) {
		paths := make([]string, len(names))
		for i, n := range names {
			if n == "-" {
				paths[i] = Stdin
			} else {
				paths[i] = filepath.ToSlash(filepath.Clean(n))
			}
		}
		if p := strip(paths); usable(p) {
			copy(out, p)
		}
	}
	for i := range out {
		if out[i] == "" {
			out[i] = strings.TrimSuffix(bases[i], filepath.Ext(bases[i]))
		}
	}
	return numbered(out)
}

func base(n string) string {
	if n == "-" {
		return Stdin
	}
	return filepath.Base(n)
}

// strip removes the common prefix and suffix of the names, each cut back
// to a separator.
func strip(names []string) []string {
	pre, suf := names[0], names[0]
	for _, n := range names[1:] {
		pre = commonPrefix(pre, n)
		suf = commonSuffix(suf, n)
	}
	// The prefix ends at a separator, the suffix starts at one: the
	// words around them stay whole.
	i := strings.LastIndexFunc(pre, isSep)
	pre = pre[:i+1]
	if j := strings.IndexFunc(suf, isSep); j >= 0 {
		suf = suf[j:]
	} else {
		suf = ""
	}
	out := make([]string, len(names))
	for k, n := range names {
		s := ""
		if len(pre)+len(suf) < len(n) {
			s = n[len(pre) : len(n)-len(suf)]
		}
		// An extension the suffix did not take (stdin against a.log).
		if ext := filepath.Ext(n); ext != "" && len(s) > len(ext) && strings.HasSuffix(s, ext) {
			s = strings.TrimSuffix(s, ext)
		}
		out[k] = strings.Trim(s, "-_. /")
	}
	return out
}

func isSep(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' || r == '/' }

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

func commonSuffix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return a[len(a)-n:]
}

// usable: no label empty, none twice.
func usable(ls []string) bool {
	seen := map[string]bool{}
	for _, l := range ls {
		if l == "" || seen[l] {
			return false
		}
		seen[l] = true
	}
	return true
}

// numbered appends "#2", "#3" to the later of equal labels.
func numbered(ls []string) []string {
	seen := map[string]int{}
	taken := map[string]bool{}
	for _, l := range ls {
		taken[l] = true
	}
	for i, l := range ls {
		seen[l]++
		if seen[l] == 1 {
			continue
		}
		n := seen[l]
		for taken[l+"#"+strconv.Itoa(n)] {
			n++
		}
		ls[i] = l + "#" + strconv.Itoa(n)
		taken[ls[i]] = true
	}
	return ls
}

// Repeats groups labels of numbered runs: "remote-run1" … "remote-run5"
// and "service-run1" … are the repeated runs of "remote" and "service".
// It strips a last word "runN" (after a separator, or the whole label
// "runN" is kept) when that leaves at least two groups, one of them of
// two runs or more; otherwise the labels are returned as they are, so
// that "run1" against "run2" stays a comparison of two runs.
func Repeats(ls []string) []string {
	out := make([]string, len(ls))
	groups := map[string]int{}
	for i, l := range ls {
		j := strings.LastIndexFunc(l, isSep)
		w := strings.ToLower(l[j+1:])
		n, ok := strings.CutPrefix(w, "run")
		if j < 0 || !ok || n == "" || strings.Trim(n, "0123456789") != "" {
			return ls
		}
		out[i] = strings.TrimRight(l[:j], "-_. /")
		if out[i] == "" {
			return ls
		}
		groups[out[i]]++
	}
	repeated := false
	for _, n := range groups {
		repeated = repeated || n > 1
	}
	if len(groups) < 2 || !repeated {
		return ls
	}
	return out
}
