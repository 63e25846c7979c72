package smb2

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/cloudsoda/go-smb2/internal/erref"
	"github.com/cloudsoda/go-smb2/internal/smb2"
)

// smallFileServer answers CREATE, READ and CLOSE, each request of a
// compound on its own, about one file: every CREATE says it is eof bytes
// long, and a READ gets data from where it asks, STATUS_END_OF_FILE from
// its end on (or, endless, all it asks for, however far it reads).
type smallFileServer struct {
	eof     int64
	data    []byte
	endless bool
}

func (srv smallFileServer) serve(tr transport, sessionID uint64) {
	buf := make([]byte, bufSize)
	for {
		n, err := tr.ReadSize()
		if err != nil {
			return
		}
		if _, err := tr.Read(buf[:n]); err != nil {
			return
		}
		msg := buf[:n]
		for {
			p := smb2.PacketCodec(msg)
			hdr := smb2.PacketHeader{Flags: smb2.SMB2_FLAGS_SERVER_TO_REDIR, SessionId: sessionID,
				MessageId: p.MessageId(), CreditRequestResponse: p.CreditRequest(), TreeId: 1}
			var r interface {
				Size() int
				Encode([]byte)
			}
			switch p.Command() {
			case smb2.SMB2_CREATE:
				r = &smb2.CreateResponse{PacketHeader: hdr, CreationTime: &smb2.Filetime{}, LastAccessTime: &smb2.Filetime{},
					LastWriteTime: &smb2.Filetime{}, ChangeTime: &smb2.Filetime{}, EndofFile: srv.eof, FileId: &smb2.FileId{Volatile: [8]byte{1}}}
			case smb2.SMB2_READ:
				req := smb2.ReadRequestDecoder(p.Data())
				data := make([]byte, req.Length())
				if !srv.endless {
					if req.Offset() >= uint64(len(srv.data)) {
						hdr.Status = uint32(erref.STATUS_END_OF_FILE)
						r = &smb2.ErrorResponse{PacketHeader: hdr}
						break
					}
					data = srv.data[req.Offset():min(uint64(len(srv.data)), req.Offset()+uint64(req.Length()))]
				}
				r = &smb2.ReadResponse{PacketHeader: hdr, Data: data}
			case smb2.SMB2_CLOSE:
				r = &smb2.CloseResponse{PacketHeader: hdr, CreationTime: &smb2.Filetime{}, LastAccessTime: &smb2.Filetime{},
					LastWriteTime: &smb2.Filetime{}, ChangeTime: &smb2.Filetime{}}
			default:
				panic(fmt.Sprintf("command %d", p.Command()))
			}
			out := make([]byte, r.Size())
			r.Encode(out)
			smb2.PacketCodec(out).SetCommand(p.Command())
			if _, ok := r.(*smb2.ReadResponse); ok {
				out[64+2] = 80 // DataOffset from the packet's start
			}
			if _, err := tr.Write(out); err != nil {
				return
			}
			next := p.NextCommand()
			if next == 0 || int(next) >= len(msg) {
				break
			}
			msg = msg[next:]
		}
	}
}

// A file as long as the compound's one READ asks for is read again on its
// own. That read went through ReadFile, which allocates the size the
// server's CREATE response claims, unbounded: a server that says 1 PiB
// panicked the controller (makeslice), one that says a few hundred GiB
// ran it out of memory. ReadSmallFile, and with it a Batch's SmallRead,
// reads at most 1 MiB, whatever the server claims or sends (the NFS
// clients' bound, "not a metadata file"), and reads a smaller file whole.
func TestReadSmallFileReadsAtMostAMebibyte(t *testing.T) {
	record := make([]byte, 100<<10) // longer than one READ of a compound
	for i := range record {
		record[i] = byte(i % 251)
	}
	for _, tc := range []struct {
		name string
		srv  smallFileServer
		want []byte // nil: refused
	}{
		{"the server claims 1 PiB", smallFileServer{eof: 1 << 50, endless: true}, nil},
		{"the server claims 100 bytes and sends without end", smallFileServer{eof: 100, endless: true}, nil},
		{"the server claims a negative size and sends without end", smallFileServer{eof: -1, endless: true}, nil},
		{"a file of 100 KiB", smallFileServer{eof: int64(len(record)), data: record}, record},
		{"a file of 100 KiB the server says is empty", smallFileServer{data: record}, record},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clientConn, serverConn := net.Pipe()
			c, cleanup := newBenchConn(clientConn)
			defer cleanup()
			const sid = 0x77
			go tc.srv.serve(direct(serverConn), sid)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			fs := &Share{treeConn: &treeConn{session: &session{conn: c, sessionId: sid}, treeId: 1}, ctx: ctx}
			for _, read := range []struct {
				how string
				fn  func() ([]byte, error)
			}{
				// The connection lends one credit at first: too few for
				// a compound, and the read takes the path without one.
				{"ReadSmallFile, credits short of a compound", func() ([]byte, error) { return fs.ReadSmallFile("rec") }},
				{"ReadSmallFile", func() ([]byte, error) {
					c.account.settle(16, 16)
					return fs.ReadSmallFile("rec")
				}},
				{"Batch", func() ([]byte, error) {
					r := fs.Batch([]SmallOp{{Kind: SmallRead, Name: "rec"}})[0]
					return r.Data, r.Err
				}},
			} {
				data, err := func() (data []byte, err error) {
					defer func() {
						if r := recover(); r != nil {
							err = fmt.Errorf("panic: %v", r)
						}
					}()
					return read.fn()
				}()
				switch {
				case tc.want == nil && (err == nil || !strings.Contains(err.Error(), "larger than 1 MiB, not a metadata file")):
					t.Errorf("%s: %d bytes, %v; want refused, larger than 1 MiB", read.how, len(data), err)
				case tc.want != nil && (err != nil || string(data) != string(tc.want)):
					t.Errorf("%s: %d bytes, %v; want the file's %d", read.how, len(data), err, len(tc.want))
				}
			}
		})
	}
}
