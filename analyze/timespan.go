package analyze

import "time"

// secondsBetween is later − earlier in seconds. time.Time.Sub saturates
// at about 292 years, so that a snapshot dated 9999 (a gstat run on a
// machine with a wrong clock, or an edited file) read "-106751d 23:47:17"
// between two snapshots; whole seconds and nanoseconds apart do not.
func secondsBetween(later, earlier time.Time) float64 {
	return float64(later.Unix()-earlier.Unix()) + float64(later.Nanosecond()-earlier.Nanosecond())/1e9
}
