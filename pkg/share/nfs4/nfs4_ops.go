package nfs4

import (
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// Attribute numbers (RFC 8881 section 5) the client reads or sets.
const (
	attrType            = 1
	attrSize            = 4
	attrFSID            = 8
	attrRdattrError     = 11
	attrFilehandle      = 19
	attrFileID          = 20
	attrFilesAvail      = 21
	attrFilesFree       = 22
	attrFilesTotal      = 23
	attrMode            = 33
	attrOwner           = 36
	attrOwnerGroup      = 37
	attrSpaceAvail      = 42
	attrSpaceFree       = 43
	attrSpaceTotal      = 44
	attrSpaceUsed       = 45
	attrTimeModify      = 53
	attrTimeModifySet   = 54
	attrMountedOnFileID = 55
)

// File types (nfs_ftype4).
const (
	nf4Reg = 1
	nf4Dir = 2
	nf4Lnk = 5
)

// Sizes the protocol bounds (RFC 8881 section 2.2 and 18).
const (
	nfs4FHSize      = 128
	nfs4OpaqueLimit = 1024
	// maxName bounds a name a server returns in READDIR; no file system
	// the driver meets allows more than 255 bytes, 4 KiB leaves room.
	maxName = 4096
	// maxLink bounds a link's target READLINK returns: Linux's PATH_MAX.
	maxLink = 4096
)

// fsid4 names a file system on the server; a directory whose fsid differs
// from its parent's is another file system (another export, or something
// mounted there on the server).
type fsid4 struct{ Major, Minor uint64 }

// nfstime4 is a time as seconds and nanoseconds since the epoch.
type nfstime4 struct {
	Seconds  int64
	Nseconds uint32
}

func (t nfstime4) time() time.Time { return time.Unix(t.Seconds, int64(t.Nseconds)).UTC() }

func (e *xdrEnc) nfstime(t time.Time) {
	e.u64(uint64(t.Unix()))
	e.u32(uint32(t.Nanosecond()))
}

// attrs4 holds the attributes the client asks for; mask says which the
// server returned (all of them are numbered below 64).
type attrs4 struct {
	mask            uint64
	Type            uint32
	Size            uint64
	FSID            fsid4
	RdattrError     uint32
	FH              []byte
	FileID          uint64
	FilesAvail      uint64
	FilesFree       uint64
	FilesTotal      uint64
	Mode            uint32
	Owner           string
	OwnerGroup      string
	SpaceAvail      uint64
	SpaceFree       uint64
	SpaceTotal      uint64
	SpaceUsed       uint64
	ModTime         nfstime4
	MountedOnFileID uint64
}

func (a *attrs4) has(bit int) bool { return a.mask&(1<<bit) != 0 }

// maskBits is the attributes of a bitmap4 mask as attrs4.mask holds them.
func maskBits(mask []uint32) uint64 {
	var m uint64
	for i, w := range mask[:min(len(mask), 2)] {
		m |= uint64(w) << (32 * i)
	}
	return m
}

// attrMask is the bitmap4 of the attributes bits.
func attrMask(bits ...int) []uint32 {
	var w [2]uint32
	for _, b := range bits {
		w[b/32] |= 1 << (b % 32)
	}
	if w[1] == 0 {
		return w[:1]
	}
	return w[:]
}

// decodeFattr reads a fattr4: the bitmap of what is there, then the values
// in bit order, inside one opaque. A bit the client cannot decode (it never
// asks for one) makes the values unreadable, so it is an error.
func decodeFattr(d *xdrDec, a *attrs4) {
	words := d.bitmap()
	vals := d.opaque(len(d.b))
	if d.err != nil {
		return
	}
	var mask uint64
	for i, w := range words {
		if i >= 2 {
			if w != 0 {
				d.fail("attribute %d returned, none above 63 was asked for", i*32)
				return
			}
			continue
		}
		mask |= uint64(w) << (32 * i)
	}
	v := &xdrDec{b: vals}
	*a = attrs4{mask: mask}
	for bit := range 64 {
		if mask&(1<<bit) == 0 {
			continue
		}
		switch bit {
		case attrType:
			a.Type = v.u32()
		case attrSize:
			a.Size = v.u64()
		case attrFSID:
			a.FSID = fsid4{v.u64(), v.u64()}
		case attrRdattrError:
			a.RdattrError = v.u32()
		case attrFilehandle:
			a.FH = append([]byte(nil), v.opaque(nfs4FHSize)...)
		case attrFileID:
			a.FileID = v.u64()
		case attrFilesAvail:
			a.FilesAvail = v.u64()
		case attrFilesFree:
			a.FilesFree = v.u64()
		case attrFilesTotal:
			a.FilesTotal = v.u64()
		case attrMode:
			a.Mode = v.u32()
		case attrOwner:
			a.Owner = v.str(nfs4OpaqueLimit)
		case attrOwnerGroup:
			a.OwnerGroup = v.str(nfs4OpaqueLimit)
		case attrSpaceAvail:
			a.SpaceAvail = v.u64()
		case attrSpaceFree:
			a.SpaceFree = v.u64()
		case attrSpaceTotal:
			a.SpaceTotal = v.u64()
		case attrSpaceUsed:
			a.SpaceUsed = v.u64()
		case attrTimeModify:
			a.ModTime = nfstime4{int64(v.u64()), v.u32()}
		case attrMountedOnFileID:
			a.MountedOnFileID = v.u64()
		default:
			d.fail("attribute %d returned, which was not asked for", bit)
			return
		}
	}
	if v.err != nil {
		d.fail("attributes: %v", v.err)
		return
	}
	if len(v.b) != 0 {
		d.fail("%d bytes after the attributes", len(v.b))
	}
}

// setAttrs are the attributes the client sets; nil ones are left as they
// are.
type setAttrs struct {
	size  *uint64
	mode  *uint32
	owner *owner4
	// mtime is set to this time (SET_TO_CLIENT_TIME4).
	mtime *time.Time
}

// owner4 is a file's owner and group, as numeric ids in decimal where the
// client sets them: servers take those from AUTH_SYS clients.
type owner4 struct{ User, Group string }

// setToClientTime4 says a settime4 carries the time to set.
const setToClientTime4 = 1

// encodeFattr writes s as a fattr4: the values go in the order of their
// attribute numbers.
func encodeFattr(e *xdrEnc, s setAttrs) {
	var bits []int
	var vals xdrEnc
	if s.size != nil {
		bits = append(bits, attrSize)
		vals.u64(*s.size)
	}
	if s.mode != nil {
		bits = append(bits, attrMode)
		vals.u32(*s.mode)
	}
	if s.owner != nil {
		bits = append(bits, attrOwner, attrOwnerGroup)
		vals.str(s.owner.User)
		vals.str(s.owner.Group)
	}
	if s.mtime != nil {
		bits = append(bits, attrTimeModifySet)
		vals.u32(setToClientTime4)
		vals.nfstime(*s.mtime)
	}
	if len(bits) == 0 {
		e.bitmap(nil)
	} else {
		e.bitmap(attrMask(bits...))
	}
	e.opaque(vals.b)
}

// stateid4: seqid and 12 opaque bytes.
type stateid4 struct {
	Seqid uint32
	Other [12]byte
}

var (
	// anonymousStateid reads and writes without an OPEN, as the server's
	// permission checks allow.
	anonymousStateid = stateid4{}
	// currentStateid is the stateid the previous operation of the same
	// COMPOUND returned (RFC 8881 section 16.2.3.1.2): OPEN, WRITE and
	// CLOSE go in one round trip.
	currentStateid = stateid4{Seqid: 1}
)

func (e *xdrEnc) stateid(s stateid4) {
	e.u32(s.Seqid)
	e.fixed(s.Other[:])
}

func (d *xdrDec) stateid() stateid4 {
	var s stateid4
	s.Seqid = d.u32()
	copy(s.Other[:], d.fixed(12))
	return s
}

func skipChangeInfo(d *xdrDec) {
	d.boolean()
	d.u64()
	d.u64()
}

func opPutrootfh() nfs4Op { return nfs4Op{code: op4Putrootfh} }

func opPutfh(fh []byte) nfs4Op {
	return nfs4Op{code: op4Putfh, enc: func(e *xdrEnc) { e.opaque(fh) }}
}

func opLookup(name string) nfs4Op {
	return nfs4Op{code: op4Lookup, enc: func(e *xdrEnc) { e.str(name) }}
}

func opGetfh(fh *[]byte) nfs4Op {
	return nfs4Op{code: op4Getfh, dec: func(d *xdrDec) { *fh = append([]byte(nil), d.opaque(nfs4FHSize)...) }}
}

func opGetattr(mask []uint32, a *attrs4) nfs4Op {
	return nfs4Op{code: op4Getattr, enc: func(e *xdrEnc) { e.bitmap(mask) }, dec: func(d *xdrDec) { decodeFattr(d, a) }}
}

func opSavefh() nfs4Op    { return nfs4Op{code: op4Savefh} }
func opRestorefh() nfs4Op { return nfs4Op{code: op4Restorefh} }

// opCreate is CREATE of name in the current directory, a directory or
// (typ nf4Lnk) a link to target, which then becomes the current filehandle.
func opCreate(typ uint32, target, name string, attrs setAttrs) nfs4Op {
	return nfs4Op{code: op4Create, mutates: true, enc: func(e *xdrEnc) {
		e.u32(typ)
		if typ == nf4Lnk {
			e.str(target)
		}
		e.str(name)
		encodeFattr(e, attrs)
	}, dec: func(d *xdrDec) {
		skipChangeInfo(d)
		d.bitmap()
	}}
}

func opMkdir(name string, mode uint32) nfs4Op {
	return opCreate(nf4Dir, "", name, setAttrs{mode: &mode})
}

// opSymlink makes the link name to target. It sets no attributes: a
// link's mode means nothing, and some servers refuse to set one.
func opSymlink(target, name string) nfs4Op {
	return opCreate(nf4Lnk, target, name, setAttrs{})
}

func opReadlink(target *string) nfs4Op {
	return nfs4Op{code: op4Readlink, dec: func(d *xdrDec) { *target = d.str(maxLink) }}
}

func opSetattr(sid stateid4, s setAttrs) nfs4Op {
	return nfs4Op{code: op4Setattr, mutates: true, always: true, enc: func(e *xdrEnc) {
		e.stateid(sid)
		encodeFattr(e, s)
	}, dec: func(d *xdrDec) { d.bitmap() }}
}

func opRemove(name string) nfs4Op {
	return nfs4Op{code: op4Remove, mutates: true, enc: func(e *xdrEnc) { e.str(name) }, dec: skipChangeInfo}
}

// opRename renames oldName in the saved directory to newName in the
// current one.
func opRename(oldName, newName string) nfs4Op {
	return nfs4Op{code: op4Rename, mutates: true, enc: func(e *xdrEnc) {
		e.str(oldName)
		e.str(newName)
	}, dec: func(d *xdrDec) {
		skipChangeInfo(d)
		skipChangeInfo(d)
	}}
}

// dirEntry4 is one READDIR entry.
type dirEntry4 struct {
	Cookie uint64
	Name   string
	Attrs  attrs4
}

// readdir4Page is one READDIR reply. Entries are the names a caller may
// use: "." and "..", which no NFSv4 server should list, are left out, and
// a reply with a name that is no entry name does not decode (share.ListedName).
type readdir4Page struct {
	Verf    [8]byte
	Entries []dirEntry4
	EOF     bool
	// Listed counts the entries of the reply, those left out too, and
	// Cookie is the last one's: where the next READDIR starts.
	Listed int
	Cookie uint64
}

func opReaddir(cookie uint64, verf [8]byte, dircount, maxcount uint32, mask []uint32, page *readdir4Page) nfs4Op {
	return nfs4Op{code: op4Readdir, enc: func(e *xdrEnc) {
		e.u64(cookie)
		e.fixed(verf[:])
		e.u32(dircount)
		e.u32(maxcount)
		e.bitmap(mask)
	}, dec: func(d *xdrDec) {
		*page = readdir4Page{}
		copy(page.Verf[:], d.fixed(8))
		// An entry is at least its cookie, an empty name, an empty bitmap,
		// empty values and the next-entry flag: 24 bytes.
		for d.err == nil && d.boolean() {
			if len(d.b) < 20 {
				d.fail("truncated directory entry")
				return
			}
			var ent dirEntry4
			ent.Cookie = d.u64()
			ent.Name = d.str(maxName)
			decodeFattr(d, &ent.Attrs)
			if d.err != nil {
				return
			}
			keep, err := share.ListedName(ent.Name, share.UnixNames)
			if err != nil {
				d.fail("directory entry: %w", err)
				return
			}
			page.Listed++
			page.Cookie = ent.Cookie
			if keep {
				page.Entries = append(page.Entries, ent)
			}
		}
		page.EOF = d.boolean()
	}}
}

// OPEN constants (RFC 8881 section 18.16).
const (
	openShareAccessRead  = 1
	openShareAccessWrite = 2
	// openWantNoDeleg asks for no delegation: the client has no callback
	// channel to be asked to return one.
	openWantNoDeleg = 0x0400
	openNoCreate    = 0
	openCreate      = 1
	// How OPEN creates (createmode4): UNCHECKED creates or truncates,
	// GUARDED fails where the name is.
	createUnchecked  = 0
	createGuarded    = 1
	claimNull        = 0
	claimFH          = 4 // the current filehandle (new in v4.1)
	delegNone        = 0
	delegRead        = 1
	delegWrite       = 2
	delegNoneExt     = 3
	limitSize        = 1
	limitBlocks      = 2
	whyNoDelegConten = 1
	whyNoDelegRes    = 2
	unstable4        = 0
	fileSync4        = 2
)

// openResult is what the client keeps of an OPEN: the open stateid to close
// and a delegation's stateid to return, should a server grant one anyway.
type openResult struct {
	Stateid    stateid4
	Delegation *stateid4
}

// openArgs are what an OPEN asks for, besides its owner.
type openArgs struct {
	access uint32 // openShareAccessRead and Write
	// create: create the file with mode, or truncate it to size 0 when it
	// exists (UNCHECKED4).
	create bool
	// guarded: create only, failing where name is (GUARDED4).
	guarded bool
	mode    uint32
	// name is opened in the current directory (CLAIM_NULL, which never
	// follows a link: a link answers NFS4ERR_SYMLINK); "" opens the
	// current filehandle (CLAIM_FH).
	name string
}

// opOpen opens a file, denying nothing to others. owner is the open-owner,
// unique to the session's client ID.
func opOpen(clientID uint64, owner []byte, a openArgs, res *openResult) nfs4Op {
	return nfs4Op{code: op4Open, mutates: true, enc: func(e *xdrEnc) {
		e.u32(0) // seqid, ignored in v4.1
		e.u32(a.access | openWantNoDeleg)
		e.u32(0) // deny none
		e.u64(clientID)
		e.opaque(owner)
		if a.create {
			var zero uint64
			e.u32(openCreate)
			if a.guarded {
				e.u32(createGuarded)
			} else {
				e.u32(createUnchecked)
			}
			encodeFattr(e, setAttrs{size: &zero, mode: &a.mode})
		} else {
			e.u32(openNoCreate)
		}
		if a.name == "" {
			e.u32(claimFH)
		} else {
			e.u32(claimNull)
			e.str(a.name)
		}
	}, dec: func(d *xdrDec) { decodeOpen(d, res) }}
}

// opOpenCreate opens name in the current directory for writing, creating
// it with mode or truncating it to size 0.
func opOpenCreate(clientID uint64, owner []byte, name string, mode uint32, res *openResult) nfs4Op {
	return opOpen(clientID, owner, openArgs{access: openShareAccessWrite, create: true, mode: mode, name: name}, res)
}

func decodeOpen(d *xdrDec, res *openResult) {
	res.Stateid = d.stateid()
	skipChangeInfo(d)
	d.u32() // rflags
	d.bitmap()
	switch t := d.u32(); t {
	case delegNone:
	case delegRead, delegWrite:
		sid := d.stateid()
		res.Delegation = &sid
		d.boolean() // recall
		if t == delegWrite {
			switch lim := d.u32(); lim {
			case limitSize:
				d.u64()
			case limitBlocks:
				d.u32()
				d.u32()
			default:
				d.fail("space limit %d", lim)
			}
		}
		// nfsace4: type, flag, access mask, who.
		d.u32()
		d.u32()
		d.u32()
		d.opaque(nfs4OpaqueLimit)
	case delegNoneExt:
		switch why := d.u32(); why {
		case whyNoDelegConten, whyNoDelegRes:
			d.boolean()
		}
	default:
		d.fail("delegation type %d", t)
	}
}

// writeResult is WRITE's answer: how much was written, how stable it is
// (unstable4 to fileSync4), and the server's write verifier, which changes
// when the server restarts and loses what was not yet stable.
type writeResult struct {
	Count     uint32
	Committed uint32
	Verf      [8]byte
}

func opWrite(sid stateid4, offset uint64, data []byte, stable uint32, res *writeResult) nfs4Op {
	return nfs4Op{code: op4Write, mutates: true, enc: func(e *xdrEnc) {
		e.stateid(sid)
		e.u64(offset)
		e.u32(stable)
		e.opaque(data)
	}, dec: func(d *xdrDec) {
		res.Count = d.u32()
		res.Committed = d.u32()
		copy(res.Verf[:], d.fixed(8))
	}}
}

// opCommit makes the whole file's unstable writes stable; verf is the
// write verifier to compare with the WRITEs'.
func opCommit(verf *[8]byte) nfs4Op {
	return nfs4Op{code: op4Commit, mutates: true, enc: func(e *xdrEnc) {
		e.u64(0) // offset and count 0: all of the file
		e.u32(0)
	}, dec: func(d *xdrDec) { copy(verf[:], d.fixed(8)) }}
}

func opRead(sid stateid4, offset uint64, count uint32, data *[]byte, eof *bool) nfs4Op {
	return nfs4Op{code: op4Read, enc: func(e *xdrEnc) {
		e.stateid(sid)
		e.u64(offset)
		e.u32(count)
	}, dec: func(d *xdrDec) {
		*eof = d.boolean()
		b := d.opaque(int(count))
		*data = append((*data)[:0], b...)
	}}
}

func opClose(sid stateid4) nfs4Op {
	return nfs4Op{code: op4Close, mutates: true, enc: func(e *xdrEnc) {
		e.u32(0)
		e.stateid(sid)
	}, dec: func(d *xdrDec) { d.stateid() }}
}

const op4Delegreturn = 8

func opDelegreturn(sid stateid4) nfs4Op {
	return nfs4Op{code: op4Delegreturn, mutates: true, enc: func(e *xdrEnc) { e.stateid(sid) }}
}

// sequenceArgs and the session operations (RFC 8881 section 18.46 and
// following).
type sequenceRes struct {
	SessionID   [16]byte
	Seqid       uint32
	Slot        uint32
	StatusFlags uint32
}

func opSequence(session [16]byte, seqid, slot uint32, res *sequenceRes) nfs4Op {
	return nfs4Op{code: op4Sequence, enc: func(e *xdrEnc) {
		e.fixed(session[:])
		e.u32(seqid)
		e.u32(slot)
		e.u32(slot) // highest slot in use: the client uses one
		e.boolean(false)
	}, dec: func(d *xdrDec) {
		copy(res.SessionID[:], d.fixed(16))
		res.Seqid = d.u32()
		res.Slot = d.u32()
		d.u32() // highest slot
		d.u32() // target highest slot
		res.StatusFlags = d.u32()
	}}
}

// exchangeIDRes is what the client keeps of EXCHANGE_ID.
type exchangeIDRes struct {
	ClientID uint64
	Seqid    uint32
}

// exchgidUseNonPNFS says the client wants a plain NFS server, no pNFS roles.
const exchgidUseNonPNFS = 0x00010000

func opExchangeID(verifier [8]byte, owner []byte, res *exchangeIDRes) nfs4Op {
	return nfs4Op{code: op4ExchangeID, enc: func(e *xdrEnc) {
		e.fixed(verifier[:])
		e.opaque(owner)
		e.u32(exchgidUseNonPNFS)
		e.u32(0) // SP4_NONE
		e.u32(0) // no implementation ID
	}, dec: func(d *xdrDec) {
		res.ClientID = d.u64()
		res.Seqid = d.u32()
		d.u32() // flags
		switch how := d.u32(); how {
		case 0:
		case 1: // SP4_MACH_CRED
			d.bitmap()
			d.bitmap()
		case 2: // SP4_SSV
			d.bitmap()
			d.bitmap()
			d.u32()
			d.u32()
			d.u32()
			d.u32()
			for range d.count(4) {
				d.opaque(nfs4OpaqueLimit)
			}
		default:
			d.fail("state protection %d", how)
		}
		d.u64()                   // server owner minor ID
		d.opaque(nfs4OpaqueLimit) // server owner major ID
		d.opaque(nfs4OpaqueLimit) // server scope
		switch n := d.u32(); n {
		case 0:
		case 1:
			d.opaque(nfs4OpaqueLimit)
			d.opaque(nfs4OpaqueLimit)
			d.u64()
			d.u32()
		default:
			d.fail("%d implementation IDs", n)
		}
	}}
}

// channelAttrs are a session channel's limits (channel_attrs4).
type channelAttrs struct {
	HeaderPad, MaxRequest, MaxResponse, MaxResponseCached, MaxOps, MaxRequests uint32
}

func (e *xdrEnc) channelAttrs(c channelAttrs) {
	e.u32(c.HeaderPad)
	e.u32(c.MaxRequest)
	e.u32(c.MaxResponse)
	e.u32(c.MaxResponseCached)
	e.u32(c.MaxOps)
	e.u32(c.MaxRequests)
	e.u32(0) // no RDMA
}

func (d *xdrDec) channelAttrs() channelAttrs {
	c := channelAttrs{d.u32(), d.u32(), d.u32(), d.u32(), d.u32(), d.u32()}
	switch n := d.u32(); n {
	case 0:
	case 1:
		d.u32()
	default:
		d.fail("%d RDMA attributes", n)
	}
	return c
}

type createSessionRes struct {
	SessionID [16]byte
	Fore      channelAttrs
}

// cbProgram is the callback program number the client names; it never
// binds a back channel, so no callback ever arrives.
const cbProgram = 0x40000000

func opCreateSession(clientID uint64, seqid uint32, fore, back channelAttrs, res *createSessionRes) nfs4Op {
	return nfs4Op{code: op4CreateSession, enc: func(e *xdrEnc) {
		e.u64(clientID)
		e.u32(seqid)
		e.u32(0) // flags: not persistent, no back channel on this connection
		e.channelAttrs(fore)
		e.channelAttrs(back)
		e.u32(cbProgram)
		e.u32(1) // one callback security flavour:
		e.u32(0) // AUTH_NONE
	}, dec: func(d *xdrDec) {
		copy(res.SessionID[:], d.fixed(16))
		d.u32() // sequence
		d.u32() // flags
		res.Fore = d.channelAttrs()
		d.channelAttrs()
	}}
}

func opDestroySession(session [16]byte) nfs4Op {
	return nfs4Op{code: op4DestroySession, enc: func(e *xdrEnc) { e.fixed(session[:]) }}
}

func opDestroyClientID(clientID uint64) nfs4Op {
	return nfs4Op{code: op4DestroyClientID, enc: func(e *xdrEnc) { e.u64(clientID) }}
}

func opReclaimComplete() nfs4Op {
	return nfs4Op{code: op4ReclaimComplete, enc: func(e *xdrEnc) { e.boolean(false) }}
}

// String names an operation list for messages and tests.
func opNames(ops []nfs4Op) string {
	s := ""
	for i, op := range ops {
		if i > 0 {
			s += "+"
		}
		s += op4Name(op.code)
	}
	return s
}
