package nfs4

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// NFSv4 RPC program (RFC 8881 section 16): one procedure does the work.
const (
	nfs4Prog         = 100003
	nfs4Vers         = 4
	nfs4ProcCompound = 1
	nfs4Minor        = 1
	// nfs4MinorCopy is the minor version of the sessions that copy on the
	// server: COPY is NFSv4.2's (RFC 7862).
	nfs4MinorCopy = 2
)

// Operation numbers (RFC 8881 section 16.2.1).
const (
	op4Access          = 3
	op4Close           = 4
	op4Commit          = 5
	op4Create          = 6
	op4Getattr         = 9
	op4Getfh           = 10
	op4Lookup          = 15
	op4Open            = 18
	op4Putfh           = 22
	op4Putrootfh       = 24
	op4Read            = 25
	op4Readdir         = 26
	op4Readlink        = 27
	op4Remove          = 28
	op4Rename          = 29
	op4Restorefh       = 31
	op4Savefh          = 32
	op4Setattr         = 34
	op4Write           = 38
	op4ExchangeID      = 42
	op4CreateSession   = 43
	op4DestroySession  = 44
	op4Sequence        = 53
	op4DestroyClientID = 57
	op4ReclaimComplete = 58
	op4Copy            = 60
	op4Illegal         = 10044
)

var op4Names = map[uint32]string{
	op4Access: "ACCESS", op4Close: "CLOSE", op4Commit: "COMMIT", op4Create: "CREATE", op4Getattr: "GETATTR", op4Getfh: "GETFH",
	op4Lookup: "LOOKUP", op4Open: "OPEN", op4Putfh: "PUTFH", op4Putrootfh: "PUTROOTFH", op4Read: "READ",
	op4Readdir: "READDIR", op4Readlink: "READLINK", op4Remove: "REMOVE", op4Rename: "RENAME", op4Restorefh: "RESTOREFH",
	op4Savefh: "SAVEFH", op4Setattr: "SETATTR", op4Write: "WRITE", op4ExchangeID: "EXCHANGE_ID",
	op4CreateSession: "CREATE_SESSION", op4DestroySession: "DESTROY_SESSION", op4Sequence: "SEQUENCE",
	op4DestroyClientID: "DESTROY_CLIENTID", op4ReclaimComplete: "RECLAIM_COMPLETE", op4Copy: "COPY", op4Illegal: "ILLEGAL",
}

func op4Name(code uint32) string {
	if n, ok := op4Names[code]; ok {
		return n
	}
	return fmt.Sprintf("op %d", code)
}

// Status codes (RFC 8881 section 15) the client acts on or names.
const (
	nfs4OK                = 0
	nfs4ErrPerm           = 1
	nfs4ErrNoent          = 2
	nfs4ErrIO             = 5
	nfs4ErrAccess         = 13
	nfs4ErrExist          = 17
	nfs4ErrXdev           = 18
	nfs4ErrNotdir         = 20
	nfs4ErrIsdir          = 21
	nfs4ErrInval          = 22
	nfs4ErrNospc          = 28
	nfs4ErrDquot          = 69
	nfs4ErrRofs           = 30
	nfs4ErrNametoolong    = 63
	nfs4ErrNotempty       = 66
	nfs4ErrStale          = 70
	nfs4ErrBadhandle      = 10001
	nfs4ErrBadCookie      = 10003
	nfs4ErrNotsupp        = 10004
	nfs4ErrServerfault    = 10006
	nfs4ErrDelay          = 10008
	nfs4ErrExpired        = 10011
	nfs4ErrGrace          = 10013
	nfs4ErrFhexpired      = 10014
	nfs4ErrShareDenied    = 10015
	nfs4ErrWrongsec       = 10016
	nfs4ErrResource       = 10018
	nfs4ErrMoved          = 10019
	nfs4ErrMinorVersMism  = 10021
	nfs4ErrStaleClientid  = 10022
	nfs4ErrStaleStateid   = 10023
	nfs4ErrBadStateid     = 10025
	nfs4ErrSymlink        = 10029
	nfs4ErrAttrnotsupp    = 10032
	nfs4ErrBadxdr         = 10036
	nfs4ErrBadowner       = 10039
	nfs4ErrBadname        = 10041
	nfs4ErrOpIllegal      = 10044
	nfs4ErrAdminRevoked   = 10047
	nfs4ErrBadsession     = 10052
	nfs4ErrBadslot        = 10053
	nfs4ErrCompleteAlrdy  = 10054
	nfs4ErrSeqMisordered  = 10063
	nfs4ErrReqTooBig      = 10065
	nfs4ErrRepTooBig      = 10066
	nfs4ErrRetryUncached  = 10068
	nfs4ErrTooManyOps     = 10070
	nfs4ErrOpNotInSession = 10071
	nfs4ErrSeqFalseRetry  = 10076
	nfs4ErrDeadsession    = 10078
	nfs4ErrNotOnlyOp      = 10081
	nfs4ErrWrongType      = 10083
	nfs4ErrOffloadNoReqs  = 10094
)

var nfs4StatusNames = map[uint32]string{
	nfs4ErrPerm: "PERM", nfs4ErrNoent: "NOENT", nfs4ErrIO: "IO", nfs4ErrAccess: "ACCESS", nfs4ErrExist: "EXIST",
	nfs4ErrXdev: "XDEV", nfs4ErrNotdir: "NOTDIR", nfs4ErrIsdir: "ISDIR", nfs4ErrInval: "INVAL", nfs4ErrNospc: "NOSPC", nfs4ErrDquot: "DQUOT",
	nfs4ErrRofs: "ROFS", nfs4ErrNametoolong: "NAMETOOLONG", nfs4ErrNotempty: "NOTEMPTY", nfs4ErrStale: "STALE",
	nfs4ErrBadhandle: "BADHANDLE", nfs4ErrBadCookie: "BAD_COOKIE", nfs4ErrNotsupp: "NOTSUPP",
	nfs4ErrServerfault: "SERVERFAULT", nfs4ErrDelay: "DELAY", nfs4ErrExpired: "EXPIRED", nfs4ErrGrace: "GRACE", nfs4ErrFhexpired: "FHEXPIRED",
	nfs4ErrShareDenied: "SHARE_DENIED", nfs4ErrWrongsec: "WRONGSEC", nfs4ErrResource: "RESOURCE", nfs4ErrMoved: "MOVED",
	nfs4ErrMinorVersMism: "MINOR_VERS_MISMATCH", nfs4ErrStaleClientid: "STALE_CLIENTID", nfs4ErrStaleStateid: "STALE_STATEID",
	nfs4ErrBadStateid: "BAD_STATEID", nfs4ErrSymlink: "SYMLINK",
	nfs4ErrAttrnotsupp: "ATTRNOTSUPP", nfs4ErrBadxdr: "BADXDR", nfs4ErrBadowner: "BADOWNER", nfs4ErrBadname: "BADNAME",
	nfs4ErrOpIllegal: "OP_ILLEGAL", nfs4ErrAdminRevoked: "ADMIN_REVOKED", nfs4ErrBadsession: "BADSESSION", nfs4ErrBadslot: "BADSLOT",
	nfs4ErrCompleteAlrdy: "COMPLETE_ALREADY", nfs4ErrSeqMisordered: "SEQ_MISORDERED", nfs4ErrReqTooBig: "REQ_TOO_BIG",
	nfs4ErrRepTooBig: "REP_TOO_BIG", nfs4ErrRetryUncached: "RETRY_UNCACHED_REP", nfs4ErrTooManyOps: "TOO_MANY_OPS", nfs4ErrOpNotInSession: "OP_NOT_IN_SESSION",
	nfs4ErrSeqFalseRetry: "SEQ_FALSE_RETRY", nfs4ErrDeadsession: "DEADSESSION", nfs4ErrNotOnlyOp: "NOT_ONLY_OP", nfs4ErrWrongType: "WRONG_TYPE",
	nfs4ErrOffloadNoReqs: "OFFLOAD_NO_REQS",
}

// NFS4Error is a status other than NFS4_OK from one operation of a
// COMPOUND (or from the COMPOUND as a whole, Op 0). It unwraps to the same
// errors the v3 client gives for the same answers.
type NFS4Error struct {
	Op     uint32
	Status uint32
	// Index is the operation's position in the list the caller built
	// (SEQUENCE, which the session adds, not counted).
	Index int
}

func (e *NFS4Error) Error() string {
	name, ok := nfs4StatusNames[e.Status]
	if !ok {
		name = "status"
	}
	if e.Op == 0 {
		return fmt.Sprintf("NFSv4 COMPOUND: NFS4ERR_%s (%d)", name, e.Status)
	}
	return fmt.Sprintf("NFSv4 %s: NFS4ERR_%s (%d)", op4Name(e.Op), name, e.Status)
}

func (e *NFS4Error) Unwrap() error {
	if staleHandle(e.Status) {
		// A filehandle the server no longer knows says nothing about
		// whether the path is there (the store would read "no such
		// file" as a volume gone); the session is dropped (compound)
		// and the call answered from a fresh one.
		return share.ErrUnavailable
	}
	switch e.Status {
	case nfs4ErrNoent:
		return fs.ErrNotExist
	case nfs4ErrExist:
		return fs.ErrExist
	case nfs4ErrNotempty:
		return share.ErrNotEmpty
	case nfs4ErrPerm, nfs4ErrAccess, nfs4ErrRofs, nfs4ErrWrongsec:
		return fs.ErrPermission
	case nfs4ErrNospc, nfs4ErrDquot:
		return share.ErrNoSpace
	case nfs4ErrDelay, nfs4ErrGrace:
		// Still so at the call's deadline: worth a retry later, on this
		// session too (the slot moved on with the reply).
		return share.ErrTryLater
	case nfs4ErrStaleStateid, nfs4ErrBadStateid, nfs4ErrExpired, nfs4ErrAdminRevoked:
		// An open file's state is gone: the server restarted (the session
		// was made again under it) or ended the lease. Not an answer about
		// the path; the work is done again on a fresh open.
		return share.ErrUnavailable
	}
	return nil
}

func isNFS4Status(err error, status uint32) bool {
	var ne *NFS4Error
	return errors.As(err, &ne) && ne.Status == status
}

// nfs4Op is one operation of a COMPOUND: its arguments and how to read its
// result when the status is NFS4_OK.
type nfs4Op struct {
	code uint32
	enc  func(e *xdrEnc)
	dec  func(d *xdrDec)
	// always: the result body follows the status whatever it is (SETATTR).
	always bool
	// decFailed reads the body some operations return with a failure
	// (COPY's requirements with NFS4ERR_OFFLOAD_NO_REQS).
	decFailed func(d *xdrDec, status uint32)
	// mutates: the operation changes the server's state, so a COMPOUND that
	// failed after it is not simply sent again.
	mutates bool
}

// maxTag bounds the tag a server echoes.
const maxTag = 1024

func encodeCompound(e *xdrEnc, tag string, minor uint32, ops []nfs4Op) {
	e.str(tag)
	e.u32(minor)
	e.u32(uint32(len(ops)))
	for _, op := range ops {
		e.u32(op.code)
		if op.enc != nil {
			op.enc(e)
		}
	}
}

// compoundReply says how far a COMPOUND got.
type compoundReply struct {
	n int // results received
	// failed is the index of the operation that failed, -1 when none did
	// (or the COMPOUND failed as a whole before any ran).
	failed int
	// err is that failure: an *NFS4Error.
	err error
}

// decodeCompound reads a COMPOUND4res for ops, handing each operation's
// result to its decoder. Anything but a well-formed reply to exactly these
// operations is errXDR; the server's refusals are in compoundReply.err.
func decodeCompound(b []byte, ops []nfs4Op) (compoundReply, error) {
	d := &xdrDec{b: b}
	status := d.u32()
	d.opaque(maxTag)
	n := d.count(8)
	if d.err != nil {
		return compoundReply{}, d.err
	}
	if n > len(ops) {
		return compoundReply{}, fmt.Errorf("%w: %d results to %d operations", errXDR, n, len(ops))
	}
	r := compoundReply{n: n, failed: -1}
	for i := range n {
		code, st := d.u32(), d.u32()
		if d.err != nil {
			return compoundReply{}, d.err
		}
		if code != ops[i].code {
			return compoundReply{}, fmt.Errorf("%w: result %d is for %s, the call sent %s", errXDR, i, op4Name(code), op4Name(ops[i].code))
		}
		switch {
		case (st == nfs4OK || ops[i].always) && ops[i].dec != nil:
			ops[i].dec(d)
		case st != nfs4OK && ops[i].decFailed != nil:
			ops[i].decFailed(d, st)
		}
		if d.err != nil {
			return compoundReply{}, fmt.Errorf("%s result: %w", op4Name(code), d.err)
		}
		if st != nfs4OK {
			if i != n-1 {
				return compoundReply{}, fmt.Errorf("%w: results go on after %s failed", errXDR, op4Name(code))
			}
			r.failed, r.err = i, &NFS4Error{Op: code, Status: st}
		}
	}
	if len(d.b) != 0 {
		return compoundReply{}, fmt.Errorf("%w: %d bytes after the last result", errXDR, len(d.b))
	}
	switch {
	case r.err == nil && status != nfs4OK:
		// Refused as a whole (MINOR_VERS_MISMATCH, RESOURCE, a bad tag),
		// before or between operations.
		r.err = &NFS4Error{Status: status}
	case r.err == nil && n < len(ops):
		return compoundReply{}, fmt.Errorf("%w: %d results to %d operations and no error", errXDR, n, len(ops))
	}
	return r, nil
}
