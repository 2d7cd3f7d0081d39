package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// A terminal's deck deals exactly the mix in every 100 transactions.
func TestDeckMix(t *testing.T) {
	d := newDeck(rand.New(rand.NewPCG(1, 2)))
	for round := range 3 {
		var n [nKinds]int
		for range 100 {
			n[d.deal()]++
		}
		if n != Mix {
			t.Errorf("round %d: %v, want %v", round, n, Mix)
		}
	}
}

// NURand stays in its range, and the last names are the spec's
// syllables (clause 4.3.2.3: 371 is PRICALLYOUGHT).
func TestInputs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		if v := nuRand(r, 8191, 1, Items, CItem); v < 1 || v > Items {
			t.Fatalf("item %d", v)
		}
		if v := nuRand(r, 255, 0, 999, CLastRun); v < 0 || v > 999 {
			t.Fatalf("last name number %d", v)
		}
	}
	for n, want := range map[int]string{0: "BARBARBAR", 371: "PRICALLYOUGHT", 999: "EINGEINGEING", 40: "BARPRESBAR"} {
		if got := lastName(n); got != want {
			t.Errorf("lastName(%d) = %s, want %s", n, got, want)
		}
	}
	rollbacks, remote, lines := 0, 0, 0
	for range 10000 {
		in := genNewOrder(r, 3, 8)
		if len(in.lines) < 5 || len(in.lines) > 15 || in.d < 1 || in.d > 10 || in.c < 1 || in.c > 3000 {
			t.Fatalf("new order %+v", in)
		}
		text := in.linesText()
		if len(text) != 12*len(in.lines) {
			t.Fatalf("lines %q", text)
		}
		if in.rollback {
			rollbacks++
			if !strings.HasPrefix(text[len(text)-12:], "100001") {
				t.Errorf("rollback without the unused item: %q", text)
			}
		}
		for _, l := range in.lines {
			lines++
			if l.supply != 3 {
				remote++
				if l.supply < 1 || l.supply > 8 {
					t.Fatalf("supply %d", l.supply)
				}
			}
		}
	}
	// 1% of 10,000 orders and of some 100,000 lines (within 4 standard
	// deviations: 60..140 and lines/100 ± 130): the seeded generator's
	// exact counts.
	if rollbacks != 91 || remote != 1006 || lines != 100071 {
		t.Errorf("%d rollbacks in 10000 orders, %d remote of %d lines; want 91, 1006 of 100071", rollbacks, remote, lines)
	}
	// One warehouse: nothing is remote.
	for range 1000 {
		p := genPayment(r, 1, 1)
		if p.c.w != 1 || p.amount < 1 || p.amount > 5000 {
			t.Fatalf("payment %+v", p)
		}
	}
}

// liveSeed is the seed cmd/fbdiag's TestLiveBench runs bench run with:
// on one warehouse, the first operation of terminals 1 and 2 is a
// New-Order that names the unused item, so that the live run rolls back
// at least two New-Orders whatever its speed.
const liveSeed = 12658

func TestSeededFirstOperations(t *testing.T) {
	for i := range 4 {
		tm := seededTerminal(i, 1, RunOptions{Home: HomeFixed}, liveSeed)
		k := tm.deck.deal()
		_, _, no := tm.draw(k)
		rollback := k == NewOrder && no.rollback && no.lines[len(no.lines)-1].item == unusedItem
		if rollback != (i < 2) {
			t.Errorf("terminal %d: first operation %v, rolls back %v; want a rollback for terminals 0 and 1 only", i, k, rollback)
		}
	}
	// The same seed deals the same operations with the same inputs.
	a, b := seededTerminal(0, 1, RunOptions{}, liveSeed), seededTerminal(0, 1, RunOptions{}, liveSeed)
	for range 300 {
		if d := nextOperations(a, b); d != "" {
			t.Fatal(d)
		}
	}
}

// nextOperations deals and draws the next operation of terminals a and
// b: "" when both deal the same kind with the same inputs (a
// New-Order's lines), else the two kinds and New-Orders.
func nextOperations(a, b *terminal) (differ string) {
	ka, kb := a.deck.deal(), b.deck.deal()
	_, _, na := a.draw(ka)
	_, _, nb := b.draw(kb)
	if ka != kb || (na == nil) != (nb == nil) || na != nil && na.linesText() != nb.linesText() {
		return fmt.Sprintf("%v %v, %v %v", ka, kb, na, nb)
	}
	return ""
}

// A retry's back-off draws from its own generator: a terminal that met
// conflicts deals the same operations afterwards as one that met none.
func TestBackoffKeepsInputs(t *testing.T) {
	a, b := seededTerminal(2, 4, RunOptions{}, 99), seededTerminal(2, 4, RunOptions{}, 99)
	for i := range 500 {
		if i%7 == 0 {
			a.backoff(i % 5)
		}
		if d := nextOperations(a, b); d != "" {
			t.Fatalf("operation %d: %s", i, d)
		}
	}
}

func TestBackoff(t *testing.T) {
	tm := &terminal{jitter: rand.New(rand.NewPCG(5, 6))}
	for a := range 12 {
		d := tm.backoff(a)
		base := min(2<<min(a, 6), 100) // ms
		if d.Milliseconds() < int64(base)/2-1 || d.Milliseconds() > int64(base)*3/2 {
			t.Errorf("attempt %d: %v, want %d ms ±50%%", a, d, base)
		}
	}
}
