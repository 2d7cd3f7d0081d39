// Command vs-wc times a command against `wc -l` on the same file, for the
// performance figures in README: each of -n rounds runs `wc -l FILE`,
// then the command with FILE as its last argument (its output thrown
// away), so both see the same page cache and the same load. It prints the
// medians of the command's wall time, CPU time (user and system) and
// peak RSS, of wc's wall time, and of the ratio of the two walls taken
// round by round, with its range:
//
//	go run ./tools/vs-wc -n 5 -- fbdiag gstat --format json /tmp/big-gstat.txt
//
// Wall times include starting the process, for wc as for the command.
// With -row LABEL it prints the figures as a row of README's performance
// table instead (tools/perf-table.sh makes the table's gstat rows).
//
// Before the rounds the file is dropped from the page cache and read
// back (Linux, -recache=false to skip): `wc -l` reads a file cached in
// large folios up to 40 % faster than one left in 4 KiB pages, and the
// ratio is meant against the faster. The output gives wc's rate.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"
)

func main() {
	rounds := flag.Int("n", 5, "rounds")
	fresh := flag.Bool("recache", true, "drop FILE from the page cache and read it back first")
	row := flag.String("row", "", "print a row of README's performance table with this label instead")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: vs-wc [-n rounds] -- COMMAND ARGS... FILE")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	if len(args) < 2 || *rounds < 1 {
		flag.Usage()
		os.Exit(2)
	}
	file := args[len(args)-1]
	st, err := os.Stat(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vs-wc:", err)
		os.Exit(1)
	}
	if *fresh {
		if err := recache(file); err != nil {
			fmt.Fprintln(os.Stderr, "vs-wc: recache:", err)
			os.Exit(1)
		}
	}
	var wall, cpu, rss, wc, ratio []float64
	for range *rounds {
		w, err := measure([]string{"wc", "-l", file})
		if err != nil {
			fmt.Fprintln(os.Stderr, "vs-wc: wc:", err)
			os.Exit(1)
		}
		c, err := measure(args)
		if err != nil {
			fmt.Fprintf(os.Stderr, "vs-wc: %s: %v\n", args[0], err)
			os.Exit(1)
		}
		wall, cpu, rss = append(wall, c.wall), append(cpu, c.cpu), append(rss, c.rssMB)
		wc, ratio = append(wc, w.wall), append(ratio, c.wall/w.wall)
	}
	if *row != "" {
		fmt.Printf("| %s | %.2f s (%.2f s) | %.1f× (%.1f–%.1f) | %.0f MB | %.3f s |\n", *row,
			median(wall), median(cpu), median(ratio), slices.Min(ratio), slices.Max(ratio), median(rss), median(wc))
		return
	}
	fmt.Printf("wall %.2f s (CPU %.2f s), peak RSS %.0f MB; wc -l %.3f s (%.1f GB/s); %.1f× wc -l (%.1f–%.1f)\n",
		median(wall), median(cpu), median(rss), median(wc), float64(st.Size())/median(wc)/1e9,
		median(ratio), slices.Min(ratio), slices.Max(ratio))
}

type usage struct{ wall, cpu, rssMB float64 }

// measure runs argv with its output discarded and returns its wall time,
// CPU time and peak RSS (0 where the system does not say).
func measure(argv []string) (usage, error) {
	// The null device itself, not io.Discard: that would pipe the output
	// through this process.
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return usage{}, err
	}
	defer null.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = null, null
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start).Seconds()
	if err != nil {
		return usage{}, err
	}
	ps := cmd.ProcessState
	return usage{wall, (ps.UserTime() + ps.SystemTime()).Seconds(), maxRSSMB(ps)}, nil
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
