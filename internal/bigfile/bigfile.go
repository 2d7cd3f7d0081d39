// Package bigfile makes large gstat outputs and gbak logs from real small
// ones, for the benchmarks and the performance figures in README: the table
// blocks of a gstat -a -r report (or the data section of a gbak restore
// log) are repeated with renamed tables and indices until the output
// reaches the requested size. Every repeated block is a real block, so the
// parser and the analysis do the work they do on a real database of that
// many tables.
package bigfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// ErrShape means the source does not have the sections the generator
// repeats.
var ErrShape = errors.New("bigfile: source has no repeatable section")

var (
	gstatTable = regexp.MustCompile(`^(\S.*) \((\d+)\)\s*$`)
	gstatIndex = regexp.MustCompile(`^(\s+Index )(.+) \((\d+)\)\s*$`)
	gbakTime   = regexp.MustCompile(`^gbak:\s*(\d+\.\d+)(\s+\d+\.\d+\s+\d+\s+\d+ .*?)\s*$`)
	gbakData   = regexp.MustCompile(`^(gbak:.*restoring data for table )(.+?)\s*$`)
	gbakIndex  = regexp.MustCompile(`^(gbak:.*\s{2}restoring index )(.+?)\s*$`)
)

func lines(src []byte) [][]byte {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	ls := bytes.SplitAfter(src, []byte("\n"))
	if n := len(ls); n > 0 && len(ls[n-1]) == 0 {
		ls = ls[:n-1]
	}
	return ls
}

// Gstat writes to w a gstat report of about size bytes: src's header, then
// its table blocks (from "Analyzing database pages" to the completion
// line) repeated, each copy's tables and indices suffixed _00001, _00002…
// and numbered after the previous copy's, then src's last lines.
func Gstat(w io.Writer, src []byte, size int64) (tables int, err error) {
	ls := lines(src)
	start, end := -1, len(ls)
	for i, l := range ls {
		switch {
		case start < 0 && bytes.HasPrefix(l, []byte("Analyzing database pages")):
			start = i + 1
		case start >= 0 && bytes.HasPrefix(l, []byte("Gstat completion time")):
			end = i
		}
	}
	if start < 0 || start >= end {
		return 0, ErrShape
	}
	body := ls[start:end]
	perCopy := 0
	for _, l := range body {
		if gstatTable.Match(l) {
			perCopy++
		}
	}
	if perCopy == 0 {
		return 0, ErrShape
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	var written int64
	put := func(b []byte) {
		n, _ := bw.Write(b)
		written += int64(n)
	}
	for _, l := range ls[:start] {
		put(l)
	}
	for k := 1; written < size; k++ {
		suffix := fmt.Sprintf("_%05d", k)
		for _, l := range body {
			if m := gstatTable.FindSubmatch(l); m != nil {
				id, _ := strconv.Atoi(string(m[2]))
				put(fmt.Appendf(nil, "%s%s (%d)\n", m[1], suffix, id+k*1000))
				tables++
				continue
			}
			if m := gstatIndex.FindSubmatch(l); m != nil {
				put(fmt.Appendf(nil, "%s%s%s (%s)\n", m[1], m[2], suffix, m[3]))
				continue
			}
			put(l)
		}
	}
	for _, l := range ls[end:] {
		put(l)
	}
	return tables, bw.Flush()
}

// GbakRestore writes to w a gbak -v -st tdrw restore log of about size
// bytes: src's lines up to its first table, then the span from the first
// "restoring index"/"restoring data for table" line to the last table's
// records repeated with renamed tables and indices and times shifted by
// the span's duration, then src's remaining lines shifted by the total.
func GbakRestore(w io.Writer, src []byte, size int64) (tables int, err error) {
	ls := lines(src)
	first, last := -1, -1
	for i, l := range ls {
		if gbakData.Match(l) || (first < 0 && gbakIndex.Match(l)) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return 0, ErrShape
	}
	// The last table's records run until the next line that is not a
	// progress line.
	for last+1 < len(ls) && bytes.Contains(ls[last+1], []byte("records restored")) {
		last++
	}
	body := ls[first : last+1]
	t0, ok0 := gbakSeconds(ls[first])
	t1, ok1 := gbakSeconds(ls[last])
	if !ok0 || !ok1 {
		return 0, ErrShape
	}
	span := t1 - t0 + 0.001
	bw := bufio.NewWriterSize(w, 1<<16)
	var written int64
	put := func(b []byte) {
		n, _ := bw.Write(b)
		written += int64(n)
	}
	for _, l := range ls[:first] {
		put(l)
	}
	k := 0
	for ; written < size; k++ {
		suffix := ""
		if k > 0 {
			suffix = fmt.Sprintf("_%05d", k)
		}
		off := float64(k) * span
		for _, l := range body {
			l = shiftGbak(l, off)
			if m := gbakData.FindSubmatch(l); m != nil {
				l = fmt.Appendf(nil, "%s%s%s\n", m[1], m[2], suffix)
				tables++
			} else if m := gbakIndex.FindSubmatch(l); m != nil {
				l = fmt.Appendf(nil, "%s%s%s\n", m[1], m[2], suffix)
			}
			put(l)
		}
	}
	for _, l := range ls[last+1:] {
		put(shiftGbak(l, float64(k-1)*span))
	}
	return tables, bw.Flush()
}

// shiftGbak adds off seconds to the time column of a statistics line.
// gbak prints "gbak:", a blank, then the time as %4lu.%03u (burp.cpp's
// STAT_FORMATS): from 10000 s on the number is wider than four digits but
// the blank stays ("gbak: 13304.334" in the seed restore log).
func shiftGbak(l []byte, off float64) []byte {
	m := gbakTime.FindSubmatch(l)
	if m == nil {
		return l
	}
	t, _ := strconv.ParseFloat(string(m[1]), 64)
	return fmt.Appendf(nil, "gbak: %8.3f%s\n", t+off, m[2])
}

func gbakSeconds(l []byte) (float64, bool) {
	m := gbakTime.FindSubmatch(l)
	if m == nil {
		return 0, false
	}
	t, err := strconv.ParseFloat(string(m[1]), 64)
	return t, err == nil
}
