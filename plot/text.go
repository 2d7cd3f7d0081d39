package plot

import (
	"image"
	"image/color"
	"math"

	"git.sr.ht/~sbinet/gg"
	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
)

// textCanvas is the vgimg canvas a chart draws on, with a faster
// FillString for text that is not rotated (all but the value axis
// label). vgimg hands each glyph to gg, which composites it through
// golang.org/x/image/draw's general transform (a bilinear kernel
// sampled pixel by pixel through interfaces): a third of a chart's
// time. When the glyph lands on whole pixels, that transform copies
// the glyph's coverage; textCanvas composites it itself with the same
// arithmetic, so the picture is the same to the byte. Rotated text, or
// text under a transform that is not a whole-pixel translation, goes
// to vgimg.
type textCanvas struct {
	*vgimg.Canvas
	ctx *gg.Context
	img *image.RGBA
	// colors mirrors vgimg's colour stack (SetColor, Push, Pop): the
	// colour gg draws text in.
	colors []color.Color
	faces  map[faceKey]xfont.Face
	// fast counts the strings drawn here rather than by vgimg.
	fast int
}

// faceKey is a font at a size: the faces of one chart are made once.
type faceKey struct {
	font *opentype.Font
	size font.Length
}

func newTextCanvas(cv *vgimg.Canvas, ctx *gg.Context, img *image.RGBA) *textCanvas {
	// vgimg.NewWith sets black (vg.Initialize).
	return &textCanvas{Canvas: cv, ctx: ctx, img: img, colors: []color.Color{color.Black}, faces: map[faceKey]xfont.Face{}}
}

func (c *textCanvas) SetColor(clr color.Color) {
	if clr == nil {
		clr = color.Black
	}
	c.colors[len(c.colors)-1] = clr
	c.Canvas.SetColor(clr)
}

func (c *textCanvas) Push() {
	c.colors = append(c.colors, c.colors[len(c.colors)-1])
	c.Canvas.Push()
}

func (c *textCanvas) Pop() {
	c.colors = c.colors[:len(c.colors)-1]
	c.Canvas.Pop()
}

// close releases the faces.
func (c *textCanvas) close() {
	for _, f := range c.faces {
		f.Close()
	}
}

// FillString draws str as vgimg.Canvas.FillString does.
func (c *textCanvas) FillString(f font.Face, pt vg.Point, str string) {
	if f.Font.Size == 0 {
		return
	}
	// vgimg flips the Y axis again for text: the matrix gg then draws
	// with, read back from three points.
	c.ctx.Push()
	c.ctx.InvertY()
	x0, y0 := c.ctx.TransformPoint(0, 0)
	x1, y1 := c.ctx.TransformPoint(1, 0)
	x2, y2 := c.ctx.TransformPoint(0, 1)
	c.ctx.Pop()
	whole := func(v float64) bool { return v == math.Trunc(v) && math.Abs(v) < 1<<30 }
	if x1-x0 != 1 || y1-y0 != 0 || x2-x0 != 0 || y2-y0 != 1 || !whole(x0) || !whole(y0) {
		c.Canvas.FillString(f, pt, str)
		return
	}
	k := faceKey{f.Face, f.Font.Size}
	face := c.faces[k]
	if face == nil {
		face = f.FontFace(c.DPI())
		c.faces[k] = face
	}
	dpi := c.DPI()
	_, h := c.Size()
	x, y := pt.X.Dots(dpi), h.Dots(dpi)-pt.Y.Dots(dpi)
	drawText(c.img, face, c.colors[len(c.colors)-1], str, x, y, int(x0), int(y0))
	c.fast++
}

// drawText is gg's drawString with draw.BiLinear's transform of each
// glyph onto dst, for a translation by whole pixels (dx, dy): the glyph's
// coverage times the colour, over what is there, in 16 bits a channel
// as x/image/draw computes it.
func drawText(dst *image.RGBA, face xfont.Face, clr color.Color, s string, x, y float64, dx, dy int) {
	cr, cg, cb, ca := clr.RGBA()
	dot := fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(y * 64))}
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			dot.X += face.Kern(prev, r)
		}
		dr, mask, maskp, advance, ok := face.Glyph(dot, r)
		if !ok {
			continue
		}
		alpha, isAlpha := mask.(*image.Alpha)
		if !isAlpha {
			// Not the opentype face's mask: composite it as gg does.
			drawGlyphGeneric(dst, dr.Add(image.Pt(dx, dy)), mask, maskp, clr)
		} else {
			at := dr.Add(image.Pt(dx, dy))
			area := at.Intersect(dst.Rect)
			for py := area.Min.Y; py < area.Max.Y; py++ {
				for px := area.Min.X; px < area.Max.X; px++ {
					mx, my := maskp.X+px-at.Min.X, maskp.Y+py-at.Min.Y
					if !(image.Point{mx, my}.In(alpha.Rect)) {
						continue // transparent, as Alpha.At says
					}
					ma := uint32(alpha.Pix[alpha.PixOffset(mx, my)]) * 0x101
					if ma == 0 {
						continue // the pixel stays as it is
					}
					over(dst, px, py, cr*ma/0xffff, cg*ma/0xffff, cb*ma/0xffff, ca*ma/0xffff)
				}
			}
		}
		dot.X += advance
		prev = r
	}
}

// over puts the premultiplied colour p over dst's pixel as
// x/image/draw's Over does in 16 bits, stored back in 8.
func over(dst *image.RGBA, x, y int, pr, pg, pb, pa uint32) {
	i := dst.PixOffset(x, y)
	d := dst.Pix[i : i+4 : i+4]
	pa1 := 0xffff - pa
	d[0] = uint8((uint32(d[0])*0x101*pa1/0xffff + pr) >> 8)
	d[1] = uint8((uint32(d[1])*0x101*pa1/0xffff + pg) >> 8)
	d[2] = uint8((uint32(d[2])*0x101*pa1/0xffff + pb) >> 8)
	d[3] = uint8((uint32(d[3])*0x101*pa1/0xffff + pa) >> 8)
}

// drawGlyphGeneric composites a mask of any image type the same way.
func drawGlyphGeneric(dst *image.RGBA, at image.Rectangle, mask image.Image, maskp image.Point, clr color.Color) {
	cr, cg, cb, ca := clr.RGBA()
	area := at.Intersect(dst.Rect)
	for py := area.Min.Y; py < area.Max.Y; py++ {
		for px := area.Min.X; px < area.Max.X; px++ {
			_, _, _, ma := mask.At(maskp.X+px-at.Min.X, maskp.Y+py-at.Min.Y).RGBA()
			if ma == 0 {
				continue
			}
			over(dst, px, py, cr*ma/0xffff, cg*ma/0xffff, cb*ma/0xffff, ca*ma/0xffff)
		}
	}
}
