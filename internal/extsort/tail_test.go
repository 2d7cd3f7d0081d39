package extsort

import (
	"errors"
	"fmt"
	"testing"
)

// A Tail passes every record, in order, whatever the batch size: records
// smaller and bigger than a batch, batches of one record, none at all.
// Once its function fails it takes no more records (Add returns
// ErrTailFailed) and Close returns that error.
func TestTail(t *testing.T) {
	for _, size := range []int{1, 10, 64, 1 << 20} {
		for _, n := range []int{0, 1, 3, 1000} {
			var got []string
			tail := NewTail(size, func(rec []byte) error {
				got = append(got, string(rec))
				return nil
			})
			var want []string
			for i := range n {
				rec := fmt.Sprintf("record %d %*s", i, i%50, "")
				want = append(want, rec)
				if err := tail.Add([]byte(rec)); err != nil {
					t.Fatal(err)
				}
			}
			if err := tail.Close(); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("size %d, %d records: got %d, not in order", size, n, len(got))
			}
		}
	}
	stop := errors.New("disk full")
	calls := 0
	tail := NewTail(8, func(rec []byte) error {
		calls++
		if string(rec) == "record 5" {
			return stop
		}
		return nil
	})
	refused := -1
	for i := range 1000 {
		if err := tail.Add(fmt.Appendf(nil, "record %d", i)); err != nil {
			if !errors.Is(err, ErrTailFailed) {
				t.Fatalf("Add: %v", err)
			}
			refused = i
			break
		}
	}
	if err := tail.Close(); err != stop {
		t.Errorf("Close: %v, want %v", err, stop)
	}
	if calls != 6 || refused < 6 || refused > 10 {
		t.Errorf("%d records passed, the %dth refused; want 6 passed and the tail to refuse within two batches", calls, refused)
	}
}

// A batch tail passes the records end to end, in order, in batches of
// about its size, and stops at its function's first error.
func TestBatchTail(t *testing.T) {
	for _, size := range []int{1, 10, 64, 1 << 20} {
		for _, n := range []int{0, 1, 3, 1000} {
			var got []byte
			batches := 0
			tail := NewBatchTail(size, func(recs []byte) error {
				got = append(got, recs...)
				batches++
				return nil
			})
			var want []byte
			for i := range n {
				rec := fmt.Sprintf("record %d %*s\n", i, i%50, "")
				want = append(want, rec...)
				if err := tail.Add([]byte(rec)); err != nil {
					t.Fatal(err)
				}
			}
			if err := tail.Close(); err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("size %d, %d records: got %d bytes, not in order", size, n, len(got))
			}
			if wantBatches := min(n, len(want)/size+1); batches > wantBatches || n > 0 && batches == 0 {
				t.Errorf("size %d, %d records: %d batches, want at most %d", size, n, batches, wantBatches)
			}
		}
	}
	stop := errors.New("disk full")
	calls := 0
	tail := NewBatchTail(8, func(recs []byte) error {
		calls++
		return stop
	})
	refused := -1
	for i := range 1000 {
		if err := tail.Add(fmt.Appendf(nil, "record %d", i)); err != nil {
			refused = i
			break
		}
	}
	if err := tail.Close(); err != stop || calls != 1 || refused < 1 || refused > 5 {
		t.Errorf("Close: %v after %d calls, the %dth record refused; want %v after one call, refused within two batches", err, calls, refused, stop)
	}
}
