// Command make-big writes a large gstat report or gbak restore log made of
// a real small one's blocks repeated (see internal/bigfile), for the
// performance figures in README:
//
//	go run ./tools/make-big -kind gstat -size 100MiB -o /tmp/big-gstat.txt
//	go run ./tools/make-big -kind gbak -size 100MiB -o /tmp/big-gbak.log
//
// With -snapshots N, a gstat run is written N times, each taken a day
// after the one before (its "Gstat execution time" line): into folder -o
// as N files (snap000.txt, ...), or with -append into file -o as N runs,
// as a cron job appends them:
//
//	go run ./tools/make-big -size 2MiB -snapshots 120 -o /tmp/trend120
//	go run ./tools/make-big -size 2MiB -snapshots 64 -append -o /tmp/runs64.txt
//
// The default sources are testdata/fb30's shop database outputs.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/fbdiag/fbdiag/internal/atomicfile"
	"github.com/fbdiag/fbdiag/internal/bigfile"
	"github.com/fbdiag/fbdiag/parse"
)

func main() {
	kind := flag.String("kind", "gstat", "gstat or gbak")
	src := flag.String("src", "", "source file (default testdata/fb30/shop-gstat-a-r.txt or shop-gbak-restore-v-st.log)")
	sizeText := flag.String("size", "100MiB", "approximate output size (KiB, MiB, GiB; MB means MiB)")
	out := flag.String("o", "", "output file, or folder with -snapshots (required)")
	snapshots := flag.Int("snapshots", 0, "write the gstat run N times, a day apart: N files in folder -o")
	appended := flag.Bool("append", false, "with -snapshots: the N runs appended in file -o")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "make-big: -o FILE is required")
		os.Exit(2)
	}
	size, ok := parse.ParseSize(*sizeText)
	if !ok || size <= 0 {
		fmt.Fprintf(os.Stderr, "make-big: -size %q: not a size\n", *sizeText)
		os.Exit(2)
	}
	gen := bigfile.Gstat
	switch *kind {
	case "gstat":
		if *src == "" {
			*src = "testdata/fb30/shop-gstat-a-r.txt"
		}
	case "gbak":
		gen = bigfile.GbakRestore
		if *src == "" {
			*src = "testdata/fb30/shop-gbak-restore-v-st.log"
		}
	default:
		fmt.Fprintf(os.Stderr, "make-big: -kind %q: gstat or gbak\n", *kind)
		os.Exit(2)
	}
	b, err := os.ReadFile(*src)
	if err != nil {
		fmt.Fprintln(os.Stderr, "make-big:", err)
		os.Exit(1)
	}
	if *snapshots > 0 {
		if *kind != "gstat" {
			fmt.Fprintln(os.Stderr, "make-big: -snapshots is for -kind gstat")
			os.Exit(2)
		}
		if err := writeSnapshots(*out, b, int64(size), *snapshots, *appended); err != nil {
			fmt.Fprintf(os.Stderr, "make-big: %v\n", err)
			os.Exit(1)
		}
		return
	}
	f, err := atomicfile.Create(*out, atomicfile.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "make-big:", err)
		os.Exit(1)
	}
	n, err := gen(f.File, b, int64(size))
	if err == nil {
		err = f.Commit()
	} else {
		f.Abort()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "make-big: %s: %v\n", *src, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "make-big: wrote %s: %d tables\n", *out, n)
}

// executionTime is the line that dates a gstat run.
var executionTime = regexp.MustCompile(`(?m)^Gstat execution time [^\r\n]*`)

// writeSnapshots writes a run of about size bytes made from src n times,
// a day apart from 2026-01-01 03:00: as n files in folder out, or
// appended in file out.
func writeSnapshots(out string, src []byte, size int64, n int, appended bool) error {
	var run bytes.Buffer
	tables, err := bigfile.Gstat(&run, src, size)
	if err != nil {
		return err
	}
	base := time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)
	snap := func(k int) []byte {
		at := "Gstat execution time " + base.AddDate(0, 0, k).Format(time.ANSIC)
		return executionTime.ReplaceAll(run.Bytes(), []byte(at))
	}
	if appended {
		err = atomicfile.Write(out, atomicfile.Options{}, func(w io.Writer) error {
			for k := range n {
				if _, err := w.Write(snap(k)); err != nil {
					return err
				}
			}
			return nil
		})
	} else if err = os.MkdirAll(out, 0o755); err == nil {
		for k := range n {
			if err = writeFile(filepath.Join(out, fmt.Sprintf("snap%03d.txt", k)), snap(k)); err != nil {
				break
			}
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "make-big: wrote %s: %d snapshots of %d tables\n", out, n, tables)
	return nil
}

func writeFile(path string, b []byte) error {
	return atomicfile.Write(path, atomicfile.Options{}, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
