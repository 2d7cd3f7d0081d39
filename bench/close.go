package bench

import (
	"io"
	"runtime"
)

// closeLost closes c, a pool, connection or statement of a run or load,
// whose connection the server may have dropped. The driver (firebirdsql
// v0.9.23) panics freeing a statement of such a connection (it reads the
// connection's transaction, nil once lost): a CI run in which Firebird
// crashed mid-run ended in that panic instead of the error that says the
// connection was lost. A close's error says nothing the run's error does
// not, and a runtime panic of the driver's teardown is dropped with it;
// any other panic goes on.
func closeLost(c io.Closer) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(runtime.Error); !ok {
				panic(r)
			}
		}
	}()
	c.Close()
}
