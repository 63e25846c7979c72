package hostfs

import (
	"encoding/binary"
	"fmt"
	"io"
	"unicode/utf16"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
)

// The layout of FILE_FULL_DIR_INFO, what GetFileInformationByHandleEx
// (FileFullDirectoryInfo) fills a buffer with: one record per name, each
// starting at an 8-byte boundary, chained by NextEntryOffset (0 on the
// last). The same on 32- and 64-bit Windows. It is decoded here, apart
// from the call, so that it is tested on every OS.
const (
	offNext       = 0
	offEndOfFile  = 40
	offAllocation = 48
	offAttributes = 56
	offNameLength = 60
	offName       = 68

	attrDirectory    = 0x10  // FILE_ATTRIBUTE_DIRECTORY
	attrReparsePoint = 0x400 // FILE_ATTRIBUTE_REPARSE_POINT
)

// parseFullDirInfo decodes one buffer of FILE_FULL_DIR_INFO records, leaving
// out "." and "..".
func parseFullDirInfo(buf []byte) ([]winhost.DirEntry, error) {
	var out []winhost.DirEntry
	for off := 0; ; {
		if off+offName > len(buf) {
			return nil, fmt.Errorf("directory listing: a record at %d passes the end of the buffer (%d bytes)", off, len(buf))
		}
		rec := buf[off:]
		next := int(binary.LittleEndian.Uint32(rec[offNext:]))
		nameLen := int(binary.LittleEndian.Uint32(rec[offNameLength:]))
		if nameLen%2 != 0 || offName+nameLen > len(rec) || next != 0 && next < offName+nameLen {
			return nil, fmt.Errorf("directory listing: the record at %d has a name of %d bytes that does not fit", off, nameLen)
		}
		u := make([]uint16, nameLen/2)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(rec[offName+2*i:])
		}
		name := string(utf16.Decode(u))
		attrs := binary.LittleEndian.Uint32(rec[offAttributes:])
		if name != "." && name != ".." {
			link := attrs&attrReparsePoint != 0
			e := winhost.DirEntry{
				Name: name,
				Link: link,
				Dir:  attrs&attrDirectory != 0 && !link,
				Size: int64(binary.LittleEndian.Uint64(rec[offEndOfFile:])),
				// The server's count of what the file occupies: a sparse
				// or compressed file's is smaller than its size.
				Allocated: int64(binary.LittleEndian.Uint64(rec[offAllocation:])),
			}
			out = append(out, e)
		}
		if next == 0 {
			return out, nil
		}
		off += next
	}
}

// listing is a winhost.Dir over a function that fills a buffer with the
// next records (io.EOF when there are none): the Windows call, or a test's.
type listing struct {
	fill    func(buf []byte) error
	close   func() error
	buf     []byte
	pending []winhost.DirEntry
	done    bool
}

func (l *listing) Read(n int) ([]winhost.DirEntry, error) {
	for len(l.pending) == 0 && !l.done {
		err := l.fill(l.buf)
		if err == io.EOF {
			l.done = true
			break
		}
		if err != nil {
			return nil, err
		}
		entries, err := parseFullDirInfo(l.buf)
		if err != nil {
			return nil, err
		}
		l.pending = entries
	}
	if len(l.pending) == 0 {
		return nil, io.EOF
	}
	n = min(max(n, 1), len(l.pending))
	out := l.pending[:n:n]
	l.pending = l.pending[n:]
	return out, nil
}

func (l *listing) Close() error { return l.close() }
