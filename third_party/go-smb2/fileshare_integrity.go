package smb2

// This file is fileshare-csi's patch to go-smb2 (third_party/README.md):
// what the library took of a server's answers during a login that a man in
// the middle (or a broken server) could make weaker than the session says.

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cloudsoda/go-smb2/internal/smb2"
)

// ErrGuestSession is a login the server made a guest (or anonymous) one: a
// session that signs nothing, under an identity other than the one that
// logged in, which a client requiring signing refuses. Samba's "map to
// guest" makes one of a login with an unknown user or a wrong password.
var ErrGuestSession = errors.New("the server made the session a guest or anonymous one, which cannot sign")

// checkNegotiated refuses a dialect the client did not offer (the library
// derives no keys for one, and signed the next request with none) and an
// SMB 3.1.1 answer without its preauth integrity context (MS-SMB2
// 3.2.5.2: the client must fail then; the keys would be derived from
// nothing).
func checkNegotiated(req *smb2.NegotiateRequest, conn *conn) error {
	if !slices.Contains(req.Dialects, conn.dialect) {
		return &InvalidResponseError{fmt.Sprintf("the server chose dialect %#x, which the client did not offer", conn.dialect)}
	}
	if conn.dialect == smb2.SMB311 && conn.preauthIntegrityHashId != smb2.SHA512 {
		return &InvalidResponseError{"SMB 3.1.1 answered without a preauth integrity context"}
	}
	return nil
}

// checkLogin checks the final SESSION_SETUP response pkt, whose flags s
// took, before the session is used. The library checked the first leg's
// flags only, and never verified the final response:
//   - a guest or anonymous session, when signing is required, is refused
//     (ErrGuestSession): the flag turns signing off for the whole session;
//   - the response must verify when it is signed, and with SMB 3.1.1
//     always (MS-SMB2 3.2.5.3.1): its signature, with keys made from the
//     preauth integrity hash, is what shows the negotiate and the session
//     flags came from the server unchanged;
//   - a session the server wants encrypted needs a cipher (SMB 3, and for
//     3.1.1 a cipher context): the library encrypted through a nil one and
//     panicked.
func (s *session) checkLogin(pkt []byte) error {
	if s.sessionFlags&(smb2.SMB2_SESSION_FLAG_IS_GUEST|smb2.SMB2_SESSION_FLAG_IS_NULL) != 0 {
		if s.requireSigning {
			return ErrGuestSession
		}
	} else if s.dialect == smb2.SMB311 || smb2.PacketCodec(pkt).Flags()&smb2.SMB2_FLAGS_SIGNED != 0 {
		if s.verifier == nil || !s.verify(pkt) {
			return &InvalidResponseError{"the final session setup response failed signature verification"}
		}
	}
	if s.sessionFlags&smb2.SMB2_SESSION_FLAG_ENCRYPT_DATA != 0 && s.encrypter == nil {
		return &InvalidResponseError{"the server asks to encrypt the session, and the dialect or cipher it chose has no encryption"}
	}
	return nil
}

// checkShare refuses a share the server wants encrypted on a session with
// no cipher, as checkLogin does for a session.
func (tc *treeConn) checkShare() error {
	if tc.shareFlags&smb2.SMB2_SHAREFLAG_ENCRYPT_DATA != 0 && tc.session.encrypter == nil {
		return &InvalidResponseError{"the server asks to encrypt the share, and the dialect or cipher it chose has no encryption"}
	}
	return nil
}
