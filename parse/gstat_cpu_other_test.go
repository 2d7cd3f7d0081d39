//go:build !unix

package parse_test

import "time"

// cpuTime is not measured here; the cpu-MB/s metric is then omitted.
func cpuTime() time.Duration { return 0 }
