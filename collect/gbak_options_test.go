package collect

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// spbString is a tag with a 2-byte little-endian length and the text.
func spbString(tag byte, s string) []byte {
	return append([]byte{tag, byte(len(s)), byte(len(s) >> 8)}, s...)
}

// spbInt is a tag with a 4-byte little-endian value.
func spbInt(tag byte, v uint32) []byte {
	return []byte{tag, byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// The request bytes follow ibase.h: the 5.0-only parallel workers item
// (21) is tested here, since the 3.0 server refuses it.
func TestBackupRequest(t *testing.T) {
	o := BackupOptions{NoGarbageCollect: true, IgnoreChecksums: true, IgnoreLimbo: true,
		NonTransportable: true, MetadataOnly: true, SkipData: "ORDER_.*", Parallel: 4}
	want := join([]byte{1}, spbString(106, "/db/shop.fdb"), spbString(5, "/db/shop.fbk"),
		spbInt(108, 0x01|0x02|0x04|0x08|0x20), spbString(8, "ORDER_.*"), spbInt(21, 4),
		spbString(15, "TDRW"), []byte{107})
	if got := o.spb("/db/shop.fdb", "/db/shop.fbk"); !bytes.Equal(got, want) {
		t.Errorf("backup request\n got %v\nwant %v", got, want)
	}
	if got, want := o.Switches(), `-b -v -st tdrw -g -ig -l -nt -m -skip_data "ORDER_.*" -par 4`; got != want {
		t.Errorf("switches %q, want %q", got, want)
	}
	plain := join([]byte{1}, spbString(106, "a"), spbString(5, "b"), spbInt(108, 0), spbString(15, "TDRW"), []byte{107})
	if got := (BackupOptions{}).spb("a", "b"); !bytes.Equal(got, plain) {
		t.Errorf("plain backup request\n got %v\nwant %v", got, plain)
	}
}

func TestRestoreRequest(t *testing.T) {
	o := RestoreOptions{Replace: true, PageSize: 8192, Buffers: 300, Inactive: true, OneAtATime: true,
		UseAllSpace: true, ReadOnly: true, FixFSSData: "WIN1252", FixFSSMetadata: "WIN1251", Parallel: 2}
	// Always create mode (0x2000), never replace (0x1000): the swap is fbdiag's.
	want := join([]byte{2}, spbString(106, "/db/.shop.fdb.tmp-1"), spbString(5, "/db/shop.fbk"),
		spbInt(108, 0x2000|0x0100|0x0800|0x4000), spbInt(10, 8192), spbInt(9, 300), []byte{12, 39},
		spbString(13, "WIN1252"), spbString(14, "WIN1251"), spbInt(21, 2), spbString(15, "TDRW"), []byte{107})
	if got := o.spb("/db/shop.fbk", "/db/.shop.fdb.tmp-1"); !bytes.Equal(got, want) {
		t.Errorf("restore request\n got %v\nwant %v", got, want)
	}
	if got, want := o.Switches(), "-rep -v -st tdrw -p 8192 -bu 300 -i -o -use_all_space -mode read_only -fix_fss_data WIN1252 -fix_fss_metadata WIN1251 -par 2"; got != want {
		t.Errorf("switches %q\nwant %q", got, want)
	}
}

func TestParallelNeedsFirebird5(t *testing.T) {
	if err := needsServer(0, "LI-V3.0.11.33637 Firebird 3.0"); err != nil {
		t.Error(err)
	}
	if err := needsServer(2, "LI-V5.0.1.1469 Firebird 5.0"); err != nil {
		t.Error(err)
	}
	for _, v := range []string{"LI-V3.0.11.33637 Firebird 3.0", "WI-V4.0.5.3140 Firebird 4.0", "garbage"} {
		err := needsServer(2, v)
		if err == nil || !strings.Contains(err.Error(), "needs Firebird 5.0 or later; the server is "+v) {
			t.Errorf("%s: %v", v, err)
		}
	}
}

// Where fbdiag cannot rename the server's files it says why and refuses,
// before connecting: --force lets gbak write the file directly.
func TestBackupRefusesWhatItCannotProtect(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		addr, file, want string
	}{
		{"192.0.2.1:3050", "/data/shop.fbk", "cannot tell whether /data/shop.fbk exists: the server 192.0.2.1:3050 is not on this machine"},
		{"localhost:3050", "shop.fbk", "cannot tell whether shop.fbk exists: shop.fbk is an alias or a relative path, resolved by the server"},
	} {
		s := Server{Addr: c.addr}
		_, err := s.Backup(context.Background(), "shop", c.file, BackupOptions{}, io.Discard, nil)
		var ce *Error
		if !errors.As(err, &ce) || ce.Kind != KindNotLocal || !strings.Contains(err.Error(), c.want) ||
			!strings.HasSuffix(err.Error(), "(--force lets gbak write it directly, replacing any file of that name)") {
			t.Errorf("%s %s: %v", c.addr, c.file, err)
		}
	}
	// On this machine a folder that is not there, or is a file, is a
	// typing error: said so, before connecting, and not with advice to use
	// --force, which had gbak fail with "cannot open backup file" alone.
	if err := os.WriteFile(dir+"/notes.txt", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		dir + "/no/such/shop.fbk": "cannot back up shop on localhost:3050: " + dir + "/no/such/shop.fbk: there is no folder " + dir +
			"/no/such; make it first, writable by the server's user (firebird on Debian); nothing done (--force has gbak " +
			"write it directly, for a server whose files are not this machine's: a container)",
		dir + "/notes.txt/shop.fbk": "cannot back up shop on localhost:3050: " + dir + "/notes.txt/shop.fbk: its folder " + dir +
			"/notes.txt is a file; name a file in a folder; nothing done (--force has gbak " +
			"write it directly, for a server whose files are not this machine's: a container)",
	} {
		_, err := Server{Addr: "localhost:3050"}.Backup(context.Background(), "shop", file, BackupOptions{}, io.Discard, nil)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v\nwant %s", file, err, want)
		}
	}
	// A local file that exists is refused without --force.
	fbk := dir + "/shop.fbk"
	if err := os.WriteFile(fbk, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Server{Addr: "127.0.0.1:3050"}.Backup(context.Background(), "shop", fbk, BackupOptions{}, io.Discard, nil)
	if want := "cannot back up shop on 127.0.0.1:3050: " + fbk + " exists; not replaced"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("existing file: %v, want %q", err, want)
	}
}

// A run's failure names the run's step even when the driver's error is
// one fail would call a connection failure (a deadline mid-stream).
func TestGbakErrorKeepsStep(t *testing.T) {
	s := Server{Addr: "localhost:3050"}
	err := s.gbakError("back up", "/db/x.fdb", &GbakRun{LastStep: "writing data for table BIG"}, context.DeadlineExceeded)
	if got, want := err.Error(), "cannot back up /db/x.fdb on localhost:3050: server not reachable (context deadline exceeded); gbak's last step: writing data for table BIG"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// When what gbak printed after its last step logged was lost with its
// error (the driver drops it), before any line saying what failed, the
// error says so: a restore under go test -race said "gbak's last step:
// committing metadata" of a run that had failed at its primary key's
// index, twelve lines later. A loss after the failure's own lines is of
// its words, not of steps: the step stands as it is.
func TestGbakErrorSaysStepsWereLost(t *testing.T) {
	s := Server{Addr: "localhost:3050"}
	fail := errors.New("action cancelled by trigger (3) to preserve data integrity")
	for _, c := range []struct {
		run  GbakRun
		want string
	}{
		{GbakRun{LastStep: "committing metadata", lostAfterStep: true},
			"; gbak's last step: committing metadata (what gbak printed after it was lost with its error)"},
		{GbakRun{LastStep: "activating and creating deferred index RDB$PRIMARY1", failedAfterStep: true},
			"; gbak's last step: activating and creating deferred index RDB$PRIMARY1"},
	} {
		if got := s.gbakError("restore", "/db/x.fdb", &c.run, fail).Error(); !strings.HasSuffix(got, c.want) {
			t.Errorf("got  %s\nwant …%s", got, c.want)
		}
	}
}
