// Command make-big writes a large gstat report or gbak restore log made of
// a real small one's blocks repeated (see internal/bigfile), for the
// performance figures in README:
//
//	go run ./tools/make-big -kind gstat -size 100MiB -o /tmp/big-gstat.txt
//	go run ./tools/make-big -kind gbak -size 100MiB -o /tmp/big-gbak.log
//
// The default sources are testdata/fb30's shop database outputs.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fbdiag/fbdiag/internal/atomicfile"
	"github.com/fbdiag/fbdiag/internal/bigfile"
	"github.com/fbdiag/fbdiag/parse"
)

func main() {
	kind := flag.String("kind", "gstat", "gstat or gbak")
	src := flag.String("src", "", "source file (default testdata/fb30/shop-gstat-a-r.txt or shop-gbak-restore-v-st.log)")
	sizeText := flag.String("size", "100MiB", "approximate output size (KiB, MiB, GiB; MB means MiB)")
	out := flag.String("o", "", "output file (required)")
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
