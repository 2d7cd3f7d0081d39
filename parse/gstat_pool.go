package parse

// GstatPool holds the table blocks a receiver of EachGstatBlock is done
// with, for the reader to fill again instead of allocating new ones: the
// records of a big file's tables and indices, which hold pointers, were
// a quarter of the reader's time to allocate and the collector's to
// sweep. A receiver that keeps no pointer to a table, to its indices or
// to its Indices slice (it copies what it needs, as analyze does) puts
// it back; values the records point to (numbers, names, fill
// distributions) are not reused and stay valid. Put zeroes the records:
// a record waiting in the pool with its old pointers kept alive the
// blocks its values were carved from (gstatSlab), a block of 512 fill
// distributions for each; with a pool a worker (the lanes of
// analyze.StreamGstat) that was 20 MB of live heap at 300 MiB.
//
// The pool is the reading goroutine's: Put from a Table callback or
// from code that runs between two of them, never from another goroutine.
type GstatPool struct {
	tables  []*GstatTable
	indices []*GstatIndex
	lists   [][]*GstatIndex
}

// Put gives back table t with its indices.
func (p *GstatPool) Put(t *GstatTable) {
	for _, x := range t.Indices {
		*x = GstatIndex{}
		p.indices = append(p.indices, x)
	}
	if cap(t.Indices) > 0 {
		p.lists = append(p.lists, t.Indices[:0])
	}
	*t = GstatTable{}
	p.tables = append(p.tables, t)
}

// table returns a zero table, from the pool when it has one.
func (p *GstatPool) table() *GstatTable { return pop(&p.tables) }

// index returns a zero index, from the pool when it has one.
func (p *GstatPool) index() *GstatIndex { return pop(&p.indices) }

// pop takes the last record of s (zeroed by Put); nil when s is empty.
func pop[T any](s *[]*T) *T {
	n := len(*s)
	if n == 0 {
		return nil
	}
	x := (*s)[n-1]
	(*s)[n-1] = nil
	*s = (*s)[:n-1]
	return x
}

// list returns an empty slice of at least n indices: the pool's last
// one, when big enough, else a new one (the last one goes, so that the
// pool holds no more slices than tables).
func (p *GstatPool) list(n int) []*GstatIndex {
	k := len(p.lists)
	if k == 0 {
		return make([]*GstatIndex, 0, n)
	}
	l := p.lists[k-1]
	p.lists[k-1] = nil
	p.lists = p.lists[:k-1]
	if cap(l) < n {
		return make([]*GstatIndex, 0, n)
	}
	clear(l[:cap(l)]) // (no index kept alive through it)
	return l
}
