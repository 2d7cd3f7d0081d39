package collect

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fbdiag/fbdiag/parse"
)

// serverFile is a file the server writes (a backup, a database) as seen
// from this machine. The Services API can neither look at files nor
// rename them, so fbdiag protects such a file (a temporary name beside it,
// a rename once complete) only where it can do the rename itself: when the
// server runs on this machine and this user may write the file's folder.
type serverFile struct {
	path  string
	local bool
	why   string // when not local: why not, for the error
	// noFolder, with the server on this machine, says that path's folder
	// is missing here or is no folder: a typing error to name before
	// anything starts, not a server whose files fbdiag cannot see.
	noFolder string
}

// locate decides whether path, a path of the server, is reachable here.
func (s Server) locate(path string) serverFile {
	f := serverFile{path: path}
	switch {
	case !s.onThisMachine():
		f.why = "the server " + s.Addr + " is not on this machine"
	case !filepath.IsAbs(path):
		f.why = path + " is an alias or a relative path, resolved by the server"
	default:
		dir := filepath.Dir(path)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			f.why = "its folder " + dir + " is not visible here"
			switch {
			case err == nil:
				f.noFolder = "its folder " + dir + " is a file"
			case errors.Is(err, fs.ErrNotExist):
				f.noFolder = "there is no folder " + dir
			}
		} else if err := writable(dir); err != nil {
			f.why = "this user may not write its folder " + dir + " (" + err.Error() + "; run as root or a member of the server's group)"
		} else {
			f.local = true
		}
	}
	return f
}

// onThisMachine reports whether the server's address is this machine's:
// a loopback address or name, or an address of one of its interfaces.
func (s Server) onThisMachine() bool {
	host, _, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	if ip == nil {
		name, err := os.Hostname()
		return err == nil && strings.EqualFold(host, name)
	}
	if ip.IsLoopback() {
		return true
	}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}

// sameServerFile reports whether the server paths a and b name one file:
// the same path once cleaned, or, with the server on this machine, one
// file under two names (a symlink, a hard link).
func (s Server) sameServerFile(a, b string) bool {
	if cleanServerPath(a) == cleanServerPath(b) {
		return true
	}
	return s.onThisMachine() && filepath.IsAbs(a) && filepath.IsAbs(b) && sameLocalFile(a, b)
}

// SameFile reports whether local, a file this machine writes (a log, a
// snapshot), is the server's file serverPath: with the server on this
// machine, the same absolute path or one file under two names. A path the
// server resolves (an alias, a relative path) can be compared only once
// the server has named its file.
func (s Server) SameFile(local, serverPath string) bool {
	if !s.onThisMachine() || !filepath.IsAbs(serverPath) {
		return false
	}
	if abs, err := filepath.Abs(local); err == nil && abs == filepath.Clean(serverPath) {
		return true
	}
	return sameLocalFile(local, serverPath)
}

// ownOutput names the first of outputs that is the server's file, "" when
// none is: a database resolved through an alias.
func (s Server) ownOutput(outputs []string, file string) string {
	if file == "" {
		return ""
	}
	for _, out := range outputs {
		if s.SameFile(out, file) {
			return out
		}
	}
	return ""
}

// cleanServerPath cleans a server path, Windows' or Unix's.
func cleanServerPath(p string) string {
	return path.Clean(strings.ReplaceAll(p, `\`, "/"))
}

// sameLocalFile reports whether two existing local paths are one file.
func sameLocalFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// sibling is a fresh name beside path, hidden like atomicfile's
// temporary files: ".NAME.KIND-RANDOM".
func sibling(path, kind string) string {
	var b [6]byte
	rand.Read(b[:])
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+"."+kind+"-"+hex.EncodeToString(b[:]))
}

// tempNamed says what the temporary file a gbak message names is (dest,
// which becomes name once gbak succeeds): a full disk read `I/O error
// during "write" operation for file "/data/.new.fdb.tmp-4755e830cfe3"`,
// a name the user never gave.
func tempNamed(detail, dest, name string) string {
	if dest == name || !strings.Contains(detail, dest) {
		return detail
	}
	return detail + "; " + dest + " is the temporary name fbdiag gives " + name + " until gbak succeeds"
}

// noteLeftovers warns of the temporary files beside path (a backup file
// or database on this machine) that an earlier run left: one killed
// (SIGKILL, the OOM killer) before it could rename or delete them. The
// server may have gone on and completed such a file; each is as large as
// a backup or a database. They are named, not deleted: one may belong to
// a run going on now.
func (s Server) noteLeftovers(path string) {
	if s.Warn == nil {
		return
	}
	dir, base := filepath.Split(path)
	ents, err := os.ReadDir(filepath.Clean(dir))
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "."+base+".")
		if !ok || !fbdiagTemp(rest) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		if strings.HasPrefix(rest, "restored-") {
			s.Warn(fmt.Sprintf("%s (%.1f MB, %s UTC) is the complete database of an earlier restore --replace that could not take the place of %s, kept; delete it unless you mean to use it",
				filepath.Join(dir, e.Name()), float64(fi.Size())/1e6, fi.ModTime().UTC().Format("2006-01-02 15:04:05"), path))
			continue
		}
		if strings.HasPrefix(rest, "failed-") {
			s.Warn(fmt.Sprintf("%s (%.1f MB, %s UTC) is the database of an earlier restore that gbak finished with errors, kept to be fixed; delete it unless you mean to",
				filepath.Join(dir, e.Name()), float64(fi.Size())/1e6, fi.ModTime().UTC().Format("2006-01-02 15:04:05")))
			continue
		}
		s.Warn(fmt.Sprintf("%s (%.1f MB, %s UTC) was left by an earlier backup or restore that did not end (fbdiag killed?); delete it unless one to %s is running now",
			filepath.Join(dir, e.Name()), float64(fi.Size())/1e6, fi.ModTime().UTC().Format("2006-01-02 15:04:05"), path))
	}
}

// fbdiagTemp tells the tail of sibling's names: "tmp-", "old-",
// "failed-" (a restore gbak finished with errors, kept) or "restored-"
// (a complete restore that could not replace the original, kept) and 12
// hexadecimal digits.
func fbdiagTemp(tail string) bool {
	hexPart, ok := strings.CutPrefix(tail, "tmp-")
	if !ok {
		hexPart, ok = strings.CutPrefix(tail, "old-")
	}
	if !ok {
		hexPart, ok = strings.CutPrefix(tail, "failed-")
	}
	if !ok {
		hexPart, ok = strings.CutPrefix(tail, "restored-")
	}
	if !ok || len(hexPart) != 12 {
		return false
	}
	_, err := hex.DecodeString(hexPart)
	return err == nil && strings.ToLower(hexPart) == hexPart
}

// exists tells whether a local path exists (a dangling link counts).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// errTargetExists is renameNoReplace's answer when the target appeared.
var errTargetExists = errors.New("file exists")

// renameNoReplace renames old to new unless new exists, atomically where
// the system allows it (renameat2 RENAME_NOREPLACE, or a hard link).
func renameNoReplace(old, new string) error {
	err := renameExclusive(old, new)
	if err == nil || errors.Is(err, errTargetExists) {
		return err
	}
	if lerr := os.Link(old, new); lerr == nil {
		return os.Remove(old)
	} else if os.IsExist(lerr) {
		return errTargetExists
	}
	// Neither is supported here: check, then rename (a small window).
	if exists(new) {
		return errTargetExists
	}
	return os.Rename(old, new)
}

// IsDatabaseFile reports whether the file at path begins with a Firebird
// database's header page (parse.DatabaseHeader: page type 1, a page size
// that is a power of two from 1 KiB to 64 KiB, an ODS version with the
// Firebird flag). It is the last check before fbdiag renames a backup, or
// writes a log or a snapshot, over a file: never over a database,
// whatever name reached it (an alias under gbak -ig, which allows no
// attachment to resolve it).
func IsDatabaseFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [20]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		return false
	}
	_, _, ok := parse.DatabaseHeader(b[:])
	return ok
}

// serverAbs reports whether path is absolute for a server of either kind:
// a leading slash or backslash, or a drive letter (C:\, C:/). The server's
// operating system decides, not this machine's: filepath.IsAbs took a
// Windows server's C:\data\shop.fdb for an alias.
func serverAbs(path string) bool {
	if strings.HasPrefix(path, "/") || strings.HasPrefix(path, `\`) {
		return true
	}
	return len(path) >= 3 && (path[0]|0x20 >= 'a' && path[0]|0x20 <= 'z') && path[1] == ':' && (path[2] == '\\' || path[2] == '/')
}

// relativeHere is, for a relative path the server did not find, the
// advice to give the absolute path of the file of that name in this
// process's folder, when there is one: the server (on this machine)
// resolves a relative path in its own working folder, "/" under systemd,
// not in the shell's as gbak, isql and gstat without a server prefix do.
// "" when path is absolute, the server is elsewhere or no such file is
// here.
func (s Server) relativeHere(path string) string {
	if path == "" || serverAbs(path) || !s.onThisMachine() {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil || !exists(abs) {
		return ""
	}
	return "the server resolves a relative path in its own working folder, not in this one: give " + abs
}
