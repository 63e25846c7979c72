package share

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"path"
	"strings"
	"sync"
	"time"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

const smbPort = 445

// authFailures are the NTSTATUS codes of a session setup that failed on the
// credentials, as opposed to the network or the server.
var authFailures = map[uint32]bool{
	0xC000006D: true, // STATUS_LOGON_FAILURE
	0xC000006A: true, // STATUS_WRONG_PASSWORD
	0xC0000064: true, // STATUS_NO_SUCH_USER
	0xC0000022: true, // STATUS_ACCESS_DENIED
	0xC0000072: true, // STATUS_ACCOUNT_DISABLED
	0xC0000234: true, // STATUS_ACCOUNT_LOCKED_OUT
	0xC000006E: true, // STATUS_ACCOUNT_RESTRICTION
	0xC0000071: true, // STATUS_PASSWORD_EXPIRED
	0xC0000224: true, // STATUS_PASSWORD_MUST_CHANGE
}

type smbClient struct {
	mu      sync.Mutex
	session *smb2.Session
	share   *smb2.Share
	base    string
	desc    string
}

func dialSMB(ctx context.Context, src source.Source, creds Credentials) (Client, error) {
	if creds.Username == "" {
		return nil, fmt.Errorf("%s: SMB needs a username and password in the secret (keys username, password, optional domain): %w", src.String(), fs.ErrPermission)
	}
	d := &smb2.Dialer{Initiator: &smb2.NTLMInitiator{User: creds.Username, Password: creds.Password, Domain: creds.Domain}}
	s, err := d.Dial(ctx, src.HostPort(smbPort))
	if err != nil {
		return nil, smbDialError(ctx, src, err)
	}
	sh, err := s.WithContext(ctx).Mount(src.Share)
	if err != nil {
		_ = s.Logoff()
		if errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "BAD_NETWORK_NAME") {
			return nil, fmt.Errorf("%s: the server has no share %q: %w", src.String(), src.Share, fs.ErrNotExist)
		}
		return nil, fmt.Errorf("%s: connect to share %q: %w", src.String(), src.Share, err)
	}
	return &smbClient{session: s, share: sh, base: src.Base, desc: src.String()}, nil
}

func smbDialError(ctx context.Context, src source.Source, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w (%v)", src.String(), ctx.Err(), err)
	}
	var ne net.Error
	if errors.As(err, &ne) {
		if ne.Timeout() {
			return fmt.Errorf("%s: %w: %w", src.String(), context.DeadlineExceeded, err)
		}
		return fmt.Errorf("%s: %w: %w", src.String(), ErrUnavailable, err)
	}
	var re *smb2.ResponseError
	if errors.As(err, &re) && authFailures[re.Code] || errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("%s: the server rejected the credentials (check username, password and domain in the secret): %w", src.String(), fs.ErrPermission)
	}
	return fmt.Errorf("%s: SMB session setup: %w: %w", src.String(), ErrUnavailable, err)
}

func (c *smbClient) full(rel string) string {
	return strings.Trim(path.Join(c.base, rel), "/")
}

// on returns the share bound to ctx, so the library gives up at its deadline.
func (c *smbClient) on(ctx context.Context) *smb2.Share { return c.share.WithContext(ctx) }

// wrap classifies errors that are not the server's answer about a path as
// Unavailable, and surfaces the context's own error when that is the cause.
func (c *smbClient) wrap(ctx context.Context, op, rel string, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s %s: %w (%v)", op, rel, ctx.Err(), err)
	}
	if IsAnswer(err) {
		return fmt.Errorf("%s %s: %w", op, rel, err)
	}
	return fmt.Errorf("%s %s: %w: %w", op, rel, ErrUnavailable, err)
}

func (c *smbClient) Stat(ctx context.Context, rel string) (FileInfo, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fi, err := c.on(ctx).Stat(c.full(rel))
	if err != nil {
		return FileInfo{}, c.wrap(ctx, "stat", rel, err)
	}
	return FileInfo{IsDir: fi.IsDir(), Mode: fi.Mode().Perm()}, nil
}

// Mkdir creates the directory. SMB carries no Unix mode: the permissions a
// Linux node sees come from its mount options (file_mode, dir_mode).
func (c *smbClient) Mkdir(ctx context.Context, rel string, _ fs.FileMode) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wrap(ctx, "mkdir", rel, c.on(ctx).Mkdir(c.full(rel), 0o777))
}

func (c *smbClient) Rename(ctx context.Context, from, to string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	sh := c.on(ctx)
	// The library renames with ReplaceIfExists; check first so nothing is
	// overwritten.
	if _, err := sh.Stat(c.full(to)); err == nil {
		return fmt.Errorf("rename %s to %s: %w", from, to, fs.ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return c.wrap(ctx, "stat", to, err)
	}
	return c.wrap(ctx, "rename", from, sh.Rename(c.full(from), c.full(to)))
}

func (c *smbClient) Remove(ctx context.Context, rel string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wrap(ctx, "remove", rel, c.removeOne(c.on(ctx), c.full(rel)))
}

// removeOne deletes a file or empty directory, clearing the read-only
// attribute when that is what stops it (STATUS_CANNOT_DELETE).
func (c *smbClient) removeOne(sh *smb2.Share, p string) error {
	err := sh.Remove(p)
	if err == nil || !errors.Is(err, fs.ErrPermission) {
		return err
	}
	if cerr := sh.Chmod(p, 0o777); cerr != nil {
		return err
	}
	return sh.Remove(p)
}

func (c *smbClient) RemoveAll(ctx context.Context, rel string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if strings.Trim(rel, "/") == "" {
		return fmt.Errorf("refusing to remove the share's base directory: %w", fs.ErrPermission)
	}
	sh := c.on(ctx)
	p := c.full(rel)
	fi, err := sh.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return c.wrap(ctx, "stat", rel, err)
	}
	if fi.IsDir() {
		if err := c.emptyParallel(ctx, sh, p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return c.wrap(ctx, "remove", rel, err)
		}
	}
	if err := c.removeTree(sh, p, fi.IsDir()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return c.wrap(ctx, "remove", rel, err)
	}
	return nil
}

// smbRemoveWorkers is how many requests a large RemoveAll keeps in flight.
// SMB2 multiplexes requests on one session (the library matches replies by
// message ID), so one round trip at a time would waste the connection.
const smbRemoveWorkers = 8

// emptyParallel removes the entries of directory p, whole subtrees at a time,
// from several goroutines on the one session.
func (c *smbClient) emptyParallel(ctx context.Context, sh *smb2.Share, p string) error {
	entries, err := sh.ReadDir(p)
	if err != nil || len(entries) < 32 {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan fs.FileInfo)
	var wg sync.WaitGroup
	for range smbRemoveWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wsh := sh.WithContext(ctx)
			for e := range jobs {
				if err := c.removeTree(wsh, p+`\`+e.Name(), e.IsDir()); err != nil && !errors.Is(err, fs.ErrNotExist) {
					cancel(err)
				}
			}
		}()
	}
	feed(ctx, jobs, entries)
	wg.Wait()
	return context.Cause(ctx)
}

func (c *smbClient) removeTree(sh *smb2.Share, p string, isDir bool) error {
	if isDir {
		for range 3 {
			entries, err := sh.ReadDir(p)
			if err != nil {
				return err
			}
			for _, e := range entries {
				if err := c.removeTree(sh, p+`\`+e.Name(), e.IsDir()); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
			err = c.removeOne(sh, p)
			if err == nil || errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if !strings.Contains(err.Error(), "NOT_EMPTY") {
				return err
			}
		}
		return fmt.Errorf("%s: directory keeps getting new entries", p)
	}
	return c.removeOne(sh, p)
}

func (c *smbClient) WriteFile(ctx context.Context, rel string, data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wrap(ctx, "write", rel, c.on(ctx).WriteFile(c.full(rel), data, 0o644))
}

func (c *smbClient) ReadFile(ctx context.Context, rel string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sh := c.on(ctx)
	b, err := sh.ReadFile(c.full(rel))
	if errors.Is(err, fs.ErrPermission) {
		// Samba answers ACCESS_DENIED, not NOT_FOUND, for a file whose
		// parent directory does not exist; ask about the path itself.
		if _, serr := sh.Stat(c.full(rel)); errors.Is(serr, fs.ErrNotExist) {
			err = serr
		}
	}
	return b, c.wrap(ctx, "read", rel, err)
}

func (c *smbClient) Capacity(ctx context.Context) (Capacity, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, err := c.on(ctx).Statfs(c.full(""))
	if err != nil {
		return Capacity{}, c.wrap(ctx, "statfs", "", err)
	}
	// BlockSize is bytes per allocation unit in this library.
	bs := st.BlockSize()
	return Capacity{
		TotalBytes:     clampInt64(st.TotalBlockCount() * bs),
		AvailableBytes: clampInt64(st.AvailableBlockCount() * bs),
	}, nil
}

func (c *smbClient) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	// A dead server must not hold up the caller: the library's own context
	// for these is Background.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = c.share.WithContext(ctx).Umount()
	return c.session.WithContext(ctx).Logoff()
}
