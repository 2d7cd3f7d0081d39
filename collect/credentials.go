package collect

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// DefaultUser is Firebird's administrator, used when ISC_USER is unset.
const DefaultUser = "SYSDBA"

// ErrNoPassword means ISC_PASSWORD is unset and there is no terminal to
// ask on.
var ErrNoPassword = errors.New("no password: set ISC_PASSWORD (standard input is not a terminal to ask on)")

// ErrPromptInterrupted means a signal (Ctrl-C, kill, a closed ssh
// session) came while fbdiag asked for the password; the terminal's echo
// is back on.
var ErrPromptInterrupted = errors.New("interrupted at the password prompt; nothing done")

// Credentials reads the user and password the way Firebird's own tools do:
// ISC_USER and ISC_PASSWORD from the environment. Without ISC_PASSWORD it
// asks on the terminal without echo; when stdin is not a terminal it
// fails with ErrNoPassword rather than block or read a password from a
// pipe. Passwords are never taken from the command line, where ps shows
// them.
func Credentials(getenv func(string) string, stdin io.Reader, prompt io.Writer) (user, password string, err error) {
	user = getenv("ISC_USER")
	if user == "" {
		user = DefaultUser
	}
	password = getenv("ISC_PASSWORD")
	if password != "" {
		return user, password, nil
	}
	if !IsTerminal(stdin) {
		return "", "", ErrNoPassword
	}
	f := stdin.(*os.File)
	fmt.Fprintf(prompt, "Password for %s: ", user)
	b, err := readPassword(f)
	fmt.Fprintln(prompt)
	if errors.Is(err, ErrPromptInterrupted) {
		return "", "", err
	}
	if err != nil {
		return "", "", fmt.Errorf("reading the password: %w", err)
	}
	password = strings.TrimRight(string(b), "\r\n")
	if password == "" {
		return "", "", errors.New("empty password")
	}
	return user, password, nil
}

// IsTerminal reports whether f is an *os.File on a terminal; progress
// lines and prompts are only for terminals.
func IsTerminal(f any) bool {
	o, ok := f.(*os.File)
	return ok && term.IsTerminal(int(o.Fd()))
}

// readLine reads up to a newline (not kept), for readPassword, as
// term.ReadPassword reads: a Backspace that reaches it as ^H (a terminal
// whose erase character is ^?, which the line discipline then passes on)
// takes back the byte before it, and a carriage return is dropped.
func readLine(r io.Reader) ([]byte, error) {
	var line []byte
	var c [1]byte
	for {
		n, err := r.Read(c[:])
		if n == 1 {
			switch c[0] {
			case '\n':
				return line, nil
			case '\b':
				if len(line) > 0 {
					line = line[:len(line)-1]
				}
			case '\r':
			default:
				line = append(line, c[0])
			}
			continue
		}
		if err == io.EOF && len(line) > 0 {
			return line, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
