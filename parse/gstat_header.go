package parse

import (
	"bytes"
	"strings"
)

// Header page, variable header, -e and file sequence lines. None of this
// is on the hot path (a few dozen lines per report), so clarity wins.

type gstatHeaderField struct {
	label string
	set   func(r *GstatReader, h *GstatHeader, v []byte) bool
}

// intField makes a setter for an integer header field.
func intField(field func(h *GstatHeader) **int64) func(*GstatReader, *GstatHeader, []byte) bool {
	return func(r *GstatReader, h *GstatHeader, v []byte) bool {
		n, ok := atoi64(v)
		if !ok {
			return false
		}
		*field(h) = r.slab.i64(n)
		return true
	}
}

// gstatHeaderFields lists the header page labels, "Implementation ID"
// before "Implementation" (prefix matching).
var gstatHeaderFields = []gstatHeaderField{
	{"Flags", intField(func(h *GstatHeader) **int64 { return &h.Flags })},
	{"Checksum", intField(func(h *GstatHeader) **int64 { return &h.Checksum })},
	{"Generation", intField(func(h *GstatHeader) **int64 { return &h.Generation })},
	{"System Change Number", intField(func(h *GstatHeader) **int64 { return &h.SCN })},
	{"Page size", intField(func(h *GstatHeader) **int64 { return &h.PageSize })},
	{"Server", func(r *GstatReader, h *GstatHeader, v []byte) bool { h.Server = string(v); return true }},
	{"ODS version", setODS},
	{"Oldest transaction", intField(func(h *GstatHeader) **int64 { return &h.OldestTransaction })},
	{"Oldest active", intField(func(h *GstatHeader) **int64 { return &h.OldestActive })},
	{"Oldest snapshot", intField(func(h *GstatHeader) **int64 { return &h.OldestSnapshot })},
	{"Next transaction", intField(func(h *GstatHeader) **int64 { return &h.NextTransaction })},
	{"Autosweep gap", intField(func(h *GstatHeader) **int64 { return &h.AutosweepGap })},
	{"Bumped transaction", intField(func(h *GstatHeader) **int64 { return &h.BumpedTransaction })},
	{"Sequence number", intField(func(h *GstatHeader) **int64 { return &h.SequenceNumber })},
	{"Next attachment ID", intField(func(h *GstatHeader) **int64 { return &h.NextAttachmentID })},
	{"Implementation ID", intField(func(h *GstatHeader) **int64 { return &h.ImplementationID })},
	{"Implementation", setImplementation},
	{"Shadow count", intField(func(h *GstatHeader) **int64 { return &h.ShadowCount })},
	{"Page buffers", intField(func(h *GstatHeader) **int64 { return &h.PageBuffers })},
	{"Next header page", intField(func(h *GstatHeader) **int64 { return &h.NextHeaderPage })},
	{"Database dialect", func(r *GstatReader, h *GstatHeader, v []byte) bool {
		n, ok := atoi64(v)
		if !ok || n > 3 || n < 0 {
			return false
		}
		h.Dialect = r.slab.int(int(n))
		return true
	}},
	{"Database GUID:", func(r *GstatReader, h *GstatHeader, v []byte) bool { h.GUID = string(v); return true }},
	{"Creation date", func(r *GstatReader, h *GstatHeader, v []byte) bool {
		h.CreationDateText = string(v)
		if tm, ok := parseCreation(collapseSpaces(v)); ok {
			h.CreationDate = &tm
			return true
		}
		return false
	}},
	{"Attributes", setAttributes},
	{"Sweep interval:", intField(func(h *GstatHeader) **int64 { return &h.SweepInterval })},
	{"Sweep interval", intField(func(h *GstatHeader) **int64 { return &h.SweepInterval })},
}

func setODS(r *GstatReader, h *GstatHeader, v []byte) bool {
	h.ODSVersion = string(v)
	i := bytes.IndexByte(v, '.')
	if i < 0 {
		return false
	}
	maj, ok1 := atoi64(v[:i])
	min, ok2 := atoi64(v[i+1:])
	if !ok1 || !ok2 || maj > 1000 || min > 1000 {
		return false
	}
	h.ODSMajor, h.ODSMinor = r.slab.int(int(maj)), r.slab.int(int(min))
	return true
}

// setImplementation splits "HW=AMD/Intel/x64 little-endian OS=Linux CC=gcc".
func setImplementation(r *GstatReader, h *GstatHeader, v []byte) bool {
	h.ImplementationText = string(v)
	for _, f := range strings.Fields(h.ImplementationText) {
		switch {
		case strings.HasPrefix(f, "HW="):
			h.HW = f[3:]
		case strings.HasPrefix(f, "OS="):
			h.OS = f[3:]
		case strings.HasPrefix(f, "CC="):
			h.CC = f[3:]
		case strings.HasSuffix(f, "-endian"):
			h.Endian = strings.TrimSuffix(f, "-endian")
		}
	}
	return true
}

// setAttributes reads the comma-separated attribute list and sets the
// convenience fields.
func setAttributes(r *GstatReader, h *GstatHeader, v []byte) bool {
	h.Attributes = []string{}
	for _, a := range strings.Split(string(v), ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		h.Attributes = append(h.Attributes, a)
		switch {
		case a == "force write":
			h.ForceWrite = true
		case a == "no reserve":
			h.NoReserve = true
		case a == "shared cache disabled":
			h.SharedCacheDisabled = true
		case a == "active shadow":
			h.ActiveShadow = true
		case a == "encrypted":
			h.Encrypted = true
		case a == "crypt process":
			h.CryptProcess = true
		case strings.HasPrefix(a, "plugin "):
			h.CryptPlugin = strings.TrimSpace(a[len("plugin "):])
		// "database shutdown" is 1.5's one shutdown state (ods.h
		// hdr_shutdown), split into the three modes by 2.0.
		case a == "multi-user maintenance", a == "single-user maintenance", a == "full shutdown",
			a == "database shutdown", strings.HasPrefix(a, "wrong shutdown state"):
			h.ShutdownMode = a
		case a == "read only":
			h.ReadOnly = true
		case a == "backup lock", a == "backup merge", strings.HasPrefix(a, "wrong backup state"):
			h.BackupState = a
		case a == "read-only replica", a == "read-write replica", strings.HasPrefix(a, "wrong replica state"):
			h.ReplicaMode = a
		}
	}
	return true
}

// headerLine handles a line of the header page; false hands the line to
// topLine.
func (r *GstatReader) headerLine(t []byte) bool {
	for _, f := range gstatHeaderFields {
		if !hasPrefix(t, f.label) || (len(t) > len(f.label) && t[len(f.label)] != ' ') {
			continue
		}
		v := trimLeftBlank(t[len(f.label):])
		h := r.header()
		h.HeaderPage = true
		if !f.set(r, h, v) && !r.full(&r.moreUnknown, len(h.Unknown), maxUnknownLines, "unknown lines in the header") {
			r.notice("cannot read the value of %q: %q", f.label, v)
			h.Unknown = append(h.Unknown, GstatKV{Line: r.lr.Line(), Key: strings.TrimSuffix(f.label, ":"), Value: string(v)})
		}
		return true
	}
	if isTopStarter(t) {
		return false
	}
	// An unknown "Label<blanks>value" field of a newer version or a fork.
	if i := bytes.Index(t, []byte("  ")); i > 0 && r.state == gsHeader {
		if r.full(&r.moreUnknown, len(r.header().Unknown), maxUnknownLines, "unknown lines in the header") {
			return true
		}
		k, v := string(t[:i]), string(trimLeftBlank(t[i:]))
		r.header().Unknown = append(r.hdr.Unknown, GstatKV{Line: r.lr.Line(), Key: k, Value: v})
		r.notice("unknown header field %q kept as text", k)
		return true
	}
	return false
}

// varLine handles a "Variable header data:" item.
func (r *GstatReader) varLine(t []byte) {
	h := r.header()
	if bytes.Equal(t, []byte("*END*")) {
		r.state = gsTop
		return
	}
	var k, v []byte
	if i := bytes.IndexByte(t, ':'); i > 0 {
		k, v = t[:i], trimLeftBlank(t[i+1:])
	} else {
		k = t
	}
	kv := GstatKV{Line: r.lr.Line(), Key: string(k), Value: string(v)}
	h.Variable = append(h.Variable, kv)
	num := func(dst **int64) {
		if n, ok := atoi64(v); ok {
			*dst = r.slab.i64(n)
		} else {
			r.notice("cannot read the value of %q: %q", k, v)
		}
	}
	switch kv.Key {
	case "Sweep interval":
		num(&h.SweepInterval)
	case "Root file name":
		h.RootFileName = kv.Value
	case "Continuation file":
		h.ContinuationFile = kv.Value
	case "Last logical page":
		num(&h.LastLogicalPage)
	case "Backup difference file":
		h.BackupDifferenceFile = kv.Value
	case "Database backup GUID":
		h.BackupGUID = kv.Value
	case "Database GUID":
		h.GUID = kv.Value
	case "Replication sequence":
		num(&h.ReplicationSequence)
	case "Encryption key name":
		h.EncryptionKeyName = kv.Value
	case "Key hash":
		h.KeyHash = kv.Value
	case "Crypt checksum":
		h.CryptChecksum = kv.Value
	}
}

// cryptKind returns the page kind of a -e line ("Data pages: total 121,
// encrypted 0, non-crypted 121"), "" for other lines.
func cryptKind(t []byte) string {
	i := bytes.Index(t, []byte(" pages: total "))
	if i <= 0 {
		return ""
	}
	for _, c := range t[:i] {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return ""
		}
	}
	return string(t[:i])
}

// maxCryptLines bounds the -e lines a run keeps; the others are counted
// in a notice. gstat prints one a page kind (data, index, blob,
// generator); a run of 100 MiB of them took 1.1 GB in text. fbdiag's own
// bound.
const maxCryptLines = 20

// cryptLine reads a -e line: the three numbers in order.
func (r *GstatReader) cryptLine(t []byte, kind string) {
	var nums [3]int64
	n := 0
	for i := 0; i < len(t) && n < 3; {
		if !isDigit(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && isDigit(t[j]) {
			j++
		}
		nums[n], _ = atoi64(t[i:j])
		n++
		i = j
	}
	if n < 3 {
		r.notice("cannot read the encryption line %q", t)
		return
	}
	h := r.header()
	if r.full(&r.moreCrypt, len(h.Encryption), maxCryptLines, "page count lines (gstat -e)") {
		return
	}
	h.Encryption = append(h.Encryption, GstatPageCrypt{Line: r.lr.Line(), Kind: kind, Total: nums[0], Encrypted: nums[1], NonCrypted: nums[2],
		DBProblem: bytes.Contains(t, []byte("(DB problem!)"))})
	if r.state == gsNone {
		r.state = gsTop
	}
}

// fileLine reads a "Database file sequence" line.
func (r *GstatReader) fileLine(t []byte) bool {
	s := string(t[len("File "):])
	var f GstatFile
	switch {
	case strings.HasSuffix(s, " is the only file"):
		f = GstatFile{Name: strings.TrimSuffix(s, " is the only file"), Kind: "only"}
	case strings.HasSuffix(s, " is the last file"):
		f = GstatFile{Name: strings.TrimSuffix(s, " is the last file"), Kind: "last"}
	case strings.Contains(s, " continues as file "):
		i := strings.Index(s, " continues as file ")
		f = GstatFile{Name: s[:i], Next: s[i+len(" continues as file "):], Kind: "continues"}
	default:
		return false
	}
	r.endBlock()
	h := r.header()
	h.Files = append(h.Files, f)
	r.state = gsTop
	return true
}

// finding reads "Expected data on page N", "Expected b-tree bucket on page
// N from M" and "Expected page inventory page N".
func (r *GstatReader) finding(t []byte) {
	f := &GstatFinding{GstatPos: r.pos(), Text: string(t), Table: r.tableName()}
	switch {
	case hasPrefix(t, "Expected data"):
		f.Kind = FindingExpectedData
	case hasPrefix(t, "Expected b-tree bucket"):
		f.Kind = FindingExpectedBucket
	case hasPrefix(t, "Expected page inventory"):
		f.Kind = FindingExpectedInventory
	default:
		f.Kind = FindingPageCorrupt
	}
	if i := bytes.LastIndex(t, []byte("page ")); i >= 0 {
		if n, ok := atoi64(leadingDigits(t[i+len("page "):])); ok {
			f.Page = r.slab.i64(n)
		}
	}
	if i := bytes.Index(t, []byte(" from ")); i >= 0 {
		if n, ok := atoi64(leadingDigits(t[i+len(" from "):])); ok {
			f.FromPage = r.slab.i64(n)
		}
	}
	// Corruption lines are printed before the blocks: they do not end one.
	if r.state != gsTable && r.state != gsIndex {
		r.flushHeader()
	}
	r.emit(f)
	r.used = true
}

func leadingDigits(b []byte) []byte {
	i := 0
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return b[:i]
}
