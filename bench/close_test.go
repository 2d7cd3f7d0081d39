package bench

import (
	"errors"
	"testing"
)

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// The driver's nil dereference freeing a statement of a dropped
// connection (a CI run in which Firebird crashed mid-run) is survived,
// and the close is made; a panic that is no runtime error goes on.
func TestCloseLost(t *testing.T) {
	closed := false
	closeLost(closerFunc(func() error {
		closed = true
		var tx *struct{ autocommit bool }
		if tx.autocommit { // (the driver's stmt.fc.tx.isAutocommit)
			return nil
		}
		return nil
	}))
	if !closed {
		t.Error("not closed")
	}
	closeLost(closerFunc(func() error { return errors.New("connection lost") }))
	defer func() {
		if r := recover(); r != "not the driver's" {
			t.Errorf("recovered %v, want the panic passed on", r)
		}
	}()
	closeLost(closerFunc(func() error { panic("not the driver's") }))
	t.Error("a panic that is no runtime error was dropped")
}
