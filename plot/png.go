package plot

import (
	"cmp"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"io"
	"slices"
	"sync"
)

// Charts are flat colours plus the anti-aliased edges between them: a few
// hundred to a few thousand distinct colours, most of them on a handful of
// pixels. Encoding them as a 256-colour palette image keeps every flat
// colour exact, maps each rare edge shade to its nearest kept colour, and
// gives the encoder a quarter of the bytes with no filter pass: files about
// half the size, written three to four times faster than RGBA.

// maxDistinct bounds the colour table; a picture with more colours (a
// photograph, which fbdiag never draws) is written as RGBA.
const maxDistinct = 1 << 13

type colourCount struct {
	c     uint32 // RGBA bytes, little-endian
	n     int32  // pixels
	index uint8  // palette entry
	used  bool
}

// colourTable is an open-addressing hash of the colours of one picture.
type colourTable struct {
	slots []colourCount
	n     int
}

// find is the slot of colour c, taken when c is new.
func (t *colourTable) find(c uint32) int {
	mask := uint32(len(t.slots) - 1)
	for h := (c * 2654435761) >> 18 & mask; ; h = (h + 1) & mask {
		s := &t.slots[h]
		if !s.used {
			s.used, s.c = true, c
			t.n++
			return int(h)
		}
		if s.c == c {
			return int(h)
		}
	}
}

// encodePNG writes img as PNG, as a palette image when it can.
func encodePNG(w io.Writer, img image.Image) error {
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngBuffers}
	if rgba, ok := img.(*image.RGBA); ok {
		if p := toPaletted(rgba); p != nil {
			defer palettedPool.Put(p)
			return enc.Encode(w, p)
		}
	}
	return enc.Encode(w, img)
}

// pngBuffers keeps the encoder's compressor and row buffers between
// charts (png.EncoderBufferPool).
var pngBuffers pngPool

type pngPool struct{ sync.Pool }

func (p *pngPool) Get() *png.EncoderBuffer {
	b, _ := p.Pool.Get().(*png.EncoderBuffer)
	return b
}

func (p *pngPool) Put(b *png.EncoderBuffer) { p.Pool.Put(b) }

// palettedPool and slotsPool keep the palette picture and the colour
// slot of every pixel between charts.
var palettedPool, slotsPool sync.Pool

// toPaletted returns img as a 256-colour image, or nil when it has too
// many colours. One pass over the pixels counts the colours and notes
// each pixel's slot in the table; the palette is then the most frequent
// colours, and a pixel's entry is its slot's.
func toPaletted(img *image.RGBA) *image.Paletted {
	r := img.Bounds()
	w, h := r.Dx(), r.Dy()
	t := colourTable{slots: make([]colourCount, 2*maxDistinct)}
	held, _ := slotsPool.Get().(*[]uint16)
	if held == nil || cap(*held) < w*h {
		b := make([]uint16, w*h)
		held = &b
	}
	defer slotsPool.Put(held)
	slots := (*held)[:w*h]
	w4 := w * 4
	// Pixels come in runs of one colour: the table is read and counted
	// once a run.
	var last uint32
	var pair uint64 // last twice: two pixels compared at once
	var slot uint16
	run := int32(0)
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+w4]
		dst := slots[y*w : (y+1)*w]
		for i := 0; i < len(dst); {
			if run > 0 && i+1 < len(dst) && binary.LittleEndian.Uint64(row[4*i:]) == pair {
				dst[i], dst[i+1] = slot, slot
				run += 2
				i += 2
				continue
			}
			c := binary.LittleEndian.Uint32(row[4*i:])
			if c != last || run == 0 {
				if run > 0 {
					t.slots[slot].n += run
				}
				s := t.find(c)
				if t.n > maxDistinct {
					return nil
				}
				last, slot, run = c, uint16(s), 0
				pair = uint64(c) | uint64(c)<<32
			}
			run++
			dst[i] = slot
			i++
		}
	}
	if run > 0 {
		t.slots[slot].n += run
	}
	all := make([]*colourCount, 0, t.n)
	for i := range t.slots {
		if t.slots[i].used {
			all = append(all, &t.slots[i])
		}
	}
	// Most frequent first; ties by colour so the output is deterministic.
	slices.SortFunc(all, func(a, b *colourCount) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return cmp.Compare(a.c, b.c)
	})
	keep := min(len(all), 256)
	pal := make(color.Palette, keep)
	for i, e := range all[:keep] {
		e.index = uint8(i)
		pal[i] = color.RGBA{R: uint8(e.c), G: uint8(e.c >> 8), B: uint8(e.c >> 16), A: uint8(e.c >> 24)}
	}
	kept := make([]uint32, keep)
	for i, e := range all[:keep] {
		kept[i] = e.c
	}
	for _, e := range all[keep:] {
		e.index = nearest(e.c, kept)
	}
	// An array indexed by a uint16 needs no bounds check.
	var index [1 << 16]uint8
	for i := range t.slots {
		index[i] = t.slots[i].index
	}
	out, _ := palettedPool.Get().(*image.Paletted)
	if out == nil || out.Rect.Dx() != w || out.Rect.Dy() != h {
		out = image.NewPaletted(image.Rect(0, 0, w, h), pal)
	}
	out.Palette = pal
	pix := out.Pix[:len(slots)]
	for i, s := range slots {
		pix[i] = index[s]
	}
	return out
}

// nearest is the kept colour closest to c (squared distance over the four
// channels, the first on ties).
func nearest(c uint32, kept []uint32) uint8 {
	best, bestD := 0, int(^uint(0)>>1)
	r, g, b, a := int(uint8(c)), int(uint8(c>>8)), int(uint8(c>>16)), int(uint8(c>>24))
	for i, k := range kept {
		dr, dg, db, da := r-int(uint8(k)), g-int(uint8(k>>8)), b-int(uint8(k>>16)), a-int(uint8(k>>24))
		if d := dr*dr + dg*dg + db*db + da*da; d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best)
}
