package smb2

// This file is fileshare-csi's patch to go-smb2 (third_party/README.md):
// FSCTL_VALIDATE_NEGOTIATE_INFO, the defence of the NEGOTIATE exchange on
// every dialect before 3.1.1 (MS-SMB2 2.2.31.4, 2.2.32.6, 3.2.5.5, 3.2.5.14.12,
// and the server's side 3.3.5.15.12).
//
// The NEGOTIATE request and response are neither signed nor encrypted: a
// man in the middle can strip SMB 3.1.1 from the client's dialects, so the
// server picks 3.0 or 3.0.2 (or every SMB 3 dialect, so it picks 2.1,
// which never encrypts), or change a capability or a security mode on the
// way, and the session is then set up on what he left. SMB 3.1.1 proves
// the exchange with its preauth integrity hash (the final session setup
// response's signature, checkLogin); the dialects before it have no such
// hash. Instead, once the session can sign, the client sends what it
// offered in a signed IOCTL, and the server, which compares that with
// what it received and drops the connection on any difference, answers
// signed with what it answered; the client compares that with what it
// received. Any difference means the exchange was changed: the connection
// is ended and never used again.
//
// It costs one round trip, once per connection (the library has one
// session per connection), after its first tree connect: the controller's
// sessions are pooled, so it is paid at a dial, never per volume
// operation. 3.1.1 sends nothing (a 3.1.1 server drops a connection that
// sends it, and its dials keep their round trips). SMB 2.0.2 and 2.1 ask
// too, as Samba's and Windows' clients do: a client that speaks SMB 3 has
// to, or stripping every SMB 3 dialect would go unnoticed. A server that
// serves the SMB 2 dialects but not 3.x (the FSCTL came with SMB 3.0) need
// not know the FSCTL: it answers, signed, with one of notImplemented, and
// there was no SMB 3 dialect for anyone to strip. Samba answers it on 2.1
// (TestValidateNegotiateWithSamba).

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/cloudsoda/go-smb2/internal/erref"
	"github.com/cloudsoda/go-smb2/internal/smb2"
)

// negotiated is what a connection's NEGOTIATE said each way: the client's
// half is what the VALIDATE_NEGOTIATE_INFO request repeats, the server's
// half what its answer must repeat.
type negotiated struct {
	clientCapabilities uint32
	clientGuid         [16]byte
	clientSecurityMode uint16
	clientDialects     []uint16

	serverCapabilities uint32 // as the server sent them, not the ones the client shares
	serverGuid         [16]byte
	serverSecurityMode uint16
}

func negotiatedOf(req *smb2.NegotiateRequest, r smb2.NegotiateResponseDecoder) negotiated {
	n := negotiated{
		clientCapabilities: req.Capabilities,
		clientGuid:         req.ClientGuid,
		clientSecurityMode: req.SecurityMode,
		clientDialects:     req.Dialects,
		serverCapabilities: r.Capabilities(),
		serverSecurityMode: r.SecurityMode(),
	}
	copy(n.serverGuid[:], r.ServerGuid())
	return n
}

// validation is a connection's VALIDATE_NEGOTIATE_INFO: done once the
// server has confirmed the NEGOTIATE, so later tree connects skip it. The
// mutex makes concurrent first tree connects wait for the one that asks
// (at most until that one's context ends), so none of them is handed a
// tree before the answer.
type validation struct {
	mu   sync.Mutex
	done bool
}

// validateNegotiateInfoSize is the size of the answer (MS-SMB2 2.2.32.6):
// Capabilities, Guid, SecurityMode, Dialect.
const validateNegotiateInfoSize = 24

// notImplemented are the statuses servers that do not implement
// FSCTL_VALIDATE_NEGOTIATE_INFO answer it with, and which the client takes
// as "nothing to validate" when, and only when, the answer is signed or
// encrypted:
//   - STATUS_NOT_SUPPORTED: older Windows and NetApp (the Linux kernel's
//     client takes it too);
//   - STATUS_FILE_CLOSED: older Windows and Samba releases;
//   - STATUS_INVALID_DEVICE_REQUEST and STATUS_FS_DRIVER_REQUIRED: Samba's
//     NTVFS file server, on file shares and on IPC$ (Samba's own client
//     takes these three).
//
// MS-SMB2 3.2.5.14.12 fails the connection on an answer that is neither
// signed nor encrypted, and on STATUS_ACCESS_DENIED, and names no other
// error. A signed error cannot come from a man in the middle (he has no
// key, and the signed request reached the server unchanged), so it shows
// the server does not do the FSCTL, and there is nothing to compare. Every
// other error (STATUS_ACCESS_DENIED, STATUS_INVALID_PARAMETER, ...) ends
// the connection: a server that implements the FSCTL answers it, so an
// error that says something else is not one the client can judge safe,
// and refusing it is what Linux's client does with all but
// STATUS_NOT_SUPPORTED.
var notImplemented = []erref.NtStatus{
	erref.STATUS_NOT_SUPPORTED,
	erref.STATUS_FILE_CLOSED,
	erref.STATUS_INVALID_DEVICE_REQUEST,
	erref.STATUS_FS_DRIVER_REQUIRED,
}

// isValidateNegotiate reports whether req is a VALIDATE_NEGOTIATE_INFO,
// which is signed whatever the connection requires (MS-SMB2 3.2.5.5;
// some Windows servers refuse it unsigned).
func isValidateNegotiate(req smb2.Packet) bool {
	r, ok := req.(*smb2.IoctlRequest)
	return ok && r.CtlCode == smb2.FSCTL_VALIDATE_NEGOTIATE_INFO
}

// validateNegotiate runs after each successful tree connect, and on a
// connection of a dialect before 3.1.1 with a session that signs asks the
// server, the first time, to confirm the NEGOTIATE. A guest or anonymous session cannot sign
// (nor can its answer be trusted), so it is not asked; a client that
// requires signing refuses such a session already (checkLogin).
//
// Any error but the context's ends the connection (MS-SMB2 3.2.5.14.12:
// "terminate the Connection"): every request after it fails with that
// error. A context that ends before the answer leaves no verdict, and the
// next tree connect asks again; the tree connect that failed is not given
// to the caller, so no tree is used on a connection that was not
// validated.
func (tc *treeConn) validateNegotiate(ctx context.Context) error {
	c := tc.session.conn
	if c.dialect < smb2.SMB202 || c.dialect >= smb2.SMB311 {
		return nil
	}
	if tc.sessionFlags&(smb2.SMB2_SESSION_FLAG_IS_GUEST|smb2.SMB2_SESSION_FLAG_IS_NULL) != 0 {
		return nil
	}
	c.validation.mu.Lock()
	defer c.validation.mu.Unlock()
	if c.validation.done {
		return nil
	}
	err := tc.sendValidateNegotiate(ctx)
	switch {
	case err == nil:
		c.validation.done = true
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
	default:
		c.terminate(err)
	}
	return err
}

// sendValidateNegotiate sends the request and judges the answer.
func (tc *treeConn) sendValidateNegotiate(ctx context.Context) error {
	c := tc.session.conn
	n := &c.negotiated
	in := make([]byte, 24+2*len(n.clientDialects))
	binary.LittleEndian.PutUint32(in[0:4], n.clientCapabilities)
	copy(in[4:20], n.clientGuid[:])
	binary.LittleEndian.PutUint16(in[20:22], n.clientSecurityMode)
	binary.LittleEndian.PutUint16(in[22:24], uint16(len(n.clientDialects)))
	for i, d := range n.clientDialects {
		binary.LittleEndian.PutUint16(in[24+2*i:], d)
	}
	req := &smb2.IoctlRequest{
		CtlCode: smb2.FSCTL_VALIDATE_NEGOTIATE_INFO,
		// No file: all ones, as for any FSCTL on none (MS-SMB2 2.2.31).
		FileId:            sentinelFileId,
		MaxOutputResponse: validateNegotiateInfoSize,
		Flags:             smb2.SMB2_0_IOCTL_IS_FSCTL,
		Input:             rawInput(in),
	}
	var err error
	req.CreditCharge, _, err = tc.borrowCredits(ctx, len(in))
	if err != nil {
		return err
	}
	rr, err := tc.send(ctx, req)
	if err != nil {
		return fmt.Errorf("FSCTL_VALIDATE_NEGOTIATE_INFO: %w", err)
	}
	pkt, err := tc.recv(rr)
	if te := (*TransportError)(nil); errors.As(err, &te) {
		// A server ends the connection when what the request repeats
		// differs from the NEGOTIATE it received (3.3.5.15.12).
		return fmt.Errorf("FSCTL_VALIDATE_NEGOTIATE_INFO: the connection ended, as a server ends it when the NEGOTIATE it received differs from the one the client sent: %w", err)
	}
	if err != nil {
		return fmt.Errorf("FSCTL_VALIDATE_NEGOTIATE_INFO: %w", err)
	}
	defer rr.freeRecvBuf()
	return c.judgeValidateNegotiate(pkt, rr.encrypted)
}

// judgeValidateNegotiate checks the server's answer pkt, encrypted if it
// came so (a signed one has been verified on receipt).
func (c *conn) judgeValidateNegotiate(pkt []byte, encrypted bool) error {
	p := smb2.PacketCodec(pkt)
	if p.Flags()&smb2.SMB2_FLAGS_SIGNED == 0 && !encrypted {
		return &InvalidResponseError{"the answer to FSCTL_VALIDATE_NEGOTIATE_INFO is neither signed nor encrypted, so anyone on the path could have sent it"}
	}
	if status := erref.NtStatus(p.Status()); status != erref.STATUS_SUCCESS {
		for _, s := range notImplemented {
			if status == s {
				return nil
			}
		}
		return &InvalidResponseError{fmt.Sprintf("the server refused FSCTL_VALIDATE_NEGOTIATE_INFO with status %#08x (%v)", uint32(status), status)}
	}
	r := smb2.IoctlResponseDecoder(p.Data())
	if r.IsInvalid() || r.CtlCode() != smb2.FSCTL_VALIDATE_NEGOTIATE_INFO {
		return &InvalidResponseError{"broken FSCTL_VALIDATE_NEGOTIATE_INFO response format"}
	}
	out := r.Output()
	if len(out) != validateNegotiateInfoSize {
		return &InvalidResponseError{fmt.Sprintf("the answer to FSCTL_VALIDATE_NEGOTIATE_INFO holds %d bytes, not %d", len(out), validateNegotiateInfoSize)}
	}
	n := &c.negotiated
	var differ []string
	if got := binary.LittleEndian.Uint16(out[22:24]); got != c.dialect {
		differ = append(differ, fmt.Sprintf("dialect %#04x (the negotiate said %#04x)", got, c.dialect))
	}
	if got := binary.LittleEndian.Uint32(out[0:4]); got != n.serverCapabilities {
		differ = append(differ, fmt.Sprintf("capabilities %#x (the negotiate said %#x)", got, n.serverCapabilities))
	}
	if got := binary.LittleEndian.Uint16(out[20:22]); got != n.serverSecurityMode {
		differ = append(differ, fmt.Sprintf("security mode %#x (the negotiate said %#x)", got, n.serverSecurityMode))
	}
	if got := out[4:20]; string(got) != string(n.serverGuid[:]) {
		differ = append(differ, fmt.Sprintf("server GUID %x (the negotiate said %x)", got, n.serverGuid))
	}
	if len(differ) > 0 {
		return &InvalidResponseError{"the server's signed FSCTL_VALIDATE_NEGOTIATE_INFO answer differs from the NEGOTIATE response the client received, which was changed on the way: " + strings.Join(differ, ", ")}
	}
	return nil
}

// terminate ends the connection for err: no request is sent after it, each
// fails with err (which replaces a transport error the receiver may have
// left: err says why), and the transport is closed, which ends the
// receiver.
func (c *conn) terminate(err error) {
	c.m.Lock()
	c.err = err
	c.m.Unlock()
	c.t.Close()
}
