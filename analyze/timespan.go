package analyze

import "time"

// sameTimeWords names the time two snapshots share: gstat's execution
// time, or their files' modification time when gstat printed none (a
// copied folder gives its files one time), or both.
func sameTimeWords(a, b *HistorySnapshot) string {
	switch {
	case a.DatedByFile() && b.DatedByFile():
		return "file modification time (gstat printed no execution time)"
	case a.DatedByFile() || b.DatedByFile():
		return "time (one gstat's execution time, the other its file's modification time)"
	}
	return "execution time"
}

// secondsBetween is later − earlier in seconds. time.Time.Sub saturates
// at about 292 years, so that a snapshot dated 9999 (a gstat run on a
// machine with a wrong clock, or an edited file) read "-106751d 23:47:17"
// between two snapshots; whole seconds and nanoseconds apart do not.
func secondsBetween(later, earlier time.Time) float64 {
	return float64(later.Unix()-earlier.Unix()) + float64(later.Nanosecond()-earlier.Nanosecond())/1e9
}
