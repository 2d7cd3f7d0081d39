package analyze

// hashIndex maps the 64-bit hashes of warning keys (checker.warningHash) to int32s in
// an open-addressed table at most three quarters full: 12 bytes a slot,
// some 16 a key, where a Go map takes about 30. A run of 250,000 tables
// fires some 350,000 warnings, and the one-warning-per-object rule needs
// every key while the run is read.
type hashIndex struct {
	keys []uint64 // 0: an empty slot
	vals []int32
	n    int
	// the hash 0, which would read as an empty slot
	zero    bool
	zeroVal int32
}

// slot is where h is, or the empty slot where it goes.
func (x *hashIndex) slot(h uint64) int {
	mask := len(x.keys) - 1
	i := int(h>>1) & mask
	for x.keys[i] != 0 && x.keys[i] != h {
		i = (i + 1) & mask
	}
	return i
}

func (x *hashIndex) get(h uint64) (int32, bool) {
	if h == 0 {
		return x.zeroVal, x.zero
	}
	if x.n == 0 {
		return 0, false
	}
	i := x.slot(h)
	return x.vals[i], x.keys[i] != 0
}

func (x *hashIndex) set(h uint64, v int32) {
	if h == 0 {
		x.zero, x.zeroVal = true, v
		return
	}
	if 4*(x.n+1) > 3*len(x.keys) {
		x.grow()
	}
	i := x.slot(h)
	if x.keys[i] == 0 {
		x.keys[i] = h
		x.n++
	}
	x.vals[i] = v
}

func (x *hashIndex) grow() {
	old, oldVals := x.keys, x.vals
	// From 16 slots: a file of many small runs starts a table a run, and
	// 1024 (12 KB) for a run's one warning were a tenth of its text.
	x.keys = make([]uint64, max(16, 2*len(old)))
	x.vals = make([]int32, len(x.keys))
	for j, h := range old {
		if h != 0 {
			i := x.slot(h)
			x.keys[i], x.vals[i] = h, oldVals[j]
		}
	}
}

// reset empties x, keeping its table.
func (x *hashIndex) reset() {
	clear(x.keys)
	clear(x.vals)
	x.n, x.zero, x.zeroVal = 0, false, 0
}
