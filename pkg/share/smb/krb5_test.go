package smb

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"net"
	"strings"
	"testing"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

func TestInitiatorChoice(t *testing.T) {
	defer func(p string) { Krb5ConfigPath = p }(Krb5ConfigPath)
	Krb5ConfigPath = "/nonexistent/krb5.conf"
	smbSrc := func(a source.Auth) source.Source {
		return source.Source{Protocol: source.SMB, Host: "fs.example.test", Share: "s", Auth: a}
	}
	userPass := share.Credentials{Username: "u", Password: "p", Domain: "D"}
	both := share.Credentials{Username: "u", Password: "p", Principal: "u@EXAMPLE.TEST"}
	ctx := context.Background()

	for _, a := range []source.Auth{"", source.AuthNTLM} {
		init, _, err := smbInitiator(ctx, smbSrc(a), userPass)
		if _, ok := init.(*smb2.NTLMInitiator); !ok || err != nil {
			t.Errorf("auth %q: %T, %v; want NTLM", a, init, err)
		}
	}
	// krb5 without a Kerberos identity, or without a realm to reach, fails:
	// it never falls back to NTLM, though the Secret would allow it.
	if init, _, err := smbInitiator(ctx, smbSrc(source.AuthKrb5), userPass); init != nil || !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "principal") {
		t.Errorf("krb5 with username and password only: %T, %v", init, err)
	}
	if init, _, err := smbInitiator(ctx, smbSrc(source.AuthKrb5), both); init != nil || !errors.Is(err, share.ErrPrecondition) || !strings.Contains(err.Error(), "krb5.conf") {
		t.Errorf("krb5 without a krb5.conf: %T, %v", init, err)
	}
	// negotiate: NTLM when Kerberos cannot be had and the Secret has a user.
	if init, _, err := smbInitiator(ctx, smbSrc(source.AuthNegotiate), both); err != nil {
		t.Errorf("negotiate: %v", err)
	} else if _, ok := init.(*smb2.NTLMInitiator); !ok {
		t.Errorf("negotiate without a realm: %T, want NTLM", init)
	}
	if init, _, err := smbInitiator(ctx, smbSrc(source.AuthNegotiate), share.Credentials{Principal: "u@R", Password: "p"}); init != nil || !errors.Is(err, share.ErrPrecondition) {
		t.Errorf("negotiate with Kerberos only and no realm: %T, %v", init, err)
	}
	// A keytab that is not one is refused without quoting it.
	bad := share.Credentials{Principal: "u@EXAMPLE.TEST", Keytab: "not-a-keytab-SECRET", Krb5Conf: "[libdefaults]\n default_realm = EXAMPLE.TEST\n"}
	if _, _, err := smbInitiator(ctx, smbSrc(source.AuthKrb5), bad); !errors.Is(err, fs.ErrPermission) || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("bad keytab: %v", err)
	}
}

// frame is one direct-TCP frame holding an SMB2 message that starts with id.
func frame(id byte, n int) []byte {
	b := make([]byte, 4+n)
	binary.BigEndian.PutUint32(b, uint32(n))
	b[4] = id
	copy(b[5:], "SMB")
	return b
}

type sinkConn struct {
	net.Conn
	buf    bytes.Buffer
	closed bool
}

func (s *sinkConn) Write(b []byte) (int, error) { return s.buf.Write(b) }
func (s *sinkConn) Len() int                    { return s.buf.Len() }
func (s *sinkConn) Close() error                { s.closed = true; return nil }

func TestSealConnRefusesClearMessagesOnceEnforced(t *testing.T) {
	sink := &sinkConn{}
	c := &sealConn{Conn: sink}
	// Before enforcement (negotiate, session setup) clear frames pass,
	// written as go-smb2 writes them: length, then message.
	for _, f := range [][]byte{frame(0xFE, 64), frame(0xFE, 5)} {
		if _, err := c.Write(f[:4]); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Write(f[4:]); err != nil {
			t.Fatal(err)
		}
	}
	c.enforce = true
	// Encrypted frames pass, in any cut.
	enc := append(frame(0xFD, 100), frame(0xFD, 7)...)
	for i := 0; i < len(enc); i += 3 {
		if _, err := c.Write(enc[i:min(i+3, len(enc))]); err != nil {
			t.Fatalf("encrypted frame refused at byte %d: %v", i, err)
		}
	}
	before := sink.Len()
	f := frame(0xFE, 40)
	if _, err := c.Write(f[:4]); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write(f[4:]); !errors.Is(err, errNotSealed) || !sink.closed || !c.refused {
		t.Fatalf("clear message: %v, closed %v", err, sink.closed)
	}
	if sink.Len() != before+4 {
		t.Fatalf("%d bytes of the clear message left", sink.Len()-before-4)
	}
}

// A server that expires a Kerberos session answers STATUS_NETWORK_SESSION_
// EXPIRED: the session is dropped and the error is the retryable
// Unavailable, never a credentials error.
func TestExpiredSessionIsUnavailableAndDropped(t *testing.T) {
	c := &smbClient{}
	err := c.wrap(context.Background(), "mkdir", "v", &smb2.ResponseError{Code: 0xC000035C})
	if !errors.Is(err, share.ErrUnavailable) || errors.Is(err, fs.ErrPermission) || !c.Broken() {
		t.Fatalf("%v (broken %v): want Unavailable and the session dropped", err, c.Broken())
	}
}
