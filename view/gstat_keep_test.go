package view

import (
	"bytes"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// A run streamed through a GstatKeeper prints what the whole analysis
// prints, in every bounded format, on a 600-table database made of the
// fb30 sample's blocks and on the sample itself.
func TestGstatKeeperAgrees(t *testing.T) {
	src, big := testutil.BigGstat(t, 1<<20)
	for _, in := range [][]byte{src, big} {
		reps, err := parse.ReadGstat(bytes.NewReader(in), "x")
		if err != nil {
			t.Fatal(err)
		}
		for _, sort := range analyze.TableSorts {
			opt := GstatOptions{Sort: sort, Top: GstatTop}
			whole := Gstat(analyze.Gstat(reps[0], analyze.NewThresholds()), opt)
			k := NewGstatKeeper(opt)
			var doc *Doc
			copied := 0
			err = analyze.StreamGstat(bytes.NewReader(in), "x", analyze.NewThresholds(), analyze.GstatOptions{}, analyze.GstatStream{
				WarningLimit: GstatTop,
				Table:        func(a *analyze.GstatAnalysis, ts *analyze.TableStats) error { k.Table(a, ts); return nil },
				Run: func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error {
					copied = k.copied
					b, o := k.Kept(a, opt)
					if len(b.Tables) > GstatTop || len(o.Kept.Indices) > GstatTop {
						t.Errorf("kept %d tables, %d indices", len(b.Tables), len(o.Kept.Indices))
					}
					doc = Gstat(b, o)
					return nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			// Tables that sort after the last one kept are not copied:
			// 80 of the 792 (the 40 before the first trim, then those
			// better than the cut until the ORDER_LINEs fill it).
			if n := len(reps[0].Tables); n > 500 && copied > 6*GstatTop {
				t.Errorf("--sort %s: %d of %d tables copied", sort, copied, n)
			}
			for _, f := range []Format{Text, Markdown, HTML} {
				var w, g bytes.Buffer
				if err := Write(&w, f, Options{}, whole); err != nil {
					t.Fatal(err)
				}
				if err := Write(&g, f, Options{}, doc); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(w.Bytes(), g.Bytes()) {
					t.Errorf("%d bytes, --sort %s, %v: kept view differs", len(in), sort, f)
				}
			}
		}
	}
}
