package plot

import (
	"bytes"
	"image"
	"testing"

	"git.sr.ht/~sbinet/gg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// textCanvas draws every chart to the same pixels as vgimg alone, most
// of its strings itself (all but the rotated axis labels).
func TestTextCanvasSamePixels(t *testing.T) {
	for k, mk := range sampleData(t) {
		c, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []Options{{}, {Width: 777, Height: 333, DPI: 96}} {
			o = o.norm()
			want := image.NewRGBA(image.Rect(0, 0, o.Width, o.Height))
			ctx := gg.NewContextForRGBA(want)
			ctx.SetLineCapButt()
			ctx.InvertY()
			c.Draw(draw.New(vgimg.NewWith(vgimg.UseImageWithContext(want, ctx), vgimg.UseDPI(o.DPI))))

			got := image.NewRGBA(want.Rect)
			ctx = gg.NewContextForRGBA(got)
			ctx.SetLineCapButt()
			ctx.InvertY()
			tc := newTextCanvas(vgimg.NewWith(vgimg.UseImageWithContext(got, ctx), vgimg.UseDPI(o.DPI)), ctx, got)
			c.Draw(draw.New(tc))
			tc.close()
			if !bytes.Equal(got.Pix, want.Pix) {
				t.Errorf("%s %dx%d: pixels differ from vgimg's", k, o.Width, o.Height)
			}
			if tc.fast < 10 {
				t.Errorf("%s: %d strings drawn by textCanvas", k, tc.fast)
			}
		}
	}
}
