package parse

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func readGbakFile(t *testing.T, path string) *GbakLog {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	log, err := ReadGbak(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return log
}

func kinds(log *GbakLog) map[GbakKind]int {
	m := map[GbakKind]int{}
	for _, l := range log.Lines {
		m[l.Kind]++
	}
	return m
}

func findLine(t *testing.T, log *GbakLog, n int) GbakLine {
	t.Helper()
	for _, l := range log.Lines {
		if l.Line == n {
			return l
		}
	}
	t.Fatalf("line %d not read", n)
	return GbakLine{}
}

// The Firebird 3.0.11 restore of the shop database, gbak -c -v -st tdrw.
func TestGbakRestoreShop(t *testing.T) {
	log := readGbakFile(t, testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	if log.Op != GbakRestore || log.Columns != ColTime|ColDelta|ColReads|ColWrites || log.ColumnsGuessed {
		t.Fatalf("op %q columns %s guessed %v", log.Op, log.Columns, log.ColumnsGuessed)
	}
	if len(log.Lines) != 224 || len(log.Notices) != 0 {
		t.Fatalf("%d lines, notices %v", len(log.Lines), log.Notices)
	}
	k := kinds(log)
	want := map[GbakKind]int{GbakData: 6, GbakActivateIndex: 10, GbakRecords: 73, GbakTotal: 1,
		GbakFinish: 1, GbakOnlineFlags: 1, GbakCommitMetadata: 3, GbakCreateIndexes: 1, GbakFinishStep: 4, GbakOther: 0}
	for kind, n := range want {
		if k[kind] != n {
			t.Errorf("%s: %d lines, want %d", kind, k[kind], n)
		}
	}
	// Line 212 reports the build of RDB$PRIMARY4 (the previous line).
	l := findLine(t, log, 212)
	if l.Kind != GbakActivateIndex || l.Name != "OL_ITEM" || l.Time != 34.712 || l.Delta != 0.286 || l.Reads != 4569 || l.Writes != 420 {
		t.Errorf("line 212: %+v", l)
	}
	// The message keeps its digits: records lines are counts, not stats.
	l = findLine(t, log, 127)
	if l.Kind != GbakRecords || l.Count != 500000 || l.Time != 28.628 {
		t.Errorf("line 127: %+v", l)
	}
	// The total line carries absolute counters; after it, no statistics.
	l = findLine(t, log, 225)
	if l.Kind != GbakOnlineFlags || l.Has != 0 {
		t.Errorf("line 225: %+v", l)
	}
	l = findLine(t, log, 224)
	if l.Kind != GbakTotal || l.Reads != 10944 || l.Writes != 8373 || l.Time != 35.17 {
		t.Errorf("line 224: %+v", l)
	}
	// Two TABs before "backup file is compressed" (message 61).
	l = findLine(t, log, 4)
	if l.Kind != GbakBackupInfo || l.Message != "backup file is compressed" {
		t.Errorf("line 4: %+v", l)
	}
	l = findLine(t, log, 6)
	if l.Kind != GbakCreateDatabase || l.Name != "localhost:/var/lib/firebird/data/shop2.fdb" {
		t.Errorf("line 6: %+v", l)
	}
}

// The backup of the same database was taken by 3.0.11, which prints some
// negative deltas as unsigned (Firebird #8027): three lines are repaired
// and the signed deltas then add up to the total line's counter.
func TestGbakBackupWrapAround(t *testing.T) {
	log := readGbakFile(t, testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"))
	if log.Op != GbakBackup || len(log.Lines) != 238 {
		t.Fatalf("op %q, %d lines", log.Op, len(log.Lines))
	}
	if len(log.Notices) != 6 || !strings.Contains(log.Notices[0].String(), ":82: reads 18446744073709550725 is a negative delta") ||
		!strings.Contains(log.Notices[0].Msg, "read as -891") {
		t.Fatalf("notices: %v", log.Notices)
	}
	var reads, writes int64
	repaired := 0
	for _, l := range log.Lines {
		if l.Repaired {
			repaired++
		}
		if l.Kind != GbakTotal {
			reads += l.Reads
			writes += l.Writes
		}
	}
	if repaired != 3 || reads != 6751 || writes != 152 {
		t.Errorf("repaired %d, reads %d, writes %d", repaired, reads, writes)
	}
	last := log.Lines[len(log.Lines)-1]
	if last.Kind != GbakTotal || last.Reads != 6752 {
		t.Errorf("last line %+v", last)
	}
	l := findLine(t, log, 238)
	if l.Kind != GbakFinish || l.Count != 33266176 {
		t.Errorf("line 238: %+v", l)
	}
	k := kinds(log)
	if k[GbakData] != 6 || k[GbakRecords] != 73 || k[GbakSection] != 20 {
		t.Errorf("kinds %v", k)
	}
}

// Seed 003's excerpts have no header and irregular spacing: the columns
// are guessed from the numbers, with a notice.
func TestGbakSeedsWithoutHeader(t *testing.T) {
	log := readGbakFile(t, testutil.Testdata(t, "seeds", "restore-high-performance.log"))
	if log.Columns != ColTime|ColDelta|ColReads|ColWrites || !log.ColumnsGuessed || len(log.Lines) != 5 {
		t.Fatalf("columns %s guessed %v lines %d", log.Columns, log.ColumnsGuessed, len(log.Lines))
	}
	if len(log.Notices) != 1 || log.Notices[0].Line != 1 || !strings.Contains(log.Notices[0].Msg, "no statistics header") {
		t.Fatalf("notices %v", log.Notices)
	}
	l := log.Lines[0]
	if l.Name != "INDMF_TAG_PLC_DATA_DT_D" || l.Time != 5301.785 || l.Delta != 615.045 || l.Reads != 5028900 || l.Writes != 346529 {
		t.Errorf("line 1: %+v", l)
	}
}

func TestGbakNotAGbakLog(t *testing.T) {
	_, err := ReadGbak(strings.NewReader("Database header page information:\n\tFlags\t0\n"), "h.txt")
	if err == nil || err.Error() != `h.txt: no gbak output found (no line starts with "gbak:"; was the log made with -v?)` {
		t.Fatalf("err = %v", err)
	}
}

// PowerShell's `>` writes UTF-16LE with CRLF: same lines.
func TestGbakUTF16(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	want, _ := ReadGbak(bytes.NewReader(data), "a")
	crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	got, err := ReadGbak(bytes.NewReader(utf16le(string(crlf), true)), "b")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Lines) != len(want.Lines) {
		t.Fatalf("%d lines, want %d", len(got.Lines), len(want.Lines))
	}
	for i := range got.Lines {
		if got.Lines[i] != want.Lines[i] {
			t.Fatalf("line %d: %+v, want %+v", i, got.Lines[i], want.Lines[i])
		}
	}
}

func TestGbakColumnsString(t *testing.T) {
	if s := (ColTime | ColWrites).String(); s != "TW" {
		t.Errorf("got %q", s)
	}
	if n := (ColTime | ColDelta | ColWrites).Count(); n != 3 {
		t.Errorf("count %d", n)
	}
}

// Every public log parses; the figures below are read from each file.
func TestGbakPublicCorpus(t *testing.T) {
	cases := []struct {
		file    string
		op      string
		cols    string
		lines   int
		notices int
		check   func(t *testing.T, log *GbakLog)
	}{
		{"01_fb3_backup_stats_tdrw_fbsvcmgr.log", GbakBackup, "TDRW", 8, 1, func(t *testing.T, log *GbakLog) {
			if l := log.Lines[7]; l.Kind != GbakTotal || l.Reads != 802 || l.Writes != 2 {
				t.Errorf("total %+v", l)
			}
		}},
		{"02_fb3_restore_stats_tdrw_fbsvcmgr.log", GbakRestore, "TDRW", 11, 1, nil},
		{"03_core1999_sample_restore_stat_tdrw_paulbeach_blog.log", GbakRestore, "TDRW", 19, 1, func(t *testing.T, log *GbakLog) {
			// "opened file" is printed before the header, without statistics.
			if l := log.Lines[0]; l.Kind != GbakOpenFile || l.Has != 0 || l.Name != "a.fbk" {
				t.Errorf("first %+v", l)
			}
			if l := findLine(t, log, 19); l.Name != "T2_VAL" || l.Writes != 38394 {
				t.Errorf("line 19 %+v", l)
			}
		}},
		{"04_fb25_release_notes_stats_lines.txt", "", "TDRW", 1, 2, func(t *testing.T, log *GbakLog) {
			if l := log.Lines[0]; l.Kind != GbakTotal || l.Time != 46.684 || l.Writes != 82442 {
				t.Errorf("total %+v", l)
			}
		}},
		{"05_fb5_restore_ST_W_issue8391.log", GbakRestore, "W", 11, 3, func(t *testing.T, log *GbakLog) {
			if l := findLine(t, log, 7); l.Kind != GbakCreateDatabase || l.Writes != 781 {
				t.Errorf("line 7 %+v", l)
			}
		}},
		{"06_fb5_restore_TD_parallel_warning_issue8140.log", GbakRestore, "TD", 8, 1, func(t *testing.T, log *GbakLog) {
			if l := findLine(t, log, 9); l.Kind != GbakWarning || l.Message != "Wrong parallel workers value 4, valid range are from 1 to 1" {
				t.Errorf("line 9 %+v", l)
			}
		}},
		{"07_backup_service_stats_error_issue7803.log", GbakBackup, "TDRW", 5, 3, func(t *testing.T, log *GbakLog) {
			if l := findLine(t, log, 3); l.Kind != GbakRecords || l.Count != 1072223 || l.Reads != 11132156 || l.Delta != 210.21 {
				t.Errorf("line 3 %+v", l)
			}
			if l := findLine(t, log, 7); l.Kind != GbakExiting || !l.Continued {
				t.Errorf("line 7 %+v", l)
			}
		}},
		{"08_broken_stats_wraparound_issue8027.log", GbakBackup, "TDRW", 3, 3, func(t *testing.T, log *GbakLog) {
			if l := log.Lines[1]; !l.Repaired || l.Reads != -920 || l.Writes != -1 {
				t.Errorf("line 2 %+v", l)
			}
		}},
		{"09_restore_deferred_index_failure_issue7269.log", GbakRestore, "", 11, 1, func(t *testing.T, log *GbakLog) {
			if l := findLine(t, log, 8); l.Kind != GbakIndexFailed || l.Name != "PK_A3" {
				t.Errorf("line 8 %+v", l)
			}
			if l := findLine(t, log, 10); l.Kind != GbakError || !l.Continued || l.Message != `Problematic key value is ("ID" = 9)` {
				t.Errorf("line 10 %+v", l)
			}
		}},
		{"10_fb3010_restore_index_fail_not_online_issue7465.log", GbakRestore, "", 16, 2, nil},
		{"11_fb6_restore_skip_data_issue9075.log", GbakRestore, "", 15, 1, func(t *testing.T, log *GbakLog) {
			if l := findLine(t, log, 11); l.Kind != GbakData || l.Name != `"PUBLIC"."TAB_2_B"` {
				t.Errorf("line 11 %+v", l)
			}
			if k := kinds(log); k[GbakIgnored] != 2 || k[GbakRecords] != 2 {
				t.Errorf("kinds %v", k)
			}
		}},
		{"12_fb6_services_backup_restore_verbose.log", GbakBackup, "", 15, 5, nil},
		{"13_backup_verbose_no_stats_firebird_driver_docs.log", GbakBackup, "", 10, 2, func(t *testing.T, log *GbakLog) {
			if l := log.Lines[9]; l.Kind != GbakFinish || l.Count != 74752 {
				t.Errorf("last %+v", l)
			}
		}},
		{"14_cli_backup_restore_verbose_windows.log", GbakBackup, "", 10, 4, nil},
		{"15_fb5_classic_parallel_restore_error_issue8263.log", GbakRestore, "", 5, 0, nil},
		{"16_gbak_z_version_issue8003.log", "", "", 4, 1, func(t *testing.T, log *GbakLog) {
			// gbak -z's server lines: the access method's read, the
			// others and the ODS not reported as skipped (one notice:
			// the shell's prompt line)
			if l := findLine(t, log, 4); l.Kind != GbakVersion || l.Object != "server" || l.Name != "WI-V3.0.11.33666 Firebird 3.0" {
				t.Errorf("line 4 %+v", l)
			}
		}},
		{"17_fb2x_restore_index_error_gedemin1783_ru.log", GbakRestore, "", 5, 2, func(t *testing.T, log *GbakLog) {
			if l := log.Lines[0]; l.Kind != GbakIndexFailed || l.Name != "RDB$FOREIGN394" || !l.Gap {
				t.Errorf("first %+v", l)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.file[:2], func(t *testing.T) {
			log := readGbakFile(t, testutil.Corpus(t, "public", "gbak", c.file))
			if log.Op != c.op || log.Columns.String() != c.cols || len(log.Lines) != c.lines || len(log.Notices) != c.notices {
				t.Fatalf("op %q cols %q lines %d notices %d: want %q %q %d %d\n%v",
					log.Op, log.Columns, len(log.Lines), len(log.Notices), c.op, c.cols, c.lines, c.notices, log.Notices)
			}
			if c.check != nil {
				c.check(t, log)
			}
		})
	}
}

// Lines pasted with an indent, with CRLF and with a comma as decimal mark
// read like the original.
func TestGbakPastedLines(t *testing.T) {
	in := "  gbak: time     delta  reads  writes\r\n" +
		"  gbak:   34.425  0,032    452     40     activating and creating deferred index RDB$PRIMARY4\r\n" +
		"\tgbak:   34.712  0.286   4569    420     activating and creating deferred index OL_ITEM\r\n"
	log, err := ReadGbak(strings.NewReader(in), "mail.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Lines) != 2 || len(log.Notices) != 0 || log.Lines[0].Delta != 0.032 || log.Lines[1].Reads != 4569 || log.Lines[1].Name != "OL_ITEM" {
		t.Errorf("lines %+v notices %v", log.Lines, log.Notices)
	}
}

// A file full of bad lines keeps at most 200 notices and counts the rest
// in one, at the line of the first left out.
func TestGbakNoticeCap(t *testing.T) {
	in := "gbak: time     delta  reads  writes\n" + strings.Repeat("gbak:    1.000  0.500 restoring domain RDB$1\n", 300)
	log, err := ReadGbak(strings.NewReader(in), "bad.log")
	if err != nil {
		t.Fatal(err)
	}
	n := log.Notices
	if len(log.Lines) != 300 || len(n) != 201 || n[0].String() != "bad.log:2: expected 4 statistics columns (TDRW), found 2 numbers; read the rest as a message without statistics" ||
		n[200].String() != "bad.log:202: 100 more notices not printed, from this line on" || log.Lines[0].Has != 0 || log.Lines[0].Name != "RDB$1" {
		t.Errorf("%d lines, %d notices, first %v, last %v", len(log.Lines), len(n), n[0], n[len(n)-1])
	}
}

// A time of 19 digits or more (a corrupt column) is read as its text
// says, not from an int64 that wrapped (1e20 s was read as 7.77e18);
// a comma as decimal separator too.
func TestGbakHugeTime(t *testing.T) {
	text := "gbak: time     delta  reads  writes \n" +
		"gbak:    0.000  0.000      0      0 opened file shop.fbk\n" +
		"gbak: 99999999999999999999.096  0.000      0      0 restoring domain RDB$3\n" +
		"gbak: 1234567890123456789012,5  0,000      0      0 restoring domain RDB$4\n"
	log, err := ReadGbak(strings.NewReader(text), "huge.log")
	if err != nil {
		t.Fatal(err)
	}
	if l := findLine(t, log, 3); l.Time != 1e20 {
		t.Errorf("line 3: time %g, want 1e20", l.Time)
	}
	if l := findLine(t, log, 4); l.Time != 1.2345678901234568e21 || l.Delta != 0 {
		t.Errorf("line 4: time %g, delta %g", l.Time, l.Delta)
	}
}

// gbak -z prints the server's versions on lines without "gbak:" after
// "Version(s) for database", indented with blanks or a tab: the access
// method's is a version line of the server, the others and the ODS are
// read and dropped, not reported as lines that are not gbak's; a line
// after them that is none of these is.
func TestGbakServerVersionLines(t *testing.T) {
	in := "gbak:gbak version LI-V5.0.3.1683 Firebird 5.0\n" +
		"gbak:    Version(s) for database \"localhost:/db/x.fdb\"\n" +
		"\tFirebird/Linux/AMD/Intel/x64 (access method), version \"LI-V4.0.5.3140 Firebird 4.0\"\n" +
		"\tFirebird/Linux/AMD/Intel/x64 (remote server), version \"LI-V4.0.5.3140 Firebird 4.0/tcp (h)/P17:C\"\n" +
		"\tFirebird/Linux/AMD/Intel/x64 (remote interface), version \"LI-V5.0.3.1683 Firebird 5.0/tcp (h)/P17:C\"\n" +
		"\ton disk structure version 13.0\n" +
		"not gbak's\n" +
		"gbak: ERROR:some error\n"
	log, err := ReadGbak(strings.NewReader(in), "z.log")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range log.Lines {
		got = append(got, fmt.Sprintf("%d %s %s %q", l.Line, l.Kind, l.Object, l.Name))
	}
	want := []string{`1 version  ""`, `2 version database "\"localhost:/db/x.fdb\""`, `3 version server "LI-V4.0.5.3140 Firebird 4.0"`, `8 error  ""`}
	if !slices.Equal(got, want) {
		t.Errorf("lines %q", got)
	}
	if len(log.Notices) != 1 || log.Notices[0].Line != 7 {
		t.Errorf("notices %+v", log.Notices)
	}
}
