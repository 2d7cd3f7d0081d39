package plot

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// A chart's flat colours survive the palette exactly; its rare edge
// shades go to the nearest kept colour; the file is a palette PNG about
// half the size of the RGBA one, and the same bytes every time.
func TestPalettePNG(t *testing.T) {
	c, err := sampleData(t)[KindSizeThroughput]()
	if err != nil {
		t.Fatal(err)
	}
	rgba := c.render(Options{})
	p := toPaletted(rgba)
	if p == nil {
		t.Fatal("a chart was not reduced to a palette")
	}
	if len(p.Palette) != 256 {
		t.Errorf("palette of %d colours, want 256 (the chart has more shades)", len(p.Palette))
	}
	white := color.RGBA{255, 255, 255, 255}
	if got := p.Palette[0]; got != white {
		t.Errorf("most frequent colour %v, want the white background", got)
	}
	// Every pixel of a kept colour is exact.
	kept := map[color.RGBA]bool{}
	for _, c := range p.Palette {
		kept[c.(color.RGBA)] = true
	}
	b := rgba.Bounds()
	exact, moved := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			want := rgba.RGBAAt(x, y)
			if !kept[want] {
				moved++
				continue
			}
			if got := p.Palette[p.ColorIndexAt(x, y)]; got != want {
				t.Fatalf("(%d,%d): kept colour %v became %v", x, y, want, got)
			}
			exact++
		}
	}
	if share := float64(moved) / float64(exact+moved); share > 0.01 {
		t.Errorf("%.2f%% of the pixels changed colour, want under 1%%", 100*share)
	}

	var full, small bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&full, rgba); err != nil {
		t.Fatal(err)
	}
	if err := encodePNG(&small, rgba); err != nil {
		t.Fatal(err)
	}
	if small.Len()*3 > full.Len()*2 {
		t.Errorf("palette PNG %d bytes, RGBA %d: want at most two thirds", small.Len(), full.Len())
	}
	var again bytes.Buffer
	if err := encodePNG(&again, rgba); err != nil || !bytes.Equal(again.Bytes(), small.Bytes()) {
		t.Error("two encodings of one picture differ")
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(small.Bytes()))
	if err != nil || cfg.ColorModel == color.RGBAModel {
		t.Errorf("not a palette PNG: %v %v", cfg.ColorModel, err)
	}
}

// A picture of more colours than the table holds is written as RGBA.
func TestPalettePNGTooManyColours(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 128, 128))
	for y := 0; y < 128; y++ {
		for x := 0; x < 128; x++ {
			img.SetRGBA(x, y, color.RGBA{uint8(2 * x), uint8(2 * y), uint8(x ^ y), 255})
		}
	}
	if p := toPaletted(img); p != nil {
		t.Fatalf("%d-colour palette for a picture of ~16384 colours", len(p.Palette))
	}
}

func BenchmarkToPaletted(b *testing.B) {
	c, err := sampleData(b)[KindIndices]()
	if err != nil {
		b.Fatal(err)
	}
	rgba := c.render(Options{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		palettedPool.Put(toPaletted(rgba))
	}
}
