package share

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
)

// fsid4 names a file system on the server; a directory whose fsid differs
// from its parent's is another file system (another export, or something
// mounted there on the server).
type fsid4 struct{ Major, Minor uint64 }

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
	MountedOnFileID uint64
}

func (a *attrs4) has(bit int) bool { return a.mask&(1<<bit) != 0 }

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

// setAttrs are the attributes the client sets: only the mode, and a size
// to truncate a file it replaces.
type setAttrs struct {
	size *uint64
	mode *uint32
}

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

// opMkdir is CREATE of a directory named name in the current directory,
// which then becomes the current filehandle.
func opMkdir(name string, mode uint32) nfs4Op {
	return nfs4Op{code: op4Create, mutates: true, enc: func(e *xdrEnc) {
		e.u32(nf4Dir)
		e.str(name)
		encodeFattr(e, setAttrs{mode: &mode})
	}, dec: func(d *xdrDec) {
		skipChangeInfo(d)
		d.bitmap()
	}}
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

// readdir4Page is one READDIR reply.
type readdir4Page struct {
	Verf    [8]byte
	Entries []dirEntry4
	EOF     bool
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
			page.Entries = append(page.Entries, ent)
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
	openWantNoDeleg  = 0x0400
	openNoCreate     = 0
	openCreate       = 1
	createUnchecked  = 0
	claimNull        = 0
	delegNone        = 0
	delegRead        = 1
	delegWrite       = 2
	delegNoneExt     = 3
	limitSize        = 1
	limitBlocks      = 2
	whyNoDelegConten = 1
	whyNoDelegRes    = 2
	fileSync4        = 2
)

// openResult is what the client keeps of an OPEN: the open stateid to close
// and a delegation's stateid to return, should a server grant one anyway.
type openResult struct {
	Stateid    stateid4
	Delegation *stateid4
}

// opOpenCreate opens name in the current directory for writing, creating
// it with mode or truncating it to size 0 (UNCHECKED4). owner is the
// open-owner, unique to the session's client ID.
func opOpenCreate(clientID uint64, owner []byte, name string, mode uint32, res *openResult) nfs4Op {
	var zero uint64
	return nfs4Op{code: op4Open, mutates: true, enc: func(e *xdrEnc) {
		e.u32(0) // seqid, ignored in v4.1
		e.u32(openShareAccessWrite | openWantNoDeleg)
		e.u32(0) // deny none
		e.u64(clientID)
		e.opaque(owner)
		e.u32(openCreate)
		e.u32(createUnchecked)
		encodeFattr(e, setAttrs{size: &zero, mode: &mode})
		e.u32(claimNull)
		e.str(name)
	}, dec: func(d *xdrDec) { decodeOpen(d, res) }}
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

func opWrite(sid stateid4, offset uint64, data []byte, written *uint32) nfs4Op {
	return nfs4Op{code: op4Write, mutates: true, enc: func(e *xdrEnc) {
		e.stateid(sid)
		e.u64(offset)
		e.u32(fileSync4)
		e.opaque(data)
	}, dec: func(d *xdrDec) {
		*written = d.u32()
		d.u32()    // committed
		d.fixed(8) // verifier
	}}
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
