package smb2

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/cloudsoda/go-smb2/internal/erref"
	"github.com/cloudsoda/go-smb2/internal/smb2"
)

// idServer is a server that resolves links for its clients: every path
// opens one file, with file ID id and data data (STATUS_END_OF_FILE from
// its end on). It answers QUERY_INFO of FileInternalInformation with id,
// and counts the messages it was sent (each one round trip) and the
// requests in them.
type idServer struct {
	id   uint64
	data []byte

	mu       sync.Mutex
	messages int
	requests []uint16
	reads    int
}

func (srv *idServer) count() (messages, requests, reads int) {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.messages, len(srv.requests), srv.reads
}

func (srv *idServer) serve(tr transport, sessionID uint64) {
	buf := make([]byte, bufSize)
	for {
		n, err := tr.ReadSize()
		if err != nil {
			return
		}
		if _, err := tr.Read(buf[:n]); err != nil {
			return
		}
		srv.mu.Lock()
		srv.messages++
		srv.mu.Unlock()
		msg := buf[:n]
		for {
			p := smb2.PacketCodec(msg)
			srv.mu.Lock()
			srv.requests = append(srv.requests, p.Command())
			srv.mu.Unlock()
			hdr := smb2.PacketHeader{Flags: smb2.SMB2_FLAGS_SERVER_TO_REDIR, SessionId: sessionID,
				MessageId: p.MessageId(), CreditRequestResponse: p.CreditRequest(), TreeId: 1}
			var r interface {
				Size() int
				Encode([]byte)
			}
			switch p.Command() {
			case smb2.SMB2_CREATE:
				r = &smb2.CreateResponse{PacketHeader: hdr, CreationTime: &smb2.Filetime{}, LastAccessTime: &smb2.Filetime{},
					LastWriteTime: &smb2.Filetime{}, ChangeTime: &smb2.Filetime{}, EndofFile: int64(len(srv.data)), FileId: &smb2.FileId{Volatile: [8]byte{1}}}
			case smb2.SMB2_QUERY_INFO:
				req := smb2.QueryInfoRequestDecoder(p.Data())
				if req.FileInfoClass() != smb2.FileInternalInformation {
					panic(fmt.Sprintf("QUERY_INFO of class %d", req.FileInfoClass()))
				}
				info := make([]byte, 8)
				binary.LittleEndian.PutUint64(info, srv.id)
				r = &smb2.QueryInfoResponse{PacketHeader: hdr, Output: rawInput(info)}
			case smb2.SMB2_READ:
				srv.mu.Lock()
				srv.reads++
				srv.mu.Unlock()
				req := smb2.ReadRequestDecoder(p.Data())
				if req.Offset() >= uint64(len(srv.data)) {
					hdr.Status = uint32(erref.STATUS_END_OF_FILE)
					r = &smb2.ErrorResponse{PacketHeader: hdr}
					break
				}
				r = &smb2.ReadResponse{PacketHeader: hdr, Data: srv.data[req.Offset():min(uint64(len(srv.data)), req.Offset()+uint64(req.Length()))]}
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

// idShare is a Share on a fresh idServer, with credits for a compound
// unless starved (the connection's first credit only).
func idShare(t *testing.T, srv *idServer, starved bool) *Share {
	t.Helper()
	clientConn, serverConn := net.Pipe()
	c, cleanup := newBenchConn(clientConn)
	t.Cleanup(cleanup)
	const sid = 0x77
	go srv.serve(direct(serverConn), sid)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	if !starved {
		c.account.settle(64, 64)
	}
	return &Share{treeConn: &treeConn{session: &session{conn: c, sessionId: sid}, treeId: 1}, ctx: ctx}
}

// A server that resolves links opens whatever a path leads to now: a
// directory swapped for a link after it was listed has another file
// answer for each of its names. OpenID reads the file a listing showed
// or nothing, in the round trip Open takes: its CREATE and the QUERY_INFO
// of the handle's ID are one message, and the handle stays open for the
// reads. Another file is closed unread (one more message, only then).
func TestOpenIDOpensTheListedFileOnlyInOpensRoundTrip(t *testing.T) {
	data := []byte("the listed file's data")
	t.Run("Open, the baseline", func(t *testing.T) {
		srv := &idServer{id: 7, data: data}
		fs := idShare(t, srv, false)
		f, err := fs.Open("d/f")
		if err != nil {
			t.Fatal(err)
		}
		if m, _, _ := srv.count(); m != 1 {
			t.Errorf("Open: %d messages, want 1", m)
		}
		_ = f.Close()
	})
	t.Run("the listed file", func(t *testing.T) {
		srv := &idServer{id: 7, data: data}
		fs := idShare(t, srv, false)
		f, err := fs.OpenID("d/f", 7)
		if err != nil {
			t.Fatal(err)
		}
		m, r, _ := srv.count()
		if m != 1 || r != 2 || srv.requests[0] != smb2.SMB2_CREATE || srv.requests[1] != smb2.SMB2_QUERY_INFO {
			t.Errorf("OpenID: %d messages with %v; want one message, CREATE and QUERY_INFO, as Open's one", m, srv.requests)
		}
		got, err := io.ReadAll(f)
		if err != nil || string(got) != string(data) {
			t.Errorf("read %q, %v; want %q", got, err, data)
		}
		if err := f.Close(); err != nil {
			t.Error(err)
		}
	})
	for _, starved := range []bool{false, true} {
		t.Run(fmt.Sprintf("another file, credits starved %v", starved), func(t *testing.T) {
			srv := &idServer{id: 8, data: []byte("another volume's secret")}
			fs := idShare(t, srv, starved)
			f, err := fs.OpenID("d/f", 7)
			if !errors.Is(err, ErrOtherFile) {
				t.Fatalf("OpenID of a file with ID 8 for 7: %v, want ErrOtherFile", err)
			}
			if f != nil {
				t.Error("a file was returned")
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			if last := srv.requests[len(srv.requests)-1]; last != smb2.SMB2_CLOSE || srv.reads != 0 {
				t.Errorf("requests %v, %d reads; want the handle closed unread", srv.requests, srv.reads)
			}
		})
	}
}

// A Batch's SmallRead with an ID checks it in its chain: CREATE,
// QUERY_INFO, READ, CLOSE, all the files in one message, as without the
// ID. Another file's data is never returned, nor its "empty" (a READ at
// its end answers STATUS_END_OF_FILE, which reads as an empty file).
func TestBatchReadWithIDReadsTheListedFilesInOneMessage(t *testing.T) {
	data := []byte("the listed file's data")
	ops := func(id uint64) []SmallOp {
		return []SmallOp{{Kind: SmallRead, Name: "d/a", ID: id}, {Kind: SmallRead, Name: "d/b", ID: id}, {Kind: SmallRead, Name: "d/c", ID: id}}
	}
	for _, tc := range []struct {
		name    string
		srv     *idServer
		starved bool
		id      uint64
		want    []byte // nil: ErrOtherFile
	}{
		{"without an ID", &idServer{id: 7, data: data}, false, 0, data},
		{"the listed files", &idServer{id: 7, data: data}, false, 7, data},
		{"the listed files, credits starved", &idServer{id: 7, data: data}, true, 7, data},
		{"other files", &idServer{id: 8, data: []byte("another volume's secret")}, false, 7, nil},
		{"other files, credits starved", &idServer{id: 8, data: []byte("another volume's secret")}, true, 7, nil},
		{"other, empty files", &idServer{id: 8}, false, 7, nil},
		{"the listed empty files", &idServer{id: 7}, false, 7, []byte{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := idShare(t, tc.srv, tc.starved)
			for i, r := range fs.Batch(ops(tc.id)) {
				switch {
				case tc.want == nil && (!errors.Is(r.Err, ErrOtherFile) || r.Data != nil):
					t.Errorf("file %d: %q, %v; want ErrOtherFile and no data", i, r.Data, r.Err)
				case tc.want != nil && (r.Err != nil || string(r.Data) != string(tc.want)):
					t.Errorf("file %d: %q, %v; want %q", i, r.Data, r.Err, tc.want)
				}
			}
			if tc.starved {
				return
			}
			m, _, _ := tc.srv.count()
			want := []uint16{smb2.SMB2_CREATE, smb2.SMB2_READ, smb2.SMB2_CLOSE}
			if tc.id != 0 {
				want = []uint16{smb2.SMB2_CREATE, smb2.SMB2_QUERY_INFO, smb2.SMB2_READ, smb2.SMB2_CLOSE}
			}
			tc.srv.mu.Lock()
			defer tc.srv.mu.Unlock()
			if m != 1 || len(tc.srv.requests) != 3*len(want) || fmt.Sprint(tc.srv.requests[:len(want)]) != fmt.Sprint(want) {
				t.Errorf("%d messages with %v; want one message of three chains %v", m, tc.srv.requests, want)
			}
		})
	}
}
