package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fbdiag/fbdiag/internal/atomicfile"
	"github.com/fbdiag/fbdiag/plot"
)

// ErrNotOurs is returned by WriteDir when the folder holds an index.html
// (or a chart file name) that fbdiag did not write: a user's file is
// never overwritten.
var ErrNotOurs = errors.New("exists and was not written by fbdiag")

// IndexFile is the report's page in its folder.
const IndexFile = "index.html"

// WriteDir renders the charts and writes them, index.html and
// report.json into dir (created when missing), each under a temporary
// name until all are complete, then renamed: an interrupted run leaves
// the earlier report as it was. It returns the path of
// index.html. A folder holding an earlier fbdiag report is updated; any
// other index.html or report.json stops it with ErrNotOurs before
// anything is written.
func WriteDir(dir string, r *Report, o plot.Options) (string, error) {
	index := filepath.Join(dir, IndexFile)
	ours, err := isOurs(index)
	if err != nil {
		return "", err
	}
	if !ours {
		return "", fmt.Errorf("%s: %w (choose another --out folder)", index, ErrNotOurs)
	}
	// report.json is replaced only when fbdiag wrote it (its generator
	// field comes first).
	summary := filepath.Join(dir, JSONFile)
	if ok, err := headHas(summary, 256, `"generator": "`+GeneratorPrefix); err != nil {
		return "", err
	} else if !ok {
		return "", fmt.Errorf("%s: %w (choose another --out folder)", summary, ErrNotOurs)
	}
	if _, err := os.Stat(index); os.IsNotExist(err) {
		// No report yet (or one interrupted before its page was
		// written): a chart may replace only a chart fbdiag wrote.
		for _, f := range r.Drawn() {
			p := filepath.Join(dir, f.File)
			ours, err := isOurPNG(p)
			if err != nil {
				return "", err
			}
			if !ours {
				return "", fmt.Errorf("%s: %w (choose another --out folder)", p, ErrNotOurs)
			}
		}
	}
	// The charts the earlier report's page named: those this one does
	// not draw are removed once it is written.
	earlier, err := chartsNamedBy(index)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// What a killed run left half-written goes.
	if _, err := atomicfile.RemoveStale(dir, ourFileName); err != nil {
		return "", err
	}
	if err := r.Render(o); err != nil {
		return "", err
	}
	// Every file is written under its temporary name, synced and closed
	// before any is renamed: a run interrupted or failing while it writes (the
	// report.json of a big database takes seconds) leaves the earlier
	// report whole, not its report.json beside a new page and charts.
	figs := r.Drawn()
	files := make([]*atomicfile.File, len(figs)+2)
	defer abortAll(files)
	// The charts are independent: four written at a time.
	err = fanOut(len(figs), 4, func(i int) error {
		// Marked as --png marks them: a later --png into this folder
		// may replace them.
		data, err := markPNG(figs[i].PNG)
		if err != nil {
			return err
		}
		files[i], err = writeSyncedBytes(filepath.Join(dir, figs[i].File), data)
		return err
	})
	if err != nil {
		return "", err
	}
	w, h := o.Width, o.Height
	if w <= 0 || h <= 0 {
		w, h = plot.DefaultWidth, plot.DefaultHeight
	}
	files[len(figs)], err = writeSynced(index, buffered(func(out io.Writer) error {
		return WriteHTML(out, r, w, h)
	}))
	if err != nil {
		return "", err
	}
	files[len(figs)+1], err = writeSynced(summary, buffered(func(out io.Writer) error {
		return WriteSummaryJSON(out, r)
	}))
	if err != nil {
		return "", err
	}
	// report.json, the last written, first, then the charts, and the
	// page last.
	if err := commitAll(files, len(files)-1); err != nil {
		return "", err
	}
	if err := removeStaleCharts(dir, earlier, figs); err != nil {
		return "", err
	}
	return index, nil
}

// writeSyncedBytes is writeSynced of data (a chart's PNG).
func writeSyncedBytes(path string, data []byte) (*atomicfile.File, error) {
	return writeSynced(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// commitAll gives every file written by writeSynced its name,
// files[first] first: the last one written, so that while its temporary
// file is seen none is renamed yet. A file is nil in files once
// committed, for abortAll. The renames are atomicfile.Together: a signal
// waits for them.
func commitAll(files []*atomicfile.File, first int) error {
	if len(files) == 0 {
		return nil
	}
	commit := func(i int) error {
		f := files[i]
		files[i] = nil
		return f.Commit()
	}
	return atomicfile.Together(func() error {
		if err := commit(first); err != nil {
			return err
		}
		for i := range files {
			if files[i] != nil {
				if err := commit(i); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// abortAll removes the temporary files of those of files written and not
// committed (a deferred call: an error or an interrupt on the way).
func abortAll(files []*atomicfile.File) {
	for _, f := range files {
		if f != nil {
			f.Abort()
		}
	}
}

// writeSynced writes a file of the report under its temporary name,
// synced and closed; Commit gives it its name.
func writeSynced(path string, fill func(io.Writer) error) (*atomicfile.File, error) {
	f, err := atomicfile.Create(path, atomicfile.Options{})
	if err != nil {
		return nil, err
	}
	if err := fill(f); err != nil {
		f.Abort()
		return nil, err
	}
	if err := f.Finish(); err != nil {
		f.Abort()
		return nil, err
	}
	return f, nil
}

// chartFileRe finds the chart files a page shows: each drawn chart's
// figure has the id "fig-" and its file name (base names only).
var chartFileRe = regexp.MustCompile(`<figure id="fig-([^"/\\]+\.png)">`)

// chartsNamedBy lists the chart files an earlier fbdiag page names (none
// when there is no page).
func chartsNamedBy(index string) (map[string]bool, error) {
	b, err := os.ReadFile(index)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, m := range chartFileRe.FindAllSubmatch(b, -1) {
		// (character references may spell a separator, "..&#47;x.png":
		// a name is a file of the folder, or none)
		name := html.UnescapeString(string(m[1]))
		if name == filepath.Base(name) && !strings.ContainsAny(name, `/\`) && name != ".." {
			names[name] = true
		}
	}
	return names, nil
}

// removeStaleCharts removes the charts of the earlier report in dir
// that this one does not draw, when fbdiag's mark is on them: a section
// that became another kind (restore-page-buffers.csv's A/B became a
// sweep) left ab-restore-page-buffers.csv.png beside the page, a chart
// of the old analysis that no page shows. A PNG the earlier page did not
// name (a --png chart, a user's file) stays.
func removeStaleCharts(dir string, earlier map[string]bool, figs []*Figure) error {
	if len(earlier) == 0 {
		return nil
	}
	for _, f := range figs {
		delete(earlier, f.File)
	}
	for name := range earlier {
		p := filepath.Join(dir, name)
		if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
			continue // gone, never written, or not a file
		}
		ours, err := isOurPNG(p)
		if err != nil {
			return err
		}
		if ours {
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
	}
	return nil
}

// buffered gives write a buffer on the file: the template writes a page
// in thousands of small pieces, a system call each without one.
func buffered(write func(io.Writer) error) func(io.Writer) error {
	return func(out io.Writer) error {
		b := bufio.NewWriterSize(out, 64<<10)
		if err := write(b); err != nil {
			return err
		}
		return b.Flush()
	}
}

// ourFileName reports whether a file of that name in a report or --png
// folder may be fbdiag's: the page, report.json and the charts. (A run
// killed while it wrote report.json, the largest file, left its
// ".report.json.tmp-*", as large, for good.)
func ourFileName(name string) bool {
	return name == IndexFile || name == JSONFile || strings.HasSuffix(name, ".png")
}

// isOurs reports whether path is absent or an fbdiag report (it carries
// the generator meta tag in its head).
func isOurs(path string) (bool, error) {
	return headHas(path, 4096, `<meta name="generator" content="`+GeneratorPrefix)
}

// headHas reports whether path is absent or holds mark in its first n
// bytes: how fbdiag recognises the files it may replace.
func headHas(path string, n int, mark string) (bool, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, n)
	n, _ = io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte(mark)), nil
}
