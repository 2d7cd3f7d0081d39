package plot

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"strings"
	"sync"
	"unicode/utf8"

	"git.sr.ht/~sbinet/gg"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/fbdiag/fbdiag/internal/atomicfile"
)

// Kind names a chart kind; it is also the stem of the PNG file name.
type Kind string

// The chart kinds fbdiag draws.
const (
	KindSizeThroughput    Kind = "size-throughput"
	KindLoadSpeed         Kind = "load-speed"
	KindRestoreComparison Kind = "restore-comparison"
	KindRestoreTimeline   Kind = "restore-timeline"
	// A backup's timeline and a comparison of backups are drawn as a
	// restore's (RestoreTimeline.Backup, RestoreComparison.Backup), and
	// named for what they show.
	KindBackupComparison Kind = "backup-comparison"
	KindBackupTimeline   Kind = "backup-timeline"
	KindIndices          Kind = "indices"
	KindTables           Kind = "tables"
	KindFill             Kind = "fill"
	KindSweep            Kind = "sweep"
	KindAB               Kind = "ab"
	KindBenchTimeline    Kind = "bench-timeline"
	KindBenchLatency     Kind = "bench-latency"
)

// Kinds lists the chart kinds of the HTML report, in report order (the
// history charts of fbdiag gstat trend are not among them).
var Kinds = []Kind{
	KindTables, KindIndices, KindFill, KindRestoreTimeline, KindRestoreComparison, KindBackupTimeline, KindBackupComparison,
	KindSizeThroughput, KindLoadSpeed, KindSweep, KindAB, KindBenchTimeline, KindBenchLatency,
}

// Options set the size of the rendered PNG.
type Options struct {
	// Width and Height in pixels; 0 means DefaultWidth × DefaultHeight.
	Width, Height int
	// DPI scales the text and lines; 0 means DefaultDPI.
	DPI int
}

// Defaults: 16:9 so a chart fills a slide, 150 DPI so text stays sharp
// when the slide is projected, and small enough to render in ~50 ms.
const (
	DefaultWidth  = 1200
	DefaultHeight = 675
	DefaultDPI    = 150
)

func (o Options) norm() Options {
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = DefaultWidth, DefaultHeight
	}
	if o.DPI <= 0 {
		o.DPI = DefaultDPI
	}
	return o
}

// Plotted is one set of values handed to gonum/plot: a series, a bar set
// or a fitted curve. Labels name the points of a nominal axis (bars).
type Plotted struct {
	Name   string
	X, Y   []float64
	Labels []string
	// Panel is the panel it is drawn in, from 0 (left).
	Panel int
}

// Chart is a chart ready to render.
type Chart struct {
	Kind  Kind
	Title string
	// Name distinguishes several charts of one kind in one folder
	// ("shop-gstat-a-r"); File uses it.
	Name string
	// Plotted lists the values drawn, in drawing order.
	Plotted []Plotted
	// Notes are sentences that stand for what is not drawn ("no record
	// versions in this snapshot"); the PNG has them in a legend and a
	// caller shows them beside the chart. A chart whose every panel
	// would be empty has its notes only and no panel (Drawn is false):
	// no picture, the sentences in its place.
	Notes []string

	panels []panel
}

// panel is one plot of a chart. Horizontal bar panels with a legend
// reserve empty rows at the bottom for it (see reserveLegend), since a
// gonum legend is drawn inside the data area.
type panel struct {
	*gplot.Plot
	rows    int // categories on the Y axis; 0 for other plots
	legends int // legend entries
}

func (c *Chart) addPanel(p *gplot.Plot) { c.panels = append(c.panels, panel{Plot: p}) }

// addBarsPanel adds a horizontal bar panel of rows categories with a
// legend of legends entries at its bottom right.
func (c *Chart) addBarsPanel(p *gplot.Plot, rows, legends int) {
	p.Legend.Top, p.Legend.Left = false, false
	c.panels = append(c.panels, panel{Plot: p, rows: rows, legends: legends})
}

// reserveLegend stretches the category axis downwards so the legend gets
// rows of its own: k extra rows where k/(rows+k) of the data height holds
// the legend.
func (pn panel) reserveLegend(height vg.Length) {
	if pn.rows == 0 {
		return
	}
	pn.Y.Max = float64(pn.rows) - 0.5
	pn.Y.Min = -0.5
	if pn.legends == 0 {
		return
	}
	dataH := height - vg.Points(titleSize*1.3+6) - vg.Points((labelSize+tickSize)*1.4+12)
	need := vg.Points(float64(pn.legends)*legendSize*1.25 + 6)
	if dataH <= need*1.5 {
		return
	}
	k := float64(need) * float64(pn.rows) / float64(dataH-need)
	pn.Y.Min = -0.5 - k
}

// File is the PNG file name: kind, then the chart's name made safe.
func (c *Chart) File() string {
	if c.Name == "" {
		return string(c.Kind) + ".png"
	}
	return string(c.Kind) + "-" + SafeName(c.Name) + ".png"
}

// Series returns the Plotted entry with the given name, or nil.
func (c *Chart) Series(name string) *Plotted {
	for i := range c.Plotted {
		if c.Plotted[i].Name == name {
			return &c.Plotted[i]
		}
	}
	return nil
}

func (c *Chart) add(p Plotted) {
	p.Panel = len(c.panels)
	c.Plotted = append(c.Plotted, p)
}

// Panels is the number of panels, laid side by side.
func (c *Chart) Panels() int { return len(c.panels) }

// Drawn reports whether the chart has a picture; a chart of notes only
// (NotesOnly) has none.
func (c *Chart) Drawn() bool { return len(c.panels) > 0 }

// NotesOnly is the chart of a kind whose every panel would be empty: the
// notes say what it would have shown ("no record versions in these
// snapshots"), and it has no picture.
func NotesOnly(k Kind, title string, notes ...string) *Chart {
	return &Chart{Kind: k, Title: title, Notes: notes}
}

// ErrNotDrawn is returned when a chart of notes only is asked for a
// picture.
var ErrNotDrawn = errors.New("a chart of notes only has no picture")

// Draw draws the chart on a canvas; panels are laid side by side.
func (c *Chart) Draw(dc draw.Canvas) {
	// A small margin so nothing touches the picture's edge.
	if len(c.panels) == 0 {
		return
	}
	dc = draw.Crop(dc, vg.Points(4), -vg.Points(8), vg.Points(2), -vg.Points(2))
	// The canvas is white already (render): filling the first panel
	// white again took a tenth of a chart's time. The others are filled
	// only where the panel before drew across their edge (a long title):
	// white over white leaves every pixel as it is.
	c.panels[0].BackgroundColor = nil
	if len(c.panels) == 1 {
		c.panels[0].reserveLegend(dc.Size().Y)
		c.panels[0].Draw(dc)
		return
	}
	// A title over all panels is carried by the first panel; the others
	// get an empty line of the same height so their data areas align.
	t := draw.Tiles{Rows: 1, Cols: len(c.panels), PadX: vg.Points(12), PadLeft: vg.Points(4), PadRight: vg.Points(8), PadTop: vg.Points(4), PadBottom: vg.Points(4)}
	plots := make([]*gplot.Plot, len(c.panels))
	for i, p := range c.panels {
		p.reserveLegend(dc.Size().Y)
		plots[i] = p.Plot
	}
	canvases := gplot.Align([][]*gplot.Plot{plots}, t, dc)
	for i, p := range c.panels {
		if i > 0 {
			p.BackgroundColor = color.White
			if allWhite(canvases[0][i]) {
				p.BackgroundColor = nil
			}
		}
		p.Draw(canvases[0][i])
	}
}

// allWhite reports whether the pixels under a canvas's rectangle (and
// one around it, for the edges' anti-aliasing) are all opaque white, on
// a picture drawn by render; false on any other canvas.
func allWhite(c draw.Canvas) bool {
	tc, ok := c.Canvas.(*textCanvas)
	if !ok {
		return false
	}
	dpi := tc.DPI()
	_, h := tc.Size()
	hd := h.Dots(dpi)
	r := image.Rect(int(math.Floor(c.Min.X.Dots(dpi)))-1, int(math.Floor(hd-c.Max.Y.Dots(dpi)))-1,
		int(math.Ceil(c.Max.X.Dots(dpi)))+1, int(math.Ceil(hd-c.Min.Y.Dots(dpi)))+1).Intersect(tc.img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := tc.img.Pix[tc.img.PixOffset(r.Min.X, y):tc.img.PixOffset(r.Max.X, y)]
		for _, b := range row {
			if b != 0xff {
				return false
			}
		}
	}
	return true
}

// render draws the chart on an image of the given options, white
// before drawing (vgimg.NewWith paints its background). The image comes
// from canvases; give it back with putCanvas when done with it.
func (c *Chart) render(o Options) *image.RGBA {
	o = o.norm()
	img := getCanvas(o.Width, o.Height)
	// The context draws on img itself: vgimg.NewWith without one would
	// allocate a second picture and copy img into it.
	ctx := gg.NewContextForRGBA(img)
	ctx.SetLineCapButt()
	ctx.InvertY()
	cv := newTextCanvas(vgimg.NewWith(vgimg.UseImageWithContext(img, ctx), vgimg.UseDPI(o.DPI)), ctx, img)
	defer cv.close()
	c.Draw(draw.New(cv))
	return img
}

// canvases keeps the pictures of rendered charts for the next ones: a
// report draws dozens of charts of one size, 3.2 MB each at the default.
var canvases sync.Pool

func getCanvas(w, h int) *image.RGBA {
	if img, ok := canvases.Get().(*image.RGBA); ok && img.Rect.Dx() == w && img.Rect.Dy() == h {
		return img
	}
	return image.NewRGBA(image.Rect(0, 0, w, h))
}

func putCanvas(img *image.RGBA) { canvases.Put(img) }

// WritePNGTo writes the chart as PNG. A gonum/plot panic (an axis it
// cannot scale) becomes an error: one bad chart must not stop a report.
func (c *Chart) WritePNGTo(w io.Writer, o Options) (err error) {
	if !c.Drawn() {
		return fmt.Errorf("plot %s %q: %w", c.Kind, c.Title, ErrNotDrawn)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plot %s %q: %v", c.Kind, c.Title, r)
		}
	}()
	img := c.render(o)
	defer putCanvas(img)
	return encodePNG(w, img)
}

// PNG renders the chart as PNG bytes.
func (c *Chart) PNG(o Options) ([]byte, error) {
	var b bytes.Buffer
	if err := c.WritePNGTo(&b, o); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WritePNG renders c and writes it to path atomically (a reader never
// sees half a PNG), replacing an older file.
func WritePNG(path string, c *Chart, o Options) error {
	return atomicfile.Write(path, atomicfile.Options{}, func(w io.Writer) error {
		return c.WritePNGTo(w, o)
	})
}

// Font sizes in points; at 150 DPI and 8 inches wide they read like a
// slide's body text.
const (
	titleSize  = 13
	labelSize  = 11
	tickSize   = 9.5
	legendSize = 9.5
	noteSize   = 8.5
)

// MaxNameRunes bounds an object name on an axis or in a legend; longer
// names get an ellipsis (Ellipsis) so that labels never overlap the data.
const MaxNameRunes = 36

var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

func sansFont(size float64) font.Font {
	return font.From(sans, font.Length(size))
}

// newPlot is plot.New with fbdiag's look: Liberation Sans, a grid-friendly
// light frame and the legend inside the top right corner.
func newPlot(title, xLabel, yLabel string) *gplot.Plot {
	p := gplot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sansFont(titleSize)
	p.Title.Padding = vg.Points(6)
	for _, a := range []*gplot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sansFont(labelSize)
		a.Tick.Label.Font = sansFont(tickSize)
		a.Padding = vg.Points(2)
	}
	p.X.Tick.Marker = niceTicks{}
	p.Y.Tick.Marker = niceTicks{}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.TextStyle.Font = sansFont(legendSize)
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(16)
	// A little air between entries: the default lets descenders touch
	// the next line.
	p.Legend.Padding = vg.Points(1.5)
	return p
}

// Ellipsis shortens s to at most n runes, ending with "…" when cut.
func Ellipsis(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

// MaxSafeName bounds the length of SafeName's result, so that a chart's
// file name stays well within a file system's 255 bytes.
const MaxSafeName = 60

// SafeName turns a name into a file-name part: letters, digits, '-', '_'
// and '.', the rest replaced by '-'.
func SafeName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.')
		if ok {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-.")
	if len(out) > MaxSafeName {
		out = strings.TrimRight(out[:MaxSafeName], "-.")
	}
	if out == "" {
		out = "x"
	}
	return out
}

// Palette: colour-blind-safe (Okabe–Ito), in series order.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // green
	{0xCC, 0x79, 0xA7, 0xFF}, // purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x59, 0x59, 0x59, 0xFF}, // grey
}

func seriesColor(i int) color.RGBA { return palette[i%len(palette)] }

func withAlpha(c color.RGBA, a uint8) color.RGBA {
	// RGBA is alpha-premultiplied.
	f := float64(a) / 255
	return color.RGBA{uint8(float64(c.R) * f), uint8(float64(c.G) * f), uint8(float64(c.B) * f), a}
}

var (
	gridColor = color.RGBA{0xDD, 0xDD, 0xDD, 0xFF}
	inkColor  = color.RGBA{0x33, 0x33, 0x33, 0xFF}
	lightInk  = color.RGBA{0x77, 0x77, 0x77, 0xFF}
)

func newGrid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical.Color = gridColor
	g.Horizontal.Color = gridColor
	g.Vertical.Width = vg.Points(0.6)
	g.Horizontal.Width = vg.Points(0.6)
	return g
}

// Severity is a warning level as the analyses name it.
type Severity string

// Severities, mildest first.
const (
	SeverityOK       Severity = ""
	SeverityInfo     Severity = "info"
	SeverityWarning  Severity = "warning"
	SeverityCritical Severity = "critical"
)

// severityColor maps a warning level to the traffic-light colour DBAs
// know from IBAnalyst.
func severityColor(s Severity) color.RGBA {
	switch strings.ToLower(string(s)) {
	case "critical", "error", "red":
		return color.RGBA{0xC6, 0x28, 0x28, 0xFF}
	case "warning", "warn", "yellow":
		return color.RGBA{0xE6, 0x9F, 0x00, 0xFF}
	case "info", "notice":
		return color.RGBA{0x56, 0xB4, 0xE9, 0xFF}
	}
	return color.RGBA{0x7A, 0x9E, 0x7E, 0xFF}
}

func severityLabel(s Severity) string {
	switch strings.ToLower(string(s)) {
	case "critical", "error", "red":
		return "critical"
	case "warning", "warn", "yellow":
		return "warning"
	case "info", "notice":
		return "info"
	}
	return "no warning"
}

// finite reports whether every value is a usable number.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// errNoData is returned when a chart has nothing to draw.
func errNoData(k Kind, what string) error {
	return fmt.Errorf("plot %s: no %s to draw", k, what)
}

// FormatValue prints a figure compactly for a label: 3 significant
// digits, thousands as k/M/G.
func FormatValue(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return fmt.Sprintf("%.3gG", v/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.3gM", v/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.3gk", v/1e3)
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a == 0:
		return "0"
	}
	return fmt.Sprintf("%.3g", v)
}

// FormatSeconds prints a duration given in seconds: 950 ms, 42.1 s,
// 12 min 5 s, 3 h 02 min.
func FormatSeconds(s float64) string {
	switch {
	case s < 1:
		return fmt.Sprintf("%.0f ms", s*1000)
	case s < 60:
		return fmt.Sprintf("%.3g s", s)
	case s < 3600:
		m := math.Floor(s / 60)
		return fmt.Sprintf("%.0f min %02.0f s", m, math.Floor(s-60*m))
	}
	h := math.Floor(s / 3600)
	return fmt.Sprintf("%.0f h %02.0f min", h, math.Floor((s-3600*h)/60))
}

// Variance is the variance of an image's grey levels (0–255): near zero
// for a blank picture. Tests use it to tell a chart from an empty canvas.
func Variance(img image.Image) float64 {
	b := img.Bounds()
	var n, sum, sq float64
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			v := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257
			n++
			sum += v
			sq += v * v
		}
	}
	if n == 0 {
		return 0
	}
	m := sum / n
	return sq/n - m*m
}

// logRange widens a log axis around a single value (gonum would make it
// [0, 2x] and fail on the zero).
func logRange(a *gplot.Axis, min, max float64) {
	if min <= 0 || !finite(min, max) {
		return
	}
	if max <= min {
		min, max = min/2, min*2
	}
	a.Min, a.Max = min, max
}
