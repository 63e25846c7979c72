package smb2

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cloudsoda/go-smb2/internal/erref"
	"github.com/cloudsoda/go-smb2/internal/smb2"
)

// validateRequestMatches is the loginServer's check of a
// VALIDATE_NEGOTIATE_INFO request ir (body data) against the NEGOTIATE
// request it received (MS-SMB2 3.3.5.15.12), and of the request's form:
// no file, an FSCTL, room for the answer.
func validateRequestMatches(ir smb2.IoctlRequestDecoder, data []byte, got *smb2.NegotiateRequest) bool {
	fid := ir.FileId()
	if !bytes.Equal(fid.Persistent(), sentinelFileId.Persistent[:]) || !bytes.Equal(fid.Volatile(), sentinelFileId.Volatile[:]) ||
		ir.Flags() != smb2.SMB2_0_IOCTL_IS_FSCTL || ir.MaxOutputResponse() < 24 {
		return false
	}
	off, n := int(ir.InputOffset())-64, int(ir.InputCount())
	if off < 0 || n < 24 || off+n > len(data) {
		return false
	}
	in := data[off : off+n]
	count := int(binary.LittleEndian.Uint16(in[22:24]))
	if n != 24+2*count {
		return false
	}
	dialects := make([]uint16, count)
	for i := range dialects {
		dialects[i] = binary.LittleEndian.Uint16(in[24+2*i:])
	}
	return binary.LittleEndian.Uint32(in[0:4]) == got.Capabilities &&
		bytes.Equal(in[4:20], got.ClientGuid[:]) &&
		binary.LittleEndian.Uint16(in[20:22]) == got.SecurityMode &&
		slices.Equal(dialects, got.Dialects)
}

// dialMount dials srv with neg and NTLM, and mounts a share: it returns
// the session (nil when the dial failed) and the first error. The
// connection is closed at the test's end.
func dialMount(t *testing.T, srv *loginServer, neg Negotiator) (*Session, error) {
	t.Helper()
	clientConn, serverConn := net.Pipe()
	srv.stats = &loginStats{done: make(chan struct{})}
	go srv.serve(direct(serverConn))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(func() {
		cancel()
		clientConn.Close()
		serverConn.Close()
	})
	d := &Dialer{Negotiator: neg, Initiator: &NTLMInitiator{User: "u", Password: "p"}}
	s, err := d.DialConn(ctx, clientConn, "srv")
	if err != nil {
		return nil, err
	}
	s = s.WithContext(ctx)
	_, err = s.Mount("share")
	return s, err
}

var signingRequired = Negotiator{RequireMessageSigning: true}

// On every dialect before 3.1.1 the client has the server confirm the NEGOTIATE
// after the first tree connect, and takes the server's signed (or
// encrypted) confirmation: the connection then works. It asks once per
// connection, however many shares it mounts.
func TestValidateNegotiateTakesTheServersConfirmation(t *testing.T) {
	for _, tc := range []struct {
		name string
		srv  loginServer
		neg  Negotiator
	}{
		{"3.0.2", loginServer{dialect: smb2.SMB302, finalSig: "none"}, signingRequired},
		{"3.0", loginServer{dialect: smb2.SMB300, finalSig: "none"}, signingRequired},
		{"2.1", loginServer{dialect: smb2.SMB210, finalSig: "none"}, signingRequired},
		{"2.0.2", loginServer{dialect: smb2.SMB202, finalSig: "none"}, signingRequired},
		{"3.0.2, the server requires signing", loginServer{dialect: smb2.SMB302, finalSig: "good", signingReq: true}, signingRequired},
		{"3.0.2, an encrypted session", loginServer{dialect: smb2.SMB302, finalSig: "good", finalFlags: smb2.SMB2_SESSION_FLAG_ENCRYPT_DATA}, signingRequired},
		{"3.0.2, an encrypted share", loginServer{dialect: smb2.SMB302, finalSig: "good", shareFlags: smb2.SMB2_SHAREFLAG_ENCRYPT_DATA}, signingRequired},
		// A client that does not require signing signs this request all
		// the same, and takes a signed answer.
		{"3.0.2, signing not required", loginServer{dialect: smb2.SMB302, finalSig: "none"}, Negotiator{}},
		{"3.0.2, the client offers 3.0.2 alone", loginServer{dialect: smb2.SMB302, finalSig: "none"}, Negotiator{RequireMessageSigning: true, SpecifiedDialect: smb2.SMB302}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.srv
			s, err := dialMount(t, &srv, tc.neg)
			if err != nil {
				t.Fatalf("the mount failed: %v", err)
			}
			if _, err := s.Mount("other"); err != nil {
				t.Fatalf("a second mount failed: %v", err)
			}
			if err := s.Echo(); err != nil {
				t.Fatalf("the connection does not work after the validation: %v", err)
			}
			if n := srv.stats.validates.Load(); n != 1 {
				t.Errorf("%d FSCTL_VALIDATE_NEGOTIATE_INFO requests on one connection; want 1", n)
			}
		})
	}
	// dialLogin's requests on the share go through too.
	if err := dialLogin(t, &loginServer{dialect: smb2.SMB302, finalSig: "none"}); err != nil {
		t.Errorf("3.0.2: %v", err)
	}
}

// A NEGOTIATE changed on the way, an answer the client cannot trust or a
// refusal ends the connection at the first mount, with an error that says
// what differed, and nothing more is sent on it.
func TestValidateNegotiateRefusesAChangedNegotiate(t *testing.T) {
	for _, tc := range []struct {
		name string
		srv  loginServer
		neg  Negotiator
		want string
	}{
		// A man in the middle changed the server's NEGOTIATE response;
		// the server's signed answer says what it really sent.
		{"the dialect changed (3.0.2 to 3.0)", loginServer{dialect: smb2.SMB302, finalSig: "none",
			tamper: func(r *smb2.NegotiateResponse) { r.DialectRevision = smb2.SMB300 }}, signingRequired, "dialect 0x0302 (the negotiate said 0x0300)"},
		{"the capabilities changed (encryption removed)", loginServer{dialect: smb2.SMB302, finalSig: "none",
			tamper: func(r *smb2.NegotiateResponse) { r.Capabilities &^= smb2.SMB2_GLOBAL_CAP_ENCRYPTION }}, signingRequired, "capabilities"},
		{"the security mode changed (signing no longer required)", loginServer{dialect: smb2.SMB302, finalSig: "none", signingReq: true,
			tamper: func(r *smb2.NegotiateResponse) { r.SecurityMode &^= smb2.SMB2_NEGOTIATE_SIGNING_REQUIRED }}, signingRequired, "security mode 0x3 (the negotiate said 0x1)"},
		{"the server GUID changed", loginServer{dialect: smb2.SMB300, finalSig: "none",
			tamper: func(r *smb2.NegotiateResponse) { r.ServerGuid[0] ^= 1 }}, signingRequired, "server GUID"},
		// A man in the middle changed the client's NEGOTIATE request
		// (3.1.1 stripped): the server drops the connection.
		{"the client's dialects changed (3.1.1 stripped)", loginServer{dialect: smb2.SMB302, finalSig: "none",
			received: []uint16{smb2.SMB302, smb2.SMB300, smb2.SMB210, smb2.SMB202}}, signingRequired, "connection ended"},
		{"the client's dialects changed (every SMB 3 dialect stripped)", loginServer{dialect: smb2.SMB210, finalSig: "none",
			received: []uint16{smb2.SMB210, smb2.SMB202}}, signingRequired, "connection ended"},
		{"the dialect changed (2.1 to 2.0.2)", loginServer{dialect: smb2.SMB210, finalSig: "none",
			tamper: func(r *smb2.NegotiateResponse) { r.DialectRevision = smb2.SMB202 }}, signingRequired, "dialect 0x0210 (the negotiate said 0x0202)"},
		// An answer anyone could have sent.
		{"an unsigned answer, signing required", loginServer{dialect: smb2.SMB302, finalSig: "none", vnUnsigned: true}, signingRequired, "signature"},
		{"an unsigned answer, signing not required", loginServer{dialect: smb2.SMB302, finalSig: "none", vnUnsigned: true}, Negotiator{}, "neither signed nor encrypted"},
		{"an unsigned answer on an encrypted session", loginServer{dialect: smb2.SMB302, finalSig: "good", finalFlags: smb2.SMB2_SESSION_FLAG_ENCRYPT_DATA, vnUnsigned: true}, Negotiator{}, "neither signed nor encrypted"},
		{"an unsigned 'not supported'", loginServer{dialect: smb2.SMB302, finalSig: "none", vnUnsigned: true, vnStatus: erref.STATUS_NOT_SUPPORTED}, Negotiator{}, "neither signed nor encrypted"},
		// Errors the client does not take (see notImplemented).
		{"access denied", loginServer{dialect: smb2.SMB302, finalSig: "none", vnStatus: erref.STATUS_ACCESS_DENIED}, signingRequired, "0xc0000022"},
		{"invalid parameter", loginServer{dialect: smb2.SMB302, finalSig: "none", vnStatus: erref.STATUS_INVALID_PARAMETER}, signingRequired, "0xc000000d"},
		{"an answer a byte short", loginServer{dialect: smb2.SMB302, finalSig: "none", vnShort: true}, signingRequired, "23 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.srv
			s, err := dialMount(t, &srv, tc.neg)
			if s == nil {
				t.Fatalf("the dial failed: %v", err)
			}
			if err == nil {
				t.Fatal("the mount succeeded; want the connection refused")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v; want an error saying %q", err, tc.want)
			}
			var ie *InvalidResponseError
			var te *TransportError
			if !errors.As(err, &ie) && !errors.As(err, &te) {
				t.Errorf("%T %v; want an InvalidResponseError or a TransportError (a broken connection to the controller)", err, err)
			}
			// The connection is ended: nothing more goes out, and the
			// next request fails at once.
			select {
			case <-srv.stats.done:
			case <-time.After(5 * time.Second):
				t.Fatal("the client did not close the connection")
			}
			sent := srv.stats.requests.Load()
			if _, err := s.Mount("share"); err == nil {
				t.Error("a mount after the refusal succeeded")
			}
			if err := s.Echo(); err == nil {
				t.Error("an echo after the refusal succeeded")
			} else if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("an echo after the refusal: %v; want it to say %q", err, tc.want)
			}
			if n := srv.stats.requests.Load(); n != sent {
				t.Errorf("%d requests reached the server after the refusal", n-sent)
			}
		})
	}
}

// A server that does not implement the FSCTL says so with one of the
// statuses of notImplemented; signed, the client takes it and the
// connection works.
func TestValidateNegotiateTakesASignedNotImplemented(t *testing.T) {
	for _, status := range notImplemented {
		for _, neg := range []Negotiator{signingRequired, {}} {
			srv := loginServer{dialect: smb2.SMB302, finalSig: "none", vnStatus: status}
			s, err := dialMount(t, &srv, neg)
			if err != nil {
				t.Errorf("%#08x, signing required %v: %v", uint32(status), neg.RequireMessageSigning, err)
				continue
			}
			if err := s.Echo(); err != nil {
				t.Errorf("%#08x: the connection does not work afterwards: %v", uint32(status), err)
			}
		}
	}
}

// SMB 3.1.1 proves its NEGOTIATE with preauth integrity and sends no
// FSCTL (a 3.1.1 server drops a connection that does, and it would cost
// every dial a round trip); a guest session, which cannot sign, sends none
// either.
func TestValidateNegotiateIsNotSentOn311OrAsGuest(t *testing.T) {
	for _, tc := range []struct {
		name string
		srv  loginServer
		neg  Negotiator
	}{
		{"3.1.1", loginServer{dialect: smb2.SMB311, cipher: smb2.AES128GCM, finalSig: "good"}, signingRequired},
		{"3.1.1, encrypted", loginServer{dialect: smb2.SMB311, cipher: smb2.AES128GCM, finalSig: "good", finalFlags: smb2.SMB2_SESSION_FLAG_ENCRYPT_DATA}, signingRequired},
		// A guest cannot sign: a client that does not require signing
		// takes the session, and does not ask.
		{"3.0.2, a guest session", loginServer{dialect: smb2.SMB302, finalSig: "none", finalFlags: smb2.SMB2_SESSION_FLAG_IS_GUEST}, Negotiator{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.srv
			s, err := dialMount(t, &srv, tc.neg)
			if err != nil {
				t.Fatalf("the mount failed: %v", err)
			}
			if err := s.Echo(); err != nil {
				t.Fatal(err)
			}
			if n := srv.stats.ioctls.Load(); n != 0 {
				t.Errorf("%d IOCTL requests; want none", n)
			}
		})
	}
}
