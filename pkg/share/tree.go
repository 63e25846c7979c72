package share

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// EntryType is what kind of object a directory entry is, as the server shows it.
type EntryType uint8

const (
	// TypeOther is anything a copy does not reproduce: devices, sockets,
	// FIFOs, reparse points that are not symlinks.
	TypeOther EntryType = iota
	TypeFile
	TypeDir
	TypeSymlink
)

func (t EntryType) String() string {
	switch t {
	case TypeFile:
		return "file"
	case TypeDir:
		return "directory"
	case TypeSymlink:
		return "symlink"
	}
	return "other"
}

// Attr is what a snapshot or clone keeps of one entry, and what a walk
// needs to decide whether it may enter a directory.
type Attr struct {
	Type EntryType
	// Mode is the permission bits with fs.ModeSetuid, fs.ModeSetgid and
	// fs.ModeSticky, where the protocol carries Unix modes (HasMode).
	Mode    fs.FileMode
	HasMode bool
	// UID and GID are numeric owners, where the protocol carries them
	// (HasOwner): NFSv3 always, NFSv4.1 when the server answers numeric ids.
	UID, GID uint32
	HasOwner bool
	// OwnerName and GroupName are the owners as an NFSv4 server names them
	// when it does not answer numbers ("alice@example.com"): a copy onto an
	// NFSv4 share passes them on as they are, since they cannot be this
	// machine's ids.
	OwnerName, GroupName string
	Size                 int64
	ModTime              time.Time
	// DOSAttributes are the SMB file attributes a copy keeps (read-only,
	// hidden, system, archive: MS-FSCC 2.6); 0 on NFS.
	DOSAttributes uint32
	// Sparse says the server has fewer bytes allocated to the file than
	// its size (holes), where the protocol tells (SMB). A server-side copy
	// would write the holes out, so such a file is streamed instead.
	Sparse bool
	// Handle is the server's handle for the entry where a listing gave one
	// (NFSv3 READDIRPLUS), as opaque bytes: an EntryOpener opens by it
	// without looking the path up again.
	Handle string
	// ID is the server's file ID (0 when the server gives none). It must be
	// set for directories: the walks decide by it whether they may enter.
	ID uint64
	// FSID names the file system the entry is on, where the protocol says
	// (NFS); entries on another file system than the walk's top (a mount on
	// the server inside a volume) are never entered.
	FSID [2]uint64
}

// DirEntry is one name in a directory listing, with its attributes.
type DirEntry struct {
	Name string
	Attr Attr
}

// ErrNoDOSAttributes says a SetAttr set everything asked but the DOS
// attributes, which the server cannot store: a copy goes on without them.
var ErrNoDOSAttributes = fmt.Errorf("the server does not store DOS attributes: %w", errors.ErrUnsupported)

// AttrMask says which fields of an Attr SetAttr applies.
type AttrMask uint8

const (
	SetMode AttrMask = 1 << iota
	// SetOwner sets UID and GID when HasOwner, or OwnerName and GroupName
	// where the protocol takes names (NFSv4); an Attr with neither sets none.
	SetOwner
	SetModTime
	// SetSize truncates or extends a file: a copy that skipped writing
	// zero-filled blocks (holes) sets the final size with it.
	SetSize
	SetDOSAttributes
)

// SmallFile is one small file a copy writes whole: its data and the
// attributes Mask says to give it.
type SmallFile struct {
	Path string
	Data []byte
	Attr Attr
	Mask AttrMask
}

// FilesWriter is a TreeClient that writes many small files in few round
// trips (SMB: one compound for several files, each CREATE, WRITE,
// SET_INFO and CLOSE), where one at a time costs a round trip per request.
type FilesWriter interface {
	// WriteFiles creates each file with its data and sets the attributes
	// its Mask names, each with its own outcome. As Create, a file is made
	// only where nothing is (fs.ErrExist). A file that failed may be
	// written in part: its caller writes it again.
	WriteFiles(ctx context.Context, files []SmallFile) []error
	// FilesLimit is what one WriteFiles takes: the largest file, and how
	// many files; FilesMask what of an Attr it sets.
	FilesLimit() (size, count int)
	FilesMask() AttrMask
}

// ListedFile is a file a listing showed: its path, and the file ID the
// listing gave it (0: none, or not to be checked).
type ListedFile struct {
	Path string
	ID   uint64
}

// FilesReader is a TreeClient that reads many small files whole in few
// round trips (SMB: one compound for several files, each CREATE, READ and
// CLOSE). FilesLimit is as FilesWriter's.
type FilesReader interface {
	// ReadFiles reads each file whole, as Open does, each with its own
	// outcome (Result.Data, Result.Err). A file with an ID is read only
	// when the file its path opens has that ID, as IDOpener's OpenID
	// checks it (ErrChanged otherwise), in the same round trips.
	ReadFiles(ctx context.Context, files []ListedFile) []Result
	FilesLimit() (size, count int)
}

// FileReader reads one open file at offsets. io.EOF at or past the end.
type FileReader interface {
	ReadAt(ctx context.Context, p []byte, off int64) (int, error)
	Close(ctx context.Context) error
}

// FileWriter writes one open file at offsets; Close makes the data stable
// on the server (COMMIT where the protocol asks for it).
type FileWriter interface {
	WriteAt(ctx context.Context, p []byte, off int64) (int, error)
	Close(ctx context.Context) error
}

// TreeClient is a Client that reads and writes a tree entry by entry: what
// snapshots, restores and clones are made of. Paths are relative to the
// session's root, like Client's. Errors wrap fs.ErrNotExist, fs.ErrExist,
// fs.ErrPermission and ErrUnavailable as Client's do.
type TreeClient interface {
	Client
	// Lstat describes rel itself: a link the protocol shows as a link is
	// described, never followed.
	Lstat(ctx context.Context, rel string) (Attr, error)
	// ReadDir calls fn with the entries of the directory rel, a page at a
	// time (never the whole directory in memory), without "." and "..".
	// An error from fn stops the listing and is returned.
	ReadDir(ctx context.Context, rel string, fn func([]DirEntry) error) error
	Readlink(ctx context.Context, rel string) (string, error)
	// Symlink creates the link rel pointing at target, or fails with fs.ErrExist.
	Symlink(ctx context.Context, target, rel string) error
	Open(ctx context.Context, rel string) (FileReader, error)
	// Create creates the file rel, with perm where the protocol carries
	// Unix modes, and fails with fs.ErrExist where anything is: a link
	// too, which is never followed (a server that resolves links for its
	// clients would otherwise open the file it leads to, anywhere on the
	// share, and the caller would write into it).
	Create(ctx context.Context, rel string, perm fs.FileMode) (FileWriter, error)
	// SetAttr sets the fields of a named by mask on rel (not through a link).
	SetAttr(ctx context.Context, rel string, a Attr, mask AttrMask) error
}

// KeptMode is the mode a copy sets on a file whose owner it sets too
// (owned) or not: setuid and setgid only with the owner they were the
// file's with, as cp drops them when it cannot keep the owner. Without
// it, the file stays its creator's, the controller's user (root, where
// owners are kept at all), and a tenant's setuid binary would become one of
// that user in the new volume.
func KeptMode(m fs.FileMode, owned bool) fs.FileMode {
	if owned {
		return m
	}
	return m &^ (fs.ModeSetuid | fs.ModeSetgid)
}

// IDLister is a TreeClient whose server may resolve a link in a path for
// its clients (Samba, Windows): what a path opens can be another directory
// than the one a listing showed there a moment before, its file ID and
// all. ReadDirOf lists rel only when the directory it opened has file ID
// id, and fails with ErrChanged otherwise, so that a walk never lists, and
// copies, a directory its guard did not judge.
type IDLister interface {
	ReadDirOf(ctx context.Context, rel string, id uint64, fn func([]DirEntry) error) error
}

// ErrChanged says a directory a walk judged by its file ID, or a file a
// listing showed, was swapped for another (a link the server resolves, or
// a directory of its own above it) before it was opened.
var ErrChanged = errors.New("replaced by another object while it was walked")

// IDOpener is a TreeClient whose server may resolve a link in a path for
// its clients (as IDLister's): a directory swapped for a link to another
// volume after a copy listed it has each of its paths open that volume's
// file of the same name. OpenID opens rel for reading only when the file
// it opened has file ID id, and fails with ErrChanged otherwise (closing
// what it opened unread), in the round trips Open takes: a copy reads the
// file its listing showed, or nothing. NFS clients need none: NFSv3 opens
// by the listing's handle (EntryOpener), and an NFS server never follows
// a link in a lookup.
type IDOpener interface {
	OpenID(ctx context.Context, rel string, id uint64) (FileReader, error)
}

// ListingBuffer is a TreeClient whose listing of a directory may hold more
// of it in memory than the pages it hands out (go-smb2 keeps the rest of
// each server reply, up to 1 MiB of entries, until it is read): a walk that
// bounds what it holds counts that too, for each directory it is in whose
// listing came a full page at a time.
type ListingBuffer interface {
	// ListingBuffer is the page size of a full page, and how many entries'
	// worth of memory (of a DirEntry's size) the listing may hold besides.
	ListingBuffer() (page, buffered int)
}

// ServerSideCopier is a TreeClient that can copy a file's data within its
// share without the data passing through the controller: SMB
// FSCTL_SRV_COPYCHUNK, or NFSv4.2 COPY.
type ServerSideCopier interface {
	// CopyData copies the size bytes of the file from into the file to,
	// which exists (made by Create). Before writing anything, it answers an
	// error wrapping errors.ErrUnsupported when the server cannot copy at
	// all, or ErrStreamInstead when this file is better streamed; the caller
	// then streams the data itself.
	CopyData(ctx context.Context, from, to string, size int64) error
}

// CopyingWriter is a FileWriter the server can fill from another file of
// the same session: CopyData into the handle Create gave, without opening
// the destination again. Its errors are CopyData's. fromID, when not 0,
// is the file ID from must have (the listing's), checked as IDOpener's
// OpenID checks it: ErrChanged, and nothing copied, for another file.
type CopyingWriter interface {
	CopyFrom(ctx context.Context, from string, fromID uint64, size int64) error
}

// ErrStreamInstead says a server-side copy of this one file would cost
// more than streaming it (a small file), or cannot reach it: stream it,
// and ask again for the next.
var ErrStreamInstead = errors.New("stream this file rather than copy it on the server")

// AttrCloser is a FileWriter that can close its file and set the file's
// attributes in the same round trips, on the handle it holds: a copy of
// many small files saves a path lookup and a call per file.
type AttrCloser interface {
	// CloseSettingAttr is Close followed by SetAttr of the fields mask
	// names (the size first, where it is among them).
	CloseSettingAttr(ctx context.Context, a Attr, mask AttrMask) error
}

// EntryOpener is a TreeClient that opens a file a listing described,
// by the handle the listing gave, without a lookup.
type EntryOpener interface {
	OpenEntry(ctx context.Context, rel string, a Attr) (FileReader, error)
}

// SizeHinter is a FileWriter told, before the first write, how large the
// file will be: one whose data fits in one write makes it stable with that
// write (NFSv3 FILE_SYNC) instead of a COMMIT after it.
type SizeHinter interface {
	Expect(size int64)
}
