package bench

import (
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
	// 1% of 10,000 orders and of some 100,000 lines: within 4 standard
	// deviations.
	if rollbacks < 60 || rollbacks > 140 || remote < lines/100-130 || remote > lines/100+130 {
		t.Errorf("%d rollbacks in 10000 orders, %d remote of %d lines", rollbacks, remote, lines)
	}
	// One warehouse: nothing is remote.
	for range 1000 {
		p := genPayment(r, 1, 1)
		if p.c.w != 1 || p.amount < 1 || p.amount > 5000 {
			t.Fatalf("payment %+v", p)
		}
	}
}

func TestBackoff(t *testing.T) {
	tm := &terminal{r: rand.New(rand.NewPCG(5, 6))}
	for a := range 12 {
		d := tm.backoff(a)
		base := min(2<<min(a, 6), 100) // ms
		if d.Milliseconds() < int64(base)/2-1 || d.Milliseconds() > int64(base)*3/2 {
			t.Errorf("attempt %d: %v, want %d ms ±50%%", a, d, base)
		}
	}
}
