package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Mix is the share of each kind in a terminal's deck of 100 cards, percent
// (TPC-C clause 5.2.3 minimums: Payment 43, the three others 4 each;
// New-Order is the rest).
var Mix = [nKinds]int{45, 43, 4, 4, 4}

// deck deals the kinds in a shuffled deck of 100 cards, reshuffled when
// used up (clause 5.2.4.2's way of keeping the mix exact over every 100
// transactions of a terminal, where independent draws would only approach
// it).
type deck struct {
	r     *rand.Rand
	cards []Kind
	next  int
}

func newDeck(r *rand.Rand) *deck {
	d := &deck{r: r}
	for k, n := range Mix {
		for range n {
			d.cards = append(d.cards, Kind(k))
		}
	}
	d.next = len(d.cards)
	return d
}

func (d *deck) deal() Kind {
	if d.next == len(d.cards) {
		d.r.Shuffle(len(d.cards), func(i, j int) { d.cards[i], d.cards[j] = d.cards[j], d.cards[i] })
		d.next = 0
	}
	k := d.cards[d.next]
	d.next++
	return k
}

// between is a uniform integer in [lo, hi].
func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// nuRand is TPC-C's non-uniform random NURand(A, x, y) with constant c
// (clause 2.1.6).
func nuRand(r *rand.Rand, a, x, y, c int) int {
	return ((between(r, 0, a)|between(r, x, y))+c)%(y-x+1) + x
}

var syllables = []string{"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"}

// lastName is C_LAST for a number 0..999 (clause 4.3.2.3), as the loader
// writes it (load.sql's LAST).
func lastName(n int) string {
	return syllables[n/100] + syllables[n/10%10] + syllables[n%10]
}

// otherWarehouse is a warehouse other than w, or w when there is only one.
func otherWarehouse(r *rand.Rand, w, warehouses int) int {
	if warehouses < 2 {
		return w
	}
	o := between(r, 1, warehouses-1)
	if o >= w {
		o++
	}
	return o
}

// unusedItem is the item number of the spec's 1% New-Orders that roll
// back: no such item exists.
const unusedItem = Items + 1

// orderLine is one line of a New-Order.
type orderLine struct{ item, supply, qty int }

// newOrderIn are a New-Order's inputs (clause 2.4.1).
type newOrderIn struct {
	w, d, c  int
	lines    []orderLine
	rollback bool // the last line names unusedItem
}

func genNewOrder(r *rand.Rand, w, warehouses int) newOrderIn {
	in := newOrderIn{w: w, d: between(r, 1, DistrictsPerW), c: nuRand(r, 1023, 1, CustomersPerD, CID)}
	n := between(r, minLinesPerOrder, maxLinesPerOrder)
	in.rollback = between(r, 1, 100) == 1
	for i := range n {
		l := orderLine{item: nuRand(r, 8191, 1, Items, CItem), supply: w, qty: between(r, 1, 10)}
		if between(r, 1, 100) == 1 {
			l.supply = otherWarehouse(r, w, warehouses)
		}
		if in.rollback && i == n-1 {
			l.item = unusedItem
		}
		in.lines = append(in.lines, l)
	}
	return in
}

// linesText packs the lines as BENCH_NEW_ORDER reads them: 12 characters
// a line, item (6 digits), supplying warehouse (4), quantity (2).
func (in newOrderIn) linesText() string {
	var b strings.Builder
	for _, l := range in.lines {
		fmt.Fprintf(&b, "%06d%04d%02d", l.item, l.supply, l.qty)
	}
	return b.String()
}

// customerIn names a customer by number or, when byName, by last name.
type customerIn struct {
	w, d   int
	id     int
	last   string
	byName bool
}

// genCustomer is the customer of a Payment or Order-Status: 60% by last
// name (clause 2.5.1.2, 2.6.1.2).
func genCustomer(r *rand.Rand, w, d int) customerIn {
	c := customerIn{w: w, d: d}
	if between(r, 1, 100) <= 60 {
		c.byName, c.last = true, lastName(nuRand(r, 255, 0, 999, CLastRun))
	} else {
		c.id = nuRand(r, 1023, 1, CustomersPerD, CID)
	}
	return c
}

// paymentIn are a Payment's inputs (clause 2.5.1): 85% of customers of
// the home warehouse, 15% of another.
type paymentIn struct {
	w, d   int
	c      customerIn
	amount float64
}

func genPayment(r *rand.Rand, w, warehouses int) paymentIn {
	in := paymentIn{w: w, d: between(r, 1, DistrictsPerW), amount: float64(between(r, 100, 500000)) / 100}
	cw, cd := w, in.d
	if between(r, 1, 100) > 85 {
		cw, cd = otherWarehouse(r, w, warehouses), between(r, 1, DistrictsPerW)
	}
	in.c = genCustomer(r, cw, cd)
	return in
}

// amountText is the amount as NUMERIC(6,2) text.
func (in paymentIn) amountText() string { return fmt.Sprintf("%.2f", in.amount) }
