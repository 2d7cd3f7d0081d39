package parse

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// EachGstat hands over each run before reading the next: 'fbdiag gstat' on
// 200 MB of appended runs held them all (1.1 GB RSS; 19 MB streaming).
func TestEachGstatStreams(t *testing.T) {
	var data []byte
	for _, name := range []string{"shop-gstat-a-r.txt", "shop-gstat-r-later.txt"} {
		b := testutil.ReadTestdata(t, "fb30", name)
		data = append(data, b...)
	}
	var got []string
	err := EachGstat(bytes.NewReader(data), "two.txt", func(rep *GstatReport) error {
		got = append(got, fmt.Sprintf("%d %s tables=%d indices=%d next=%d",
			rep.Index, rep.File, len(rep.Tables), len(rep.Indices), *rep.Header.NextTransaction))
		return nil
	})
	want := []string{"0 two.txt tables=6 indices=10 next=18", "1 two.txt tables=6 indices=10 next=26"}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}

	// An error from fn stops the read at the first run.
	stop := errors.New("stop")
	calls := 0
	err = EachGstat(bytes.NewReader(data), "two.txt", func(*GstatReport) error { calls++; return stop })
	if err != stop || calls != 1 {
		t.Errorf("err %v after %d calls; want stop after 1", err, calls)
	}

	// ReadGstat is the same, collected.
	reps, err := ReadGstat(bytes.NewReader(data), "two.txt")
	if err != nil || len(reps) != 2 || len(reps[1].Tables) != 6 || *reps[1].Header.OldestActive != 26 {
		t.Errorf("ReadGstat: %d reports, %v", len(reps), err)
	}
}
