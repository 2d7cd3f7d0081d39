package extsort

import (
	"encoding/binary"
	"errors"
	"math"
	"unsafe"
)

// The helpers below write the fields of a record for a Codec and read
// them back in the same order.

// AppendInt appends a signed integer.
func AppendInt(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

// AppendFloat appends a float64, bit for bit.
func AppendFloat(b []byte, v float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

// AppendString appends a string with its length.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// errShort is a record shorter than its fields.
var errShort = errors.New("record cut short")

// Fields reads the fields of a record in the order they were appended;
// the first error sticks (Err).
type Fields struct {
	b   []byte
	err error
}

// NewFields reads the record b.
func NewFields(b []byte) *Fields { return &Fields{b: b} }

// Reset reads the record b with f: a Fields of the caller's (NewFields
// allocates one).
func (f *Fields) Reset(b []byte) { *f = Fields{b: b} }

// ErrSoFar is the first error of the fields read: a record whose front
// alone is read (a sort key) leaves the rest unread.
func (f *Fields) ErrSoFar() error { return f.err }

// Err is the first error, or an error when bytes are left over.
func (f *Fields) Err() error {
	if f.err == nil && len(f.b) > 0 {
		return errors.New("record longer than its fields")
	}
	return f.err
}

// Int reads an integer of AppendInt.
func (f *Fields) Int() int64 {
	if f.err != nil {
		return 0
	}
	if b := f.b; len(b) > 0 && b[0] < 0x80 {
		// One byte (-64 to 63: counts, offsets, small ids) without
		// binary.Varint's call: a spooled warning has a dozen.
		f.b = b[1:]
		return int64(b[0]>>1) ^ -int64(b[0]&1)
	}
	v, n := binary.Varint(f.b)
	if n <= 0 {
		f.err = errShort
		return 0
	}
	f.b = f.b[n:]
	return v
}

// uint16 reads two bytes, little-endian (TextRefs's lengths).
func (f *Fields) uint16() int {
	if f.err != nil {
		return 0
	}
	if len(f.b) < 2 {
		f.err = errShort
		return 0
	}
	v := int(f.b[0]) | int(f.b[1])<<8
	f.b = f.b[2:]
	return v
}

// Count reads an integer of AppendInt that counts the fields that
// follow, each at least a byte long: -1, an error, for a count the record
// cannot hold.
func (f *Fields) Count() int {
	n := f.Int()
	if f.err == nil && (n < 0 || n > int64(len(f.b))) {
		f.err = errShort
	}
	if f.err != nil {
		return -1
	}
	return int(n)
}

// Float reads a float of AppendFloat.
func (f *Fields) Float() float64 {
	if f.err != nil {
		return 0
	}
	if len(f.b) < 8 {
		f.err = errShort
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(f.b))
	f.b = f.b[8:]
	return v
}

// String reads a string of AppendString (a copy).
func (f *Fields) String() string { return string(f.Bytes()) }

// Ref reads a string of AppendString without copying it: it is the
// record's bytes, valid while the record is (see Codec.Decode).
func (f *Fields) Ref() string {
	b := f.Bytes()
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Fixed reads the next n bytes, whose length the record holds elsewhere,
// as a string without copying them (Ref).
func (f *Fields) Fixed(n int) string {
	if f.err != nil {
		return ""
	}
	if n < 0 || n > len(f.b) {
		f.err = errShort
		return ""
	}
	if n == 0 {
		return ""
	}
	s := unsafe.String(&f.b[0], n)
	f.b = f.b[n:]
	return s
}

// Rest reads the bytes left as a string without copying them (Ref).
func (f *Fields) Rest() string {
	if f.err != nil || len(f.b) == 0 {
		return ""
	}
	s := unsafe.String(&f.b[0], len(f.b))
	f.b = f.b[len(f.b):]
	return s
}

// Bytes reads a string of AppendString as the record's bytes, valid
// while the record is.
func (f *Fields) Bytes() []byte {
	if f.err != nil {
		return nil
	}
	if b := f.b; len(b) > 0 && b[0] < 0x80 && int(b[0]) < len(b) {
		// A length of one byte: a name, a rule, a unit
		l := 1 + int(b[0])
		f.b = b[l:]
		return b[1:l:l]
	}
	l, n := binary.Uvarint(f.b)
	if n <= 0 || uint64(len(f.b)-n) < l {
		f.err = errShort
		return nil
	}
	s := f.b[n : n+int(l) : n+int(l)]
	f.b = f.b[n+int(l):]
	return s
}
