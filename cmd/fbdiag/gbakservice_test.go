package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The estimate comes from the newest complete earlier log of the same
// database in the log's folder: by the default name for a restore, by
// the database the log names for a backup.
func TestEarlierLogs(t *testing.T) {
	dir := t.TempDir()
	restore := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	backup := testutil.ReadTestdata(t, "fb30", "shop-gbak-backup-v-st.log")
	cut := restore[:strings.Index(string(restore), "creating indexes")]
	for name, data := range map[string][]byte{
		"shop-restore-20261201-100000.log":         restore,
		"shop-restore-20261202-100000.log":         cut, // newer, but incomplete
		"other-restore-20261203-100000.log":        restore,
		"shop-20261201-backup-20261201-100000.log": backup,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cur := filepath.Join(dir, "shop-restore-20261203-100000.log")
	if e := earlierRestoreLog(cur, "/var/lib/firebird/data/shop.fdb"); e == nil || filepath.Base(e.File) != "shop-restore-20261201-100000.log" || e.Total != 35.17 {
		t.Errorf("restore estimate from %+v", e)
	}
	if e := earlierRestoreLog(cur, "/data/nothing.fdb"); e != nil {
		t.Errorf("an estimate for another database: %s", e.File)
	}
	cur = filepath.Join(dir, "shop-20261203-backup-20261203-100000.log")
	if e := earlierBackupLog(cur, "/var/lib/firebird/data/shop.fdb"); e == nil || filepath.Base(e.File) != "shop-20261201-backup-20261201-100000.log" {
		t.Errorf("backup estimate from %+v", e)
	}
	if e := earlierBackupLog(cur, "/var/lib/firebird/data/other.fdb"); e != nil {
		t.Errorf("a backup estimate for another database: %s", e.File)
	}
}
