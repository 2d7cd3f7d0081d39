package report

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/fbdiag/fbdiag/plot"
)

// WritePNGs writes charts into dir (created when missing), one PNG each
// under its File name, and returns the paths written. It is what the
// analysis commands' --png DIR flag calls.
func WritePNGs(dir string, charts []*plot.Chart, o plot.Options) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	seen := map[string]int{}
	for _, c := range charts {
		if c == nil {
			continue
		}
		name := c.File()
		if n := seen[name]; n > 0 {
			c.Name = c.Name + "-" + strconv.Itoa(n+1)
			name = c.File()
		}
		seen[name]++
		p := filepath.Join(dir, name)
		if err := plot.WritePNG(p, c, o); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
