package smb2

// This file is fileshare-csi's patch to go-smb2 (third_party/README.md):
// the small file operations a provisioning controller makes, each sent as
// one SMB2 compound (MS-SMB2 3.2.4.1.4): a CREATE, the related requests on
// the handle it opens, and the CLOSE, in one message and one round trip,
// where the library sends each request on its own. It uses the library's
// own compound sender (sendCompound), so signing, encryption and credits
// work as for every other request.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cloudsoda/go-smb2/internal/erref"
	"github.com/cloudsoda/go-smb2/internal/smb2"
)

// compoundPayloadMax bounds what one request of a chain carries, so that
// it costs one credit: a larger write or read takes the library's path.
const compoundPayloadMax = 64 * 1024

// errNoCompoundCredits says the connection could not lend the credits of a
// whole chain at once: the operation takes the library's path instead.
var errNoCompoundCredits = errors.New("not enough credits for a compound")

// chainStep is one request on the handle a chain's CREATE opened; its
// FileId must be the sentinel (set by chain).
type chainStep struct {
	cmd uint16
	req smb2.Packet
}

// chainSpec is one file's part of a compound: CREATE of name, steps on
// the handle it opens, and CLOSE (none when keep: the handle stays open).
type chainSpec struct {
	name   string
	create *smb2.CreateRequest
	steps  []chainStep
	// keep leaves the handle open for the caller (chainOut.file), who goes
	// on reading it: OpenID's CREATE and QUERY_INFO.
	keep bool
}

// chainOut is what one chainSpec got: the CREATE's and the steps' response
// bodies (a step that failed has none), and the first error. file is the
// handle a keep part's CREATE opened, whatever its steps got: the caller
// closes it.
type chainOut struct {
	create []byte
	steps  [][]byte
	err    error
	file   *File
}

// requests is how many requests sp's part of a compound is.
func (sp chainSpec) requests() int {
	if sp.keep {
		return len(sp.steps) + 1
	}
	return len(sp.steps) + 2
}

// chain sends one chainSpec as one related compound.
func (fs *Share) chain(name string, create *smb2.CreateRequest, steps ...chainStep) ([]byte, [][]byte, error) {
	outs, err := fs.chains([]chainSpec{{name: name, create: create, steps: steps}})
	if err != nil {
		return nil, nil, err
	}
	return outs[0].create, outs[0].steps, outs[0].err
}

// chains sends several files' chains as one related compound, in one
// message: MS-SMB2 3.3.5.2.7.2 has the server handle a related chain's
// operations in order, each CREATE making the handle the requests after
// it use, so each file's part stands on its own (a failed CREATE fails only
// the requests on its handle). The error is the whole message's (no
// credits for it, a broken connection); each part has its own outcome. A
// handle a part's CLOSE did not close (a server that fails the rest of a
// part after a failed step) is closed on its own, so no handle outlives the
// call.
func (fs *Share) chains(specs []chainSpec) ([]chainOut, error) {
	n := 0
	for _, sp := range specs {
		n += sp.requests()
	}
	granted, _, err := fs.session.conn.account.borrow(fs.ctx, uint16(n))
	if err != nil {
		return nil, err
	}
	if int(granted) < n {
		fs.session.conn.refundCredits(granted)
		return nil, errNoCompoundCredits
	}
	entries := make([]compoundEntry, 0, n)
	cmds := make([]uint16, 0, n)
	for _, sp := range specs {
		sp.create.CreditCharge = 1
		sp.create.Name = sp.name
		entries = append(entries, compoundEntry{req: sp.create, tc: fs.treeConn, related: len(entries) > 0})
		cmds = append(cmds, smb2.SMB2_CREATE)
		for _, s := range sp.steps {
			s.req.Header().CreditCharge = 1
			entries = append(entries, compoundEntry{req: s.req, tc: fs.treeConn, related: true})
			cmds = append(cmds, s.cmd)
		}
		if sp.keep {
			continue
		}
		entries = append(entries, compoundEntry{
			req:     &smb2.CloseRequest{PacketHeader: smb2.PacketHeader{CreditCharge: 1}, FileId: sentinelFileId},
			tc:      fs.treeConn,
			related: true,
		})
		cmds = append(cmds, smb2.SMB2_CLOSE)
	}

	rrs, err := fs.treeConn.sendCompound(fs.ctx, entries)
	if err != nil {
		return nil, err
	}
	bodies := make([][]byte, n)
	errs := make([]error, n)
	for i, rr := range rrs {
		pkt, err := fs.treeConn.recv(rr)
		if err == nil {
			var res []byte
			if res, err = accept(cmds[i], pkt); err == nil {
				bodies[i] = append([]byte(nil), res...)
			}
		}
		errs[i] = err
	}
	outs := make([]chainOut, len(specs))
	at := 0
	for k, sp := range specs {
		m := sp.requests()
		outs[k] = fs.chainResult(sp, bodies[at:at+m], errs[at:at+m])
		at += m
	}
	return outs, nil
}

// chainResult reads one part's responses. The bodies of the steps that
// answered stay with a failed one's error: a caller that checks what one
// step said (OpenID's file ID) does so whatever a later step got.
func (fs *Share) chainResult(sp chainSpec, bodies [][]byte, errs []error) chainOut {
	name := sp.name
	n := len(bodies)
	if errs[0] != nil {
		return chainOut{err: errs[0]}
	}
	cr := smb2.CreateResponseDecoder(bodies[0])
	if cr.IsInvalid() {
		return chainOut{err: &InvalidResponseError{"broken create response format"}}
	}
	if sp.keep {
		out := chainOut{create: bodies[0], steps: bodies[1:], file: fs.newFile(cr, name)}
		for _, err := range errs[1:] {
			if err != nil {
				out.err = err
				break
			}
		}
		return out
	}
	if errs[n-1] != nil {
		// The part's CLOSE did not close the handle: close it by its ID.
		f := &File{fs: fs, fd: cr.FileId().Decode(), name: name, mapping: fs.mapping}
		if err := f.close(); err != nil && !isTransport(err) {
			errs[n-1] = nil
		}
	}
	for _, err := range errs[1:] {
		if err != nil {
			return chainOut{create: bodies[0], steps: bodies[1 : n-1], err: err}
		}
	}
	return chainOut{create: bodies[0], steps: bodies[1 : n-1]}
}

func isTransport(err error) bool {
	var te *TransportError
	return errors.As(err, &te)
}

// statFrom builds a FileStat from a CREATE response and, when given, a
// FileAllInformation buffer, which adds the file's ID.
func statFrom(name string, create []byte, all []byte) (*FileStat, error) {
	r := smb2.CreateResponseDecoder(create)
	st := &FileStat{
		CreationTime:   time.Unix(0, r.CreationTime().Nanoseconds()),
		LastAccessTime: time.Unix(0, r.LastAccessTime().Nanoseconds()),
		LastWriteTime:  time.Unix(0, r.LastWriteTime().Nanoseconds()),
		ChangeTime:     time.Unix(0, r.ChangeTime().Nanoseconds()),
		EndOfFile:      r.EndofFile(),
		AllocationSize: r.AllocationSize(),
		FileAttributes: r.FileAttributes(),
		FileName:       base(name),
	}
	if all != nil {
		q := smb2.QueryInfoResponseDecoder(all)
		if q.IsInvalid() {
			return nil, &InvalidResponseError{"broken query info response format"}
		}
		info := smb2.FileAllInformationDecoder(q.OutputBuffer())
		if info.IsInvalid() {
			return nil, &InvalidResponseError{"broken query info response format"}
		}
		st.FileId = uint64(info.InternalInformation().IndexNumber())
	}
	return st, nil
}

func queryAll() chainStep {
	return chainStep{smb2.SMB2_QUERY_INFO, &smb2.QueryInfoRequest{
		InfoType:           smb2.SMB2_0_INFO_FILE,
		FileInfoClass:      smb2.FileAllInformation,
		OutputBufferLength: 4096,
		FileId:             sentinelFileId,
	}}
}

// ErrOtherFile says a path opened another file than the one whose file ID
// the caller named (OpenID, SmallOp.ID): what a listing showed at the path
// was replaced since, on a server that resolves links for its clients
// (Samba's follow symlinks) perhaps by a link to a file elsewhere, whose
// data must not pass for the listed file's.
var ErrOtherFile = errors.New("the path opened another file than the one with the file ID asked for")

// queryID asks for the open handle's FileInternalInformation (MS-FSCC
// 2.4.26): its IndexNumber is the file ID a listing gives each entry
// (FileIdBothDirectoryInformation's FileId), on Samba and Windows alike.
func queryID() chainStep {
	return chainStep{smb2.SMB2_QUERY_INFO, &smb2.QueryInfoRequest{
		InfoType:           smb2.SMB2_0_INFO_FILE,
		FileInfoClass:      smb2.FileInternalInformation,
		OutputBufferLength: 8,
		FileId:             sentinelFileId,
	}}
}

// checkID reads a FileInternalInformation QUERY_INFO response body and
// fails with ErrOtherFile unless it gives the file ID id.
func checkID(body []byte, id uint64) error {
	q := smb2.QueryInfoResponseDecoder(body)
	if q.IsInvalid() {
		return &InvalidResponseError{"broken query info response format"}
	}
	return checkIDInfo(q.OutputBuffer(), id)
}

// checkIDInfo is checkID of the FileInternalInformation buffer itself.
func checkIDInfo(info []byte, id uint64) error {
	d := smb2.FileInternalInformationDecoder(info)
	if d.IsInvalid() {
		return &InvalidResponseError{"broken file internal information format"}
	}
	if got := uint64(d.IndexNumber()); got != id {
		return fmt.Errorf("file ID %d, not %d: %w", got, id, ErrOtherFile)
	}
	return nil
}

// openReadRequest is the CREATE of Open (OpenFile with os.O_RDONLY).
func (fs *Share) openReadRequest() *smb2.CreateRequest {
	return &smb2.CreateRequest{
		RequestedOplockLevel: smb2.SMB2_OPLOCK_LEVEL_NONE,
		ImpersonationLevel:   smb2.Impersonation,
		DesiredAccess:        smb2.GENERIC_READ,
		FileAttributes:       smb2.FILE_ATTRIBUTE_NORMAL,
		ShareAccess:          smb2.FILE_SHARE_READ | smb2.FILE_SHARE_WRITE,
		CreateDisposition:    smb2.FILE_OPEN,
		CreateOptions:        smb2.FILE_SYNCHRONOUS_IO_NONALERT,
		Mapping:              fs.mapping,
	}
}

// OpenID is Open of name only when the file it opens has the file ID id,
// in as many round trips as Open: the CREATE and a QUERY_INFO of the
// handle's FileInternalInformation go in one related compound, and the
// handle stays open. Another file is closed unread and refused with
// ErrOtherFile (in an *os.PathError): a caller copying a file a listing
// showed reads that file or nothing, where a server that resolves links
// for its clients would open whatever the path leads to now. With too few
// credits for a compound, the QUERY_INFO follows the CREATE on its own.
// An id of 0 (a listing that gave none) checks nothing: Open.
func (fs *Share) OpenID(name string, id uint64) (*File, error) {
	if id == 0 {
		return fs.Open(name)
	}
	name = normPath(name)
	if err := validatePath("open", name, false); err != nil {
		return nil, err
	}
	create := fs.openReadRequest()
	outs, err := fs.chains([]chainSpec{{name: name, create: create, steps: []chainStep{queryID()}, keep: true}})
	var f *File
	switch {
	case errors.Is(err, errNoCompoundCredits):
		if f, err = fs.createFile(name, create, true); err == nil {
			var info []byte
			info, err = f.queryInfo(queryID().req.(*smb2.QueryInfoRequest))
			if err == nil {
				err = checkIDInfo(info, id)
			}
		}
	case err == nil:
		f, err = outs[0].file, outs[0].err
		if err == nil {
			err = checkID(outs[0].steps[0], id)
		}
	}
	if err != nil {
		if f != nil {
			_ = f.close()
		}
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	f.fileStat.FileId = id
	return f, nil
}

// LstatID is Lstat (name itself: a reparse point is not followed) with the
// server's file ID (FileStat.FileId), in one round trip: CREATE,
// QUERY_INFO (FileAllInformation), CLOSE.
func (fs *Share) LstatID(name string) (*FileStat, error) {
	name = normPath(name)
	if err := validatePath("lstat", name, false); err != nil {
		return nil, err
	}
	sp := fs.lstatSpec(name)
	create := sp.create
	cres, res, err := fs.chain(name, create, sp.steps...)
	if errors.Is(err, errNoCompoundCredits) {
		f, ferr := fs.createFile(name, create, false)
		if ferr != nil {
			return nil, &os.PathError{Op: "stat", Path: name, Err: ferr}
		}
		defer f.close()
		fi, ferr := f.stat()
		if ferr != nil {
			return nil, &os.PathError{Op: "stat", Path: name, Err: ferr}
		}
		st := fi.(*FileStat)
		st.FileAttributes = f.fileStat.FileAttributes
		return st, nil
	}
	if err != nil {
		return nil, &os.PathError{Op: "stat", Path: name, Err: err}
	}
	return statFrom(name, cres, res[0])
}

// MkdirID creates the directory name and returns what the server says of
// it, its file ID included, in one round trip: CREATE, QUERY_INFO, CLOSE.
func (fs *Share) MkdirID(name string) (*FileStat, error) {
	name = normPath(name)
	if err := validatePath("mkdir", name, false); err != nil {
		return nil, err
	}
	create := &smb2.CreateRequest{
		RequestedOplockLevel: smb2.SMB2_OPLOCK_LEVEL_NONE,
		ImpersonationLevel:   smb2.Impersonation,
		DesiredAccess:        smb2.FILE_WRITE_ATTRIBUTES | smb2.FILE_READ_ATTRIBUTES,
		FileAttributes:       smb2.FILE_ATTRIBUTE_NORMAL,
		ShareAccess:          smb2.FILE_SHARE_READ | smb2.FILE_SHARE_WRITE,
		CreateDisposition:    smb2.FILE_CREATE,
		CreateOptions:        smb2.FILE_DIRECTORY_FILE,
		Mapping:              fs.mapping,
	}
	cres, res, err := fs.chain(name, create, queryAll())
	if errors.Is(err, errNoCompoundCredits) {
		if err := fs.Mkdir(name, 0o777); err != nil {
			return nil, err
		}
		return fs.LstatID(name)
	}
	if err != nil {
		return nil, &os.PathError{Op: "mkdir", Path: name, Err: err}
	}
	return statFrom(name, cres, res[0])
}

// RemoveOne removes the file or empty directory name, a reparse point as
// itself, in one round trip: CREATE, SET_INFO (disposition), CLOSE. A
// read-only file is refused (os.ErrPermission), as by Remove's first try.
func (fs *Share) RemoveOne(name string) error {
	name = normPath(name)
	if err := validatePath("remove", name, false); err != nil {
		return err
	}
	sp := fs.removeSpec(name)
	_, _, err := fs.chain(name, sp.create, sp.steps...)
	if errors.Is(err, errNoCompoundCredits) {
		return fs.remove(name)
	}
	if err != nil {
		return &os.PathError{Op: "remove", Path: name, Err: err}
	}
	return nil
}

// RenameNoReplace renames oldpath (a reparse point as itself) to newpath,
// failing with os.ErrExist when newpath exists (Rename replaces it), in
// one round trip: CREATE, SET_INFO (rename), CLOSE.
func (fs *Share) RenameNoReplace(oldpath, newpath string) error {
	return fs.renameChain(oldpath, newpath, false)
}

// RenameReplace is Rename (newpath is replaced) in one round trip.
func (fs *Share) RenameReplace(oldpath, newpath string) error {
	return fs.renameChain(oldpath, newpath, true)
}

func (fs *Share) renameChain(oldpath, newpath string, replace bool) error {
	oldpath = normPath(oldpath)
	newpath = normPath(newpath)
	if err := validatePath("rename from", oldpath, false); err != nil {
		return err
	}
	if err := validatePath("rename to", newpath, false); err != nil {
		return err
	}
	var r uint8
	if replace {
		r = 1
	}
	create := &smb2.CreateRequest{
		RequestedOplockLevel: smb2.SMB2_OPLOCK_LEVEL_NONE,
		ImpersonationLevel:   smb2.Impersonation,
		DesiredAccess:        smb2.DELETE,
		FileAttributes:       smb2.FILE_ATTRIBUTE_NORMAL,
		ShareAccess:          smb2.FILE_SHARE_DELETE,
		CreateDisposition:    smb2.FILE_OPEN,
		CreateOptions:        smb2.FILE_OPEN_REPARSE_POINT,
		Mapping:              fs.mapping,
	}
	_, _, err := fs.chain(oldpath, create, chainStep{smb2.SMB2_SET_INFO, &smb2.SetInfoRequest{
		InfoType:      smb2.SMB2_0_INFO_FILE,
		FileInfoClass: smb2.FileRenameInformation,
		FileId:        sentinelFileId,
		Input: &smb2.FileRenameInformationType2Encoder{
			ReplaceIfExists: r,
			FileName:        newpath,
			Mapping:         fs.mapping,
		},
	}})
	if errors.Is(err, errNoCompoundCredits) {
		if !replace {
			if _, serr := fs.Lstat(newpath); serr == nil {
				return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: os.ErrExist}
			}
		}
		return fs.Rename(oldpath, newpath)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	return nil
}

// WriteSmallFile creates name, or truncates it, and writes data, in one
// round trip when data fits one request (compoundPayloadMax): CREATE,
// WRITE, CLOSE. Larger data takes WriteFile's path. writeThrough: the
// server has the data on stable storage before it answers (SmallOp's
// WriteThrough; the larger path sends a FLUSH before its CLOSE).
func (fs *Share) WriteSmallFile(name string, data []byte, perm os.FileMode, writeThrough bool) error {
	if len(data) > compoundPayloadMax || len(data) > int(fs.maxWriteSize) {
		return fs.writeAlone(SmallOp{Name: name, Data: data, WriteThrough: writeThrough}, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	}
	name = normPath(name)
	if err := validatePath("open", name, false); err != nil {
		return err
	}
	sp := fs.writeSpec(name, data, perm, false, writeThrough)
	_, res, err := fs.chain(name, sp.create, sp.steps...)
	if errors.Is(err, errNoCompoundCredits) {
		return fs.writeAlone(SmallOp{Name: name, Data: data, WriteThrough: writeThrough}, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	}
	if err == nil && len(res) > 0 {
		err = writeResult(res[0], len(data))
	}
	if err != nil {
		return &os.PathError{Op: "write", Path: name, Err: err}
	}
	return nil
}

// ReadSmallFile reads name whole, in one round trip when it is smaller
// than one request carries (CREATE, READ, CLOSE); a larger file is read
// again through readBounded, and one larger than smallFileMax is refused.
func (fs *Share) ReadSmallFile(name string) ([]byte, error) {
	return fs.readSmall(name, 0)
}

// readSmall is ReadSmallFile of the file with file ID id only, when id is
// not 0 (SmallOp.ID).
func (fs *Share) readSmall(name string, id uint64) ([]byte, error) {
	name = normPath(name)
	if err := validatePath("open", name, false); err != nil {
		return nil, err
	}
	outs, err := fs.chains([]chainSpec{fs.readSpec(name, id)})
	if errors.Is(err, errNoCompoundCredits) {
		return fs.readBounded(name, id)
	}
	var data []byte
	if err == nil {
		data, err = fs.readOut(name, id, outs[0])
	}
	if err != nil {
		var pe *os.PathError
		if !errors.As(err, &pe) {
			err = &os.PathError{Op: "read", Path: name, Err: err}
		}
		return nil, err
	}
	return data, nil
}

// smallFileMax bounds what ReadSmallFile reads: the files it is for
// (records) are a few KiB. fileshare-csi's NFS clients stop at the same
// size.
const smallFileMax = 1 << 20

// errNotSmall is a file ReadSmallFile will not read: larger than
// smallFileMax.
var errNotSmall = errors.New("larger than 1 MiB, not a metadata file")

// readBounded reads name through the library's open and reads, as
// ReadFile does, but never more than smallFileMax: ReadFile allocates the
// size the server's CREATE response claims, so a server that says 1 PiB
// panics the process (makeslice) and one that says a few hundred GiB runs
// it out of memory. Neither the size claimed nor the data sent can make it
// allocate more than smallFileMax and a READ. An id that is not 0 is the
// file ID the file must have (OpenID).
func (fs *Share) readBounded(name string, id uint64) ([]byte, error) {
	f, err := fs.OpenID(name, id)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if f.fileStat.EndOfFile > smallFileMax {
		return nil, &os.PathError{Op: "read", Path: name, Err: errNotSmall}
	}
	var data []byte
	chunk := make([]byte, fs.readMax())
	for {
		n, err := f.Read(chunk)
		data = append(data, chunk[:n]...)
		if len(data) > smallFileMax {
			return nil, &os.PathError{Op: "read", Path: name, Err: errNotSmall}
		}
		// No data without an error is the end too: a server that
		// answers so would otherwise be asked again for ever.
		if err == io.EOF || (err == nil && n == 0) {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// StatID is Stat with the server's file ID, in one round trip (CREATE,
// QUERY_INFO, CLOSE) where the server resolves the path itself; a link the
// client must resolve (STATUS_STOPPED_ON_SYMLINK) takes Stat's path.
func (fs *Share) StatID(name string) (*FileStat, error) {
	name = normPath(name)
	if err := validatePath("stat", name, false); err != nil {
		return nil, err
	}
	create := &smb2.CreateRequest{
		RequestedOplockLevel: smb2.SMB2_OPLOCK_LEVEL_NONE,
		ImpersonationLevel:   smb2.Impersonation,
		DesiredAccess:        smb2.FILE_READ_ATTRIBUTES,
		FileAttributes:       smb2.FILE_ATTRIBUTE_NORMAL,
		ShareAccess:          smb2.FILE_SHARE_READ | smb2.FILE_SHARE_WRITE | smb2.FILE_SHARE_DELETE,
		CreateDisposition:    smb2.FILE_OPEN,
		Mapping:              fs.mapping,
	}
	cres, res, err := fs.chain(name, create, queryAll())
	var re *ResponseError
	if errors.Is(err, errNoCompoundCredits) || errors.As(err, &re) && erref.NtStatus(re.Code) == erref.STATUS_STOPPED_ON_SYMLINK {
		fi, err := fs.Stat(name)
		if err != nil {
			return nil, err
		}
		return fi.(*FileStat), nil
	}
	if err != nil {
		return nil, &os.PathError{Op: "stat", Path: name, Err: err}
	}
	return statFrom(name, cres, res[0])
}
