package copytree

import (
	"archive/tar"
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// A snapshot keeps its small files in one archive beside its tree (the
// pack), not as files of their own. Reading a small file takes one to
// three requests (NFS READ by the listing's handle; SMB CREATE, READ,
// CLOSE); writing it as a file of its own takes four to five more
// (create, write, attributes, close), and a file server spends about the
// same on each request whatever its size. The pack's writes carry a chunk
// of many files each, so a snapshot of many small files costs the server
// about what reading them does. A restore makes the files again: the
// requests a snapshot saves, it saves once, not twice.
//
// The pack is a POSIX (PAX) tar archive, so an operator can read it with
// tar(1): each entry a regular file with its path below the tree, its
// data, and its attributes both in the tar header and, exactly as the
// copy keeps them (which of them the source had), in FILESHARE.* records.
// Directories, links, sparse files and files larger than packLimit stay
// in the tree, where a large file is copied by the server.

// packLimit is the largest file that goes into a pack: one that a single
// read carries whole.
const packLimit = ChunkSize

// PAX records with what tar's header cannot say: whether the source had
// a mode and numeric owners at all (SMB has neither), and its DOS
// attributes.
const (
	paxHasMode  = "FILESHARE.hasmode"
	paxHasOwner = "FILESHARE.hasowner"
	paxDOS      = "FILESHARE.dosattributes"
)

// packable says whether a file goes into the pack.
func packable(a share.Attr) bool {
	return a.Type == share.TypeFile && a.Size <= packLimit && !a.Sparse
}

// packEntry is one small file: its path below the copy's top, the
// attributes to give it, and its data.
type packEntry struct {
	name string
	attr share.Attr
	data []byte
}

func packHeader(e packEntry) *tar.Header {
	a := e.attr
	h := &tar.Header{
		Typeflag: tar.TypeReg, Name: e.name, Size: int64(len(e.data)), ModTime: a.ModTime,
		Format: tar.FormatPAX, PAXRecords: map[string]string{},
	}
	if a.HasMode {
		h.Mode = int64(share.UnixMode(a.Mode))
		h.PAXRecords[paxHasMode] = "1"
	} else {
		h.Mode = 0o644
	}
	if a.HasOwner {
		h.Uid, h.Gid = int(a.UID), int(a.GID)
		h.PAXRecords[paxHasOwner] = "1"
	}
	h.Uname, h.Gname = a.OwnerName, a.GroupName
	if a.DOSAttributes != 0 {
		h.PAXRecords[paxDOS] = strconv.FormatUint(uint64(a.DOSAttributes), 16)
	}
	return h
}

// entryOf reads back what packHeader wrote, for a destination whose names
// are of syntax. The name must stay below the tree it is unpacked into: a
// pack is the driver's own, but a restore never writes outside its volume
// whatever one holds.
func entryOf(h *tar.Header, syntax share.NameSyntax) (packEntry, error) {
	if err := validPackName(h.Name, syntax); err != nil {
		return packEntry{}, err
	}
	if h.Typeflag != tar.TypeReg {
		return packEntry{}, fmt.Errorf("pack entry %q is of type %q, not a file: %w", h.Name, h.Typeflag, fs.ErrInvalid)
	}
	if h.Size < 0 || h.Size > packLimit {
		return packEntry{}, fmt.Errorf("pack entry %q has %d bytes, more than a packed file has: %w", h.Name, h.Size, fs.ErrInvalid)
	}
	a := share.Attr{Type: share.TypeFile, Size: h.Size, ModTime: h.ModTime, OwnerName: h.Uname, GroupName: h.Gname}
	if h.PAXRecords[paxHasMode] == "1" {
		a.Mode, a.HasMode = share.UnixFileMode(uint32(h.Mode)), true
	}
	if h.PAXRecords[paxHasOwner] == "1" {
		a.UID, a.GID, a.HasOwner = uint32(h.Uid), uint32(h.Gid), true
	}
	if s, ok := h.PAXRecords[paxDOS]; ok {
		dos, err := strconv.ParseUint(s, 16, 32)
		if err != nil {
			return packEntry{}, fmt.Errorf("pack entry %q: DOS attributes %q: %w", h.Name, s, fs.ErrInvalid)
		}
		a.DOSAttributes = uint32(dos)
	}
	return packEntry{name: h.Name, attr: a}, nil
}

// validPackName accepts a clean relative path that names something below
// the top: no "..", no absolute path, no empty element, and each element
// an entry name on the destination's server (share.ListedName, the rule
// for listed names): on SMB a backslash separates names too, and Samba
// takes `x\..\..\pvc-b\f` for another volume's pvc-b/f.
func validPackName(name string, syntax share.NameSyntax) error {
	refused := func() error { return fmt.Errorf("pack entry %q is not a path below the tree: %w", name, fs.ErrInvalid) }
	if name == "" || name == "." || path.IsAbs(name) || path.Clean(name) != name || name == ".." || strings.HasPrefix(name, "../") {
		return refused()
	}
	for _, elem := range strings.Split(name, "/") {
		if keep, err := share.ListedName(elem, syntax); !keep || err != nil {
			return refused()
		}
	}
	return nil
}

// packer writes the pack from the entries the copy's workers read. It
// starts the file over: a copy that resumes reads every small file again.
type packer struct {
	entries chan packEntry
	failed  chan struct{} // closed when the writer stopped on an error
	err     error
	wg      sync.WaitGroup
	// abandoned: the copy failed, so the pack gets no end-of-archive
	// marker and cannot pass for a whole one (it is written again by the
	// next run, and only a ready snapshot's pack is ever read).
	abandoned bool
}

func (c *copier) startPacker(ctx context.Context, dst share.TreeClient, rel string) (*packer, error) {
	out, err := c.createNew(ctx, dst, rel, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		// Its directory is made by the run that writes it (a snapshot's
		// packs directory, one file per run).
		if err = share.MkdirAll(ctx, dst, path.Dir(rel), 0o700); err == nil {
			out, err = c.createNew(ctx, dst, rel, 0o600)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("create the pack %s: %w", rel, err)
	}
	// A bounded queue: the workers read ahead of the writer at most this
	// many files (each at most packLimit bytes).
	p := &packer{entries: make(chan packEntry, 8), failed: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if p.err = writePack(ctx, out, p.entries, &p.abandoned); p.err != nil {
			close(p.failed)
			for range p.entries { // let the workers' sends end
			}
		}
	}()
	return p, nil
}

// writePack writes the entries until the channel closes; abandoned is read
// after that, so the close orders it.
func writePack(ctx context.Context, out share.FileWriter, entries <-chan packEntry, abandoned *bool) error {
	bw := bufio.NewWriterSize(&offsetWriter{ctx: ctx, w: out}, ChunkSize)
	tw := tar.NewWriter(bw)
	var err error
	for e := range entries {
		if err = tw.WriteHeader(packHeader(e)); err == nil {
			_, err = tw.Write(e.data)
		}
		if err != nil {
			break
		}
	}
	if err == nil && !*abandoned {
		err = tw.Close()
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := out.Close(ctx); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write the pack: %w", err)
	}
	return nil
}

// add queues e for the pack; it fails once the writer has.
func (p *packer) add(ctx context.Context, e packEntry) error {
	select {
	case p.entries <- e:
		return nil
	case <-p.failed:
		return p.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// finish writes what is queued and closes the pack: whole when the copy
// succeeded (ok), else without its end.
func (p *packer) finish(ok bool) error {
	p.abandoned = !ok
	close(p.entries)
	p.wg.Wait()
	return p.err
}

// offsetWriter writes a FileWriter from its start on, as an io.Writer.
type offsetWriter struct {
	ctx context.Context
	w   share.FileWriter
	off int64
}

func (o *offsetWriter) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		n, err := o.w.WriteAt(o.ctx, p[written:], o.off)
		o.off += int64(n)
		written += n
		if err != nil {
			return written, err
		}
		if n == 0 {
			return written, io.ErrShortWrite
		}
	}
	return written, nil
}

// offsetReader reads a FileReader from its start on, as an io.Reader.
type offsetReader struct {
	ctx context.Context
	r   share.FileReader
	off int64
}

func (o *offsetReader) Read(p []byte) (int, error) {
	n, err := o.r.ReadAt(o.ctx, p, o.off)
	o.off += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	if err == nil && n == 0 && len(p) > 0 {
		err = io.EOF
	}
	return n, err
}

// packFile reads the small file src whole and queues it for the pack.
func (c *copier) packFile(ctx context.Context, w Pair, src, dst string, a share.Attr) error {
	in, err := openSource(ctx, w, src, a)
	if err != nil {
		return err
	}
	data := make([]byte, a.Size)
	n, err := readFull(ctx, in, data)
	if cerr := in.Close(ctx); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", src, err)
	}
	// A file that shrank while it was read is packed as it was read.
	e := packEntry{name: strings.TrimPrefix(dst, c.top+"/"), attr: a, data: data[:n]}
	if err := c.pk.add(ctx, e); err != nil {
		return err
	}
	c.files.Add(1)
	c.bytes.Add(int64(n))
	return nil
}

// packGroup packs the small files es of n, read in one call
// (share.FilesReader); a file the call failed is packed on its own, as
// packFile does, which says what went wrong.
func (c *copier) packGroup(ctx context.Context, w Pair, n *dirNode, es []share.DirEntry) error {
	files := make([]share.ListedFile, len(es))
	for i, e := range es {
		// Each read only of the file the listing showed (openSource).
		files[i] = share.ListedFile{Path: path.Join(n.src, e.Name), ID: e.Attr.ID}
	}
	for i, r := range w.Src.(share.FilesReader).ReadFiles(ctx, files) {
		e := es[i]
		dst := path.Join(n.dst, e.Name)
		if r.Err != nil || int64(len(r.Data)) > e.Attr.Size {
			// Failed (another file answered for it too: copyEntry
			// looks it up again), or grew since it was listed: on its
			// own.
			if err := c.copyEntry(ctx, w, n, e); err != nil {
				return err
			}
		} else {
			if !n.fresh {
				// What an earlier run left in the tree goes (copyFile).
				if err := c.removeAny(ctx, w.Dst, dst); err != nil {
					return err
				}
			}
			// A file that shrank while it was read is packed as it was read.
			if err := c.pk.add(ctx, packEntry{name: strings.TrimPrefix(dst, c.top+"/"), attr: e.Attr, data: r.Data}); err != nil {
				return err
			}
			c.files.Add(1)
			c.bytes.Add(int64(len(r.Data)))
		}
		if err := c.release(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// readFull reads p from the file's start, up to its end.
func readFull(ctx context.Context, in share.FileReader, p []byte) (int, error) {
	off := 0
	for off < len(p) {
		n, err := in.ReadAt(ctx, p[off:], int64(off))
		off += n
		if err == io.EOF {
			return off, nil
		}
		if err != nil {
			return off, err
		}
		if n == 0 {
			return off, fmt.Errorf("no progress at offset %d: %w", off, io.ErrNoProgress)
		}
	}
	return off, nil
}

// unpack makes the pack's files in the destination, before the walk: it
// makes their directories as it meets them (the walk finds them there and
// sets their attributes once their other entries are in). An entry whose
// file is complete from an earlier run is skipped; below a top this run
// made, nothing is checked.
func (c *copier) unpack(ctx context.Context) error {
	in, err := c.s.Lister.Open(ctx, c.opts.UnpackFrom)
	if err != nil {
		return fmt.Errorf("open the pack %s: %w", c.opts.UnpackFrom, err)
	}
	defer in.Close(ctx)
	tr := tar.NewReader(bufio.NewReaderSize(&offsetReader{ctx: ctx, r: in}, ChunkSize))
	g, gctx := errgroup.WithContext(ctx)
	// Files go to the workers in batches: a destination that writes many
	// small files in one round trip (share.FilesWriter) takes each batch
	// at once, into a top this run made; otherwise one at a time.
	per := 1
	if fw, ok := c.s.Workers[0].Dst.(share.FilesWriter); ok && c.topFresh {
		_, per = fw.FilesLimit()
	}
	syntax := share.SyntaxOf(c.s.Workers[0].Dst)
	jobs := make(chan []packEntry)
	for _, w := range c.s.Workers {
		g.Go(func() error {
			for batch := range jobs {
				if err := c.between(gctx, w); err != nil {
					return err
				}
				if err := c.placeBatch(gctx, w.Dst, batch); err != nil {
					return err
				}
			}
			return nil
		})
	}
	g.Go(func() error {
		defer close(jobs)
		var batch []packEntry
		send := func() error {
			if len(batch) == 0 {
				return nil
			}
			select {
			case jobs <- batch:
				batch = nil
				return nil
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		dir := "" // the last directory made sure of: a directory's files are packed together
		for {
			h, err := tr.Next()
			if err == io.EOF {
				return send()
			}
			if err != nil {
				return fmt.Errorf("read the pack %s: %w", c.opts.UnpackFrom, err)
			}
			e, err := entryOf(h, syntax)
			if err != nil {
				return err
			}
			d := path.Dir(e.name)
			if !madeSure(d, dir) {
				if err := c.claimDirs(d, dir); err != nil {
					return err
				}
				if err := c.ensureDir(gctx, c.s.Workers[0].Dst, d, dir); err != nil {
					return err
				}
				dir = d
			}
			if err := c.claimName(path.Join(c.top, d), path.Base(e.name), c.opts.UnpackFrom+": "+d); err != nil {
				return err
			}
			e.data = make([]byte, h.Size)
			if _, err := io.ReadFull(tr, e.data); err != nil {
				return fmt.Errorf("read %q from the pack %s: %w", h.Name, c.opts.UnpackFrom, err)
			}
			if batch = append(batch, e); len(batch) == per {
				if err := send(); err != nil {
					return err
				}
			}
		}
	})
	return g.Wait()
}

// claimDirs claims (claimName) the directories of the path d of a pack
// entry's directory, but those of sure's path (claimed for the entry
// before): a packed file and a directory of another's path whose names
// differ only in case clash in the unpack, before it makes the directory
// where the file is, or the file where the directory is.
func (c *copier) claimDirs(d, sure string) error {
	if c.folded == nil || madeSure(d, sure) {
		return nil
	}
	parent := path.Dir(d)
	if err := c.claimDirs(parent, sure); err != nil {
		return err
	}
	return c.claimName(path.Join(c.top, parent), path.Base(d), c.opts.UnpackFrom+": "+parent)
}

// madeSure says whether the directory d (below the top, "." for the top)
// needs no look from the unpack: it is the top, or on the path of sure,
// the directory the unpack made sure of last (claimed and made).
func madeSure(d, sure string) bool {
	return d == "." || d == sure || strings.HasPrefix(sure, d+"/")
}

// placeBatch makes a batch of packed files in the destination: those a
// share.FilesWriter takes whole (small enough, attributes it sets, data
// to write) in one call, the rest, and any it failed, one at a time.
func (c *copier) placeBatch(ctx context.Context, dst share.TreeClient, batch []packEntry) error {
	fw, ok := dst.(share.FilesWriter)
	if !ok || !c.topFresh || len(batch) == 1 {
		return c.placeEach(ctx, dst, batch)
	}
	size, _ := fw.FilesLimit()
	var files []share.SmallFile
	var sent, rest []packEntry
	for _, e := range batch {
		mask := attrMask(e.attr)
		if len(e.data) > size || mask&^fw.FilesMask() != 0 || e.attr.Size > 0 && allZero(e.data) {
			rest = append(rest, e) // a hole to leave, or more to set: placePacked
			continue
		}
		files = append(files, share.SmallFile{Path: path.Join(c.top, e.name), Data: e.data, Attr: e.attr, Mask: mask})
		sent = append(sent, e)
	}
	if len(files) > 0 {
		for i, err := range fw.WriteFiles(ctx, files) {
			if err != nil {
				if ctx.Err() != nil || share.BreaksSession(err) {
					return fmt.Errorf("write %s: %w", files[i].Path, err)
				}
				rest = append(rest, sent[i]) // written again, on its own
				continue
			}
			c.files.Add(1)
			c.bytes.Add(int64(len(sent[i].data)))
		}
	}
	return c.placeEach(ctx, dst, rest)
}

func (c *copier) placeEach(ctx context.Context, dst share.TreeClient, batch []packEntry) error {
	for _, e := range batch {
		if err := c.placePacked(ctx, dst, e); err != nil {
			return err
		}
	}
	return nil
}

// ensureDir makes the directory d (below the top, from a pack entry's
// name) and its missing parents, writable to the copy until the walk sets
// its attributes. What is there already must be a directory, not a link.
// In a top an earlier run left, each directory of d's path that is there
// is checked (ownDir) from the top down before anything is made in it: a
// link planted at any level shows as a directory, and a Mkdir below it
// would make d, and the files unpacked into it, in what the link leads
// to. sure is the directory made sure of last ("" for none): its path's
// directories are not looked at again.
func (c *copier) ensureDir(ctx context.Context, dst share.TreeClient, d, sure string) error {
	if p := path.Dir(d); !c.topFresh && !madeSure(p, sure) {
		if err := c.ensureDir(ctx, dst, p, sure); err != nil {
			return err
		}
	}
	rel := path.Join(c.top, d)
	err := dst.Mkdir(ctx, rel, 0o700)
	if errors.Is(err, fs.ErrNotExist) && path.Dir(d) != "." {
		if err := c.ensureDir(ctx, dst, path.Dir(d), sure); err != nil {
			return err
		}
		err = dst.Mkdir(ctx, rel, 0o700)
	}
	if errors.Is(err, fs.ErrExist) {
		a, serr := dst.Lstat(ctx, rel)
		if serr != nil {
			return fmt.Errorf("make %s: %w", rel, serr)
		}
		if a.Type != share.TypeDir {
			return fmt.Errorf("make %s: a %s is in its place: %w", rel, a.Type, fs.ErrExist)
		}
		if c.topFresh { // this run made it
			return nil
		}
		return c.ownDir(ctx, dst, rel, a)
	}
	if err != nil {
		return fmt.Errorf("make %s: %w", rel, err)
	}
	c.dirs.Add(1)
	return nil
}

// placePacked makes one packed file in the destination.
func (c *copier) placePacked(ctx context.Context, dst share.TreeClient, e packEntry) error {
	rel := path.Join(c.top, e.name)
	if !c.topFresh {
		if done, err := c.alreadyCopied(ctx, dst, rel, e.attr); done || err != nil {
			return err
		}
	}
	out, err := c.createNew(ctx, dst, rel, createPerm(e.attr))
	if err != nil {
		return err
	}
	if sh, ok := out.(share.SizeHinter); ok {
		sh.Expect(e.attr.Size)
	}
	holes := e.attr.Size > 0 && allZero(e.data)
	if !holes && len(e.data) > 0 {
		if _, err := out.WriteAt(ctx, e.data, 0); err != nil {
			_ = out.Close(ctx)
			return fmt.Errorf("write %s: %w", rel, err)
		}
	}
	if err := c.finishFile(ctx, dst, rel, out, e.attr, holes); err != nil {
		return err
	}
	c.files.Add(1)
	c.bytes.Add(int64(len(e.data)))
	return nil
}
