package main

import (
	"io"
	"net"
	"path/filepath"
	"testing"
	"time"
)

// fakeHTTPServer listens on a loopback port and answers every connection
// as an HTTP server answers a request it cannot read.
func fakeHTTPServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				c.SetDeadline(time.Now().Add(5 * time.Second))
				buf := make([]byte, 512)
				c.Read(buf)
				io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 11\r\nConnection: close\r\n\r\nBad Request")
			}(c)
		}
	}()
	return l.Addr().String()
}

// Finding 6: a port that answers HTTP gave the driver's
// "_parse_connect_response() protocol error".
func TestLiveCommandsNotAFirebirdServer(t *testing.T) {
	t.Setenv("ISC_PASSWORD", "x")
	addr := fakeHTTPServer(t)
	dir := t.TempDir()
	want := "fbdiag: cannot connect to " + addr + ": not a Firebird server (it answered something other than the Firebird protocol): check the host and port\n"
	for _, args := range [][]string{
		{"collect", "--server", addr, "--out", filepath.Join(dir, "c.txt"), "/data/x.fdb"},
		{"backup", "--server", addr, "--force", "--log", filepath.Join(dir, "b.log"), "/data/x.fdb", "/data/x.fbk"},
		{"restore", "--server", addr, "--log", filepath.Join(dir, "r.log"), "/data/x.fbk", "/data/x.fdb"},
	} {
		out, errs, code := runCLI(t, nil, args...)
		if code != exitError || out != "" || errs != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 1, nothing and %q", args[0], code, out, errs, want)
		}
	}
	if names := liveDirEntries(t, dir); len(names) != 0 {
		t.Errorf("files left: %v", names)
	}
}
