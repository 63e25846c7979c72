// Package nfs3 is pkg/share's NFSv3 client: MOUNT, then the NFS procedures
// by file handle over pkg/share/oncrpc, with go-nfs-client's XDR types. It
// registers itself with share.Register for NFSv3; its dial fails with
// share.ErrNoNFSv3 where the server offers no NFSv3, for share.Dial to try
// NFSv4.1. Large files are copied on the server through pkg/share/nfs4's
// NFSv4.2 Copier, NFSv3 having no copy of its own.
package nfs3

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	nfs "github.com/vmware/go-nfs-client/nfs"
	"github.com/vmware/go-nfs-client/nfs/rpc"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/nfs4"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state/layout"
)

// NFSv3 procedures (RFC 1813). go-nfs-client implements only some of them, and
// by path, re-resolving every component per call; we use its RPC transport and
// XDR types and issue the procedures ourselves, by file handle.
const (
	procGetattr     = 1
	procSetattr     = 2
	procLookup      = 3
	procRead        = 6
	procWrite       = 7
	procCreate      = 8
	procMkdir       = 9
	procRemove      = 12
	procRmdir       = 13
	procRename      = 14
	procReaddirplus = 17
	procFsstat      = 18

	mountProg = 100005
	mountVers = 3
	mountMnt  = 1
	mountUmnt = 3

	pmapPort = 111

	// How CREATE creates (createmode3): UNCHECKED creates or truncates,
	// GUARDED fails where the name is.
	createUnchecked = 0
	createGuarded   = 1
)

// nfsClient is one MOUNT + NFS session. Calls on one connection are
// serialized: a reply is matched to the one call that is waiting.
type nfsClient struct {
	mu     sync.Mutex
	conn   *oncrpc.Conn
	auth   rpc.Auth
	root   []byte
	broken bool
	desc   string // for messages: nfs://host/export
	// export is the export the session is rooted at; prefix is the
	// source's path below it ("" when the source names the export itself).
	export string
	prefix string
	// scoped keeps the directories looked up by path within one path
	// scope (see WithPathScope), never beyond it.
	scoped share.ScopedDirs
	// kept holds the handles of the driver's fixed metadata directories
	// (layout.KeepHandle: made once, never renamed or removed by the
	// driver) for the session's life, by path from the root: every record
	// read or written would otherwise look them up again. Dropped on STALE.
	kept map[string][]byte
	// helpers lends more sessions on the same share for a large RemoveAll
	// (see removeHelpers); nil when the session did not come from a pool.
	helpers func(ctx context.Context) (l *share.Lease, done func())
	// io is the READ and WRITE size of the tree copy's files, from FSINFO
	// on first use (see ioSizes in nfs_tree.go).
	io nfsIOSizes
	// copier copies large files on the server, over NFSv4.2 where the
	// server has it: NFSv3 has no copy of its own.
	copier *nfs4.Copier
}

// maxFH is the largest NFSv3 file handle (RFC 1813, NFS3_FHSIZE).
const maxFH = 64

func init() {
	share.Register(source.NFS, source.NFSv3, func(ctx context.Context, src source.Source, _ share.Credentials) (share.Client, error) {
		return dialNFS(ctx, src)
	})
}

func dialNFS(ctx context.Context, src source.Source) (share.Client, error) {
	c := &nfsClient{desc: src.String(), copier: nfs4.NewCopier(src)}
	hostname, _ := os.Hostname()
	// uid 0: the controller creates directories for every tenant; with
	// root_squash the server maps this to its anonymous user.
	c.auth = rpc.NewAuthUnix(hostname, 0, 0).Auth()

	// The portmapper is always on 111: a port in the source is nfsd's.
	pm, err := oncrpc.Dial(ctx, nil, net.JoinHostPort(src.Host, strconv.Itoa(pmapPort)))
	if err != nil {
		err = share.Unavailable(src, "connect to the portmapper (rpcbind) on port 111", err)
		if errors.Is(err, syscall.ECONNREFUSED) {
			err = fmt.Errorf("%w: %w", share.ErrNoNFSv3, err)
		}
		return nil, err
	}
	mountPort, err := getport(ctx, pm, mountProg, mountVers)
	nfsPort := src.Port
	if err == nil && nfsPort == 0 {
		nfsPort, err = getport(ctx, pm, nfs.Nfs3Prog, nfs.Nfs3Vers)
	}
	pm.Close()
	if err != nil {
		return nil, err
	}

	mnt, err := oncrpc.DialReserved(ctx, net.JoinHostPort(src.Host, strconv.Itoa(mountPort)))
	if err != nil {
		return nil, share.Unavailable(src, "connect to mountd", err)
	}
	// Root the session at the export the source lies in, not at the
	// source's own path, so classes naming /export and /export/x share one
	// metadata directory and see each other's volumes.
	export := src.Export
	if exports, err := exportList(ctx, mnt); err == nil {
		export = exportOf(src.Export, exports)
	} else if !exportsWithheld(err) {
		mnt.Close()
		return nil, fmt.Errorf("%s: EXPORT: %w", c.desc, err)
	}
	root, err := mountExport(ctx, mnt, c.auth, export)
	if err != nil && export != src.Export && share.IsAnswer(err) {
		// The export's root is closed to us: the source's own path may not be.
		export = src.Export
		root, err = mountExport(ctx, mnt, c.auth, export)
	}
	mnt.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: MOUNT %s: %w", c.desc, export, err)
	}
	c.root = root
	c.export = export
	c.prefix = strings.Trim(strings.TrimPrefix(src.Export, export), "/")

	c.conn, err = oncrpc.DialReserved(ctx, net.JoinHostPort(src.Host, strconv.Itoa(nfsPort)))
	if err != nil {
		return nil, share.Unavailable(src, "connect to nfsd", err)
	}
	return c, nil
}

// ShareName is the export the session is rooted at, which names the share
// in metrics: the source may add a directory below it.
func (c *nfsClient) ShareName() string { return c.export }

// LendHelpers takes the pool's function that lends this session more
// sessions on its share for a large RemoveAll (see share.HelperBorrower).
func (c *nfsClient) LendHelpers(borrow func(ctx context.Context) (l *share.Lease, done func())) {
	c.helpers = borrow
}

// CopyData copies a large file on the server with NFSv4.2 COPY.
func (c *nfsClient) CopyData(ctx context.Context, from, to string, size int64) error {
	return c.copier.CopyData(ctx, c.export, from, to, size)
}

var _ share.ServerSideCopier = (*nfsClient)(nil)

// guarded runs one RPC exchange on conn within ctx. Anything but the
// context ending means the server (or the path to it) misbehaved.
func guarded(ctx context.Context, conn *oncrpc.Conn, call any) (*oncrpc.Reader, error) {
	res, err := conn.Call(ctx, call)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	return res, nil
}

func getport(ctx context.Context, pm *oncrpc.Conn, prog, vers uint32) (int, error) {
	res, err := guarded(ctx, pm, &struct {
		rpc.Header
		rpc.Mapping
	}{
		rpc.Header{Rpcvers: 2, Prog: rpc.PmapProg, Vers: rpc.PmapVers, Proc: rpc.PmapProcGetPort, Cred: rpc.AuthNull, Verf: rpc.AuthNull},
		rpc.Mapping{Prog: prog, Vers: vers, Prot: rpc.IPProtoTCP},
	})
	if err != nil {
		return 0, fmt.Errorf("portmapper GETPORT(%d): %w", prog, err)
	}
	port, err := res.Uint32()
	if err != nil {
		return 0, fmt.Errorf("portmapper GETPORT(%d): %w: %w", prog, share.ErrUnavailable, err)
	}
	if port == 0 {
		return 0, fmt.Errorf("program %d version %d over TCP is not registered with the portmapper: is the NFS server running and NFSv3 enabled? %w: %w", prog, vers, share.ErrNoNFSv3, share.ErrUnavailable)
	}
	return int(port), nil
}

func mountExport(ctx context.Context, mnt *oncrpc.Conn, auth rpc.Auth, export string) ([]byte, error) {
	res, err := guarded(ctx, mnt, &struct {
		rpc.Header
		Dirpath string
	}{rpc.Header{Rpcvers: 2, Prog: mountProg, Vers: mountVers, Proc: mountMnt, Cred: auth, Verf: rpc.AuthNull}, export})
	if err != nil {
		return nil, err
	}
	stat, err := res.Uint32()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	switch stat {
	case 0:
		fh, err := res.Opaque(maxFH)
		if err != nil {
			// A reply cut short or garbled: the server's fault, not an
			// answer about the export (Unavailable: the next address
			// of the server, or a retry, may do better).
			return nil, fmt.Errorf("MOUNT %s: the reply's handle: %w: %w", export, share.ErrUnavailable, err)
		}
		return fh, nil
	case nfs.MNT3ErrNoEnt:
		return nil, fmt.Errorf("the server has no export or directory %s: %w", export, fs.ErrNotExist)
	case nfs.MNT3ErrAcces, nfs.MNT3ErrPerm:
		return nil, fmt.Errorf("the server refuses to export %s to this client (check the export's client list and 'insecure' if not running as root): %w", export, fs.ErrPermission)
	case nfs.MNT3ErrNotDir:
		return nil, fmt.Errorf("%s is not a directory on the server: %w", export, fs.ErrNotExist)
	}
	return nil, fmt.Errorf("MOUNT %s failed with status %d", export, stat)
}

// mountExportList is MOUNTPROC3_EXPORT.
const mountExportList = 5

// exportList asks mountd for the exported directories. A server that hides
// the list answers an empty one; callers then use the source's path.
func exportList(ctx context.Context, mnt *oncrpc.Conn) ([]string, error) {
	res, err := guarded(ctx, mnt, &struct{ rpc.Header }{rpc.Header{Rpcvers: 2, Prog: mountProg, Vers: mountVers, Proc: mountExportList, Cred: rpc.AuthNull, Verf: rpc.AuthNull}})
	if err != nil {
		return nil, err
	}
	var dirs []string
	for {
		more, err := res.Uint32()
		if err != nil {
			return nil, fmt.Errorf("%w: export list: %w", share.ErrUnavailable, err)
		}
		if more == 0 {
			return dirs, nil
		}
		dir, err := res.Opaque(1024) // MNTPATHLEN
		if err != nil {
			return nil, fmt.Errorf("%w: export list: %w", share.ErrUnavailable, err)
		}
		dirs = append(dirs, string(dir))
		for {
			more, err := res.Uint32()
			if err != nil {
				return nil, fmt.Errorf("%w: export list: %w", share.ErrUnavailable, err)
			}
			if more == 0 {
				break
			}
			if _, err := res.Opaque(255); err != nil { // MNTNAMLEN
				return nil, fmt.Errorf("%w: export list: %w", share.ErrUnavailable, err)
			}
		}
	}
}

// exportsWithheld says the server will never tell its exports (it does not
// run EXPORT, or not for us): the session is then rooted at the source's
// own path, as it is when the list is empty. Any other failure (a dropped
// connection, SYSTEM_ERR, a garbled list) fails the dial: rooted at the
// source's path by chance, the session would look for records where they
// are not (a DeleteVolume would find none and answer OK, the volume left)
// and write new ones there, for as long as the pool keeps it.
func exportsWithheld(err error) bool { return errors.Is(err, oncrpc.ErrRefused) }

// exportOf returns the longest exported directory that p lies in, or p
// itself when none does. The longest, so a nested export (another file
// system, often) keeps its own metadata. The choice follows the server's
// exports: a new export added later between an export and existing volumes
// moves where their records are looked up, and they are then not found
// (nothing is deleted) until the records are moved with them.
func exportOf(p string, exports []string) string {
	best := ""
	for _, e := range exports {
		e = "/" + strings.Trim(e, "/")
		if e == "/" {
			e = ""
		}
		if (p == e || strings.HasPrefix(p, e+"/")) && len(e) >= len(best) {
			best = e
		}
	}
	if best == "" && !slices.Contains(exports, "/") {
		return p
	}
	if best == "" {
		return "/"
	}
	return best
}

// Prefix is the path from the session's root (the export) to the source's
// own directory.
func (c *nfsClient) Prefix() string { return c.prefix }

func (c *nfsClient) header(proc uint32) rpc.Header {
	return rpc.Header{Rpcvers: 2, Prog: nfs.Nfs3Prog, Vers: nfs.Nfs3Vers, Proc: proc, Cred: c.auth, Verf: rpc.AuthNull}
}

// call runs one NFS procedure and returns the reply positioned after a
// successful nfsstat3, or the status as an error.
func (c *nfsClient) call(ctx context.Context, args any) (*oncrpc.Reader, error) {
	if c.broken {
		return nil, fmt.Errorf("%s: session is broken: %w", c.desc, share.ErrUnavailable)
	}
	res, err := guarded(ctx, c.conn, args)
	if err != nil {
		c.broken = true
		return nil, err
	}
	status, err := res.Uint32()
	if err != nil {
		c.broken = true
		return nil, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	if status != 0 {
		if staleHandle(status) {
			// The handle may be the export's own (its directory was
			// replaced on the server), which only a new MNT finds
			// again: the session is done, and the call is answered
			// from a fresh one (statusError: ErrUnavailable).
			c.broken = true
		}
		return nil, statusError(status)
	}
	return res, nil
}

func statusError(status uint32) error {
	if staleHandle(status) {
		// The thing may well be there, under a handle the session no
		// longer knows. Never fs.ErrNotExist, which the state store takes
		// for the server's word that a path is not there (a record read so
		// would make a DeleteVolume answer OK and leave the volume): a
		// caller retries on a new session.
		return fmt.Errorf("NFS status %d (stale or bad file handle): %w", status, share.ErrUnavailable)
	}
	switch status {
	case nfs.NFS3ErrNoEnt:
		return fmt.Errorf("NFS status %d: %w", status, fs.ErrNotExist)
	case nfs.NFS3ErrExist:
		return fmt.Errorf("NFS status %d: %w", status, fs.ErrExist)
	case nfs.NFS3ErrNotEmpty:
		return fmt.Errorf("NFS status %d: %w", status, share.ErrNotEmpty)
	case nfs.NFS3ErrPerm, nfs.NFS3ErrAcces, nfs.NFS3ErrROFS:
		return fmt.Errorf("NFS status %d: %w", status, fs.ErrPermission)
	case nfs.NFS3ErrNoSpc, nfs.NFS3ErrDQuot:
		return fmt.Errorf("NFS status %d: %w", status, share.ErrNoSpace)
	case nfs3ErrJukebox:
		// The server cannot answer yet (a file being recalled from
		// offline storage, a delegation being returned): ask again later,
		// the call has not failed for good.
		return fmt.Errorf("NFS status %d (JUKEBOX): %w", status, share.ErrTryLater)
	}
	return nfs.NFS3Error(status)
}

// staleHandle says status is about a file handle the server no longer
// knows: STALE (it was replaced, or the server restarted without keeping
// handles) or BADHANDLE (it does not take it at all, as NFSv4's client
// reads the same status). Neither says whether a path is there.
func staleHandle(status uint32) bool {
	return status == nfs.NFS3ErrStale || status == nfs.NFS3ErrBadHandle
}

// nfs3ErrJukebox is NFS3ERR_JUKEBOX (RFC 1813), which go-nfs-client does not
// name.
const nfs3ErrJukebox = 10008

func (c *nfsClient) lookup(ctx context.Context, dir []byte, name string) ([]byte, nfs.Fattr, error) {
	res, err := c.call(ctx, &struct {
		rpc.Header
		What nfs.Diropargs3
	}{c.header(procLookup), nfs.Diropargs3{FH: dir, Filename: name}})
	if err != nil {
		return nil, nfs.Fattr{}, fmt.Errorf("lookup %s: %w", name, err)
	}
	fh, err := res.Opaque(maxFH)
	if err != nil {
		c.broken = true
		return nil, nfs.Fattr{}, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	var attr nfs.PostOpAttr
	if err := res.Decode(&attr); err != nil {
		c.broken = true
		return nil, nfs.Fattr{}, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	return fh, attr.Attr, nil
}

// lookupAttr is lookup with the attributes fetched when LOOKUP's reply left
// them out: walks decide on them.
func (c *nfsClient) lookupAttr(ctx context.Context, dir []byte, name string) ([]byte, nfs.Fattr, error) {
	fh, attr, err := c.lookup(ctx, dir, name)
	if err != nil || attr.Type != 0 {
		return fh, attr, err
	}
	if attr, err = c.getattr(ctx, fh); err != nil {
		return nil, nfs.Fattr{}, fmt.Errorf("getattr %s: %w", name, err)
	}
	return fh, attr, nil
}

// resolveParent walks rel from the root and returns the handle of its
// parent and its own last name. rel "" is the root itself (name ""). Within
// a path scope it starts from the deepest directory of rel's path the
// session looked up in that scope; outside one, always from the root.
func (c *nfsClient) resolveParent(ctx context.Context, rel string) ([]byte, string, error) {
	parts := share.SplitRel(rel)
	if len(parts) == 0 {
		return nil, "", nil
	}
	known := c.scoped.Of(ctx)
	dir, start := c.root, 0
	for i := len(parts) - 1; i >= 1; i-- {
		p := strings.Join(parts[:i], "/")
		if fh, ok := c.kept[p]; ok {
			dir, start = fh, i
			break
		}
		if fh, ok := known[p]; ok {
			dir, start = fh, i
			break
		}
	}
	for i := start; i < len(parts)-1; i++ {
		fh, _, err := c.lookup(ctx, dir, parts[i])
		if err != nil {
			return nil, "", err
		}
		dir = fh
		c.remember(strings.Join(parts[:i+1], "/"), fh, known)
	}
	return dir, parts[len(parts)-1], nil
}

// remember keeps the handle of the directory p: for the session's life
// when the layout says the driver never moves it, else for the path scope
// known, if any.
func (c *nfsClient) remember(p string, fh []byte, known map[string][]byte) {
	switch {
	case layout.KeepHandle(p):
		if c.kept == nil {
			c.kept = map[string][]byte{}
		}
		c.kept[p] = fh
	case known != nil:
		known[p] = fh
	}
}

// resolve returns rel's handle. A kept metadata directory (the markers'
// directory a walk checks, the intents a reclaimer lists) costs nothing
// after its first lookup.
func (c *nfsClient) resolve(ctx context.Context, rel string) ([]byte, error) {
	p := strings.Join(share.SplitRel(rel), "/")
	if fh, ok := c.kept[p]; ok {
		return fh, nil
	}
	dir, name, err := c.resolveParent(ctx, rel)
	if err != nil || name == "" {
		return c.root, err
	}
	fh, attr, err := c.lookup(ctx, dir, name)
	if err == nil && attr.Type == nfs.NF3Dir && layout.KeepHandle(p) {
		c.remember(p, fh, nil)
	}
	return fh, err
}

func (c *nfsClient) getattr(ctx context.Context, fh []byte) (nfs.Fattr, error) {
	res, err := c.call(ctx, &struct {
		rpc.Header
		FH []byte
	}{c.header(procGetattr), fh})
	if err != nil {
		return nfs.Fattr{}, err
	}
	var attr nfs.Fattr
	if err := res.Decode(&attr); err != nil {
		c.broken = true
		return nfs.Fattr{}, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	return attr, nil
}

func (c *nfsClient) Stat(ctx context.Context, rel string) (share.FileInfo, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	dir, name, err := c.resolveParent(ctx, rel)
	if err != nil {
		return share.FileInfo{}, err
	}
	fh, attr := c.root, nfs.Fattr{}
	if name != "" {
		if fh, attr, err = c.lookup(ctx, dir, name); err != nil {
			return share.FileInfo{}, err
		}
	}
	if attr.Type == 0 {
		// LOOKUP's reply may leave the attributes out (or this is the root).
		if attr, err = c.getattr(ctx, fh); err != nil {
			return share.FileInfo{}, fmt.Errorf("getattr %s: %w", rel, err)
		}
	}
	return share.FileInfo{IsDir: attr.Type == nfs.NF3Dir, IsLink: attr.Type == nfs.NF3Lnk, Mode: fs.FileMode(attr.FileMode & 0o777), ID: attr.Fileid}, nil
}

func (c *nfsClient) Mkdir(ctx context.Context, rel string, perm fs.FileMode) error {
	_, err := c.MkdirID(ctx, rel, perm)
	return err
}

// MkdirID reads the new directory's attributes from MKDIR's reply. Servers
// may apply their umask to MKDIR's mode, or drop the setuid, setgid and
// sticky bits: a SETATTR then sets exactly what was asked, and only then.
func (c *nfsClient) MkdirID(ctx context.Context, rel string, perm fs.FileMode) (share.FileInfo, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	dir, name, err := c.resolveParent(ctx, rel)
	if err != nil {
		return share.FileInfo{}, err
	}
	if name == "" {
		return share.FileInfo{}, fmt.Errorf("mkdir of the share root: %w", fs.ErrExist)
	}
	mode := share.UnixMode(perm)
	res, err := c.call(ctx, &struct {
		rpc.Header
		Where nfs.Diropargs3
		Attrs nfs.Sattr3
	}{c.header(procMkdir), nfs.Diropargs3{FH: dir, Filename: name}, nfs.Sattr3{Mode: nfs.SetMode{SetIt: true, Mode: mode}}})
	if err != nil {
		return share.FileInfo{}, fmt.Errorf("mkdir %s: %w", rel, err)
	}
	// The reply is read whole before any other call on the session.
	var made struct {
		FH   nfs.PostOpFH3
		Attr nfs.PostOpAttr
	}
	if err := res.Decode(&made); err != nil {
		c.broken = true
		return share.FileInfo{}, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	newFH, attr := made.FH.FH, made.Attr.Attr
	if !made.FH.IsSet {
		// A server may leave the handle out: a LOOKUP finds it.
		if newFH, attr, err = c.lookupAttr(ctx, dir, name); err != nil {
			return share.FileInfo{}, fmt.Errorf("mkdir %s: %w", rel, err)
		}
	} else if !made.Attr.IsSet {
		if attr, err = c.getattr(ctx, newFH); err != nil {
			return share.FileInfo{}, fmt.Errorf("getattr %s: %w", rel, err)
		}
	}
	if attr.FileMode&0o7777 != mode {
		if err := c.setattr(ctx, newFH, nfs.Sattr3{Mode: nfs.SetMode{SetIt: true, Mode: mode}}); err != nil {
			return share.FileInfo{}, err
		}
	}
	return share.FileInfo{IsDir: true, Mode: perm, ID: attr.Fileid}, nil
}

// createdHandle reads the post-op handle of a MKDIR or CREATE reply; a
// server may leave it out, and then a LOOKUP finds it.
func (c *nfsClient) createdHandle(ctx context.Context, res *oncrpc.Reader, dir []byte, name string) ([]byte, error) {
	var fh nfs.PostOpFH3
	if err := res.Decode(&fh); err != nil {
		c.broken = true
		return nil, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	if fh.IsSet {
		return fh.FH, nil
	}
	h, _, err := c.lookup(ctx, dir, name)
	return h, err
}

func (c *nfsClient) setattr(ctx context.Context, fh []byte, attr nfs.Sattr3) error {
	_, err := c.call(ctx, &struct {
		rpc.Header
		FH    []byte
		Attr  nfs.Sattr3
		Guard bool // sattrguard3 with check = FALSE
	}{c.header(procSetattr), fh, attr, false})
	if err != nil {
		return fmt.Errorf("setattr: %w", err)
	}
	return nil
}

func (c *nfsClient) Rename(ctx context.Context, from, to string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rename(ctx, from, to, false)
}

// Replace is RENAME, which replaces an existing target atomically.
func (c *nfsClient) Replace(ctx context.Context, from, to string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rename(ctx, from, to, true)
}

func (c *nfsClient) rename(ctx context.Context, from, to string, replace bool) error {
	// Whatever happens, neither path may lead where it did.
	defer c.scoped.Forget(from)
	defer c.scoped.Forget(to)
	fromDir, fromName, err := c.resolveParent(ctx, from)
	if err != nil {
		return err
	}
	toDir, toName, err := c.resolveParent(ctx, to)
	if err != nil {
		return err
	}
	if fromName == "" || toName == "" {
		return fmt.Errorf("rename of the share root: %w", fs.ErrPermission)
	}
	if !replace {
		// RENAME replaces an existing target (an empty directory, or a
		// file); refuse instead, so an older archive is never overwritten.
		if _, _, err := c.lookup(ctx, toDir, toName); err == nil {
			return fmt.Errorf("rename %s to %s: %w", from, to, fs.ErrExist)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	_, err = c.call(ctx, &struct {
		rpc.Header
		From nfs.Diropargs3
		To   nfs.Diropargs3
	}{c.header(procRename), nfs.Diropargs3{FH: fromDir, Filename: fromName}, nfs.Diropargs3{FH: toDir, Filename: toName}})
	if err != nil {
		return fmt.Errorf("rename %s to %s: %w", from, to, err)
	}
	return nil
}

func (c *nfsClient) List(ctx context.Context, rel string, max int) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fh, err := c.resolve(ctx, rel)
	if err != nil {
		return nil, err
	}
	var names []string
	l := dirListing{fh: fh}
	for {
		page, err := c.nextPage(ctx, &l)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", rel, err)
		}
		for _, e := range page.entries {
			if max > 0 && len(names) == max {
				return names, nil
			}
			if len(names) == share.MaxListed {
				return nil, fmt.Errorf("list %s: %w", rel, share.TooManyListed())
			}
			names = append(names, e.FileName)
		}
		if page.eof {
			return names, nil
		}
	}
}

func (c *nfsClient) Remove(ctx context.Context, rel string) error {
	return c.removePath(ctx, procRemove, rel)
}

// removePath is REMOVE or RMDIR (proc) of rel.
func (c *nfsClient) removePath(ctx context.Context, proc uint32, rel string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.scoped.Forget(rel)
	dir, name, err := c.resolveParent(ctx, rel)
	if err != nil {
		return err
	}
	return c.removeEntry(ctx, proc, dir, name)
}

func (c *nfsClient) removeEntry(ctx context.Context, proc uint32, dir []byte, name string) error {
	_, err := c.call(ctx, &struct {
		rpc.Header
		What nfs.Diropargs3
	}{c.header(proc), nfs.Diropargs3{FH: dir, Filename: name}})
	if err != nil {
		return fmt.Errorf("remove %s: %w", name, err)
	}
	return nil
}

func isNFSStatus(err error, status uint32) bool {
	var ne *nfs.Error
	return errors.As(err, &ne) && ne.ErrorNum == status
}

// readdirPage is one READDIRPLUS reply.
type readdirPage struct {
	entries      []nfs.EntryPlus // without "." and ".."
	cookie, verf uint64          // where the next page starts
	eof          bool
}

// readdirplus reads one page of the directory fh from cookie, as large as
// the server allows up to 64 KiB.
func (c *nfsClient) readdirplus(ctx context.Context, fh []byte, cookie, verf uint64) (readdirPage, error) {
	res, err := c.call(ctx, &struct {
		rpc.Header
		FH         []byte
		Cookie     uint64
		CookieVerf uint64
		DirCount   uint32
		MaxCount   uint32
	}{c.header(procReaddirplus), fh, cookie, verf, 16384, 65536})
	if err != nil {
		return readdirPage{}, fmt.Errorf("readdirplus: %w", err)
	}
	page, err := decodeReaddirplus(res, cookie)
	if err != nil {
		c.broken = true
		return readdirPage{}, err
	}
	return page, nil
}

// dirListing is one reading of a directory, from its start (cookie 0) to
// its end: where its next READDIRPLUS starts, and the cookies it was read
// from (share.Cookies), which decodeReaddirplus, seeing one reply, checks
// only where the cookie stays the same.
type dirListing struct {
	fh           []byte
	cookie, verf uint64
	from         share.Cookies
}

// nextPage reads l's next page and moves l on. A page that sends l back to
// a cookie it was read from fails with ErrUnavailable and breaks the
// session, as every reply no working server sends. c.mu must be held.
func (c *nfsClient) nextPage(ctx context.Context, l *dirListing) (readdirPage, error) {
	page, err := c.readdirplus(ctx, l.fh, l.cookie, l.verf)
	if err != nil || page.eof {
		return page, err
	}
	if l.from == nil {
		l.from = share.Cookies{}
	}
	if err := l.from.Onward(l.cookie, page.cookie); err != nil {
		c.broken = true
		return readdirPage{}, fmt.Errorf("READDIRPLUS: %w", err)
	}
	l.cookie, l.verf = page.cookie, page.verf
	return page, nil
}

// decodeReaddirplus decodes a READDIRPLUS reply after its status, the
// answer to a call from cookie. Every error wraps ErrUnavailable: the
// server sent what no working server sends.
func decodeReaddirplus(res *oncrpc.Reader, cookie uint64) (readdirPage, error) {
	var head struct {
		DirAttr    nfs.PostOpAttr
		CookieVerf uint64
	}
	if err := res.Decode(&head); err != nil {
		return readdirPage{}, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	page := readdirPage{cookie: cookie, verf: head.CookieVerf}
	for {
		var item struct {
			IsSet bool          `xdr:"union"`
			Entry nfs.EntryPlus `xdr:"unioncase=1"`
		}
		if err := res.Decode(&item); err != nil {
			return readdirPage{}, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
		}
		if !item.IsSet {
			break
		}
		page.cookie = item.Entry.Cookie
		keep, err := share.ListedName(item.Entry.FileName, share.UnixNames)
		if err != nil {
			return readdirPage{}, fmt.Errorf("readdirplus: %w", err)
		}
		if keep {
			page.entries = append(page.entries, item.Entry)
		}
	}
	if err := res.Decode(&page.eof); err != nil {
		return readdirPage{}, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	if !page.eof && page.cookie == cookie {
		// No entry and not the end: asking again would loop forever.
		return readdirPage{}, fmt.Errorf("%w: READDIRPLUS returned no entries before the end of the directory", share.ErrUnavailable)
	}
	return page, nil
}

func (c *nfsClient) WriteFile(ctx context.Context, rel string, data []byte) error {
	return c.writeFile(ctx, rel, data, createUnchecked)
}

// CreateFile is Creator's: CREATE GUARDED, which fails where rel is, then
// WRITE (FILE_SYNC). A call cut between the two leaves an empty file.
func (c *nfsClient) CreateFile(ctx context.Context, rel string, data []byte) error {
	return c.writeFile(ctx, rel, data, createGuarded)
}

// RemoveDir is Rmdirer's: RMDIR, which removes an empty directory and
// nothing else.
func (c *nfsClient) RemoveDir(ctx context.Context, rel string) error {
	return c.removePath(ctx, procRmdir, rel)
}

func (c *nfsClient) writeFile(ctx context.Context, rel string, data []byte, how uint32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	dir, name, err := c.resolveParent(ctx, rel)
	if err != nil {
		return err
	}
	// CREATE with size 0: UNCHECKED creates or truncates, GUARDED only
	// creates.
	res, err := c.call(ctx, &struct {
		rpc.Header
		Where nfs.Diropargs3
		How   uint32
		Attr  nfs.Sattr3
	}{c.header(procCreate), nfs.Diropargs3{FH: dir, Filename: name}, how,
		nfs.Sattr3{Mode: nfs.SetMode{SetIt: true, Mode: 0o644}, Size: nfs.SetSize{SetIt: true, Size: 0}}})
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	file, err := c.createdHandle(ctx, res, dir, name)
	if err != nil {
		return err
	}
	for off := 0; off < len(data); {
		chunk := data[off:min(len(data), off+32768)]
		n, _, err := c.writeAt(ctx, file, uint64(off), chunk, stableFileSync)
		if err != nil {
			return fmt.Errorf("write %s: %w", rel, err)
		}
		if int64(n) > int64(len(chunk)) {
			// Going on from there would skip bytes never sent, and
			// answer OK for a record stored short.
			c.broken = true
			return fmt.Errorf("write %s: the server says it wrote %d bytes of %d: %w", rel, n, len(chunk), share.ErrUnavailable)
		}
		off += int(n)
	}
	return nil
}

const (
	stableUnstable = 0
	stableFileSync = 2
)

// writeAt is one WRITE: how much the server took, and its write verifier
// (which changes when the server restarts).
func (c *nfsClient) writeAt(ctx context.Context, fh []byte, off uint64, data []byte, stable uint32) (uint32, uint64, error) {
	res, err := c.call(ctx, &struct {
		rpc.Header
		FH     []byte
		Offset uint64
		Count  uint32
		Stable uint32
		Data   []byte
	}{c.header(procWrite), fh, off, uint32(len(data)), stable, data})
	if err != nil {
		return 0, 0, err
	}
	var reply struct {
		Wcc       nfs.WccData
		Count     uint32
		Committed uint32
		Verf      uint64
	}
	if err := res.Decode(&reply); err != nil || reply.Count == 0 {
		c.broken = true
		return 0, 0, fmt.Errorf("short reply: %w", share.ErrUnavailable)
	}
	return reply.Count, reply.Verf, nil
}

// readAt is one READ of up to count bytes.
func (c *nfsClient) readAt(ctx context.Context, fh []byte, off uint64, count uint32) ([]byte, bool, error) {
	res, err := c.call(ctx, &struct {
		rpc.Header
		FH     []byte
		Offset uint64
		Count  uint32
	}{c.header(procRead), fh, off, count})
	if err != nil {
		return nil, false, err
	}
	var reply struct {
		Attr  nfs.PostOpAttr
		Count uint32
		EOF   bool
		Data  []byte
	}
	if err := res.Decode(&reply); err != nil {
		c.broken = true
		return nil, false, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	return reply.Data, reply.EOF, nil
}

func (c *nfsClient) ReadFile(ctx context.Context, rel string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fh, err := c.resolve(ctx, rel)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	for {
		data, eof, err := c.readAt(ctx, fh, uint64(buf.Len()), 32768)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", rel, err)
		}
		buf.Write(data)
		if eof || len(data) == 0 {
			return buf.Bytes(), nil
		}
		if buf.Len() > 1<<20 {
			return nil, fmt.Errorf("read %s: larger than 1 MiB, not a metadata file", rel)
		}
	}
}

func (c *nfsClient) Capacity(ctx context.Context) (share.Capacity, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	res, err := c.call(ctx, &struct {
		rpc.Header
		FH []byte
	}{c.header(procFsstat), c.root})
	if err != nil {
		return share.Capacity{}, fmt.Errorf("fsstat: %w", err)
	}
	var reply struct {
		Attr                   nfs.PostOpAttr
		TBytes, FBytes, ABytes uint64
		TFiles, FFiles, AFiles uint64
		Invarsec               uint32
	}
	if err := res.Decode(&reply); err != nil {
		c.broken = true
		return share.Capacity{}, fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	return share.Capacity{
		TotalBytes:     share.ClampInt64(reply.TBytes),
		AvailableBytes: share.ClampInt64(reply.ABytes),
		TotalInodes:    share.ClampInt64(reply.TFiles),
		FreeInodes:     share.ClampInt64(reply.AFiles),
	}, nil
}

func (c *nfsClient) Close() error {
	c.copier.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.broken = true
	if c.conn != nil {
		c.conn.Close()
	}
	return nil
}
