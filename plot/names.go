package plot

import (
	"strconv"
	"strings"
)

// Names hands out names that are unique in one set: the chart files of
// one folder (Assign) or the section ids of one page (Take). A name
// already taken gets "-2", "-3"… appended, the name clipped first to
// leave room for the suffix within MaxSafeName, so that clipping can
// never make two of them equal again. Names compare without case: on
// the file systems of macOS and Windows "A.png" replaces "a.png".
// The zero value is ready to use.
type Names struct {
	taken map[string]bool
}

// Take returns name (made safe by SafeName) or, when that is taken, the
// first of name-2, name-3… that is not, and takes it.
func (n *Names) Take(name string) string {
	base := SafeName(name)
	for k := 1; ; k++ {
		cand := suffixed(base, k)
		if n.take(cand) {
			return cand
		}
	}
}

// Assign gives the chart a Name whose File is not taken yet (its own
// when free, else with -2, -3… appended) and takes that file name.
func (n *Names) Assign(c *Chart) {
	if n.take(c.File()) {
		return
	}
	base := ""
	if c.Name != "" {
		base = SafeName(c.Name)
	}
	for k := 2; ; k++ {
		c.Name = suffixed(base, k)
		if n.take(c.File()) {
			return
		}
	}
}

// take reserves name; false when it was taken already.
func (n *Names) take(name string) bool {
	if n.taken == nil {
		n.taken = map[string]bool{}
	}
	key := strings.ToLower(name)
	if n.taken[key] {
		return false
	}
	n.taken[key] = true
	return true
}

// suffixed is base for k = 1, else base-k with base clipped so that the
// whole stays within MaxSafeName. base is SafeName's output, so the
// result is one too (SafeName leaves it as it is): distinct k give
// distinct names, whatever clipping does.
func suffixed(base string, k int) string {
	if k == 1 {
		return base
	}
	suffix := strconv.Itoa(k)
	if base == "" {
		return suffix
	}
	suffix = "-" + suffix
	if len(base)+len(suffix) > MaxSafeName {
		base = strings.TrimRight(base[:MaxSafeName-len(suffix)], "-.")
	}
	if base == "" {
		return suffix[1:]
	}
	return base + suffix
}
