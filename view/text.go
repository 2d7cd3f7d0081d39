package view

import (
	"bufio"
	"cmp"
	"fmt"
	"hash/maphash"
	"io"
	"slices"
	"strings"
)

// LineWidth is the width text output keeps to.
const LineWidth = 100

// measureRows is how many rows text output holds to measure its columns;
// the rows of a longer stream after them are printed with those widths.
const measureRows = 1000

// writeText writes a document for a terminal.
func writeText(b *bufio.Writer, d *Doc, opt Options) error {
	blank := false // a blank line goes before the next block
	if d.Title != "" {
		lead := safe(d.Lead)
		fmt.Fprintln(b, lead+clipLeft(safe(d.Title), LineWidth-width(lead)))
	}
	if len(d.Headline) > 0 {
		n := 0
		for _, f := range d.Headline {
			n = max(n, width(safe(f.Label)))
		}
		for _, f := range d.Headline {
			l := safe(f.Label)
			line := strings.TrimRight(l+strings.Repeat(" ", n-width(l)+2)+fieldText(f), " ")
			if width(line) <= LineWidth {
				fmt.Fprintln(b, line)
				continue
			}
			if n+2 > LineWidth/2 {
				// The labels leave the value no room beside them (a
				// configuration's "terminals=4 page_buffers=256 · fbdiag
				// bench TPC-C-like (sp): predicted at 421 MiB"): the label
				// on its lines, the value wrapped under it.
				for _, w := range wrap(l, "", LineWidth) {
					fmt.Fprintln(b, w)
				}
				for _, w := range wrap(fieldText(f), "    ", LineWidth) {
					fmt.Fprintln(b, w)
				}
				continue
			}
			// A long value (a prediction and its caveat) wraps under
			// itself.
			for i, w := range wrap(fieldText(f), strings.Repeat(" ", n+2), LineWidth) {
				if i == 0 {
					w = l + strings.Repeat(" ", n-width(l)+2) + strings.TrimLeft(w, " ")
				}
				fmt.Fprintln(b, w)
			}
		}
		blank = true
	} else if d.Title != "" {
		blank = true
	}
	for _, t := range d.Tables {
		if blank {
			fmt.Fprintln(b)
		}
		textTable(b, t.forPeople(), opt)
		blank = true
	}
	if len(d.Findings) > 0 || d.FindingsTitle != "" {
		if blank {
			fmt.Fprintln(b)
		}
		textFindings(b, d, opt)
		blank = true
	}
	if len(d.Notes) > 0 && blank {
		fmt.Fprintln(b)
	}
	for _, n := range d.Notes {
		textNote(b, n)
	}
	return b.Flush()
}

// fieldText is a field's value as people read it: its Unknown or "?"
// when null, the detail after it.
func fieldText(f Field) string {
	v := safe(f.Text())
	if v == "" {
		v = cmp.Or(safe(f.Unknown), "?")
	}
	if f.Detail != "" {
		v += " " + safe(f.Detail)
	}
	return v
}

// textNote prints a sentence wrapped to the line width, continuation
// lines indented.
func textNote(w io.Writer, n string) {
	n = safe(n)
	if width(n) <= LineWidth {
		fmt.Fprintln(w, n)
		return
	}
	for i, l := range wrap(n, "  ", LineWidth) {
		if i == 0 {
			l = strings.TrimPrefix(l, "  ")
		}
		fmt.Fprintln(w, l)
	}
}

// shown is how many rows of t human formats show: its Limit unless
// Options.All, 0 meaning all.
func shown(t *Table, opt Options) int {
	limit := t.Limit
	if opt.All {
		limit = 0
	}
	if opt.MaxRows > 0 && (limit == 0 || limit > opt.MaxRows) {
		limit = opt.MaxRows
	}
	return limit
}

// moreNote says how many rows were shown of how many ("20 of 1500
// tables shown"), or "" when all were.
func moreNote(t *Table, opt Options, printed, counted int) string {
	total := max(t.Total, counted)
	if total <= printed {
		return ""
	}
	return fmt.Sprintf("%d of %d %s shown%s", printed, total, t.noun(), opt.MoreHint)
}

// textTable prints a table with aligned columns: its title, a header of
// the column titles, the rows and the notes.
func textTable(w io.Writer, t *Table, opt Options) {
	if t.Blocks {
		textBlocks(w, t, opt)
		return
	}
	if t.Title != "" {
		fmt.Fprintln(w, safe(t.Title))
	}
	limit := shown(t, opt)
	widths := make([]int, len(t.Columns))
	head := make([]string, len(t.Columns))
	clips := make([]int, len(t.Columns)) // c.Max, widened by unambiguousClips
	for i, c := range t.Columns {
		head[i] = safe(c.Title)
		widths[i] = width(head[i])
		clips[i] = c.Max
	}
	clipCell := func(i int, v string) string {
		if t.Columns[i].ClipLeft {
			return clipLeft(v, clips[i])
		}
		return clip(v, clips[i])
	}
	raw := func(r []Cell) []string {
		out := make([]string, len(t.Columns))
		for i := range t.Columns {
			if i < len(r) {
				out[i] = safe(r[i].Human())
			}
		}
		return out
	}
	cells := func(r []string) []string {
		for i := range r {
			r[i] = clipCell(i, r[i])
		}
		return r
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range t.Columns {
			v := cells[i]
			pad := strings.Repeat(" ", max(widths[i]-width(v), 0))
			if i > 0 {
				b.WriteString("  ")
			}
			if c.Kind.numeric() {
				b.WriteString(pad + v)
			} else {
				b.WriteString(v + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	var held [][]string
	count, printed := 0, 0
	started := false
	// clipped maps each clipped column's clipped text to the value it
	// was clipped from, for the rows after the held ones (their widths
	// are set): a later value that would read as an earlier different
	// one is printed whole, past its column, rather than alike. Hashes,
	// not the strings: --all of a million steps keeps 16 bytes a name.
	clipped := make([]map[uint64]uint64, len(t.Columns))
	seed := maphash.MakeSeed()
	remember := func(i int, shown, value string) bool {
		k, v := maphash.String(seed, shown), maphash.String(seed, value)
		if o, ok := clipped[i][k]; ok {
			return o == v
		}
		clipped[i][k] = v
		return true
	}
	laterCells := func(r []string) []string {
		for i := range r {
			if v := clipCell(i, r[i]); v != r[i] && remember(i, v, r[i]) {
				r[i] = v
			}
		}
		return r
	}
	start := func() {
		started = true
		if len(t.Columns) == 0 {
			return
		}
		unambiguousClips(held, clips, clipCell)
		for i := range clipped {
			clipped[i] = map[uint64]uint64{}
		}
		for _, r := range held {
			raw := slices.Clone(r)
			cells(r)
			for i := range r {
				widths[i] = max(widths[i], width(r[i]))
				if r[i] != raw[i] {
					remember(i, r[i], raw[i])
				}
			}
		}
		line(head)
		for _, r := range held {
			line(r)
		}
		printed += len(held)
		held = nil
	}
	for r := range t.All() {
		count++
		if limit > 0 && count > limit {
			continue
		}
		c := raw(r)
		if started {
			line(laterCells(c))
			printed++
			continue
		}
		held = append(held, c)
		if len(held) == measureRows {
			start()
		}
	}
	if !started && (count > 0 || len(t.Columns) > 0) {
		start()
	}
	if n := moreNote(t, opt, printed, count); n != "" {
		textNote(w, n)
	}
	for _, n := range t.Notes {
		textNote(w, n)
	}
}

// unambiguousClips widens a clipped column until no two different values
// of the held rows read the same: RDB$RELATION_FIELDS and
// RDB$RELATION_CONSTRAINTS both read "RDB$RELATION_…" at 14 columns,
// "RDB$RELATION_F…" and "RDB$RELATION_C…" at 16. A name the DBA cannot
// tell from another is worth the wider line. Rows streamed after the
// held ones keep the widths found here (a value of theirs that would read
// as another is printed whole).
func unambiguousClips(held [][]string, clips []int, clipCell func(int, string) string) {
	for i := range clips {
		if clips[i] <= 0 {
			continue
		}
		longest := 0
		for _, r := range held {
			longest = max(longest, width(r[i]))
		}
		for clips[i] < longest {
			seen := make(map[string]string, len(held))
			clash := false
			for _, r := range held {
				c := clipCell(i, r[i])
				if v, ok := seen[c]; ok && v != r[i] {
					clash = true
					break
				}
				seen[c] = r[i]
			}
			if !clash {
				break
			}
			clips[i]++
		}
	}
}

// op is how a finding's value stands to its threshold.
func op(f Finding) string {
	v, th := f.Value.Value(), f.Threshold.Value()
	switch {
	case v > th:
		return ">"
	case v < th:
		return "<"
	}
	return ">="
}

// figureText is "value > threshold unit", or "" for a finding without a
// figure.
func figureText(f Finding) string {
	if f.Flag || f.Value.Null || f.Threshold.Null {
		return ""
	}
	s := f.Value.Human() + " " + op(f) + " " + f.Threshold.Human()
	if f.Unit != "" {
		s += " " + f.Unit
	}
	return s
}

// findingsTitle heads the findings: "Warnings (3)".
func findingsTitle(d *Doc) string {
	return fmt.Sprintf("%s (%d)", findingsNoun(d), d.findingsCount())
}

func findingsNoun(d *Doc) string {
	return cmp.Or(d.FindingsTitle, "Findings")
}

// shownFindings are the findings human formats show, and the note on
// those left out ("" when none is). Options.MaxRows bounds them as it
// does a table's rows, All or not.
func shownFindings(d *Doc, opt Options) ([]Finding, string) {
	n := len(d.Findings)
	omitted := 0
	for _, c := range d.FindingsOmitted {
		omitted += c.Count
	}
	whole := omitted == 0 && (opt.All || d.FindingsLimit <= 0 || n <= d.FindingsLimit)
	if whole && (opt.MaxRows <= 0 || n <= opt.MaxRows) {
		return d.Findings, ""
	}
	limit := n
	if !whole && d.FindingsLimit > 0 {
		limit = min(n, d.FindingsLimit)
	}
	if opt.MaxRows > 0 {
		limit = min(limit, opt.MaxRows)
	}
	count := map[string]int{}
	var sevs []string
	for _, f := range d.Findings[limit:] {
		if count[f.Severity] == 0 {
			sevs = append(sevs, f.Severity)
		}
		count[f.Severity]++
	}
	// The omitted ones are worse than none of those kept: merged in
	// severity order.
	for _, c := range d.FindingsOmitted {
		if count[c.Severity] == 0 {
			sevs = append(sevs, c.Severity)
		}
		count[c.Severity] += c.Count
	}
	rank := map[string]int{"critical": 3, "warning": 2, "info": 1}
	slices.SortStableFunc(sevs, func(a, b string) int { return rank[b] - rank[a] })
	n += omitted
	d = &Doc{FindingsLimit: limit, FindingsTitle: d.FindingsTitle, Findings: d.Findings}
	var parts []string
	for _, s := range sevs {
		parts = append(parts, fmt.Sprintf("%d %s", count[s], s))
	}
	return d.Findings[:d.FindingsLimit], fmt.Sprintf("%d of %d %s shown%s; not shown: %s",
		d.FindingsLimit, n, strings.ToLower(findingsNoun(d)), opt.MoreHint, strings.Join(parts, ", "))
}

// textFindings prints one block per finding, its message and advice
// wrapped under it, and the source of each rule once, at the end.
func textFindings(w io.Writer, d *Doc, opt Options) {
	fmt.Fprintln(w, safe(findingsTitle(d)))
	shown, more := shownFindings(d, opt)
	const indent = "         "
	var rules []string
	sources := map[string][]string{}
	for _, f := range shown {
		l := fmt.Sprintf("%-8s %s  %s", strings.ToUpper(f.Severity), f.Rule, f.Object)
		if fig := figureText(f); fig != "" {
			l += ": " + fig
		}
		fmt.Fprintln(w, safe(l))
		for _, x := range wrap(safe(f.Message), indent, LineWidth) {
			fmt.Fprintln(w, x)
		}
		if f.Advice != "" {
			for _, x := range wrapAdvice("do: "+safe(f.Advice), indent, LineWidth) {
				fmt.Fprintln(w, x)
			}
		}
		if f.Source == "" {
			continue
		}
		if _, ok := sources[f.Rule]; !ok {
			rules = append(rules, f.Rule)
		}
		if !slices.Contains(sources[f.Rule], f.Source) {
			sources[f.Rule] = append(sources[f.Rule], f.Source)
		}
	}
	if len(d.Findings) == 0 {
		fmt.Fprintln(w, "none")
	}
	if more != "" {
		textNote(w, more)
	}
	if len(rules) > 0 {
		fmt.Fprintln(w, "Sources")
		for _, r := range rules {
			for _, s := range sources[r] {
				for _, x := range wrap(safe(r+": "+s), indent, LineWidth) {
					fmt.Fprintln(w, x)
				}
			}
		}
	}
}

// findingsCount counts the findings, those the analysis did not keep
// included.
func (d *Doc) findingsCount() int {
	n := len(d.Findings)
	for _, c := range d.FindingsOmitted {
		n += c.Count
	}
	return n
}

// textBlocks prints a table of Blocks: a block per row, its head cells
// on the first line, each other cell on lines of its own, "title:
// value" wrapped under it; a blank line between blocks.
func textBlocks(w io.Writer, t *Table, opt Options) {
	if t.Title != "" {
		fmt.Fprintln(w, safe(t.Title))
		fmt.Fprintln(w)
	}
	limit := shown(t, opt)
	count, printed := 0, 0
	for r := range t.All() {
		count++
		if limit > 0 && count > limit {
			continue
		}
		if printed > 0 {
			fmt.Fprintln(w)
		}
		printed++
		var head []string
		var lines []string
		for i, c := range t.Columns {
			if i >= len(r) {
				break
			}
			v := safe(r[i].Human())
			switch {
			case c.Block == BlockOmit || v == "":
			case c.Block == BlockHead:
				head = append(head, v)
			default:
				lines = append(lines, wrap(safe(c.Title)+": "+v, "    ", LineWidth)...)
			}
		}
		fmt.Fprintln(w, clip(strings.Join(head, "  "), LineWidth))
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
	if n := moreNote(t, opt, printed, count); n != "" {
		fmt.Fprintln(w)
		textNote(w, n)
	}
	for _, n := range t.Notes {
		textNote(w, n)
	}
}
