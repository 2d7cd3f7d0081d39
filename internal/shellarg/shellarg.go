// Package shellarg writes a path as one word of a command line that a
// DBA copies: the advice's gfix and gbak commands, the errors' commands.
package shellarg

import (
	"runtime"
	"strings"
)

// Word writes a path as one word of a command line, for the shell of
// the server's system as its path shows it. A Windows path (a drive
// letter, a backslash) is for cmd.exe: in double quotes when it has a
// blank or a character cmd.exe reads ("C:\Program Files\db.fdb"); cmd
// knows no quote inside quotes. Any other is for a POSIX shell: as it is
// when made of characters none reads, else in single quotes, each single
// quote of the path closing them, escaped, and opening them again, so
// that $, ` and \ stay the path's (in double quotes sh expands $HOME and
// `cmd`).
func Word(s string) string {
	if windowsPath(s) {
		return cmdWord(s)
	}
	return posixWord(s)
}

// Local writes a file name of this machine (a log fbdiag kept, an input
// it read) as one word of a command line typed here: for cmd.exe on
// Windows, for a POSIX shell elsewhere, where a backslash is a byte of
// the name that only single quotes keep (Word would take it for a
// Windows path).
func Local(s string) string {
	if runtime.GOOS == "windows" {
		return cmdWord(s)
	}
	return posixWord(s)
}

// Client writes a database as one word of a client tool's command (gfix):
// behind prefix, the tools' "host/3050:", it is typed where fbdiag runs,
// so quoted for this machine's shell (Local: a Windows server's path
// typed into a POSIX shell lost its backslashes, gfix -online
// win/3050:C:\DATA\X.FDB reaching C:DATAX.FDB); without one it is typed
// on the server, for the shell its path shows (Word).
func Client(prefix, path string) string {
	if prefix != "" {
		return Local(prefix + path)
	}
	return Word(path)
}

// cmdWord is a word for cmd.exe: in double quotes when it has a blank or
// a character cmd.exe reads; cmd knows no quote inside quotes.
func cmdWord(s string) string {
	if s == "" || strings.ContainsAny(s, " \t&|<>()^%!,;=") {
		return `"` + s + `"`
	}
	return s
}

// posixWord is a word for a POSIX shell: as it is when made of
// characters none reads, else in single quotes.
func posixWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !shellSafe(r) }) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// windowsPath reports whether a path is a Windows one: a drive letter
// (C:) or a backslash.
func windowsPath(s string) bool {
	return len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') || strings.Contains(s, `\`)
}

// shellSafe are the characters a POSIX shell reads as themselves in a word.
func shellSafe(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./:@%+=,", r)
}
