package collect

import (
	"fmt"
	"strconv"
	"strings"

	fb "github.com/nakagami/firebirdsql"
)

// BackupOptions are the gbak -b switches fbdiag passes through the
// Services API (isc_action_svc_backup). Each field names its gbak switch.
type BackupOptions struct {
	NoGarbageCollect bool   // -g: do not collect garbage while reading
	IgnoreChecksums  bool   // -ig: ignore page checksum errors
	IgnoreLimbo      bool   // -l: ignore transactions in limbo
	NonTransportable bool   // -nt: native format instead of XDR
	MetadataOnly     bool   // -m: metadata only, no data
	SkipData         string // -skip_data REGEXP: tables whose data is not backed up (Firebird 3.0+)
	Parallel         int    // -par N: parallel workers (Firebird 5.0+)
	// Force replaces an existing backup file (never before the new one
	// is complete, where fbdiag can rename on the server's filesystem).
	Force bool
	// Outputs are the files on this machine the command writes besides
	// the backup (its log): a database the server resolves to one of
	// them is refused before gbak starts.
	Outputs []string
}

// RestoreOptions are the gbak -c switches fbdiag passes through the
// Services API (isc_action_svc_restore). Replace must be set explicitly to
// replace an existing database.
type RestoreOptions struct {
	Replace        bool   // -rep, done as a restore beside it and a swap (see Restore)
	PageSize       int    // -p N: page size, 0 = the backup's
	Buffers        int    // -bu N: page buffers stored in the header, 0 = the backup's
	Inactive       bool   // -i: leave every index inactive
	OneAtATime     bool   // -o: commit after each table
	UseAllSpace    bool   // -use_all_space: fill data pages completely (no reserve)
	ReadOnly       bool   // -mode read_only
	FixFSSData     string // -fix_fss_data CHARSET: repair UNICODE_FSS data
	FixFSSMetadata string // -fix_fss_metadata CHARSET: repair UNICODE_FSS metadata
	Parallel       int    // -par N: parallel workers (Firebird 5.0+)
	// Outputs are the files on this machine the command writes besides
	// the database (its log): a database the server resolves to one of
	// them is refused before gbak starts.
	Outputs []string
}

// Service parameters of backup and restore (ibase.h, consts_pub.h) the
// driver keeps unexported.
const (
	bkpIgnoreChecksums  = 0x01 // isc_spb_bkp_ignore_checksums
	bkpIgnoreLimbo      = 0x02 // isc_spb_bkp_ignore_limbo
	bkpMetadataOnly     = 0x04 // isc_spb_bkp_metadata_only
	bkpNoGarbageCollect = 0x08 // isc_spb_bkp_no_garbage_collect
	bkpNonTransportable = 0x20 // isc_spb_bkp_non_transportable

	spbBkpSkipData    = 8  // isc_spb_bkp_skip_data (string), 3.0+
	spbParallel       = 21 // isc_spb_bkp_parallel_workers = isc_spb_res_parallel_workers, 5.0+
	spbResBuffers     = 9  // isc_spb_res_buffers
	spbResAccessMode  = 12 // isc_spb_res_access_mode, followed by one byte
	spbResFixFSSData  = 13 // isc_spb_res_fix_fss_data (string)
	spbResFixFSSMeta  = 14 // isc_spb_res_fix_fss_metadata (string)
	resAmReadOnly     = 39 // isc_spb_res_am_readonly = isc_spb_prp_am_readonly
	resDeactivateIdx  = 0x0100
	resOneAtATime     = 0x0800
	resUseAllSpace    = 0x4000
	minParallelServer = 5 // major version that knows isc_spb_*_parallel_workers
)

// gbakFlag is one on/off switch: its bit in isc_spb_options and its gbak
// spelling.
type gbakFlag struct {
	on  bool
	bit int32
	sw  string
}

func (o BackupOptions) flags() []gbakFlag {
	return []gbakFlag{{o.NoGarbageCollect, bkpNoGarbageCollect, "-g"}, {o.IgnoreChecksums, bkpIgnoreChecksums, "-ig"},
		{o.IgnoreLimbo, bkpIgnoreLimbo, "-l"}, {o.NonTransportable, bkpNonTransportable, "-nt"},
		{o.MetadataOnly, bkpMetadataOnly, "-m"}}
}

func (o RestoreOptions) flags() []gbakFlag {
	return []gbakFlag{{o.Inactive, resDeactivateIdx, "-i"}, {o.OneAtATime, resOneAtATime, "-o"},
		{o.UseAllSpace, resUseAllSpace, "-use_all_space"}}
}

// bits ors the bits of the flags that are on into base.
func bits(base int32, fs []gbakFlag) int32 {
	for _, f := range fs {
		if f.on {
			base |= f.bit
		}
	}
	return base
}

// switches appends the spellings of the flags that are on.
func switches(sw []string, fs []gbakFlag) []string {
	for _, f := range fs {
		if f.on {
			sw = append(sw, f.sw)
		}
	}
	return sw
}

// request starts the request of a backup or restore.
func request(action byte, database, file string, opts int32) *fb.XPBWriter {
	return fb.NewXPBWriterFromTag(action).
		PutString(spbDbName, database).
		PutString(spbBkpFile, file).
		PutInt32(spbOptions, opts)
}

// finish ends a request with what every run asks for: parallel workers
// when set, -st tdrw and -v.
func finish(w *fb.XPBWriter, parallel int) []byte {
	if parallel > 0 {
		w.PutInt32(spbParallel, int32(parallel))
	}
	return w.PutString(spbBkpStat, GbakStats).PutTag(spbVerbose).Bytes()
}

// spb is the service request: backup of database to file.
func (o BackupOptions) spb(database, file string) []byte {
	w := request(actionBackup, database, file, bits(0, o.flags()))
	if o.SkipData != "" {
		w.PutString(spbBkpSkipData, o.SkipData)
	}
	return finish(w, o.Parallel)
}

// Switches spells the run as gbak's command line would (without files).
func (o BackupOptions) Switches() string {
	sw := switches([]string{"-b", "-v", "-st tdrw"}, o.flags())
	if o.SkipData != "" {
		sw = append(sw, "-skip_data "+strconv.Quote(o.SkipData))
	}
	return strings.Join(parallelSwitch(sw, o.Parallel), " ")
}

func parallelSwitch(sw []string, parallel int) []string {
	if parallel > 0 {
		sw = append(sw, "-par "+strconv.Itoa(parallel))
	}
	return sw
}

// spb is the service request: restore of file into database, always in
// create mode (isc_spb_res_create): fbdiag never asks the server to
// overwrite a database (see Restore).
func (o RestoreOptions) spb(file, database string) []byte {
	w := request(actionRestore, database, file, bits(resCreate, o.flags()))
	for _, v := range []struct {
		tag byte
		n   int
	}{{spbResPageSize, o.PageSize}, {spbResBuffers, o.Buffers}} {
		if v.n > 0 {
			w.PutInt32(v.tag, int32(v.n))
		}
	}
	if o.ReadOnly {
		w.PutByte(spbResAccessMode, resAmReadOnly)
	}
	for _, v := range []struct {
		tag     byte
		charset string
	}{{spbResFixFSSData, o.FixFSSData}, {spbResFixFSSMeta, o.FixFSSMetadata}} {
		if v.charset != "" {
			w.PutString(v.tag, v.charset)
		}
	}
	return finish(w, o.Parallel)
}

// Switches spells the run as gbak's command line would (without files).
func (o RestoreOptions) Switches() string {
	sw := []string{"-c", "-v", "-st tdrw"}
	if o.Replace {
		sw[0] = "-rep"
	}
	if o.PageSize > 0 {
		sw = append(sw, "-p "+strconv.Itoa(o.PageSize))
	}
	if o.Buffers > 0 {
		sw = append(sw, "-bu "+strconv.Itoa(o.Buffers))
	}
	sw = switches(sw, o.flags())
	if o.ReadOnly {
		sw = append(sw, "-mode read_only")
	}
	if o.FixFSSData != "" {
		sw = append(sw, "-fix_fss_data "+o.FixFSSData)
	}
	if o.FixFSSMetadata != "" {
		sw = append(sw, "-fix_fss_metadata "+o.FixFSSMetadata)
	}
	return strings.Join(parallelSwitch(sw, o.Parallel), " ")
}

// needsServer checks options that only newer servers understand against
// the server's version banner, before anything is started: Firebird 3
// and 4 refuse the parallel workers item as "unrecognized service
// parameter block".
func needsServer(parallel int, version string) error {
	if parallel <= 0 {
		return nil
	}
	v := fb.ParseFirebirdVersion(version)
	if v.Full == "" || v.Major < minParallelServer {
		return fmt.Errorf("--parallel (gbak -par) needs Firebird %d.0 or later; the server is %s", minParallelServer, version)
	}
	return nil
}
