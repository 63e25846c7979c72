// Package memshare is a file share in memory that implements share.Client,
// for tests of the state and copy logic that must run in milliseconds and
// be interrupted at any step: every call is one numbered operation (a
// recursive removal one per entry), and a Hook can fail an operation before
// it takes effect (the controller died, or its deadline passed, before the
// request left) or after (the server did it, the reply was lost).
//
// Objects have server file IDs that never repeat, and links are either shown
// as links (an NFS server) or resolved by the server for its clients, so a
// link to a directory looks like that directory, with its ID (Samba's
// default): the case the driver's guards exist for.
package memshare

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// Op names one operation a Hook sees.
type Op struct {
	N    int    // 1 for the first operation since the hook was set
	Name string // the Client method, or "remove" for one entry of RemoveAll
	Path string
	// Session numbers the client that made the operation, from 1 in the
	// order Client and Gated made them: a hook fails every operation of
	// one session from some point on, as a server does to a connection
	// that broke, while the other sessions go on.
	Session int
}

// When says whether a Hook is asked before an operation takes effect or
// after it did.
type When int

const (
	Before When = iota
	After
)

// Hook is called twice for every operation; an error it returns is the
// operation's result. Before: nothing happens (but Hold and Release). After:
// what the operation did stays done.
type Hook func(op Op, when When) error

var (
	// Hold, returned before an operation, keeps it to take effect later
	// and fails the call: a request a process sent just before it died,
	// which the server runs late, after the next process's first calls
	// (it was still in the server's queue, or on the wire).
	Hold = errors.New("memshare: the request is held, its sender is gone")
	// Release, returned before an operation, has the held ones take effect
	// first, in the order they were sent, then this one.
	Release = errors.New("memshare: held requests run first")
)

// Share is one in-memory file system. The zero value is not usable: New.
type Share struct {
	mu sync.Mutex
	// FollowLinks makes links to directories look like their targets, as
	// Samba shows them (follow symlinks = yes): Stat and walks see the
	// target's ID and entries, and a removal inside reaches the target.
	FollowLinks bool
	// PageSize is how many entries a listing page holds; 0 is 4, small
	// so that a walk of a test tree meets several pages.
	PageSize int
	batches  int
	root     *node
	nextID   uint64
	reuseID  uint64
	hook     Hook
	ops      int
	sessions int
	held     []func() error
}

type node struct {
	id       uint64
	dir      bool
	link     string // a symlink's target, relative to the share root when absolute ("/x")
	data     []byte
	mode     fs.FileMode
	mtime    time.Time
	children map[string]*node
}

// New returns an empty share.
func New() *Share {
	s := &Share{nextID: 100}
	s.root = s.newNode(true)
	return s
}

func (s *Share) newNode(dir bool) *node {
	s.nextID++
	n := &node{id: s.nextID, dir: dir, mode: 0o755}
	if dir && s.reuseID != 0 {
		n.id, s.reuseID = s.reuseID, 0
	}
	if dir {
		n.children = map[string]*node{}
	}
	return n
}

// ReuseDirID gives id to the next directory made, as a file system gives
// the ID (inode number) of a directory removed to the next it makes.
func (s *Share) ReuseDirID(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reuseID = id
}

// SetHook installs h (nil removes it) and numbers operations from 1 again.
func (s *Share) SetHook(h Hook) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hook, s.ops = h, 0
}

// RunHeld has the held operations take effect, in the order they were
// sent, as Release does.
func (s *Share) RunHeld() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.held {
		_ = h()
	}
	s.held = nil
}

// Ops is how many operations ran since the hook was last set.
func (s *Share) Ops() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ops
}

// Clone returns a deep copy of the share, with the same IDs, and no hook.
func (s *Share) Clone() *Share {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &Share{FollowLinks: s.FollowLinks, PageSize: s.PageSize, root: cloneNode(s.root), nextID: s.nextID}
}

func cloneNode(n *node) *node {
	c := *n
	c.data = slices.Clone(n.data)
	if n.dir {
		c.children = make(map[string]*node, len(n.children))
		for k, v := range n.children {
			c.children[k] = cloneNode(v)
		}
	}
	return &c
}

// Client returns a session on the share; sessions share the state and the
// hook, like sessions on one server. It is a share.TreeClient too, so
// copies run on it (tree.go).
func (s *Share) Client() share.Client { return s.newClient(nil) }

// Gated returns a client of the share that calls gate before each of its
// operations (Op without N), outside the share's lock: a test holds one
// controller process's call there while another process's call runs on
// the same share, as two processes interleave on a real server.
func (s *Share) Gated(gate func(op Op)) share.Client { return s.newClient(gate) }

func (s *Share) newClient(gate func(op Op)) *client {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions++
	return &client{s: s, gate: gate, session: s.sessions}
}

// Symlink makes rel a link to target, as a tenant's `ln -s` would (not an
// operation: no hook sees it).
func (s *Share) Symlink(target, rel string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.symlink(target, rel)
}

// symlink makes rel a link to target; s.mu is held.
func (s *Share) symlink(target, rel string) error {
	parent, name, err := s.parent(rel)
	if err != nil {
		return err
	}
	if _, ok := parent.children[name]; ok {
		return fmt.Errorf("symlink %s: %w", rel, fs.ErrExist)
	}
	n := s.newNode(false)
	n.link = target
	parent.children[name] = n
	return nil
}

// Entry is one path of a Dump.
type Entry struct {
	Path string
	Dir  bool
	Link string
	Data string
	ID   uint64
}

// Dump lists every path below the root, sorted, without following links.
func (s *Share) Dump() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Entry
	var walk func(p string, n *node)
	walk = func(p string, n *node) {
		for name, c := range n.children {
			cp := path.Join(p, name)
			out = append(out, Entry{Path: cp, Dir: c.dir, Link: c.link, Data: string(c.data), ID: c.id})
			if c.dir {
				walk(cp, c)
			}
		}
	}
	walk("", s.root)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// WriteFileDirect writes a file as a pod would, making parents (not an
// operation: no hook sees it).
func (s *Share) WriteFileDirect(rel string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	dir := s.root
	parts := split(rel)
	for _, p := range parts[:len(parts)-1] {
		c, ok := dir.children[p]
		if !ok {
			c = s.newNode(true)
			dir.children[p] = c
		}
		if !c.dir {
			return fmt.Errorf("%s: %w", p, fs.ErrExist)
		}
		dir = c
	}
	f := s.newNode(false)
	f.data = slices.Clone(data)
	dir.children[parts[len(parts)-1]] = f
	return nil
}

func split(rel string) []string {
	rel = strings.Trim(rel, "/")
	if rel == "" || rel == "." {
		return nil
	}
	return strings.Split(rel, "/")
}

// resolve walks rel; links in the middle are followed when the server
// follows links, else they are not directories. The last component is
// followed when follow is set.
func (s *Share) resolve(rel string, follow bool) (*node, error) {
	n := s.root
	parts := split(rel)
	for i, p := range parts {
		if !n.dir {
			return nil, fmt.Errorf("%s: %w", rel, fs.ErrNotExist)
		}
		c, ok := n.children[p]
		if !ok {
			return nil, fmt.Errorf("%s: %w", rel, fs.ErrNotExist)
		}
		last := i == len(parts)-1
		if c.link != "" && (!last || follow) {
			if !s.FollowLinks {
				if !last {
					return nil, fmt.Errorf("%s: a link in the path: %w", rel, fs.ErrNotExist)
				}
			} else {
				t, err := s.target(strings.Join(parts[:i], "/"), c.link, 0)
				if err != nil {
					return nil, err
				}
				c = t
			}
		}
		n = c
	}
	return n, nil
}

func (s *Share) target(dir, link string, depth int) (*node, error) {
	if depth > 8 {
		return nil, fmt.Errorf("link loop: %w", fs.ErrNotExist)
	}
	p := link
	if !strings.HasPrefix(link, "/") {
		p = path.Join(dir, link)
	}
	p = path.Clean("/" + p)
	return s.resolve(p, true)
}

// parent returns rel's parent directory and rel's last name.
func (s *Share) parent(rel string) (*node, string, error) {
	parts := split(rel)
	if len(parts) == 0 {
		return nil, "", fmt.Errorf("the share root: %w", fs.ErrPermission)
	}
	p, err := s.resolve(strings.Join(parts[:len(parts)-1], "/"), true)
	if err != nil {
		return nil, "", err
	}
	if !p.dir {
		return nil, "", fmt.Errorf("%s: parent is not a directory: %w", rel, fs.ErrNotExist)
	}
	return p, parts[len(parts)-1], nil
}

type client struct {
	s       *Share
	gate    func(op Op) // nil but for Gated
	session int         // Op.Session
}

// do runs one operation under the share's lock, with the hook around it.
func (c *client) do(ctx context.Context, name, rel string, fn func() error) error {
	if c.gate != nil {
		c.gate(Op{Name: name, Path: rel, Session: c.session})
	}
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.step(ctx, c.session, name, rel, fn)
}

// step is do with the lock held.
func (s *Share) step(ctx context.Context, session int, name, rel string, fn func() error) error {
	s.ops++
	op := Op{N: s.ops, Name: name, Path: rel, Session: session}
	if s.hook != nil {
		switch err := s.hook(op, Before); {
		case errors.Is(err, Hold):
			s.held = append(s.held, fn)
			return err
		case errors.Is(err, Release):
			for _, h := range s.held {
				_ = h() // its sender is gone: nobody sees the answer
			}
			s.held = nil
		case err != nil:
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	err := fn()
	if s.hook != nil {
		if herr := s.hook(op, After); herr != nil {
			return herr
		}
	}
	return err
}

func (c *client) Stat(ctx context.Context, rel string) (share.FileInfo, error) {
	var fi share.FileInfo
	err := c.do(ctx, "stat", rel, func() error {
		n, err := c.s.resolve(rel, true)
		if err != nil {
			return err
		}
		fi = share.FileInfo{IsDir: n.dir, IsLink: n.link != "", Mode: n.mode, ID: n.id}
		return nil
	})
	return fi, err
}

func (c *client) Mkdir(ctx context.Context, rel string, perm fs.FileMode) error {
	_, err := c.MkdirID(ctx, rel, perm)
	return err
}

// MkdirID is share.DirMaker's: the new directory's ID in the same operation.
func (c *client) MkdirID(ctx context.Context, rel string, perm fs.FileMode) (share.FileInfo, error) {
	var fi share.FileInfo
	err := c.do(ctx, "mkdir", rel, func() error {
		p, name, err := c.s.parent(rel)
		if err != nil {
			return err
		}
		if _, ok := p.children[name]; ok {
			return fmt.Errorf("mkdir %s: %w", rel, fs.ErrExist)
		}
		n := c.s.newNode(true)
		n.mode = perm
		p.children[name] = n
		fi = share.FileInfo{IsDir: true, Mode: perm, ID: n.id}
		return nil
	})
	return fi, err
}

func (c *client) Rename(ctx context.Context, from, to string) error {
	return c.do(ctx, "rename", from+" -> "+to, func() error { return c.s.rename(from, to, false) })
}

func (c *client) Replace(ctx context.Context, from, to string) error {
	return c.do(ctx, "replace", from+" -> "+to, func() error { return c.s.rename(from, to, true) })
}

func (s *Share) rename(from, to string, replace bool) error {
	fp, fname, err := s.parent(from)
	if err != nil {
		return err
	}
	n, ok := fp.children[fname]
	if !ok {
		return fmt.Errorf("rename %s: %w", from, fs.ErrNotExist)
	}
	tp, tname, err := s.parent(to)
	if err != nil {
		return err
	}
	if old, ok := tp.children[tname]; ok {
		if !replace || old.dir {
			return fmt.Errorf("rename %s to %s: %w", from, to, fs.ErrExist)
		}
	}
	if n.dir && (to == from || strings.HasPrefix(path.Clean(to)+"/", path.Clean(from)+"/")) {
		return fmt.Errorf("rename %s into itself: %w", from, fs.ErrPermission)
	}
	delete(fp.children, fname)
	tp.children[tname] = n
	return nil
}

func (c *client) List(ctx context.Context, rel string, max int) ([]string, error) {
	var names []string
	err := c.do(ctx, "list", rel, func() error {
		n, err := c.s.resolve(rel, true)
		if err != nil {
			return err
		}
		if !n.dir {
			return fmt.Errorf("list %s: not a directory: %w", rel, fs.ErrNotExist)
		}
		for name := range n.children {
			names = append(names, name)
		}
		sort.Strings(names)
		if max > 0 && len(names) > max {
			names = names[:max]
		}
		return nil
	})
	return names, err
}

func (c *client) WriteFile(ctx context.Context, rel string, data []byte) error {
	return c.do(ctx, "write", rel, func() error {
		p, name, err := c.s.parent(rel)
		if err != nil {
			return err
		}
		if old, ok := p.children[name]; ok && (old.dir || old.link != "") {
			return fmt.Errorf("write %s: %w", rel, fs.ErrExist)
		}
		n := c.s.newNode(false)
		n.data = slices.Clone(data)
		p.children[name] = n
		return nil
	})
}

func (c *client) ReadFile(ctx context.Context, rel string) ([]byte, error) {
	return c.readFileID(ctx, rel, 0)
}

// readFileID is ReadFile of the file with file ID id only, when id is not
// 0 (share.ErrChanged otherwise).
func (c *client) readFileID(ctx context.Context, rel string, id uint64) ([]byte, error) {
	var out []byte
	err := c.do(ctx, "read", rel, func() error {
		n, err := c.s.resolve(rel, true)
		if err != nil {
			return err
		}
		if n.dir {
			return fmt.Errorf("read %s: a directory: %w", rel, fs.ErrInvalid)
		}
		if id != 0 && n.id != id {
			return fmt.Errorf("read %s: file ID %d, not %d: %w", rel, n.id, id, share.ErrChanged)
		}
		out = bytes.Clone(n.data)
		return nil
	})
	return out, err
}

func (c *client) Remove(ctx context.Context, rel string) error {
	return c.do(ctx, "remove", rel, func() error {
		p, name, err := c.s.parent(rel)
		if err != nil {
			return err
		}
		n, ok := p.children[name]
		if !ok {
			return fmt.Errorf("remove %s: %w", rel, fs.ErrNotExist)
		}
		if n.dir {
			// As the servers do (NFS3ERR_ISDIR, SMB's "file is a
			// directory"): a directory goes through Rmdir.
			return fmt.Errorf("remove %s: is a directory", rel)
		}
		delete(p.children, name)
		return nil
	})
}

func (c *client) Capacity(ctx context.Context) (share.Capacity, error) {
	return share.Capacity{TotalBytes: 1 << 40, AvailableBytes: 1 << 39}, c.do(ctx, "capacity", "", func() error { return nil })
}

func (c *client) Prefix() string { return "" }
func (c *client) Close() error   { return nil }

// CreateFile is share.Creator's: a new file only where none is. It is two
// steps, as over NFSv3 (CREATE, then WRITE), so a cut between them leaves
// the empty file a torn write leaves on a real server.
func (c *client) CreateFile(ctx context.Context, rel string, data []byte) error {
	var n *node
	err := c.do(ctx, "create", rel, func() error {
		p, name, err := c.s.parent(rel)
		if err != nil {
			return err
		}
		if _, ok := p.children[name]; ok {
			return fmt.Errorf("create %s: %w", rel, fs.ErrExist)
		}
		n = c.s.newNode(false)
		p.children[name] = n
		return nil
	})
	if err != nil || len(data) == 0 {
		return err
	}
	return c.do(ctx, "write", rel, func() error {
		n.data = slices.Clone(data)
		return nil
	})
}

// RemoveDir is share.Rmdirer's: one empty directory, a link as the link.
func (c *client) RemoveDir(ctx context.Context, rel string) error {
	return c.Rmdir(ctx, path.Dir(rel), path.Base(rel))
}

// Batch is share.Batcher's: the ops one at a time, in order, each a step a
// hook can cut.
func (c *client) Batch(ctx context.Context, ops []share.Op, ordered bool) []share.Result {
	c.s.mu.Lock()
	c.s.batches++
	c.s.mu.Unlock()
	return share.EachOp(ops, ordered, func(op share.Op) share.Result { return share.RunOne(ctx, c, op) })
}

// Batches counts the batches sent since New.
func (s *Share) Batches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.batches
}
