package smb2

// Batch: several files' small operations in one related compound (part of
// fileshare-csi's patch, third_party/README.md). A provisioning controller
// writes a record, a mark and an intent, or reads a record and looks at a
// directory, at once: one round trip instead of one per file.

import (
	"errors"
	"os"

	"github.com/cloudsoda/go-smb2/internal/erref"
	"github.com/cloudsoda/go-smb2/internal/smb2"
)

// SmallOpKind names one operation of Batch.
type SmallOpKind uint8

const (
	// SmallStat is LstatID: a reparse point as itself, with the file ID.
	SmallStat SmallOpKind = iota + 1
	// SmallRead is ReadSmallFile.
	SmallRead
	// SmallCreate writes Data into a new file; os.ErrExist where Name is.
	SmallCreate
	// SmallWrite is WriteSmallFile (0644): Name created or replaced.
	SmallWrite
	// SmallRemove is RemoveOne: a file or an empty directory, a reparse
	// point as itself.
	SmallRemove
	// SmallRmdir is SmallRemove of a directory only: a file there is
	// refused (STATUS_NOT_A_DIRECTORY) and stays.
	SmallRmdir
)

// SmallOp is one operation of Batch, on a path from the share's root.
type SmallOp struct {
	Kind SmallOpKind
	Name string
	Data []byte
	// Info, for SmallCreate and SmallWrite, is FileBasicInformation
	// (MS-FSCC 2.4.7, wire format) set on the handle after the write and
	// before its CLOSE: a copied file's time and attributes.
	Info []byte
	// WriteThrough, for SmallCreate and SmallWrite, asks the server to have
	// Data on stable storage before it answers (the WRITE's
	// SMB2_WRITEFLAG_WRITE_THROUGH and the CREATE's FILE_WRITE_THROUGH), as
	// NFS's FILE_SYNC: for a record a commit rests on, which a server's
	// power cut must not take back once acknowledged.
	WriteThrough bool
	// ID, for SmallRead when not 0, is the file ID the file read must have
	// (OpenID's check, by a QUERY_INFO in the same chain): another file's
	// data is not returned, and Err wraps ErrOtherFile.
	ID uint64
}

// SmallResult is what one SmallOp did.
type SmallResult struct {
	Stat *FileStat // SmallStat
	Data []byte    // SmallRead
	Err  error
}

// Batch runs ops in one related compound, in the order given, each
// whatever the others' outcome. What does not fit one message (too few
// credits lent, a payload larger than one request) runs on its own, through
// the method each kind names.
func (fs *Share) Batch(ops []SmallOp) []SmallResult {
	res := make([]SmallResult, len(ops))
	var specs []chainSpec
	var at []int
	for i, op := range ops {
		name := normPath(op.Name)
		if err := validatePath("batch", name, false); err != nil {
			res[i].Err = err
			continue
		}
		sp, ok := fs.smallSpec(op, name)
		if !ok {
			res[i] = fs.smallAlone(op)
			continue
		}
		specs = append(specs, sp)
		at = append(at, i)
	}
	if len(specs) == 0 {
		return res
	}
	outs, err := fs.chains(specs)
	if errors.Is(err, errNoCompoundCredits) {
		for _, i := range at {
			res[i] = fs.smallAlone(ops[i])
		}
		return res
	}
	for k, i := range at {
		if err != nil {
			res[i].Err = &os.PathError{Op: "batch", Path: specs[k].name, Err: err}
			continue
		}
		res[i] = fs.smallResult(ops[i], specs[k].name, outs[k])
	}
	return res
}

// smallSpec is the chain of one SmallOp; false when it takes its method's
// own path (a payload larger than one request carries).
func (fs *Share) smallSpec(op SmallOp, name string) (chainSpec, bool) {
	kind, data, info := op.Kind, op.Data, op.Info
	switch kind {
	case SmallStat:
		return fs.lstatSpec(name), true
	case SmallRead:
		return fs.readSpec(name, op.ID), true
	case SmallCreate, SmallWrite:
		if len(data) > compoundPayloadMax || len(data) > int(fs.maxWriteSize) {
			return chainSpec{}, false
		}
		sp := fs.writeSpec(name, data, 0o644, kind == SmallCreate, op.WriteThrough)
		if info != nil {
			sp.steps = append(sp.steps, chainStep{smb2.SMB2_SET_INFO, &smb2.SetInfoRequest{
				InfoType:      smb2.SMB2_0_INFO_FILE,
				FileInfoClass: fileBasicInformation,
				FileId:        sentinelFileId,
				Input:         rawInput(info),
			}})
		}
		return sp, true
	case SmallRemove, SmallRmdir:
		sp := fs.removeSpec(name)
		if kind == SmallRmdir {
			sp.create.CreateOptions |= smb2.FILE_DIRECTORY_FILE
		}
		return sp, true
	}
	return chainSpec{}, false
}

// smallAlone runs one SmallOp through its method.
func (fs *Share) smallAlone(op SmallOp) SmallResult {
	var r SmallResult
	switch op.Kind {
	case SmallStat:
		r.Stat, r.Err = fs.LstatID(op.Name)
	case SmallRead:
		r.Data, r.Err = fs.readSmall(op.Name, op.ID)
	case SmallCreate:
		r.Err = fs.writeAlone(op, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	case SmallWrite:
		if op.Info != nil {
			r.Err = fs.writeAlone(op, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644) // as Create opens
			break
		}
		r.Err = fs.WriteSmallFile(op.Name, op.Data, 0o644, op.WriteThrough)
	case SmallRemove:
		r.Err = fs.RemoveOne(op.Name)
	case SmallRmdir:
		if st, err := fs.LstatID(op.Name); err != nil {
			r.Err = err
		} else if !st.IsDir() {
			r.Err = &os.PathError{Op: "rmdir", Path: op.Name, Err: os.ErrInvalid}
		} else {
			r.Err = fs.RemoveOne(op.Name)
		}
	default:
		r.Err = &os.PathError{Op: "batch", Path: op.Name, Err: os.ErrInvalid}
	}
	return r
}

// writeAlone is a write SmallOp larger than one request: the library's
// open (flag) and writes, then the information, if any, on the same handle.
func (fs *Share) writeAlone(op SmallOp, flag int, perm os.FileMode) error {
	f, err := fs.OpenFile(op.Name, flag, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(op.Data)
	if err == nil && op.Info != nil {
		err = f.SetInfo(fileBasicInformation, op.Info)
	}
	if err == nil && op.WriteThrough {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// smallResult reads one SmallOp's part of the compound.
func (fs *Share) smallResult(op SmallOp, name string, out chainOut) SmallResult {
	var r SmallResult
	verb := map[SmallOpKind]string{SmallStat: "stat", SmallRead: "read", SmallCreate: "create", SmallWrite: "write", SmallRemove: "remove", SmallRmdir: "rmdir"}[op.Kind]
	err := out.err
	switch op.Kind {
	case SmallStat:
		if err == nil {
			r.Stat, err = statFrom(name, out.create, out.steps[0])
		}
	case SmallRead:
		r.Data, err = fs.readOut(name, op.ID, out)
	case SmallCreate, SmallWrite:
		if err == nil && len(op.Data) > 0 {
			err = writeResult(out.steps[0], len(op.Data))
		}
	}
	if err != nil {
		var pe *os.PathError
		if !errors.As(err, &pe) {
			err = &os.PathError{Op: verb, Path: name, Err: err}
		}
		r.Err = err
	}
	return r
}

// fileBasicInformation is the FileInfoClass of FileBasicInformation
// (MS-FSCC 2.4.7).
const fileBasicInformation = 4

// readOut is the data of a read chain (readSpec) of the file with file ID
// id (any, when 0): the ID is checked before anything else, so the data
// of another file, or its "empty" (STATUS_END_OF_FILE), is never taken for
// the one asked for.
func (fs *Share) readOut(name string, id uint64, out chainOut) ([]byte, error) {
	steps, err := out.steps, out.err
	if id != 0 {
		if len(steps) == 0 || steps[0] == nil {
			// The CREATE or the QUERY_INFO failed: err says why.
			if err == nil {
				err = &InvalidResponseError{"no query info response"}
			}
			return nil, err
		}
		if cerr := checkID(steps[0], id); cerr != nil {
			return nil, cerr
		}
		steps = steps[1:]
	}
	return fs.readResult(name, id, steps, err)
}

// readResult is a read chain's data: a file at its end answers
// STATUS_END_OF_FILE (empty), and one as long as the read asked for is
// read again whole, up to smallFileMax (readBounded, of the file with
// file ID id where that is not 0).
func (fs *Share) readResult(name string, id uint64, steps [][]byte, err error) ([]byte, error) {
	var re *ResponseError
	switch {
	case errors.As(err, &re) && erref.NtStatus(re.Code) == erref.STATUS_END_OF_FILE:
		return []byte{}, nil
	case err != nil:
		return nil, err
	}
	r := smb2.ReadResponseDecoder(steps[0])
	if r.IsInvalid() {
		return nil, &InvalidResponseError{"broken read response format"}
	}
	data := r.Data()
	if len(data) >= fs.readMax() {
		return fs.readBounded(name, id)
	}
	return data, nil
}

func writeResult(body []byte, n int) error {
	w := smb2.WriteResponseDecoder(body)
	if w.IsInvalid() {
		return &InvalidResponseError{"broken write response format"}
	}
	if int(w.Count()) != n {
		return &InternalError{"short write"}
	}
	return nil
}

func (fs *Share) readMax() int { return min(compoundPayloadMax, int(fs.maxReadSize)) }

func (fs *Share) lstatSpec(name string) chainSpec {
	return chainSpec{name: name, create: &smb2.CreateRequest{
		RequestedOplockLevel: smb2.SMB2_OPLOCK_LEVEL_NONE,
		ImpersonationLevel:   smb2.Impersonation,
		DesiredAccess:        smb2.FILE_READ_ATTRIBUTES,
		FileAttributes:       smb2.FILE_ATTRIBUTE_NORMAL,
		ShareAccess:          smb2.FILE_SHARE_READ | smb2.FILE_SHARE_WRITE | smb2.FILE_SHARE_DELETE,
		CreateDisposition:    smb2.FILE_OPEN,
		CreateOptions:        smb2.FILE_OPEN_REPARSE_POINT,
		Mapping:              fs.mapping,
	}, steps: []chainStep{queryAll()}}
}

// readSpec reads name whole: CREATE, READ, CLOSE, and, when id is not 0,
// a QUERY_INFO of the file's ID before the READ (readOut checks it), in
// the same round trip.
func (fs *Share) readSpec(name string, id uint64) chainSpec {
	sp := chainSpec{name: name, create: &smb2.CreateRequest{
		RequestedOplockLevel: smb2.SMB2_OPLOCK_LEVEL_NONE,
		ImpersonationLevel:   smb2.Impersonation,
		DesiredAccess:        smb2.GENERIC_READ,
		FileAttributes:       smb2.FILE_ATTRIBUTE_NORMAL,
		ShareAccess:          smb2.FILE_SHARE_READ | smb2.FILE_SHARE_WRITE,
		CreateDisposition:    smb2.FILE_OPEN,
		CreateOptions:        smb2.FILE_SYNCHRONOUS_IO_NONALERT | smb2.FILE_NON_DIRECTORY_FILE,
		Mapping:              fs.mapping,
	}}
	if id != 0 {
		sp.steps = append(sp.steps, queryID())
	}
	sp.steps = append(sp.steps, chainStep{smb2.SMB2_READ, &smb2.ReadRequest{Length: uint32(fs.readMax()), FileId: sentinelFileId}})
	return sp
}

// writeSpec creates name (only where none is, when exclusive) or
// truncates it, and writes data, which fits one request; no WRITE for an
// empty file. through: written through to stable storage (SmallOp's
// WriteThrough).
func (fs *Share) writeSpec(name string, data []byte, perm os.FileMode, exclusive, through bool) chainSpec {
	var attrs uint32 = smb2.FILE_ATTRIBUTE_NORMAL
	if perm&0o200 == 0 {
		attrs = smb2.FILE_ATTRIBUTE_READONLY
	}
	disposition := uint32(smb2.FILE_OVERWRITE_IF)
	if exclusive {
		disposition = smb2.FILE_CREATE
	}
	sp := chainSpec{name: name, create: &smb2.CreateRequest{
		RequestedOplockLevel: smb2.SMB2_OPLOCK_LEVEL_NONE,
		ImpersonationLevel:   smb2.Impersonation,
		DesiredAccess:        smb2.GENERIC_WRITE,
		FileAttributes:       attrs,
		ShareAccess:          smb2.FILE_SHARE_READ | smb2.FILE_SHARE_WRITE,
		CreateDisposition:    disposition,
		CreateOptions:        smb2.FILE_SYNCHRONOUS_IO_NONALERT | smb2.FILE_NON_DIRECTORY_FILE,
		Mapping:              fs.mapping,
	}}
	var flags uint32
	if through {
		sp.create.CreateOptions |= smb2.FILE_WRITE_THROUGH
		flags = smb2.SMB2_WRITEFLAG_WRITE_THROUGH
	}
	if len(data) > 0 {
		sp.steps = []chainStep{{smb2.SMB2_WRITE, &smb2.WriteRequest{FileId: sentinelFileId, Flags: flags, Data: data}}}
	}
	return sp
}

func (fs *Share) removeSpec(name string) chainSpec {
	return chainSpec{name: name, create: &smb2.CreateRequest{
		RequestedOplockLevel: smb2.SMB2_OPLOCK_LEVEL_NONE,
		ImpersonationLevel:   smb2.Impersonation,
		DesiredAccess:        smb2.DELETE,
		ShareAccess:          smb2.FILE_SHARE_DELETE,
		CreateDisposition:    smb2.FILE_OPEN,
		CreateOptions:        smb2.FILE_OPEN_REPARSE_POINT,
		Mapping:              fs.mapping,
	}, steps: []chainStep{{smb2.SMB2_SET_INFO, &smb2.SetInfoRequest{
		InfoType:      smb2.SMB2_0_INFO_FILE,
		FileInfoClass: smb2.FileDispositionInformation,
		FileId:        sentinelFileId,
		Input:         &smb2.FileDispositionInformationEncoder{DeletePending: 1},
	}}}}
}
