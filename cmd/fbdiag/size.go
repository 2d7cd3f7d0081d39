package main

import (
	"fmt"

	"github.com/fbdiag/fbdiag/internal/units"
)

// parseSize reads a size from the command line (--until, --ram): 100GB,
// 512MiB, 2T or a number of bytes, GB meaning GiB as Firebird and gstat
// count (units.ParseSize). Zero is refused: no size of a database or a
// server is 0.
func parseSize(s string) (int64, error) {
	b, err := units.ParseSize(s)
	if err != nil {
		return 0, err
	}
	if b <= 0 {
		return 0, fmt.Errorf("size %q: want a positive size such as 100GB, 512MiB or 2T", s)
	}
	return b, nil
}
