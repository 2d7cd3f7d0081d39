package report

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/fbdiag/fbdiag/internal/atomicfile"
	"github.com/fbdiag/fbdiag/plot"
)

// pngMark is the tEXt chunk (keyword Software) WritePNGs puts in every
// chart it writes: the mark that lets a later --png replace the file.
const pngMark = "Software\x00fbdiag"

// WritePNGs writes charts into dir (created when missing), one PNG each
// under its File name, and returns the paths written. It is what the
// analysis commands' --png DIR flag calls. A file already there under a
// chart's name is replaced only when it is a chart WritePNGs wrote (it
// carries the mark); any other file stops it with ErrNotOurs before
// anything is written. The files are renamed into place together, once
// all are written. A chart of
// notes only (plot.NotesOnly) has no file.
func WritePNGs(dir string, charts []*plot.Chart, o plot.Options) ([]string, error) {
	var list []*plot.Chart
	var names plot.Names
	for _, c := range charts {
		if c == nil || !c.Drawn() {
			continue // nothing, or notes only
		}
		// Two runs of one file draw charts of one name: the second
		// run's must not replace the first's.
		names.Assign(c)
		list = append(list, c)
	}
	for _, c := range list {
		p := filepath.Join(dir, c.File())
		ours, err := isOurPNG(p)
		if err != nil {
			return nil, err
		}
		if !ours {
			return nil, fmt.Errorf("%s: %w (remove it or choose another --png folder)", p, ErrNotOurs)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// What a killed run left half-written goes.
	if _, err := atomicfile.RemoveStale(dir, ourFileName); err != nil {
		return nil, err
	}
	// Each chart is drawn and written under its temporary name, and all
	// are renamed only once the last is: a run interrupted while it draws
	// leaves the earlier charts of the folder as they were, not some of
	// this run's beside some of the last one's.
	files := make([]*atomicfile.File, len(list))
	defer abortAll(files)
	paths := make([]string, len(list))
	for i, c := range list {
		var buf bytes.Buffer
		if err := c.WritePNGTo(&buf, o); err != nil {
			return nil, err
		}
		data, err := markPNG(buf.Bytes())
		if err != nil {
			return nil, err
		}
		paths[i] = filepath.Join(dir, c.File())
		if files[i], err = writeSyncedBytes(paths[i], data); err != nil {
			return nil, err
		}
	}
	if err := commitAll(files, len(files)-1); err != nil {
		return nil, err
	}
	return paths, nil
}

// markPNG inserts the fbdiag tEXt chunk right after IHDR.
func markPNG(b []byte) ([]byte, error) {
	const ihdrEnd = 8 + 4 + 4 + 13 + 4 // signature, IHDR length, type, data, CRC
	if len(b) < ihdrEnd || string(b[12:16]) != "IHDR" {
		return nil, errors.New("chart: not a PNG")
	}
	chunk := make([]byte, 0, 12+len(pngMark))
	chunk = binary.BigEndian.AppendUint32(chunk, uint32(len(pngMark)))
	chunk = append(chunk, "tEXt"+pngMark...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := make([]byte, 0, len(b)+len(chunk))
	out = append(out, b[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, b[ihdrEnd:]...), nil
}

// isOurPNG reports whether path is absent or a chart WritePNGs wrote.
func isOurPNG(path string) (bool, error) { return headHas(path, 64, "tEXt"+pngMark) }
