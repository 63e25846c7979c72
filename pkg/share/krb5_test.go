package share

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// retiringClient is a session whose ticket ends at a set time.
type retiringClient struct {
	countingClient
	at time.Time
}

func (c retiringClient) RetireAt() time.Time { return c.at }

// A session past its RetireAt is never lent again: the next call gets a
// fresh session (a fresh ticket), and the janitor closes the idle one.
func TestPoolRetiresSessionsBeforeTheirTicketEnds(t *testing.T) {
	var dialed, closed atomic.Int32
	retireAt := time.Now().Add(-time.Second) // the first session is due already
	p := &Pool{MaxOpenPerKey: 2, IdleTimeout: time.Hour, Dial: func(context.Context, source.Source, Credentials) (Client, error) {
		dialed.Add(1)
		c := retiringClient{countingClient{closed: &closed}, retireAt}
		retireAt = time.Now().Add(time.Hour)
		return c, nil
	}}
	defer p.Close()
	src := source.Source{Protocol: source.SMB, Host: "h", Share: "s", Auth: source.AuthKrb5}
	creds := Credentials{Principal: "u@R", Keytab: "kt"}
	l, err := p.Get(context.Background(), src, creds)
	if err != nil {
		t.Fatal(err)
	}
	l.Release(nil)
	if p.GetIdle(src) != nil {
		t.Fatal("GetIdle lent a session past its RetireAt")
	}
	l, err = p.Get(context.Background(), src, creds)
	if err != nil {
		t.Fatal(err)
	}
	if l.Reused || dialed.Load() != 2 || closed.Load() != 1 {
		t.Fatalf("reused %v, dialed %d, closed %d: want a fresh session and the due one closed", l.Reused, dialed.Load(), closed.Load())
	}
	l.Release(nil)
	l, _ = p.Get(context.Background(), src, creds)
	if !l.Reused {
		t.Fatal("a session with a long ticket was not reused")
	}
	l.Release(nil)

	// The janitor's rule closes idle sessions that are due.
	retireAt = time.Now().Add(-time.Second)
	p.mu.Lock()
	for _, ks := range p.keys {
		for i := range ks.idle {
			ks.idle[i].c = retiringClient{countingClient{closed: &closed}, retireAt}
		}
	}
	p.mu.Unlock()
	now := time.Now()
	p.closeIdle(func(ic idleClient) bool { return retired(ic.c, now) })
	if closed.Load() != 2 {
		t.Fatalf("closed %d, want the due idle session closed too", closed.Load())
	}
}

// The class's auth and encryption are part of the share's key: a session an
// NTLM class opened is never lent to a krb5 one, nor a session of a class
// that does not require encryption to one that does.
func TestPoolKeepsAuthAndEncryptionApart(t *testing.T) {
	base := source.Source{Protocol: source.SMB, Host: "h", Share: "s"}
	krb := base
	krb.Auth = source.AuthKrb5
	enc := base
	enc.Encryption = source.EncryptionRequired
	creds := Credentials{Username: "u", Password: "p", Principal: "u@R"}
	keys := map[string]bool{poolKey(base, creds): true, poolKey(krb, creds): true, poolKey(enc, creds): true}
	if len(keys) != 3 {
		t.Fatal("auth or encryption does not change the pool key")
	}
	// A rotated keytab is another key for the same user: it supersedes.
	rotated := creds
	rotated.Keytab = "new"
	if poolKey(krb, creds) == poolKey(krb, rotated) || userKey(krb, creds) != userKey(krb, rotated) {
		t.Fatal("a rotated keytab must make a new key for the same user")
	}
}

func smbSrc(a source.Auth) source.Source {
	return source.Source{Protocol: source.SMB, Host: "fs.example.test", Share: "s", Auth: a}
}

func TestInitiatorChoice(t *testing.T) {
	defer func(p string) { Krb5ConfigPath = p }(Krb5ConfigPath)
	Krb5ConfigPath = "/nonexistent/krb5.conf"
	userPass := Credentials{Username: "u", Password: "p", Domain: "D"}
	both := Credentials{Username: "u", Password: "p", Principal: "u@EXAMPLE.TEST"}
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
	if init, _, err := smbInitiator(ctx, smbSrc(source.AuthKrb5), both); init != nil || !errors.Is(err, ErrPrecondition) || !strings.Contains(err.Error(), "krb5.conf") {
		t.Errorf("krb5 without a krb5.conf: %T, %v", init, err)
	}
	// negotiate: NTLM when Kerberos cannot be had and the Secret has a user.
	if init, _, err := smbInitiator(ctx, smbSrc(source.AuthNegotiate), both); err != nil {
		t.Errorf("negotiate: %v", err)
	} else if _, ok := init.(*smb2.NTLMInitiator); !ok {
		t.Errorf("negotiate without a realm: %T, want NTLM", init)
	}
	if init, _, err := smbInitiator(ctx, smbSrc(source.AuthNegotiate), Credentials{Principal: "u@R", Password: "p"}); init != nil || !errors.Is(err, ErrPrecondition) {
		t.Errorf("negotiate with Kerberos only and no realm: %T, %v", init, err)
	}
	// A keytab that is not one is refused without quoting it.
	bad := Credentials{Principal: "u@EXAMPLE.TEST", Keytab: "not-a-keytab-SECRET", Krb5Conf: "[libdefaults]\n default_realm = EXAMPLE.TEST\n"}
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
	if !errors.Is(err, ErrUnavailable) || errors.Is(err, fs.ErrPermission) || !c.Broken() {
		t.Fatalf("%v (broken %v): want Unavailable and the session dropped", err, c.Broken())
	}
}

// HasLoginFor tells a Secret made for another class's auth from one the
// share could log in with, whatever the server then says.
func TestHasLoginFor(t *testing.T) {
	userPass := Credentials{Username: "u", Password: "p"}
	krb := Credentials{Principal: "u@R", Keytab: "kt"}
	for _, c := range []struct {
		auth  source.Auth
		creds Credentials
		want  bool
	}{
		{"", userPass, true},
		{source.AuthNTLM, userPass, true},
		{source.AuthNTLM, krb, false},
		{source.AuthKrb5, krb, true},
		{source.AuthKrb5, Credentials{Principal: "u@R"}, false},
		{source.AuthKrb5, userPass, false},
		{source.AuthNegotiate, krb, true},
		{source.AuthNegotiate, userPass, true},
		{source.AuthNegotiate, Credentials{}, false},
	} {
		if got := HasLoginFor(smbSrc(c.auth), c.creds); got != c.want {
			t.Errorf("auth %q with principal %q, username %q: %v, want %v", c.auth, c.creds.Principal, c.creds.Username, got, c.want)
		}
	}
	nfs, err := source.Parse("nfs://nas.example.com/export")
	if err != nil {
		t.Fatal(err)
	}
	if !HasLoginFor(nfs, Credentials{}) {
		t.Error("NFS needs no credentials")
	}
}
