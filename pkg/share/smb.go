package share

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// Stat reports what rel is without following a link the client can see
// (a reparse point); its ID comes from opening the object itself.
func (c *smbClient) Stat(ctx context.Context, rel string) (FileInfo, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sh := c.on(ctx)
	p := c.full(rel)
	fi, err := sh.Lstat(p)
	if err != nil {
		return FileInfo{}, c.wrap(ctx, "stat", rel, err)
	}
	out := FileInfo{IsDir: fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0, IsLink: fi.Mode()&fs.ModeSymlink != 0, Mode: fi.Mode().Perm()}
	if out.IsLink {
		return out, nil
	}
	id, err := fileID(sh, p)
	if err != nil {
		return FileInfo{}, c.wrap(ctx, "stat", rel, err)
	}
	out.ID = id
	return out, nil
}

// fileID opens p (never a reparse point: callers check first) and asks for
// its IndexNumber, which the CREATE response does not carry.
func fileID(sh *smb2.Share, p string) (uint64, error) {
	f, err := sh.Open(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if st, ok := fi.Sys().(*smb2.FileStat); ok {
		return st.FileId, nil
	}
	return 0, nil
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

// Replace relies on the library renaming with ReplaceIfExists.
func (c *smbClient) Replace(ctx context.Context, from, to string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wrap(ctx, "replace", to, c.on(ctx).Rename(c.full(from), c.full(to)))
}

func (c *smbClient) List(ctx context.Context, rel string, max int) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, err := c.on(ctx).Open(c.full(rel))
	if err != nil {
		return nil, c.wrap(ctx, "list", rel, err)
	}
	defer f.Close()
	names, err := f.Readdirnames(max)
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return names, c.wrap(ctx, "list", rel, err)
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
