package smb

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"net"
	"strconv"
	"testing"
	"time"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// The controller's sessions require signing whatever the server asks: the
// NEGOTIATE it sends says SIGNING_REQUIRED. With a server that does not
// require it, the library signed nothing but the tree connect and took any
// reply not marked signed, so anyone on the path could change what a
// session that is not encrypted asked or was told, and send clear replies
// on one that is; and it took a login the server made a guest's (the
// go-smb2 tests, fileshare_integrity_test.go, show both refused once
// signing is required).
func TestSMBSessionsRequireSigning(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// Each connection's first direct-TCP frame: a 4-byte length, then
	// the NEGOTIATE request, whose SecurityMode follows the 64-byte header
	// and the 2-byte StructureSize and DialectCount.
	got := make(chan uint16, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			var head [4]byte
			if _, err := io.ReadFull(c, head[:]); err == nil {
				msg := make([]byte, binary.BigEndian.Uint32(head[:])&0xffffff)
				if _, err := io.ReadFull(c, msg); err == nil && len(msg) >= 70 {
					got <- binary.LittleEndian.Uint16(msg[68:70])
				}
			}
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	p, _ := strconv.Atoi(port)
	for _, enc := range []source.Encryption{"", source.EncryptionOff, source.EncryptionRequired} {
		src := source.Source{Protocol: source.SMB, Host: "127.0.0.1", Port: p, Share: "s", Encryption: enc}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		go func() { _, _ = dialSMB(ctx, src, share.Credentials{Username: "u", Password: "p"}) }()
		select {
		case mode := <-got:
			if mode&0x2 == 0 { // SMB2_NEGOTIATE_SIGNING_REQUIRED
				t.Errorf("encryption %q: the NEGOTIATE's SecurityMode is %#x; want SIGNING_REQUIRED", enc, mode)
			}
		case <-ctx.Done():
			t.Fatal("no NEGOTIATE came")
		}
		cancel()
	}
}

// A login the server made a guest's is the Secret's credentials refused,
// not a server that is unavailable.
func TestAGuestLoginIsPermissionDenied(t *testing.T) {
	src := source.Source{Protocol: source.SMB, Host: "fs.example.test", Share: "s"}
	err := smbDialError(context.Background(), src, smb2.ErrGuestSession)
	if !errors.Is(err, fs.ErrPermission) || errors.Is(err, share.ErrUnavailable) {
		t.Fatalf("%v; want PermissionDenied", err)
	}
}
