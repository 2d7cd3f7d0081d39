package main

import (
	"testing"
	"time"
)

// Finding 8 of the 3.0.11 review: the default names used the local clock
// while the times printed and saved are UTC; they are UTC too, marked Z.
func TestLiveDefaultNameIsUTC(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	at := time.Date(2026, 12, 5, 22, 35, 2, 0, ny)
	for _, c := range []struct{ path, suffix, ext, want string }{
		{"/data/shop.fdb", "restore", ".log", "shop-restore-20261206-033502Z.log"},
		{"/data/shop.fbk", "backup", ".log", "shop-backup-20261206-033502Z.log"},
		{`C:\data\shop.fdb`, "", ".gstat.txt", "shop-20261206-033502Z.gstat.txt"},
	} {
		if got := liveDefaultName(c.path, c.suffix, c.ext, at); got != c.want {
			t.Errorf("liveDefaultName(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}
