package hostfs

import (
	"encoding/binary"
	"errors"
	"io"
	"testing"
	"unicode/utf16"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
)

// fullDirInfo lays out records as Windows fills a FileFullDirectoryInfo
// buffer: 8-byte aligned, chained by NextEntryOffset, 0 on the last.
func fullDirInfo(recs ...struct {
	name            string
	attrs           uint32
	size, allocated int64
}) []byte {
	var buf []byte
	for i, r := range recs {
		name := utf16.Encode([]rune(r.name))
		rec := make([]byte, offName+2*len(name))
		for len(rec)%8 != 0 {
			rec = append(rec, 0)
		}
		if i < len(recs)-1 {
			binary.LittleEndian.PutUint32(rec[offNext:], uint32(len(rec)))
		}
		binary.LittleEndian.PutUint64(rec[offEndOfFile:], uint64(r.size))
		binary.LittleEndian.PutUint64(rec[offAllocation:], uint64(r.allocated))
		binary.LittleEndian.PutUint32(rec[offAttributes:], r.attrs)
		binary.LittleEndian.PutUint32(rec[offNameLength:], uint32(2*len(name)))
		for j, c := range name {
			binary.LittleEndian.PutUint16(rec[offName+2*j:], c)
		}
		buf = append(buf, rec...)
	}
	return buf
}

type rec = struct {
	name            string
	attrs           uint32
	size, allocated int64
}

func TestFullDirInfoIsDecoded(t *testing.T) {
	buf := fullDirInfo(
		rec{".", attrDirectory, 0, 0},
		rec{"..", attrDirectory, 0, 0},
		rec{"sparse.img", 0x20 | 0x200, 1 << 30, 65536}, // archive, sparse
		rec{"Ünïcode ☃.txt", 0x20, 10, 4096},
		rec{"sub", attrDirectory, 0, 0},
		rec{"junction", attrDirectory | attrReparsePoint, 0, 0},
	)
	got, err := parseFullDirInfo(buf)
	if err != nil {
		t.Fatal(err)
	}
	want := []winhost.DirEntry{
		{Name: "sparse.img", Size: 1 << 30, Allocated: 65536},
		{Name: "Ünïcode ☃.txt", Size: 10, Allocated: 4096},
		{Name: "sub", Dir: true},
		{Name: "junction", Link: true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("entry %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestFullDirInfoThatDoesNotFitIsRefused(t *testing.T) {
	buf := fullDirInfo(rec{"a-long-name", 0x20, 1, 1})
	if _, err := parseFullDirInfo(buf[:offName+4]); err == nil {
		t.Fatal("a name past the buffer's end was decoded")
	}
	binary.LittleEndian.PutUint32(buf[offNext:], 8) // a chain into itself
	if _, err := parseFullDirInfo(buf); err == nil {
		t.Fatal("a record whose next one starts inside it was decoded")
	}
}

// A listing hands out what each buffer holds, n at a time, across buffers.
func TestListingReadsAcrossBuffers(t *testing.T) {
	bufs := [][]byte{
		fullDirInfo(rec{".", attrDirectory, 0, 0}, rec{"a", 0, 1, 1}, rec{"b", 0, 2, 2}, rec{"c", 0, 3, 3}),
		fullDirInfo(rec{"d", 0, 4, 4}),
	}
	closed := false
	l := &listing{
		buf: make([]byte, 4096),
		fill: func(buf []byte) error {
			if len(bufs) == 0 {
				return io.EOF
			}
			copy(buf, bufs[0])
			bufs = bufs[1:]
			return nil
		},
		close: func() error { closed = true; return nil },
	}
	var names string
	for {
		es, err := l.Read(2)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(es) > 2 {
			t.Fatalf("Read(2) gave %d", len(es))
		}
		for _, e := range es {
			names += e.Name
		}
	}
	if names != "abcd" {
		t.Fatalf("listed %q, want abcd", names)
	}
	if l.Close(); !closed {
		t.Fatal("not closed")
	}
}
