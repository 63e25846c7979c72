//go:build linux

package integration

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// A session on a dialect before SMB 3.1.1 has no preauth integrity: the
// controller's SMB library has the server confirm the NEGOTIATE with a
// signed FSCTL_VALIDATE_NEGOTIATE_INFO after the first tree connect
// (third_party/go-smb2/fileshare_validate.go). Against the suite's smbd,
// which serves 2.1 up to 3.1.1, the client offers one dialect alone, so the
// session is on it: the confirmation is taken, and a NEGOTIATE response
// changed on the way (a man in the middle flipping a byte of the server's
// GUID, which nothing else checks) ends the connection at the mount. That
// Samba's answer is one to compare, not a "not supported" the client lets
// through, is what the second half shows.
func TestValidateNegotiateWithSamba(t *testing.T) {
	server := fmt.Sprintf("127.0.0.1:%d", smbPort)
	for _, d := range []struct {
		name    string
		dialect uint16 // MS-SMB2 2.2.3; the library exports no names for them
	}{{"2.1", 0x0210}, {"3.0", 0x0300}, {"3.0.2", 0x0302}} {
		t.Run(d.name, func(t *testing.T) {
			if err := mountOn(t, server, d.dialect); err != nil {
				t.Fatalf("a %s session on Samba: %v", d.name, err)
			}
			proxy := manInTheMiddle(t, server, false, func(msg []byte) {
				// The NEGOTIATE response: ServerGuid is at 8.
				msg[64+8] ^= 1
			})
			err := mountOn(t, proxy, d.dialect)
			if err == nil {
				t.Fatal("the mount took a NEGOTIATE response changed on the way")
			}
			if !strings.Contains(err.Error(), "server GUID") {
				t.Errorf("%v; want it to name the server GUID", err)
			}
		})
	}
	// The downgrade the check is for: every SMB 3 dialect taken out of
	// what the client offers (the request keeps its length), so Samba
	// picks 2.1, which never encrypts. Samba compares the dialects the
	// signed request repeats with those it received and drops the
	// connection.
	t.Run("every SMB 3 dialect stripped", func(t *testing.T) {
		if err := mountOn(t, server, 0); err != nil {
			t.Fatalf("a session on Samba offering every dialect: %v", err)
		}
		proxy := manInTheMiddle(t, server, true, func(msg []byte) {
			// The NEGOTIATE request: DialectCount at 2, Dialects at 36.
			count := int(binary.LittleEndian.Uint16(msg[64+2:]))
			for i := 0; i < count && 64+36+2*i+2 <= len(msg); i++ {
				if d := msg[64+36+2*i:]; binary.LittleEndian.Uint16(d) >= 0x0300 {
					binary.LittleEndian.PutUint16(d, 0x0210)
				}
			}
		})
		err := mountOn(t, proxy, 0)
		if err == nil {
			t.Fatal("the mount took a session whose SMB 3 dialects were stripped on the way")
		}
		if !strings.Contains(err.Error(), "connection ended") {
			t.Errorf("%v; want the connection ended by the server", err)
		}
	})
}

// mountOn logs in to addr as the controller does (signing required, the
// suite's user) offering dialect alone, mounts the share and looks at its
// root.
func mountOn(t *testing.T, addr string, dialect uint16) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	d := &smb2.Dialer{
		Negotiator: smb2.Negotiator{RequireMessageSigning: true, SpecifiedDialect: dialect},
		Initiator:  &smb2.NTLMInitiator{User: localservers.SMBUser, Password: localservers.SMBPassword},
	}
	s, err := d.DialConn(ctx, conn, addr)
	if err != nil {
		return fmt.Errorf("dial: %w", err)
	}
	sh, err := s.WithContext(ctx).Mount(localservers.SMBShare)
	if err != nil {
		return fmt.Errorf("mount: %w", err)
	}
	if _, err := sh.WithContext(ctx).Stat("."); err != nil {
		return fmt.Errorf("stat: %w", err)
	}
	return nil
}

// manInTheMiddle is a proxy on loopback for one connection to server: edit
// changes the first message of the client (fromClient: its NEGOTIATE
// request) or of the server (its NEGOTIATE response), SMB2 header
// included, and everything else passes unchanged.
func manInTheMiddle(t *testing.T, server string, fromClient bool, edit func(msg []byte)) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lis.Close() })
	go func() {
		client, err := lis.Accept()
		if err != nil {
			return
		}
		defer client.Close()
		srv, err := net.Dial("tcp", server)
		if err != nil {
			return
		}
		defer srv.Close()
		from, to := srv, client
		if fromClient {
			from, to = client, srv
		}
		go func() {
			_, _ = io.Copy(from, to)
			from.Close()
		}()
		// The first frame: a 4-byte direct TCP header, then the SMB2
		// header (64 bytes) and the NEGOTIATE.
		var hdr [4]byte
		if _, err := io.ReadFull(from, hdr[:]); err != nil {
			return
		}
		msg := make([]byte, binary.BigEndian.Uint32(hdr[:])&0xffffff)
		if _, err := io.ReadFull(from, msg); err != nil || len(msg) < 64+36 {
			return
		}
		edit(msg)
		if _, err := to.Write(append(hdr[:], msg...)); err != nil {
			return
		}
		_, _ = io.Copy(to, from)
	}()
	return lis.Addr().String()
}
