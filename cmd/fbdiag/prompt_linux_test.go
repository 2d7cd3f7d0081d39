package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: the terminal side is what a
// program run from an interactive shell has as its standard input.
func openPTY(t *testing.T) (control, term *os.File) {
	t.Helper()
	c, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := unix.IoctlSetPointerInt(int(c.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(c.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tt, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tt.Close() })
	return c, tt
}

// echoOn reports whether the terminal echoes what is typed.
func echoOn(t *testing.T, tt *os.File) bool {
	t.Helper()
	st, err := unix.IoctlGetTermios(int(tt.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return st.Lflag&unix.ECHO != 0
}

// Without ISC_PASSWORD fbdiag asks on the terminal with echo off. Ctrl-C
// (or kill, or a closed ssh session) at that prompt ended the program by
// the signal with the echo still off: the DBA's shell then showed nothing
// typed until `stty sane`. The terminal is now put back first, and the
// command ends with one line and status 1, as an interrupted run does.
func TestPasswordPromptInterruptedRestoresEcho(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			_, tt := openPTY(t)
			if !echoOn(t, tt) {
				t.Fatal("a new terminal without echo")
			}
			dir := t.TempDir()
			cmd := fbdiagCommand(t, "collect", "--out", filepath.Join(dir, "x.gstat.txt"), "localhost:/nowhere/x.fdb")
			var env []string
			for _, e := range cmd.Env {
				if !strings.HasPrefix(e, "ISC_PASSWORD=") {
					env = append(env, e)
				}
			}
			cmd.Env = append(env, "ISC_USER=SYSDBA")
			cmd.Stdin = tt
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The prompt ends without a newline: read it byte by byte.
			prompt := make(chan string, 1)
			r := bufio.NewReader(stderr)
			go func() {
				var b strings.Builder
				for !strings.HasSuffix(b.String(), "Password for SYSDBA: ") {
					c, err := r.ReadByte()
					if err != nil {
						break
					}
					b.WriteByte(c)
				}
				prompt <- b.String()
			}()
			select {
			case p := <-prompt:
				if !strings.HasSuffix(p, "Password for SYSDBA: ") {
					cmd.Process.Kill()
					t.Fatalf("no prompt, stderr %q", p)
				}
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatal("no prompt within 30 s")
			}
			// The prompt turns the echo off before it reads.
			deadline := time.Now().Add(5 * time.Second)
			for echoOn(t, tt) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if echoOn(t, tt) {
				t.Error("the password prompt echoes what is typed")
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			rest, _ := readAll(r)
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Errorf("after %v at the prompt: %v, want exit status 1", sig, err)
			}
			if want := "fbdiag: interrupted at the password prompt; nothing done\n"; !strings.HasSuffix(rest, want) {
				t.Errorf("stderr after the prompt %q, want it to end with %q", rest, want)
			}
			if !echoOn(t, tt) {
				t.Errorf("after %v at the password prompt the terminal is left without echo", sig)
			}
		})
	}
}

// readAll reads r to its end.
func readAll(r *bufio.Reader) (string, error) {
	var b strings.Builder
	_, err := r.WriteTo(&b)
	return b.String(), err
}

// A password typed with a slip corrected by Backspace reads as the
// password: a terminal whose Backspace sends ^H while its erase character
// is ^? (stty's default) hands the ^H on, and term.ReadPassword, which
// the prompt read with before, took back the byte before it. The prompt
// that puts the echo back on a signal kept it ("secrx\bet"), and the
// server refused the password.
func TestPasswordPromptBackspace(t *testing.T) {
	control, tt := openPTY(t)
	st, err := unix.IoctlGetTermios(int(tt.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if st.Cc[unix.VERASE] == '\b' {
		t.Skip("the terminal's erase character is ^H")
	}
	if _, err := control.WriteString("secrx\bet\r"); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ISC_USER": "SYSDBA"}
	var prompt strings.Builder
	user, pw, err := collect.Credentials(func(k string) string { return env[k] }, tt, &prompt)
	if err != nil || user != "SYSDBA" || pw != "secret" {
		t.Errorf("Credentials = %q, %q, %v; want SYSDBA, secret", user, pw, err)
	}
}
