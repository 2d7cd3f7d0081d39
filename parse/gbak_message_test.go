package parse

import "testing"

func TestClassifyGbakMessage(t *testing.T) {
	for msg, want := range map[string]GbakLine{
		"restoring data for table ORDER_LINE":                             {Kind: GbakData, Op: GbakRestore, Object: "table", Name: "ORDER_LINE"},
		"30000 records restored":                                          {Kind: GbakRecords, Op: GbakRestore, Count: 30000},
		"activating and creating deferred index OL_ITEM":                  {Kind: GbakActivateIndex, Op: GbakRestore, Object: "index", Name: "OL_ITEM"},
		"creating indexes":                                                {Kind: GbakCreateIndexes, Op: GbakRestore},
		"writing index RDB$PRIMARY4":                                      {Kind: GbakMetadata, Op: GbakBackup, Object: "index", Name: "RDB$PRIMARY4"},
		"closing file, committing, and finishing. 11280896 bytes written": {Kind: GbakFinish, Op: GbakBackup, Count: 11280896},
	} {
		want.Message = msg
		if got := ClassifyGbakMessage(msg); got != want {
			t.Errorf("%q: %+v, want %+v", msg, got, want)
		}
	}
}
