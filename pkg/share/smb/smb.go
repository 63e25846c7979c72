// Package smb is pkg/share's SMB2/3 client, over the go-smb2 copy in
// third_party/go-smb2 (compounds, IOCTLs, batches): NTLMv2 logins and Kerberos
// ones (krb5.go), encryption required (smb_seal.go), the tree copy
// (smb_tree.go) and the delete walk's steps (smb_remove.go). It registers
// itself with share.Register for source.SMB.
package smb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/krb5"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
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
	conn    net.Conn // owned here, so a dead server can be dropped at once
	session *smb2.Session
	share   *smb2.Share
	base    string
	desc    string
	// broken is set once a transport failure or a cut deadline happened on
	// the session: a reply may still be in flight, so it must not be reused.
	broken atomic.Bool
	// chunkLimits are the copychunk limits the server took last (zero until
	// a server-side copy); under mu.
	chunkLimits copychunkLimits
	// noDOS is set once the server refused to store DOS attributes: later
	// files get their time alone, without asking again.
	noDOS atomic.Bool
	// retireAt is when the pool stops lending a Kerberos session, a while
	// before its ticket ends (zero for NTLM, whose sessions do not expire).
	retireAt time.Time
}

// RetireAt is when the session's ticket is about to end (see Retiring).
func (c *smbClient) RetireAt() time.Time { return c.retireAt }

// smbLogoffTimeout bounds the polite TREE_DISCONNECT and LOGOFF of a session
// that is being closed. They run in the background, so no caller waits on
// them; the bound only limits how long a silent server keeps the socket.
const smbLogoffTimeout = 2 * time.Second

func init() { share.Register(source.SMB, "", dialSMB) }

func dialSMB(ctx context.Context, src source.Source, creds share.Credentials) (share.Client, error) {
	init, ticketEnd, err := smbInitiator(ctx, src, creds)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.String(), err)
	}
	raw, err := (&net.Dialer{}).DialContext(ctx, "tcp", src.HostPort(smbPort))
	if err != nil {
		return nil, smbDialError(ctx, src, err)
	}
	conn := net.Conn(raw)
	var sc *sealConn
	if src.Encryption == source.EncryptionRequired {
		sc = &sealConn{Conn: raw}
		conn = sc
	}
	// Closing the connection is the one thing that unblocks every read and
	// write of the library at once, whatever step it is in.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	// Signing is required whatever the server asks. Otherwise, with a
	// server that does not require it (Samba's file servers by default),
	// the library signs no request but the tree connect and verifies only
	// the replies marked signed: anyone on the path could change a request
	// (the path a delete removes) or a reply (a record, a listing, a
	// status) on a session that is not encrypted, and a reply on an
	// encrypted one by sending it in the clear; and a login the server
	// made a guest's was taken (smb2.ErrGuestSession). A reply a server
	// leaves unsigned is refused as a broken one.
	d := &smb2.Dialer{Initiator: init, Negotiator: smb2.Negotiator{RequireMessageSigning: true}}
	s, err := d.DialConn(ctx, conn, src.HostPort(smbPort))
	if err != nil {
		stop()
		conn.Close()
		return nil, smbDialError(ctx, src, err)
	}
	sh, err := s.WithContext(ctx).Mount(src.Share)
	if err == nil && sc != nil {
		err = sc.check(ctx, sh, src)
	}
	if err != nil {
		stop()
		if ctx.Err() != nil {
			conn.Close()
			return nil, fmt.Errorf("%s: connect to share %q: %w (%v)", src.String(), src.Share, ctx.Err(), err)
		}
		if errors.Is(err, share.ErrPrecondition) {
			conn.Close()
			return nil, err
		}
		if smbTransportFailure(err) {
			conn.Close()
			return nil, fmt.Errorf("%s: connect to share %q: %w: %w", src.String(), src.Share, share.ErrUnavailable, err)
		}
		// The server answered: log off politely, without holding the caller.
		go logoff(nil, s, conn)
		if errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "BAD_NETWORK_NAME") {
			return nil, fmt.Errorf("%s: the server has no share %q: %w", src.String(), src.Share, fs.ErrNotExist)
		}
		return nil, fmt.Errorf("%s: connect to share %q: %w", src.String(), src.Share, err)
	}
	if !stop() {
		// The deadline struck just as the tree connect succeeded, and the
		// connection is already closed.
		return nil, fmt.Errorf("%s: connect to share %q: %w", src.String(), src.Share, ctx.Err())
	}
	c := newClient(conn, s, sh, src)
	if !ticketEnd.IsZero() {
		c.retireAt = ticketEnd.Add(-min(5*time.Minute, time.Until(ticketEnd)/4))
	}
	return c, nil
}

// HasLoginFor reports whether creds hold an identity src's auth can log in
// with on SMB: a username for ntlm, a Kerberos identity for krb5, either for
// negotiate. Other protocols need none. It says nothing of whether the
// server accepts it; a call that reads several shares with one Secret uses
// it to tell a share of another class's credentials from a refusal.
func HasLoginFor(src source.Source, creds share.Credentials) bool {
	if src.Protocol != source.SMB {
		return true
	}
	switch src.EffectiveAuth() {
	case source.AuthKrb5:
		return krb5.HasIdentity(creds)
	case source.AuthNegotiate:
		return krb5.HasIdentity(creds) || creds.Username != ""
	}
	return creds.Username != ""
}

// smbInitiator chooses how the session logs in, from the class's auth and
// the Secret: NTLM with username and password, Kerberos with the principal
// (a krb5 class never tries NTLM), or for negotiate Kerberos when the
// Secret has a Kerberos identity and the realm gives a ticket, NTLM
// otherwise. For Kerberos it returns when the service ticket ends.
func smbInitiator(ctx context.Context, src source.Source, creds share.Credentials) (smb2.Initiator, time.Time, error) {
	ntlm := func() (smb2.Initiator, time.Time, error) {
		if creds.Username == "" {
			return nil, time.Time{}, fmt.Errorf("SMB with auth %s needs a username and password in the secret (keys username, password, optional domain): %w", src.EffectiveAuth(), fs.ErrPermission)
		}
		return &smb2.NTLMInitiator{User: creds.Username, Password: creds.Password, Domain: creds.Domain}, time.Time{}, nil
	}
	switch src.EffectiveAuth() {
	case source.AuthKrb5:
		if !krb5.HasIdentity(creds) {
			return nil, time.Time{}, fmt.Errorf("auth krb5 needs a Kerberos identity in the secret: principal (NAME@REALM) and krb5.keytab or password: %w", fs.ErrPermission)
		}
		return krb5Initiator(ctx, src, creds)
	case source.AuthNegotiate:
		if !krb5.HasIdentity(creds) {
			return ntlm()
		}
		init, end, err := krb5Initiator(ctx, src, creds)
		if err == nil || creds.Username == "" || ctx.Err() != nil {
			return init, end, err
		}
		return ntlm()
	}
	return ntlm()
}

// krb5Initiator is go-smb2's Kerberos initiator for the server's cifs/
// principal, with a service ticket already in the client's cache.
func krb5Initiator(ctx context.Context, src source.Source, creds share.Credentials) (smb2.Initiator, time.Time, error) {
	l, err := loginFor(creds)
	if err != nil {
		return nil, time.Time{}, err
	}
	spn := "cifs/" + src.Host
	end, err := l.serviceTicket(ctx, spn)
	if err != nil {
		return nil, time.Time{}, err
	}
	keep(creds, l)
	return &smb2.Krb5Initiator{Client: l.cl, TargetSPN: spn}, end, nil
}

// logoff disconnects the tree (when there is one) and the session, then
// closes the connection, all within smbLogoffTimeout.
func logoff(sh *smb2.Share, s *smb2.Session, conn net.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), smbLogoffTimeout)
	defer cancel()
	if sh != nil {
		_ = sh.WithContext(ctx).Umount()
	}
	_ = s.WithContext(ctx).Logoff()
	_ = conn.Close()
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
		return fmt.Errorf("%s: %w: %w", src.String(), share.ErrUnavailable, err)
	}
	if errors.Is(err, smb2.ErrGuestSession) {
		return fmt.Errorf("%s: the server took the login for a guest's, not the secret's user (Samba does so, with map to guest, for an unknown user or a wrong password): %w", src.String(), fs.ErrPermission)
	}
	var re *smb2.ResponseError
	if errors.As(err, &re) && re.Code == statusNTLMBlocked {
		return fmt.Errorf("%s: the server refuses NTLM logons: set auth: krb5 (or negotiate) in the class and a Kerberos identity in the secret: %w", src.String(), share.ErrPrecondition)
	}
	if errors.As(err, &re) && authFailures[re.Code] || errors.Is(err, fs.ErrPermission) {
		if src.EffectiveAuth() != source.AuthNTLM {
			return fmt.Errorf("%s: the server rejected the login (check username, password and domain, or principal and krb5.keytab, in the secret): %w", src.String(), fs.ErrPermission)
		}
		return fmt.Errorf("%s: the server rejected the credentials (check username, password and domain in the secret): %w", src.String(), fs.ErrPermission)
	}
	return fmt.Errorf("%s: SMB session setup: %w: %w", src.String(), share.ErrUnavailable, err)
}

// statusNTLMBlocked is a server's answer to an NTLM logon when it allows
// Kerberos only.
const statusNTLMBlocked = 0xC0000418

// sessionGone are the NTSTATUS codes with which a server says the session or
// tree connection itself is no longer valid, as opposed to an answer about
// one path.
var sessionGone = map[uint32]bool{
	0xC0000203: true, // STATUS_USER_SESSION_DELETED
	0xC000035C: true, // STATUS_NETWORK_SESSION_EXPIRED
	0xC00000C9: true, // STATUS_NETWORK_NAME_DELETED
	0xC000020C: true, // STATUS_CONNECTION_DISCONNECTED
	0xC000020D: true, // STATUS_CONNECTION_RESET
	0xC00000D0: true, // STATUS_REQUEST_NOT_ACCEPTED
}

// smbTransportFailure reports whether err leaves the session unusable: the
// connection failed, the library lost track of the protocol, or the server
// dropped the session. Any other status from the server is its answer.
func smbTransportFailure(err error) bool {
	var (
		te *smb2.TransportError
		ie *smb2.InvalidResponseError
		in *smb2.InternalError
		re *smb2.ResponseError
		ne net.Error
	)
	switch {
	case errors.As(err, &re):
		return sessionGone[re.Code]
	case errors.As(err, &te), errors.As(err, &ie), errors.As(err, &in), errors.As(err, &ne):
		return true
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed)
}

func (c *smbClient) full(rel string) string {
	return strings.Trim(path.Join(c.base, rel), "/")
}

// on returns the share bound to ctx, so the library gives up at its deadline.
func (c *smbClient) on(ctx context.Context) *smb2.Share { return c.share.WithContext(ctx) }

// wrap classifies an error: the context's own error when the deadline or a
// cancellation cut the call, Unavailable for transport failures, and the
// server's answer as it is otherwise. The first two mark the session broken.
func (c *smbClient) wrap(ctx context.Context, op, rel string, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		c.broken.Store(true)
		cause := ctx.Err()
		if cause == nil {
			return fmt.Errorf("%s %s: %w", op, rel, err)
		}
		return fmt.Errorf("%s %s: %w (%v)", op, rel, cause, err)
	}
	if errors.Is(err, smb2.ErrOtherFile) {
		// The server's answer about the path, not a broken session: what
		// a listing showed there was replaced (OpenID).
		return fmt.Errorf("%s %s: %w: %w", op, rel, share.ErrChanged, err)
	}
	if smbTransportFailure(err) {
		c.broken.Store(true)
		return fmt.Errorf("%s %s: %w: %w", op, rel, share.ErrUnavailable, err)
	}
	var re *smb2.ResponseError
	if errors.As(err, &re) && inUse[re.Code] {
		return fmt.Errorf("%s %s: %w: %w", op, rel, share.ErrInUse, err)
	}
	if s := ntStatus(err); s == statusDiskFull || s == statusQuotaExceeded {
		return fmt.Errorf("%s %s: %w: %w", op, rel, share.ErrNoSpace, err)
	}
	if ntStatus(err) == stoppedOnSymlink {
		return fmt.Errorf("%s %s: the path goes through a link the server leaves to its client to follow, and the driver never follows one: %w: %w", op, rel, fs.ErrPermission, err)
	}
	return fmt.Errorf("%s %s: %w", op, rel, err)
}

// newClient is the client of a session's share. A Windows server leaves the
// links in a path to its client, which the library follows wherever they
// lead in the share: a file swapped for a link between a copy's listing and
// its open would be read, or changed, in another volume. The driver never
// follows one (NoClientLinks; wrap says so).
func newClient(conn net.Conn, s *smb2.Session, sh *smb2.Share, src source.Source) *smbClient {
	return &smbClient{conn: conn, session: s, share: sh.NoClientLinks(), base: src.Base, desc: src.String()}
}

// STATUS_DISK_FULL and STATUS_QUOTA_EXCEEDED: the server has no room for
// a write (share.ErrNoSpace).
const (
	statusDiskFull      = 0xC000007F
	statusQuotaExceeded = 0xC0000044
)

// stoppedOnSymlink is STATUS_STOPPED_ON_SYMLINK: a Windows server's "this
// path goes through a link; open its target yourself", which the session
// refuses to (smb2.Share.NoClientLinks).
const stoppedOnSymlink = 0x8000002D

// inUse are the NTSTATUS codes with which a server says another open of
// the file stands in the way for now: a session of a controller that was
// killed keeps its handles until the server notices it is gone.
var inUse = map[uint32]bool{
	0xC0000043: true, // STATUS_SHARING_VIOLATION
	0xC0000056: true, // STATUS_DELETE_PENDING
	0xC0000054: true, // STATUS_FILE_LOCK_CONFLICT
}

// Prefix is empty: an SMB session is rooted at its source's base.
func (c *smbClient) Prefix() string { return "" }

// CaseInsensitive is true: Windows, and Samba for SMB2/3 clients (its
// default "case sensitive = auto"), take names differing only in case for
// one name.
func (c *smbClient) CaseInsensitive() bool { return true }

// NameSyntax is share.SyntaxOf's: a backslash separates names too, and
// the server resolves a ".." between them.
func (c *smbClient) NameSyntax() share.NameSyntax { return share.SMBNames }

// Broken reports whether a transport failure or a cut deadline happened on
// the session.
func (c *smbClient) Broken() bool { return c.broken.Load() }

// Stat reports what rel is without following a link the client can see
// (a reparse point), with its ID: one compound (CREATE, QUERY_INFO, CLOSE).
func (c *smbClient) Stat(ctx context.Context, rel string) (share.FileInfo, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, err := c.on(ctx).LstatID(c.full(rel))
	if err != nil {
		return share.FileInfo{}, c.wrap(ctx, "stat", rel, err)
	}
	return smbInfo(st), nil
}

func smbInfo(st *smb2.FileStat) share.FileInfo {
	out := share.FileInfo{IsDir: st.IsDir() && st.Mode()&fs.ModeSymlink == 0, IsLink: st.Mode()&fs.ModeSymlink != 0, Mode: st.Mode().Perm()}
	if !out.IsLink {
		out.ID = st.FileId
	}
	return out
}

// smbKinds are the go-smb2 patch's operations for a Batch's.
var smbKinds = map[share.OpKind]smb2.SmallOpKind{
	share.OpStat: smb2.SmallStat, share.OpRead: smb2.SmallRead, share.OpCreate: smb2.SmallCreate,
	share.OpWrite: smb2.SmallWrite, share.OpRemove: smb2.SmallRemove, share.OpRmdir: smb2.SmallRmdir,
}

// Batch is Batcher's. An unordered batch is one related compound (the
// patch in third_party/go-smb2): one round trip for all of it. The server
// goes on after a failed part, so an ordered batch sends each op on its own.
// A rename is a compound of its own (Replace: CREATE, SET_INFO, CLOSE),
// which the patch's chains of one file each do not carry: a batch with one
// sends each op on its own too.
func (c *smbClient) Batch(ctx context.Context, ops []share.Op, ordered bool) []share.Result {
	if ordered || len(ops) > 1 && slices.ContainsFunc(ops, func(op share.Op) bool { return op.Kind == share.OpReplace }) {
		return share.EachOp(ops, ordered, func(op share.Op) share.Result { return c.Batch(ctx, []share.Op{op}, false)[0] })
	}
	if len(ops) == 1 && ops[0].Kind == share.OpReplace {
		return []share.Result{share.RunOne(ctx, c, ops[0])}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	sh := c.on(ctx)
	small := make([]smb2.SmallOp, len(ops))
	for i, op := range ops {
		// The store's records, intents and marks: written through, as
		// NFS writes them FILE_SYNC (a commit must survive the server's
		// power cut once acknowledged).
		small[i] = smb2.SmallOp{Kind: smbKinds[op.Kind], Name: c.full(op.Path), Data: op.Data, WriteThrough: true}
	}
	res := make([]share.Result, len(ops))
	for i, o := range sh.Batch(small) {
		op, err := ops[i], o.Err
		switch op.Kind {
		case share.OpStat:
			if err == nil {
				res[i].Info = smbInfo(o.Stat)
			}
		case share.OpRead:
			res[i].Data, err = o.Data, missingParent(sh, small[i].Name, err)
		case share.OpRmdir:
			if isNotEmpty(err) {
				err = fmt.Errorf("%w: %w", share.ErrNotEmpty, err)
			}
		}
		if (op.Kind == share.OpRemove || op.Kind == share.OpRmdir) && errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		res[i].Err = c.wrap(ctx, op.Kind.String(), op.Path, err)
	}
	return res
}

// CreateFile is Creator's: one compound that fails where rel is.
func (c *smbClient) CreateFile(ctx context.Context, rel string, data []byte) error {
	return c.Batch(ctx, []share.Op{{Kind: share.OpCreate, Path: rel, Data: data}}, false)[0].Err
}

// RemoveDir is Rmdirer's: one compound, a directory only.
func (c *smbClient) RemoveDir(ctx context.Context, rel string) error {
	return c.Batch(ctx, []share.Op{{Kind: share.OpRmdir, Path: rel}}, false)[0].Err
}

// fileID asks for p's IndexNumber, which a CREATE response does not
// carry: one compound (CREATE, QUERY_INFO, CLOSE). A link is followed, as
// an open follows it (callers check for links first).
func fileID(sh *smb2.Share, p string) (uint64, error) {
	st, err := sh.StatID(p)
	if err != nil {
		return 0, err
	}
	return st.FileId, nil
}

// Mkdir creates the directory. SMB carries no Unix mode: the permissions a
// Linux node sees come from its mount options (file_mode, dir_mode).
func (c *smbClient) Mkdir(ctx context.Context, rel string, perm fs.FileMode) error {
	_, err := c.MkdirID(ctx, rel, perm)
	return err
}

// MkdirID reads the new directory's ID in the same compound.
func (c *smbClient) MkdirID(ctx context.Context, rel string, _ fs.FileMode) (share.FileInfo, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, err := c.on(ctx).MkdirID(c.full(rel))
	if err != nil {
		return share.FileInfo{}, c.wrap(ctx, "mkdir", rel, err)
	}
	return share.FileInfo{IsDir: true, Mode: st.Mode().Perm(), ID: st.FileId}, nil
}

// Rename never replaces: the server refuses an existing target
// (ReplaceIfExists off) in the same compound that renames.
func (c *smbClient) Rename(ctx context.Context, from, to string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.on(ctx).RenameNoReplace(c.full(from), c.full(to))
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("rename %s to %s: %w", from, to, fs.ErrExist)
	}
	return c.wrap(ctx, "rename", from, err)
}

// Replace renames with ReplaceIfExists: one compound.
func (c *smbClient) Replace(ctx context.Context, from, to string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wrap(ctx, "replace", to, c.on(ctx).RenameReplace(c.full(from), c.full(to)))
}

func (c *smbClient) List(ctx context.Context, rel string, max int) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, err := c.on(ctx).Open(c.full(rel))
	if err != nil {
		return nil, c.wrap(ctx, "list", rel, err)
	}
	defer f.Close()
	batch, err := f.Readdir(max)
	if errors.Is(err, io.EOF) {
		err = nil
	}
	if err == nil {
		batch, err = c.listed(batch)
	}
	if err != nil {
		return nil, c.wrap(ctx, "list", rel, err)
	}
	names := make([]string, len(batch))
	for i, e := range batch {
		names[i] = e.Name()
	}
	return names, nil
}

// listed passes the names of a batch the library listed through the
// package's one check (share.ListedName): the library decodes a directory
// listing itself and drops only "." and "..". A bad name refuses the batch,
// and the session, whose server sent it, is not used again.
func (c *smbClient) listed(batch []os.FileInfo) ([]os.FileInfo, error) {
	out := make([]os.FileInfo, 0, len(batch))
	for _, e := range batch {
		keep, err := share.ListedName(e.Name(), share.SMBNames)
		if err != nil {
			c.broken.Store(true)
			return nil, err
		}
		if keep {
			out = append(out, e)
		}
	}
	return out, nil
}

func (c *smbClient) Remove(ctx context.Context, rel string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wrap(ctx, "remove", rel, c.removeOne(c.on(ctx), c.full(rel)))
}

// removeOne deletes a file or empty directory, clearing the read-only
// attribute when that is what stops it (STATUS_CANNOT_DELETE).
func (c *smbClient) removeOne(sh *smb2.Share, p string) error {
	return evenReadOnly(sh, p, func() error { return sh.RemoveOne(p) })
}

// evenReadOnly runs op on p, and once more after clearing p's read-only
// attribute when the server refused it.
func evenReadOnly(sh *smb2.Share, p string, op func() error) error {
	err := op()
	if err == nil || !errors.Is(err, fs.ErrPermission) {
		return err
	}
	if cerr := sh.Chmod(p, 0o777); cerr != nil {
		return err
	}
	return op()
}

func (c *smbClient) WriteFile(ctx context.Context, rel string, data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wrap(ctx, "write", rel, c.on(ctx).WriteSmallFile(c.full(rel), data, 0o644, true))
}

func (c *smbClient) ReadFile(ctx context.Context, rel string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sh := c.on(ctx)
	b, err := sh.ReadSmallFile(c.full(rel))
	return b, c.wrap(ctx, "read", rel, missingParent(sh, c.full(rel), err))
}

// missingParent turns the ACCESS_DENIED with which Samba answers for a file
// whose parent directory does not exist (rather than NOT_FOUND) into the
// fs.ErrNotExist it means, asking about the path itself.
func missingParent(sh *smb2.Share, p string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		if _, serr := sh.Stat(p); errors.Is(serr, fs.ErrNotExist) {
			return serr
		}
	}
	return err
}

func (c *smbClient) Capacity(ctx context.Context) (share.Capacity, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, err := c.on(ctx).Statfs(c.full(""))
	if err != nil {
		return share.Capacity{}, c.wrap(ctx, "statfs", "", err)
	}
	// BlockSize is bytes per allocation unit in this library.
	bs := st.BlockSize()
	return share.Capacity{
		TotalBytes:     share.ClampInt64(st.TotalBlockCount() * bs),
		AvailableBytes: share.ClampInt64(st.AvailableBlockCount() * bs),
	}, nil
}

// Close never waits on the server. A broken session is dropped at once; a
// healthy one logs off in the background.
func (c *smbClient) Close() error {
	if c.broken.Load() {
		return c.conn.Close()
	}
	go func() {
		// The mutex waits out a call that is still running on the session.
		c.mu.Lock()
		defer c.mu.Unlock()
		logoff(c.share, c.session, c.conn)
	}()
	return nil
}
