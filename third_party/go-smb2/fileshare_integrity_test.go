package smb2

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cloudsoda/go-smb2/internal/crypto/ccm"
	"github.com/cloudsoda/go-smb2/internal/crypto/cmac"
	"github.com/cloudsoda/go-smb2/internal/erref"
	"github.com/cloudsoda/go-smb2/internal/ntlm"
	"github.com/cloudsoda/go-smb2/internal/smb2"
	"github.com/cloudsoda/go-smb2/internal/spnego"
)

// loginServer is a server, or a man in the middle, for the whole of a
// dial: NEGOTIATE, an NTLM SESSION_SETUP in two legs (user u, password p),
// TREE_CONNECT and ECHO. Its answers can be made to lie as a network
// attacker would make them lie: flags the server did not set, a final
// session setup response with a signature that does not verify, replies
// in the clear to encrypted requests.
type loginServer struct {
	dialect    uint16
	signingReq bool   // the negotiate response's SIGNING_REQUIRED
	cipher     uint16 // the 3.1.1 cipher context's; 0 leaves it out
	noPreauth  bool   // leave the 3.1.1 preauth integrity context out
	finalFlags uint16 // the session flags of the final session setup response
	finalSig   string // final session setup response: "good", "bad" or "none"
	shareFlags uint32
	// clear answers every request after the login in the clear and
	// unsigned, as an attacker who can neither decrypt nor sign does.
	clear bool
	// echoes counts the ECHO requests answered.
	echoes chan struct{}

	// FSCTL_VALIDATE_NEGOTIATE_INFO (fileshare_validate_test.go). The
	// server answers it as MS-SMB2 3.3.5.15.12 says, from what it sent and
	// received; a man in the middle changes what the client gets and what
	// the server gets:
	//   - tamper changes the NEGOTIATE response on its way to the client;
	//   - received replaces the dialects the server got from the client.
	tamper   func(*smb2.NegotiateResponse)
	received []uint16
	// vnStatus is the status the server answers the FSCTL with (a server
	// that does not implement it); vnUnsigned sends its answer neither
	// signed nor encrypted; vnShort leaves the answer's last byte out.
	vnStatus   erref.NtStatus
	vnUnsigned bool
	vnShort    bool
	// stats, when set, counts what the server saw.
	stats *loginStats
}

// loginStats is what a loginServer saw: ioctls counts the IOCTL requests,
// validates those that were FSCTL_VALIDATE_NEGOTIATE_INFO, requests all
// requests; done is closed when the server stops reading (the client
// closed the connection, or the server dropped it).
type loginStats struct {
	ioctls, validates, requests atomic.Int32
	done                        chan struct{}
}

// loginServerGuid is the loginServer's ServerGuid.
var loginServerGuid = [16]byte{0x5e, 0x4e, 0x0e, 0x4f, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}

// loginCapabilities are the loginServer's capabilities.
const loginCapabilities = smb2.SMB2_GLOBAL_CAP_ENCRYPTION | smb2.SMB2_GLOBAL_CAP_LEASING

const loginSessionID = 0x4411

func (srv *loginServer) serve(tr transport) {
	st := srv.stats
	if st == nil {
		st = &loginStats{}
	}
	if st.done != nil {
		defer close(st.done)
	}
	// A server that stops serving drops the connection.
	defer tr.Close()
	var h [64]byte
	// What the server received from the client in the NEGOTIATE, and what
	// it answered (before any tamper).
	var got smb2.NegotiateRequest
	var sent smb2.NegotiateResponse
	preauth := func(b []byte) {
		x := sha512.New()
		x.Write(h[:])
		x.Write(b)
		x.Sum(h[:0])
	}
	ns := ntlm.NewServer("srv")
	ns.AddAccount("u", "p")
	var keys *session // the server's signer, and encrypter for its replies
	var dec cipher.AEAD
	legs := 0
	for {
		n, err := tr.ReadSize()
		if err != nil {
			return
		}
		pkt := make([]byte, n)
		if _, err := tr.Read(pkt); err != nil {
			return
		}
		encrypted := false
		if smb2.PacketCodec(pkt).IsInvalid() && dec != nil {
			t := smb2.TransformCodec(pkt)
			c := append(append([]byte{}, t.EncryptedData()...), t.Signature()...)
			if pkt, err = dec.Open(c[:0], t.Nonce(dec.NonceSize()), c, t.AssociatedData()); err != nil {
				return
			}
			encrypted = true
		}
		p := smb2.PacketCodec(pkt)
		st.requests.Add(1)
		unsigned := false
		hdr := smb2.PacketHeader{Flags: smb2.SMB2_FLAGS_SERVER_TO_REDIR, MessageId: p.MessageId(),
			CreditRequestResponse: max(1, p.CreditRequest()), SessionId: loginSessionID, TreeId: p.TreeId()}
		var out []byte
		encode := func(r interface {
			Size() int
			Encode([]byte)
		}) {
			out = make([]byte, r.Size())
			r.Encode(out)
		}
		switch p.Command() {
		case smb2.SMB2_NEGOTIATE:
			hdr.SessionId = 0
			nr := smb2.NegotiateRequestDecoder(p.Data())
			got = smb2.NegotiateRequest{SecurityMode: nr.SecurityMode(), Capabilities: nr.Capabilities(), Dialects: nr.Dialects()}
			copy(got.ClientGuid[:], nr.ClientGuid())
			if srv.received != nil {
				got.Dialects = srv.received
			}
			r := &smb2.NegotiateResponse{PacketHeader: hdr, DialectRevision: srv.dialect, SecurityMode: smb2.SMB2_NEGOTIATE_SIGNING_ENABLED,
				ServerGuid: loginServerGuid, Capabilities: loginCapabilities, MaxTransactSize: 1 << 20, MaxReadSize: 1 << 20, MaxWriteSize: 1 << 20,
				SystemTime: &smb2.Filetime{}, ServerStartTime: &smb2.Filetime{}}
			if srv.signingReq {
				r.SecurityMode |= smb2.SMB2_NEGOTIATE_SIGNING_REQUIRED
			}
			sent = *r
			if srv.tamper != nil {
				srv.tamper(r)
			}
			if srv.dialect == smb2.SMB311 {
				if !srv.noPreauth {
					r.Contexts = append(r.Contexts, &smb2.HashContext{HashAlgorithms: []uint16{smb2.SHA512}, HashSalt: make([]byte, 32)})
				}
				if srv.cipher != 0 {
					r.Contexts = append(r.Contexts, &smb2.CipherContext{Ciphers: []uint16{srv.cipher}})
				}
			}
			encode(r)
			preauth(pkt)
			preauth(out)
		case smb2.SMB2_SESSION_SETUP:
			sec := smb2.SessionSetupRequestDecoder(p.Data()).SecurityBuffer()
			legs++
			if legs == 1 {
				init, err := spnego.DecodeNegTokenInit(sec)
				if err != nil {
					return
				}
				cmsg, err := ns.Challenge(init.MechToken)
				if err != nil {
					return
				}
				tok, _ := spnego.EncodeNegTokenResp(1, spnego.NlmpOid, cmsg, nil)
				hdr.Status = uint32(erref.STATUS_MORE_PROCESSING_REQUIRED)
				encode(&smb2.SessionSetupResponse{PacketHeader: hdr, SecurityBuffer: tok})
				preauth(pkt)
				preauth(out)
				break
			}
			resp, err := spnego.DecodeNegTokenResp(sec)
			if err != nil || ns.Authenticate(resp.ResponseToken) != nil {
				return
			}
			preauth(pkt)
			keys, dec = srv.keys(ns.Session().SessionKey(), h[:])
			encode(&smb2.SessionSetupResponse{PacketHeader: hdr, SessionFlags: srv.finalFlags})
			switch srv.finalSig {
			case "good":
				keys.sign(out)
			case "bad":
				keys.sign(out)
				out[48] ^= 1 // a bit of the signature
			}
		case smb2.SMB2_TREE_CONNECT:
			hdr.TreeId = 1
			encode(&smb2.TreeConnectResponse{PacketHeader: hdr, ShareType: smb2.SMB2_SHARE_TYPE_DISK, ShareFlags: srv.shareFlags, MaximalAccess: 0x1f01ff})
		case smb2.SMB2_IOCTL:
			st.ioctls.Add(1)
			ir := smb2.IoctlRequestDecoder(p.Data())
			if ir.IsInvalid() || ir.CtlCode() != smb2.FSCTL_VALIDATE_NEGOTIATE_INFO {
				hdr.Status = uint32(erref.STATUS_NOT_SUPPORTED)
				encode(&smb2.ErrorResponse{PacketHeader: hdr})
				break
			}
			st.validates.Add(1)
			// MS-SMB2 3.3.5.15.12: the server drops the connection on a
			// request it cannot trust or whose values differ from the
			// NEGOTIATE it received.
			if !encrypted && (p.Flags()&smb2.SMB2_FLAGS_SIGNED == 0 || keys == nil || !keys.verify(pkt)) {
				return
			}
			if !validateRequestMatches(ir, p.Data(), &got) || srv.dialect == smb2.SMB311 {
				return
			}
			unsigned = srv.vnUnsigned
			if srv.vnStatus != 0 {
				hdr.Status = uint32(srv.vnStatus)
				encode(&smb2.ErrorResponse{PacketHeader: hdr})
				break
			}
			out := make([]byte, 24)
			binary.LittleEndian.PutUint32(out[0:4], sent.Capabilities)
			copy(out[4:20], sent.ServerGuid[:])
			binary.LittleEndian.PutUint16(out[20:22], sent.SecurityMode)
			binary.LittleEndian.PutUint16(out[22:24], sent.DialectRevision)
			if srv.vnShort {
				out = out[:23]
			}
			encode(&smb2.IoctlResponse{PacketHeader: hdr, CtlCode: smb2.FSCTL_VALIDATE_NEGOTIATE_INFO,
				FileId: sentinelFileId, Input: rawInput(nil), Output: rawInput(out)})
		case smb2.SMB2_ECHO:
			encode(&smb2.EchoResponse{PacketHeader: hdr})
			if srv.echoes != nil {
				srv.echoes <- struct{}{}
			}
		default:
			hdr.Status = uint32(erref.STATUS_NOT_SUPPORTED)
			encode(&smb2.ErrorResponse{PacketHeader: hdr})
		}
		smb2.PacketCodec(out).SetCommand(p.Command())
		if keys != nil && p.Command() != smb2.SMB2_SESSION_SETUP && !srv.clear && !unsigned {
			switch {
			case encrypted:
				c := make([]byte, 52+len(out)+16)
				if out, err = keys.encrypt(out, c); err != nil {
					return
				}
			case p.Flags()&smb2.SMB2_FLAGS_SIGNED != 0:
				keys.sign(out)
			}
		}
		if _, err := tr.Write(out); err != nil {
			return
		}
	}
}

// keys derives the server's side of the session's keys (MS-SMB2 3.3.5.5.3):
// the signer, the encrypter of its replies, and the decrypter of the
// client's requests.
func (srv *loginServer) keys(sessionKey, preauth []byte) (*session, cipher.AEAD) {
	s := &session{sessionId: loginSessionID}
	var signKey, encKey, decKey []byte
	switch srv.dialect {
	case smb2.SMB311:
		signKey = kdf(sessionKey, []byte("SMBSigningKey\x00"), preauth)
		encKey = kdf(sessionKey, []byte("SMBS2CCipherKey\x00"), preauth)
		decKey = kdf(sessionKey, []byte("SMBC2SCipherKey\x00"), preauth)
	case smb2.SMB300, smb2.SMB302:
		signKey = kdf(sessionKey, []byte("SMB2AESCMAC\x00"), []byte("SmbSign\x00"))
		encKey = kdf(sessionKey, []byte("SMB2AESCCM\x00"), []byte("ServerOut\x00"))
		decKey = kdf(sessionKey, []byte("SMB2AESCCM\x00"), []byte("ServerIn \x00"))
	default: // SMB 2: signing only
		s.signer = hmac.New(sha256.New, sessionKey)
		s.verifier = hmac.New(sha256.New, sessionKey)
		return s, nil
	}
	b, _ := aes.NewCipher(signKey)
	s.signer = cmac.New(b)
	s.verifier = cmac.New(b)
	aead := func(key []byte) cipher.AEAD {
		b, _ := aes.NewCipher(key)
		if srv.dialect == smb2.SMB311 && srv.cipher == smb2.AES128GCM {
			a, _ := cipher.NewGCMWithNonceSize(b, 12)
			return a
		}
		a, _ := ccm.NewCCMWithNonceAndTagSizes(b, 11, 16)
		return a
	}
	s.encrypter = aead(encKey)
	return s, aead(decKey)
}

// dialLogin dials srv as the controller does (signing required, NTLM),
// mounts a share, sends an ECHO and a request on the share, and returns the first error.
func dialLogin(t *testing.T, srv *loginServer) (err error) {
	t.Helper()
	clientConn, serverConn := net.Pipe()
	go srv.serve(direct(serverConn))
	defer serverConn.Close()
	defer clientConn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("the dial panicked: %v", r)
			err = errors.New("panic")
		}
	}()
	d := &Dialer{Negotiator: Negotiator{RequireMessageSigning: true}, Initiator: &NTLMInitiator{User: "u", Password: "p"}}
	s, err := d.DialConn(ctx, clientConn, "srv")
	if err != nil {
		return err
	}
	s = s.WithContext(ctx)
	sh, err := s.Mount("share")
	if err != nil {
		return err
	}
	if err := s.Echo(); err != nil {
		return err
	}
	// A request on the share (encrypted when the share is): the server
	// answers STATUS_NOT_SUPPORTED.
	_, err = sh.WithContext(ctx).Stat("")
	if re := (*ResponseError)(nil); errors.As(err, &re) && erref.NtStatus(re.Code) == erref.STATUS_NOT_SUPPORTED {
		return nil
	}
	return err
}

// The server's own answers, signed or encrypted as MS-SMB2 says, log in.
func TestLoginServerAnswersCorrectly(t *testing.T) {
	for _, srv := range []*loginServer{
		{dialect: smb2.SMB311, cipher: smb2.AES128GCM, finalSig: "good"},
		{dialect: smb2.SMB311, cipher: smb2.AES128CCM, finalSig: "good", finalFlags: smb2.SMB2_SESSION_FLAG_ENCRYPT_DATA},
		{dialect: smb2.SMB311, cipher: smb2.AES128GCM, finalSig: "good", shareFlags: smb2.SMB2_SHAREFLAG_ENCRYPT_DATA},
		{dialect: smb2.SMB302, finalSig: "good", finalFlags: smb2.SMB2_SESSION_FLAG_ENCRYPT_DATA},
		{dialect: smb2.SMB302, finalSig: "none"},
		{dialect: smb2.SMB302, finalSig: "good", signingReq: true},
	} {
		if err := dialLogin(t, srv); err != nil {
			t.Errorf("dialect %#x, final flags %#x, share flags %#x: %v", srv.dialect, srv.finalFlags, srv.shareFlags, err)
		}
	}
}

// A session that is weaker than it says, or than the client asked, is
// refused at the dial: each of these is what a man in the middle makes of a
// server's answers (or what a broken server sends), and each was taken
// before.
func TestALoginWeakerThanNegotiatedIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		srv  loginServer
		want string
	}{
		// 3.1.1's final session setup response carries the signature that
		// proves the negotiate and the session flags were not changed on
		// the way (preauth integrity, MS-SMB2 3.2.5.3.1).
		{"3.1.1, a final session setup response whose signature does not verify",
			loginServer{dialect: smb2.SMB311, cipher: smb2.AES128GCM, finalSig: "bad"}, "signature"},
		{"3.1.1, a final session setup response without a signature",
			loginServer{dialect: smb2.SMB311, cipher: smb2.AES128GCM, finalSig: "none"}, "signature"},
		{"3.0.2, a signed final session setup response whose signature does not verify",
			loginServer{dialect: smb2.SMB302, finalSig: "bad"}, "signature"},
		// The guest flag turned signing off for the whole session: with
		// the client demanding signing, only the first leg was checked,
		// and an NTLM login's first leg never carries it (Samba's map to
		// guest sets it on the last one).
		{"a guest session when signing is required",
			loginServer{dialect: smb2.SMB302, finalSig: "none", finalFlags: smb2.SMB2_SESSION_FLAG_IS_GUEST}, "guest"},
		{"3.1.1 without a preauth integrity context",
			loginServer{dialect: smb2.SMB311, cipher: smb2.AES128GCM, noPreauth: true, finalSig: "none"}, "preauth"},
		{"a dialect the client did not offer",
			loginServer{dialect: 0x0222, finalSig: "none"}, "dialect"},
		// Encryption asked for where there is no cipher: the library sent
		// the next request through a nil cipher and panicked.
		{"SMB 2.1 with the session's encrypt flag",
			loginServer{dialect: smb2.SMB210, finalSig: "none", finalFlags: smb2.SMB2_SESSION_FLAG_ENCRYPT_DATA}, "encrypt"},
		{"SMB 2.1 with the share's encrypt flag",
			loginServer{dialect: smb2.SMB210, finalSig: "none", shareFlags: smb2.SMB2_SHAREFLAG_ENCRYPT_DATA}, "encrypt"},
		{"3.1.1 without a cipher, with the session's encrypt flag",
			loginServer{dialect: smb2.SMB311, finalSig: "good", finalFlags: smb2.SMB2_SESSION_FLAG_ENCRYPT_DATA}, "encrypt"},
		// A reply in the clear to an encrypted request is taken when it
		// verifies: a client that requires signing takes none from a
		// man in the middle, who cannot sign (the library's default, which
		// verifies only replies marked signed, took them).
		{"clear unsigned replies on an encrypted session",
			loginServer{dialect: smb2.SMB311, cipher: smb2.AES128GCM, finalSig: "good", finalFlags: smb2.SMB2_SESSION_FLAG_ENCRYPT_DATA, clear: true}, "signature"},
		{"clear unsigned replies on an encrypted share",
			loginServer{dialect: smb2.SMB302, finalSig: "good", shareFlags: smb2.SMB2_SHAREFLAG_ENCRYPT_DATA, clear: true}, "signature"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.srv
			err := dialLogin(t, &srv)
			if err == nil {
				t.Fatalf("the session was taken; want it refused")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v; want an error saying %q", err, tc.want)
			}
		})
	}
}
