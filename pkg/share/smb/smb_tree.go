package smb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

var (
	_ share.TreeClient       = (*smbClient)(nil)
	_ share.ServerSideCopier = (*smbClient)(nil)
	_ share.IDOpener         = (*smbClient)(nil)
	_ share.FilesReader      = (*smbClient)(nil)
	_ share.AttrCloser       = (*smbFile)(nil)
	_ share.CopyingWriter    = (*smbFile)(nil)
)

const (
	// ioReparseTagSymlink is IO_REPARSE_TAG_SYMLINK (MS-FSCC 2.1.2.1).
	ioReparseTagSymlink = 0xA000000C
	// smbDOSAttributes are the FileAttributes a copy keeps (MS-FSCC 2.6):
	// read-only, hidden, system, archive and not-content-indexed. The others
	// say what the object is (directory, reparse point) or how the server
	// stores it (sparse, compressed, encrypted, offline), which a copy does
	// not set through FileBasicInformation.
	smbDOSAttributes = 0x1 | 0x2 | 0x4 | 0x20 | 0x2000
)

// smbAttr is what a directory entry or an open says of an object. A
// reparse point is TypeOther unless its tag (which only a listing carries)
// says symlink.
//
// EndOfFile and AllocationSize are signed 64-bit fields the server fills,
// and no file is smaller than 0 bytes: a negative one is a broken reply,
// of which the copy would make a slice of negative length and panic. It
// is refused (ErrUnavailable, and the session, whose server sent it, is
// not used again) rather than clamped to 0: every caller can fail, and a
// clamped size would have the copy write the file empty and call it done.
func (c *smbClient) smbAttr(st *smb2.FileStat) (share.Attr, error) {
	if st.EndOfFile < 0 || st.AllocationSize < 0 {
		c.broken.Store(true)
		return share.Attr{}, fmt.Errorf("%s: the server gives a size of %d bytes, %d allocated: %w", st.Name(), st.EndOfFile, st.AllocationSize, share.ErrUnavailable)
	}
	a := share.Attr{
		Type:          share.TypeFile,
		Size:          st.EndOfFile,
		ModTime:       st.LastWriteTime.UTC(),
		DOSAttributes: st.FileAttributes & smbDOSAttributes,
		ID:            st.FileId,
		Sparse:        st.AllocationSize < st.EndOfFile,
	}
	switch {
	case st.FileAttributes&fileAttributeReparsePoint != 0:
		a.Type = share.TypeOther
		if st.ReparsePointTag == ioReparseTagSymlink {
			a.Type = share.TypeSymlink
		}
	case st.FileAttributes&0x10 != 0: // FILE_ATTRIBUTE_DIRECTORY
		a.Type = share.TypeDir
	}
	return a, nil
}

// Lstat opens rel itself (FILE_OPEN_REPARSE_POINT), with its ID in the
// same compound. Unix modes and owners do not exist on SMB.
func (c *smbClient) Lstat(ctx context.Context, rel string) (share.Attr, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sh := c.on(ctx)
	p := c.full(rel)
	st, err := lstatSMB(sh, p)
	if err != nil {
		return share.Attr{}, c.wrap(ctx, "lstat", rel, err)
	}
	a, err := c.smbAttr(st)
	if err != nil {
		return share.Attr{}, c.wrap(ctx, "lstat", rel, err)
	}
	switch a.Type {
	case share.TypeOther:
		// The CREATE reply carries no reparse tag: reading the link tells
		// a symlink from a junction or any other reparse point.
		if _, err := sh.Readlink(p); err == nil {
			a.Type = share.TypeSymlink
		} else if !notASymlink(err) {
			return share.Attr{}, c.wrap(ctx, "lstat", rel, err)
		}
	}
	return a, nil
}

// lstatSMB opens p itself (FILE_OPEN_REPARSE_POINT) and returns what the
// server says of it, its ID included: one compound (CREATE, QUERY_INFO,
// CLOSE).
func lstatSMB(sh *smb2.Share, p string) (*smb2.FileStat, error) {
	return sh.LstatID(p)
}

// notASymlink reports whether err is the library declining a reparse
// point that is not a symlink (it decodes symlink buffers only), as
// opposed to a reply it could not make sense of.
func notASymlink(err error) bool {
	var ie *smb2.InvalidResponseError
	return errors.As(err, &ie) && strings.Contains(ie.Message, "symbolic link")
}

// ReadDir lists rel smbReadBatch entries at a time; every entry of a
// listing carries its file ID. The session is free while fn runs, so fn
// may use this client.
func (c *smbClient) ReadDir(ctx context.Context, rel string, fn func([]share.DirEntry) error) error {
	return c.readDir(ctx, rel, 0, fn)
}

// ReadDirOf is share.IDLister's: Samba resolves links for its clients by
// default, so the path may open another directory than the one a listing
// showed there; the open handle's own file ID (one QUERY_INFO) says which.
func (c *smbClient) ReadDirOf(ctx context.Context, rel string, id uint64, fn func([]share.DirEntry) error) error {
	return c.readDir(ctx, rel, id, fn)
}

// readDir is ReadDir of rel, of the directory with file ID id only when id
// is not 0.
func (c *smbClient) readDir(ctx context.Context, rel string, id uint64, fn func([]share.DirEntry) error) error {
	c.mu.Lock()
	sh := c.on(ctx)
	p := c.full(rel)
	f, err := sh.Open(p)
	if err == nil && id != 0 {
		var st fs.FileInfo
		if st, err = f.Stat(); err == nil {
			if fst, ok := st.(*smb2.FileStat); !ok || fst.FileId != id {
				err = fmt.Errorf("readdir %s: not the directory with file ID %d: %w", rel, id, share.ErrChanged)
			}
		}
		if err != nil {
			_ = f.Close()
		}
	}
	c.mu.Unlock()
	if errors.Is(err, share.ErrChanged) {
		return err
	}
	if err != nil {
		return c.wrap(ctx, "readdir", rel, err)
	}
	defer func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		_ = f.Close()
	}()
	for {
		page, err := c.readDirPage(sh, f, p)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return c.wrap(ctx, "readdir", rel, err)
		}
		if err := fn(page); err != nil {
			return err
		}
	}
}

// readDirPage reads the next batch of the open directory p; io.EOF at its end.
func (c *smbClient) readDirPage(sh *smb2.Share, f *smb2.File, p string) ([]share.DirEntry, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.readDirBatch(sh, f, p)
}

// readDirBatch is readDirPage for a caller that holds the session's lock,
// or works beside its holder (a removal's workers).
func (c *smbClient) readDirBatch(sh *smb2.Share, f *smb2.File, p string) ([]share.DirEntry, error) {
	batch, err := f.Readdir(smbReadBatch)
	if err == nil && len(batch) == 0 {
		err = io.EOF
	}
	if err == nil {
		batch, err = c.listed(batch)
	}
	if err != nil {
		return nil, err
	}
	return c.dirEntries(batch, func(name string) (uint64, error) { return fileID(sh, smbJoin(p, name)) })
}

// dirEntries is the page of a listed batch; id asks for the file ID of a
// directory the listing gave none for.
func (c *smbClient) dirEntries(batch []os.FileInfo, id func(name string) (uint64, error)) ([]share.DirEntry, error) {
	page := make([]share.DirEntry, 0, len(batch))
	for _, e := range batch {
		st, ok := e.Sys().(*smb2.FileStat)
		if !ok {
			continue
		}
		a, err := c.smbAttr(st)
		if err != nil {
			return nil, err
		}
		if a.Type == share.TypeDir && a.ID == 0 {
			// A server that lists no IDs: a directory must have one.
			if a.ID, err = id(e.Name()); errors.Is(err, fs.ErrNotExist) {
				continue // removed since the listing; not the listed directory's "not found"
			} else if err != nil {
				return nil, err
			}
		}
		page = append(page, share.DirEntry{Name: e.Name(), Attr: a})
	}
	return page, nil
}

// ListingBuffer: go-smb2 asks QUERY_DIRECTORY for up to 1 MiB of entries
// (about 10,000 of 104 bytes and a short name each) and keeps what a page
// did not take; its entries are about half the size of a DirEntry.
func (c *smbClient) ListingBuffer() (page, buffered int) { return smbReadBatch, 5000 }

// Readlink reads a link the server shows as one (a symlink reparse point).
// Samba with unix extensions off shows none: it resolves links inside the
// share for its clients and hides the others.
func (c *smbClient) Readlink(ctx context.Context, rel string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	target, err := c.on(ctx).Readlink(c.full(rel))
	if notASymlink(err) || ntStatus(err) == 0xC0000275 { // STATUS_NOT_A_REPARSE_POINT
		return "", fmt.Errorf("readlink %s: not a symbolic link: %w", rel, fs.ErrInvalid)
	}
	if err != nil {
		return "", c.wrap(ctx, "readlink", rel, err)
	}
	return strings.ReplaceAll(target, `\`, "/"), nil
}

// smbRefusals are the NTSTATUS codes with which a server says it does not
// do an operation at all, as opposed to failing it this time.
var smbRefusals = map[uint32]bool{
	0xC00000BB: true, // STATUS_NOT_SUPPORTED
	0xC0000010: true, // STATUS_INVALID_DEVICE_REQUEST
	0xC0000002: true, // STATUS_NOT_IMPLEMENTED
	0xC0000275: true, // STATUS_NOT_A_REPARSE_POINT
	0xC0000278: true, // STATUS_IO_REPARSE_DATA_INVALID
}

func isRefusal(err error) bool { return smbRefusals[ntStatus(err)] }

// ntStatus is the NTSTATUS code the server answered with, or 0.
func ntStatus(err error) uint32 {
	var re *smb2.ResponseError
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}

// Symlink makes a symlink reparse point (FSCTL_SET_REPARSE_POINT). Windows
// servers make them for users with the privilege to; Samba (4.17, unix
// extensions off) answers STATUS_NOT_A_REPARSE_POINT. Either refusal is
// answered as errors.ErrUnsupported (the library removes the file it made
// for the link).
func (c *smbClient) Symlink(ctx context.Context, target, rel string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.on(ctx).Symlink(target, c.full(rel))
	if isRefusal(err) || ntStatus(err) == 0xC0000061 { // STATUS_PRIVILEGE_NOT_HELD
		return fmt.Errorf("symlink %s: the server does not make symlinks for this client (%v): %w", rel, err, errors.ErrUnsupported)
	}
	return c.wrap(ctx, "symlink", rel, err)
}

// smbFile is a file open for a FileReader or FileWriter. The library binds
// a file to the context it was opened with, for good; each call binds it to
// its own by cancelling that context when the call's ends, which leaves
// the session broken, as any call cut short does.
type smbFile struct {
	c      *smbClient
	f      *smb2.File
	rel    string
	cancel context.CancelCauseFunc
}

// openFile opens rel with flag, within ctx; for reading, only the file
// with file ID id when id is not 0 (OpenID).
func (c *smbClient) openFile(ctx context.Context, op, rel string, flag int, id uint64) (*smbFile, error) {
	fctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	h := &smbFile{c: c, rel: rel, cancel: cancel}
	err := h.during(ctx, func() error {
		sh := c.share.WithContext(fctx)
		p := c.full(rel)
		var err error
		if flag == os.O_RDONLY {
			h.f, err = sh.OpenID(p, id)
		} else {
			h.f, err = sh.OpenFile(p, flag, 0o666)
		}
		return missingParent(sh, p, err)
	})
	if err != nil {
		cancel(nil)
		return nil, c.wrap(ctx, op, rel, err)
	}
	return h, nil
}

// during runs op on the session with the file's context cut when ctx ends.
func (h *smbFile) during(ctx context.Context, op func() error) error {
	h.c.mu.Lock()
	defer h.c.mu.Unlock()
	stop := context.AfterFunc(ctx, func() { h.cancel(context.Cause(ctx)) })
	defer stop()
	return op()
}

// Open opens rel for reading.
func (c *smbClient) Open(ctx context.Context, rel string) (share.FileReader, error) {
	return c.openFile(ctx, "open", rel, os.O_RDONLY, 0)
}

// OpenID is share.IDOpener's: Samba resolves links for its clients by
// default, so a path may open another file than the one a listing showed
// there. The CREATE and a QUERY_INFO of the handle's file ID go in one
// compound (go-smb2's OpenID), as many round trips as Open.
func (c *smbClient) OpenID(ctx context.Context, rel string, id uint64) (share.FileReader, error) {
	return c.openFile(ctx, "open", rel, os.O_RDONLY, id)
}

// Create creates rel where nothing is (FILE_CREATE: Samba resolves a
// link for its clients by default, and an open that may find the name
// would write into what the link leads to). SMB carries no Unix mode, so
// perm is not used (a read-only attribute comes with SetDOSAttributes).
func (c *smbClient) Create(ctx context.Context, rel string, _ fs.FileMode) (share.FileWriter, error) {
	return c.openFile(ctx, "create", rel, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0)
}

// ReadAt reads len(p) bytes at off, fewer with io.EOF at the end.
func (h *smbFile) ReadAt(ctx context.Context, p []byte, off int64) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	err := h.during(ctx, func() (err error) {
		n, err = h.f.ReadAt(p, off)
		return err
	})
	if err == io.EOF || err == nil && n < len(p) {
		// The library answers a read that reaches the end short and
		// without an error.
		return n, io.EOF
	}
	return n, h.c.wrap(ctx, "read", h.rel, err)
}

func (h *smbFile) WriteAt(ctx context.Context, p []byte, off int64) (int, error) {
	var n int
	err := h.during(ctx, func() (err error) {
		n, err = h.f.WriteAt(p, off)
		return err
	})
	return n, h.c.wrap(ctx, "write", h.rel, err)
}

// Close closes the handle; the server has the data once WRITE answered.
func (h *smbFile) Close(ctx context.Context) error {
	defer h.cancel(nil)
	return h.c.wrap(ctx, "close", h.rel, h.during(ctx, h.f.Close))
}

// SetAttr sets the time, size and DOS attributes of rel; modes and owners
// do not exist on SMB and are ignored. The library opens only what a link
// leads to, never a link itself, so a link (a reparse point) is refused
// with errors.ErrUnsupported rather than reached through; a link put in
// rel's place between the check and the open would be followed. On
// Samba, which resolves links for its clients, there are no links to meet.
func (c *smbClient) SetAttr(ctx context.Context, rel string, a share.Attr, mask share.AttrMask) error {
	mask &= share.SetModTime | share.SetSize | share.SetDOSAttributes
	if mask == 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	sh := c.on(ctx)
	p := c.full(rel)
	st, err := lstatSMB(sh, p)
	if err != nil {
		return c.wrap(ctx, "setattr", rel, err)
	}
	if st.FileAttributes&fileAttributeReparsePoint != 0 {
		return fmt.Errorf("setattr %s: it is a link, which this client cannot open as itself: %w", rel, errors.ErrUnsupported)
	}
	return c.wrap(ctx, "setattr", rel, c.setAttrOpen(sh, p, st.FileAttributes, a, mask))
}

// setAttrOpen sets the fields on one handle of its own. A handle that may
// write attributes is refused on a read-only file, so the read-only
// attribute is cleared first and set again at the end.
func (c *smbClient) setAttrOpen(sh *smb2.Share, p string, old uint32, a share.Attr, mask share.AttrMask) error {
	attrs := dosAttrs(old, a, mask)
	if old&fileAttributeReadOnly != 0 {
		if err := sh.Chmod(p, 0o666); err != nil {
			return err
		}
		if attrs == 0 {
			attrs = old
		}
	}
	f, err := sh.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	err = c.setOnHandle(f, attrs, a, mask)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// dosAttrs are the FileAttributes to set on an object that has old: the
// DOS attributes of a where mask asks for them, the rest of old kept; 0
// when they are to stay as they are.
func dosAttrs(old uint32, a share.Attr, mask share.AttrMask) uint32 {
	if mask&share.SetDOSAttributes == 0 {
		return 0
	}
	attrs := old&^(smbDOSAttributes|fileAttributeNormal) | a.DOSAttributes&smbDOSAttributes
	if attrs == 0 {
		// 0 would leave the attributes as they are.
		attrs = fileAttributeNormal
	}
	return attrs
}

// setOnHandle sets the size first (it moves the time), then the time and
// attrs (when not 0) in one FileBasicInformation, on an open handle.
func (c *smbClient) setOnHandle(f *smb2.File, attrs uint32, a share.Attr, mask share.AttrMask) error {
	var err error
	if mask&share.SetSize != 0 {
		err = f.Truncate(a.Size)
	}
	if err != nil || (mask&share.SetModTime == 0 && attrs == 0) {
		return err
	}
	var mtime time.Time // zero: left as it is
	if mask&share.SetModTime != 0 {
		mtime = a.ModTime
	}
	// Samba stores DOS attributes in extended attributes, which some file
	// systems lack (tmpfs before Linux 6.6). Once refused, a session sets
	// the time alone (one request per file, not a refusal and a retry),
	// and says what was not kept.
	refused := errDOSRefusedBefore
	if attrs == 0 || !c.noDOS.Load() {
		err = setBasicInfo(f, mtime, attrs)
		if attrs == 0 || !isRefusal(err) {
			return err
		}
		refused = err
	}
	if err := setBasicInfo(f, mtime, 0); err != nil {
		return err
	}
	c.noDOS.Store(true)
	return fmt.Errorf("%w (%v)", share.ErrNoDOSAttributes, refused)
}

var errDOSRefusedBefore = errors.New("refused before on this session")

// CloseSettingAttr sets the attributes on the handle the file was written
// through, then closes it: no second open of the file. The handle was made
// by Create, so the file's old attributes are the ones CREATE gave it.
func (h *smbFile) CloseSettingAttr(ctx context.Context, a share.Attr, mask share.AttrMask) error {
	mask &= share.SetModTime | share.SetSize | share.SetDOSAttributes
	if mask == 0 {
		return h.Close(ctx)
	}
	defer h.cancel(nil)
	err := h.during(ctx, func() error {
		err := h.c.setOnHandle(h.f, dosAttrs(0, a, mask), a, mask)
		if cerr := h.f.Close(); err == nil {
			err = cerr
		}
		return err
	})
	if errors.Is(err, share.ErrNoDOSAttributes) {
		return err
	}
	return h.c.wrap(ctx, "close", h.rel, err)
}
