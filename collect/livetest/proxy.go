package livetest

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// CuttingProxy forwards a local port to the server at target and, once
// the server has sent more than cutAfter bytes on a connection (0 =
// never), drops that connection on both sides: a connection lost in the
// middle of a stream, on demand. sent reports the bytes the server sent
// so far on each connection, in the order they were accepted.
func CuttingProxy(t testing.TB, target string, cutAfter int64) (addr string, sent func() []int64) {
	t.Helper()
	return CuttingProxyOn(t, target, -1, cutAfter)
}

// CuttingProxyOn is CuttingProxy cutting only the connection accepted as
// number conn (from 0; -1 = every one), so that a command's other
// connections go through whole.
func CuttingProxyOn(t testing.TB, target string, conn int, cutAfter int64) (addr string, sent func() []int64) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var mu sync.Mutex
	var counts []*atomic.Int64
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			n := new(atomic.Int64)
			mu.Lock()
			cut := cutAfter
			if conn >= 0 && len(counts) != conn {
				cut = 0
			}
			counts = append(counts, n)
			mu.Unlock()
			go relay(c, target, cut, n)
		}
	}()
	return l.Addr().String(), func() []int64 {
		mu.Lock()
		defer mu.Unlock()
		out := make([]int64, len(counts))
		for i, n := range counts {
			out[i] = n.Load()
		}
		return out
	}
}

func relay(c net.Conn, target string, cutAfter int64, total *atomic.Int64) {
	defer c.Close()
	s, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer s.Close()
	go func() {
		io.Copy(s, c)
		s.Close()
	}()
	buf := make([]byte, 4096)
	var n int64
	for {
		k, err := s.Read(buf)
		if k > 0 {
			if cutAfter > 0 && n+int64(k) > cutAfter {
				k = int(cutAfter - n)
				c.Write(buf[:k])
				total.Add(int64(k))
				return // closes both
			}
			if _, werr := c.Write(buf[:k]); werr != nil {
				return
			}
			n += int64(k)
			total.Add(int64(k))
		}
		if err != nil {
			return
		}
	}
}
