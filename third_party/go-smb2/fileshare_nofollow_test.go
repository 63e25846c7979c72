package smb2

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/cloudsoda/go-smb2/internal/erref"
	"github.com/cloudsoda/go-smb2/internal/smb2"
	"github.com/cloudsoda/go-smb2/internal/utf16le"
)

// linkServer answers CREATE of the path link with STATUS_STOPPED_ON_SYMLINK
// and a relative target, as a Windows server does for a symbolic link, and
// opens any other path; it keeps every path a CREATE asked for.
type linkServer struct {
	link, target string
	mu           sync.Mutex
	opened       []string
}

func (srv *linkServer) serve(tr transport, sessionID uint64) {
	buf := make([]byte, bufSize)
	for {
		n, err := tr.ReadSize()
		if err != nil {
			return
		}
		if _, err := tr.Read(buf[:n]); err != nil {
			return
		}
		p := smb2.PacketCodec(buf[:n])
		hdr := smb2.PacketHeader{Flags: smb2.SMB2_FLAGS_SERVER_TO_REDIR, SessionId: sessionID,
			MessageId: p.MessageId(), CreditRequestResponse: p.CreditRequest(), TreeId: 1}
		var r interface {
			Size() int
			Encode([]byte)
		}
		switch p.Command() {
		case smb2.SMB2_CREATE:
			req := smb2.CreateRequestDecoder(p.Data())
			off := int(req.NameOffset())
			name := utf16le.Decode(buf[off:off+int(req.NameLength())], utf16le.MapCharsNone)
			srv.mu.Lock()
			srv.opened = append(srv.opened, name)
			srv.mu.Unlock()
			if name == srv.link {
				hdr.Status = uint32(erref.STATUS_STOPPED_ON_SYMLINK)
				r = symlinkError{hdr, srv.target}
				break
			}
			r = &smb2.CreateResponse{PacketHeader: hdr, CreationTime: &smb2.Filetime{}, LastAccessTime: &smb2.Filetime{},
				LastWriteTime: &smb2.Filetime{}, ChangeTime: &smb2.Filetime{}, FileId: &smb2.FileId{Volatile: [8]byte{1}}}
		case smb2.SMB2_CLOSE:
			r = &smb2.CloseResponse{PacketHeader: hdr, CreationTime: &smb2.Filetime{}, LastAccessTime: &smb2.Filetime{},
				LastWriteTime: &smb2.Filetime{}, ChangeTime: &smb2.Filetime{}}
		default:
			hdr.Status = uint32(erref.STATUS_NOT_SUPPORTED)
			r = &smb2.ErrorResponse{PacketHeader: hdr}
		}
		out := make([]byte, r.Size())
		r.Encode(out)
		smb2.PacketCodec(out).SetCommand(p.Command())
		if _, err := tr.Write(out); err != nil {
			return
		}
	}
}

// symlinkError is an SMB2 ERROR response whose data is a symbolic link
// error response (MS-SMB2 2.2.2.2.1) for a relative target, with nothing
// of the path left unparsed, laid out by hand: the library's encoders are
// for its own requests (ErrorResponse.Encode puts ByteCount where
// ErrorContextCount is, SymbolicLinkErrorResponse.Encode its names where
// its Flags are).
type symlinkError struct {
	hdr    smb2.PacketHeader
	target string
}

func (e symlinkError) data() []byte {
	name := utf16le.Encode(e.target, utf16le.MapCharsNone)
	d := make([]byte, 28+2*len(name))
	le := binary.LittleEndian
	le.PutUint32(d[0:4], uint32(len(d)-4))    // SymLinkLength
	le.PutUint32(d[4:8], 0x4c4d5953)          // SymLinkErrorTag
	le.PutUint32(d[8:12], 0xa000000c)         // IO_REPARSE_TAG_SYMLINK
	le.PutUint16(d[12:14], uint16(len(d)-16)) // ReparseDataLength
	le.PutUint16(d[18:20], uint16(len(name))) // SubstituteName at 0
	le.PutUint16(d[20:22], uint16(len(name))) // PrintName after it
	le.PutUint16(d[22:24], uint16(len(name))) //
	le.PutUint32(d[24:28], smb2.SYMLINK_FLAG_RELATIVE)
	copy(d[28:], name)
	copy(d[28+len(name):], name)
	return d
}

func (e symlinkError) Size() int { return 64 + 8 + len(e.data()) }

func (e symlinkError) Encode(pkt []byte) {
	(&smb2.ErrorResponse{PacketHeader: e.hdr}).Encode(pkt[:64+8+1])
	body := pkt[64:]
	data := e.data()
	body[2], body[3] = 0, 0 // ErrorContextCount, Reserved
	binary.LittleEndian.PutUint32(body[4:8], uint32(len(data)))
	copy(body[8:], data)
}

// The library opens a symbolic link's target for the client when a Windows
// server stops on one: a file a tenant swapped for a link to another
// volume's file would be read (or, through Chmod, changed) there. A
// NoClientLinks share, and one WithContext makes of it, fails with the
// server's status and asks for nothing else.
func TestNoClientLinksNeverOpensALinksTarget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		follow bool
		share  func(*Share) *Share
	}{
		{"the library's default", true, func(fs *Share) *Share { return fs }},
		{"NoClientLinks", false, func(fs *Share) *Share { return fs.NoClientLinks() }},
		{"NoClientLinks, then WithContext", false, func(fs *Share) *Share {
			return fs.NoClientLinks().WithContext(fs.ctx)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, op := range []struct {
				name string
				fn   func(fs *Share) error
			}{
				{"OpenFile", func(fs *Share) error {
					f, err := fs.OpenFile(`vol\f`, os.O_RDONLY, 0)
					if err == nil {
						f.Close()
					}
					return err
				}},
				{"Stat", func(fs *Share) error { _, err := fs.Stat(`vol\f`); return err }},
			} {
				clientConn, serverConn := net.Pipe()
				c, cleanup := newBenchConn(clientConn)
				const sid = 0x78
				srv := &linkServer{link: `vol\f`, target: `..\other\secret`}
				go srv.serve(direct(serverConn), sid)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				fs := tc.share(&Share{treeConn: &treeConn{session: &session{conn: c, sessionId: sid}, treeId: 1}, ctx: ctx})
				err := op.fn(fs)
				cancel()
				cleanup()
				srv.mu.Lock()
				opened := srv.opened
				srv.mu.Unlock()
				if tc.follow {
					if len(opened) != 2 || opened[1] == srv.link {
						t.Errorf("%s: the library opened %q (%v); want the link, then a path made from its target (what NoClientLinks guards against)", op.name, opened, err)
					}
					continue
				}
				var re *ResponseError
				if !errors.As(err, &re) || erref.NtStatus(re.Code) != erref.STATUS_STOPPED_ON_SYMLINK || len(opened) != 1 {
					t.Errorf("%s: %v after CREATEs of %q; want STATUS_STOPPED_ON_SYMLINK after the link's alone", op.name, err, opened)
				}
			}
		})
	}
}
