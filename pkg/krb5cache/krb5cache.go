// Package krb5cache keeps, on a Linux node, the Kerberos ticket caches its
// sec=krb5 mounts log in with: one host uid per Kerberos identity, whose
// default credential cache on the host holds that identity's tickets,
// written from the volume's Secret and renewed while a volume uses it.
//
// Why a uid per identity: the kernel asks the host's cifs.upcall for a
// ticket at every session setup of a mount (the mount itself, and every
// reconnect, from whichever task touched the mount then). With the mount
// option upcall_target=mount (Linux 6.13, 6.12.30) and cifs-utils 7.2 or
// later, cifs.upcall then runs in the host's namespaces for the mount's
// cruid, whatever task asked, and reads that uid's default cache
// (FILE:/tmp/krb5cc_<uid> unless the host's krb5.conf says otherwise).
// The uid is therefore the only thing that carries a mount's identity to
// every upcall; the kernel also keeps the sessions of different cruids
// apart, so two Secrets never share an SMB session. See docs/kerberos.md.
//
// Nothing secret is written by this package but the caches themselves
// (mode 0600, owned by their uid, which the host's cifs.upcall reads as
// that uid). The Secret's keytab or password, which renewal needs, stays
// where the node keeps a staged volume's credentials (nodestate: sealed in
// root's kernel keyring), and is asked for again after a restart.
package krb5cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/krb5"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

var (
	// ErrNoFreeUID is Acquire's answer when every uid of the pool serves
	// another identity.
	ErrNoFreeUID = errors.New("no free uid for another Kerberos identity")
	// ErrNoIdentity is Acquire's answer to credentials without a
	// principal and its key.
	ErrNoIdentity = errors.New("no Kerberos identity in the Secret")
	// ErrOtherPrincipal is Acquire's answer for a volume that uses the uid
	// of another principal: its mount logs in as that one until it is
	// unstaged.
	ErrOtherPrincipal = errors.New("the volume is mounted as another Kerberos principal")
)

// Config says where the caches go.
type Config struct {
	// First and Last bound the pool of host uids (--krb5-cache-uids). Each
	// needs a passwd entry on the host, where cifs.upcall looks it up, and
	// must be used by nothing else: whoever runs as one reads its tickets.
	First, Last uint32
	// Path is a uid's cache file as the plugin sees the host's: "%{uid}"
	// in it is the uid, e.g. /host/tmp/krb5cc_%{uid} with the host's /tmp
	// mounted at /host/tmp.
	Path string
	// StateFile keeps which uid serves which identity and volumes (no
	// secrets), so that a restart and a remount keep their uid.
	StateFile string
	// Login gets an identity's tickets: a TGT and a service ticket for
	// each SPN (krb5.Tickets in the plugin; a fake in tests).
	Login func(ctx context.Context, creds source.Credentials, spns []string) (*krb5.Cache, error)
	// Chown gives the cache file to its uid (os.File.Chown by default).
	Chown func(f *os.File, uid int) error
	// Retry is how long a failed renewal waits to try again; 30 s when 0.
	Retry time.Duration
}

// Manager hands out the uids and keeps their caches fresh.
type Manager struct {
	cfg Config
	mu  sync.Mutex
	ids map[uint32]*identity
}

// identity is one Kerberos principal's uid on this node.
type identity struct {
	UID       uint32 `json:"uid"`
	Principal string `json:"principal"`
	// Conf names the realm configuration the principal's key was proved
	// against (confKey): a Secret with a krb5.conf of its own may send its
	// login to a KDC of its choosing, which proves nothing to another.
	Conf    string   `json:"conf,omitempty"`
	Servers []string `json:"servers"`
	// Volumes are the staging paths whose mounts use the uid.
	Volumes []string `json:"volumes"`

	// creds are the last credentials that logged in; not kept on disk.
	creds source.Credentials
	timer *time.Timer
	// gen counts writes of the cache: a renewal started before a newer
	// write does not overwrite it.
	gen int
}

// New readies a Manager; Resume picks up what an earlier run left.
func New(cfg Config) (*Manager, error) {
	if cfg.First == 0 || cfg.Last < cfg.First {
		return nil, fmt.Errorf("the uid pool %d-%d is empty or includes root", cfg.First, cfg.Last)
	}
	if !strings.Contains(cfg.Path, "%{uid}") {
		return nil, fmt.Errorf("the cache path %q has no %%{uid}: every identity would share one file", cfg.Path)
	}
	if cfg.Chown == nil {
		cfg.Chown = func(f *os.File, uid int) error { return f.Chown(uid, -1) }
	}
	if cfg.Retry == 0 {
		cfg.Retry = 30 * time.Second
	}
	return &Manager{cfg: cfg, ids: map[uint32]*identity{}}, nil
}

// CachePath is uid's cache file, as the plugin sees it.
func (m *Manager) CachePath(uid uint32) string {
	return strings.ReplaceAll(m.cfg.Path, "%{uid}", strconv.FormatUint(uint64(uid), 10))
}

// SPN is the service principal a mount of host logs in to.
func SPN(host string) string { return "cifs/" + strings.ToLower(host) }

// Acquire gives the volume staged at volume the uid of creds' principal,
// with a cache that holds its tickets for server, and keeps it renewed
// until Release. It logs in with creds first, every time: a uid is shared
// only by Secrets that each proved they hold the principal's key, and the
// newest credentials that did are the ones renewals use (a rotated keytab
// takes over at the next stage or republish). added is true when the
// volume was not using the uid before this call.
func (m *Manager) Acquire(ctx context.Context, volume string, creds source.Credentials, server string) (uid uint32, added bool, err error) {
	if !krb5.HasIdentity(creds) {
		return 0, false, fmt.Errorf("a Kerberos mount needs principal, and krb5.keytab or password, in the node-stage secret: %w", ErrNoIdentity)
	}
	m.mu.Lock()
	servers := []string{server}
	if id := m.serving(creds); id != nil {
		servers = union(id.Servers, server)
	}
	m.mu.Unlock()
	c, err := m.cfg.Login(ctx, creds, spns(servers))
	if err != nil {
		return 0, false, err
	}
	defer c.Wipe()

	m.mu.Lock()
	defer m.mu.Unlock()
	for _, other := range m.ids {
		if !other.serves(creds) && slices.Contains(other.Volumes, volume) {
			as := other.Principal
			if as == creds.Principal {
				as += ", with another krb5.conf"
			}
			return 0, false, fmt.Errorf("%w (%s): a live mount keeps its identity; unstage the volume (restart the pods that use it) to mount it as %s", ErrOtherPrincipal, as, creds.Principal)
		}
	}
	id := m.serving(creds)
	if id == nil {
		if id, err = m.allocate(creds); err != nil {
			return 0, false, err
		}
	}
	added = !slices.Contains(id.Volumes, volume)
	prev := *id
	id.Servers, id.Volumes, id.creds = union(servers, id.Servers...), union(id.Volumes, volume), creds
	// The volume is on record before its cache is written: a crash between
	// the two leaves a uid the next Resume renews or frees, never a cache
	// nobody removes.
	if err := m.save(); err != nil {
		*id = prev // under m.mu since the copy: nothing else changed it
		if len(id.Volumes) == 0 {
			delete(m.ids, id.UID)
		}
		return 0, false, err
	}
	if err := m.write(id, c); err != nil {
		// Not on record for this volume either: its stage fails, and a
		// kept entry would hold the uid (and make the retry's added
		// false, so nothing gives it back).
		if added {
			id.Volumes = slices.DeleteFunc(id.Volumes, func(v string) bool { return v == volume })
			if len(id.Volumes) == 0 {
				m.drop(id)
			}
			if serr := m.save(); serr != nil {
				return 0, false, fmt.Errorf("%w (and recording that the volume does not use uid %d: %v)", err, id.UID, serr)
			}
		}
		return 0, false, err
	}
	return id.UID, added, nil
}

// Release ends volume's use of its uid; the last volume of a uid removes
// its cache and frees it.
func (m *Manager) Release(volume string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range m.ids {
		if i := slices.Index(id.Volumes, volume); i >= 0 {
			id.Volumes = slices.Delete(id.Volumes, i, i+1)
			if len(id.Volumes) == 0 {
				m.drop(id)
			}
			return m.save()
		}
	}
	return nil
}

// Uses says which uid the volume staged at volume logs in with.
func (m *Manager) Uses(volume string) (uint32, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range m.ids {
		if slices.Contains(id.Volumes, volume) {
			return id.UID, true
		}
	}
	return 0, false
}

// Resume takes over the uids an earlier run of the plugin left: volumes
// that are no longer staged (staged says so) are dropped, and every
// uid still in use gets fresh tickets now (the caches may have expired
// while the plugin was down) and renewals after. A uid whose volumes have
// no credentials to log in with keeps its cache until it expires: its
// mounts then fail to reconnect until a stage or republish brings the
// Secret again.
func (m *Manager) Resume(ctx context.Context, staged func(volume string) (creds source.Credentials, ok bool)) error {
	m.removeTemporaries()
	b, err := os.ReadFile(m.cfg.StateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	var ids []*identity
	if err := json.Unmarshal(b, &ids); err != nil {
		return fmt.Errorf("%s: %w", m.cfg.StateFile, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		if id.UID < m.cfg.First || id.UID > m.cfg.Last {
			// The pool changed: the uid is no longer the driver's to use,
			// and its cache not the driver's to remove.
			klog.FromContext(ctx).Info("a Kerberos identity's uid is outside --krb5-cache-uids now; its volumes log in again at their next stage", "uid", id.UID)
			continue
		}
		var kept []string
		for _, v := range id.Volumes {
			if c, ok := staged(v); ok {
				kept = append(kept, v)
				if krb5.HasIdentity(c) && c.Principal == id.Principal && id.Conf == "" && c.Krb5Conf != "" {
					// Recorded before identities named their krb5.conf:
					// the one its volume was staged with.
					id.Conf = confKey(c)
				}
				if krb5.HasIdentity(c) && id.serves(c) {
					id.creds = c
				}
			}
		}
		id.Volumes = kept
		m.ids[id.UID] = id
		if len(kept) == 0 {
			m.drop(id)
			continue
		}
		m.schedule(id, 0)
	}
	return m.save()
}

// Close stops the renewals (the caches stay: the mounts still need them).
func (m *Manager) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range m.ids {
		if id.timer != nil {
			id.timer.Stop()
		}
	}
}

// serving is the identity that logs in as creds do: their principal,
// proved against the same realm configuration.
func (m *Manager) serving(creds source.Credentials) *identity {
	for _, id := range m.ids {
		if id.serves(creds) {
			return id
		}
	}
	return nil
}

func (id *identity) serves(c source.Credentials) bool {
	return id.Principal == c.Principal && id.Conf == confKey(c)
}

// confKey names the realm configuration a login of c goes by: the
// Secret's own krb5.conf (a hash of it), or the node's ("").
func confKey(c source.Credentials) string {
	if c.Krb5Conf == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(c.Krb5Conf))
	return hex.EncodeToString(sum[:16])
}

func (m *Manager) allocate(creds source.Credentials) (*identity, error) {
	for uid := m.cfg.First; ; uid++ {
		if _, used := m.ids[uid]; !used {
			id := &identity{UID: uid, Principal: creds.Principal, Conf: confKey(creds)}
			m.ids[uid] = id
			return id, nil
		}
		if uid == m.cfg.Last {
			return nil, fmt.Errorf("%w: all %d uids of --krb5-cache-uids (%d-%d) serve other principals on this node; widen the pool (each uid needs a passwd entry on the host)",
				ErrNoFreeUID, m.cfg.Last-m.cfg.First+1, m.cfg.First, m.cfg.Last)
		}
	}
}

// drop forgets id and removes its cache. Called with m.mu held.
func (m *Manager) drop(id *identity) {
	if id.timer != nil {
		id.timer.Stop()
	}
	id.gen++
	delete(m.ids, id.UID)
	if err := os.Remove(m.CachePath(id.UID)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		klog.Background().Error(err, "cannot remove a Kerberos ticket cache no volume uses", "uid", id.UID)
	}
}

// write replaces id's cache with c and schedules its renewal. Called with
// m.mu held.
func (m *Manager) write(id *identity, c *krb5.Cache) error {
	if err := m.writeFile(id.UID, c.Marshal()); err != nil {
		return err
	}
	id.gen++
	// Renewed when a third of its life is left: time for a few tries
	// before the tickets end, should the KDC not answer at first.
	m.schedule(id, time.Until(c.Start().Add(c.End().Sub(c.Start())*2/3)))
	return nil
}

func (m *Manager) schedule(id *identity, after time.Duration) {
	if id.timer != nil {
		id.timer.Stop()
	}
	gen := id.gen
	id.timer = time.AfterFunc(max(after, 0), func() { m.renew(id, gen) })
}

// renew logs id in again and writes its cache, unless the identity was
// dropped or written since the renewal was scheduled.
func (m *Manager) renew(id *identity, gen int) {
	m.mu.Lock()
	if m.ids[id.UID] != id || id.gen != gen {
		m.mu.Unlock()
		return
	}
	creds, servers := id.creds, slices.Clone(id.Servers)
	m.mu.Unlock()
	log := klog.Background().WithValues("uid", id.UID, "principal", id.Principal)
	if creds.Principal == "" {
		log.Info("no credentials to renew a Kerberos ticket cache with since the plugin restarted; its mounts get them at their next stage or republish")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := m.cfg.Login(ctx, creds, spns(servers))
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ids[id.UID] != id || id.gen != gen {
		if c != nil {
			c.Wipe()
		}
		return
	}
	if err == nil {
		err = m.write(id, c)
		c.Wipe()
	}
	if err != nil {
		log.Error(err, "cannot renew a Kerberos ticket cache; trying again", "in", m.cfg.Retry)
		m.schedule(id, m.cfg.Retry)
	}
}

// writeFile replaces uid's cache: a new file, owned by uid and readable by
// it only, renamed over the old one, so cifs.upcall reads a whole cache or
// the previous one. Opened O_EXCL|O_NOFOLLOW in a directory the host's
// users may write (/tmp): nothing placed there ahead is followed, and the
// rename replaces whatever has the cache's name, a link included, never
// what a link leads to.
func (m *Manager) writeFile(uid uint32, b []byte) error {
	path := m.CachePath(uid)
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(tempCacheName, uid, time.Now().UnixNano()))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
	if err != nil {
		return fmt.Errorf("Kerberos ticket cache for uid %d: %w", uid, err)
	}
	err = m.cfg.Chown(f, int(uid))
	if err == nil {
		_, err = f.Write(b)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("Kerberos ticket cache %s: %w", path, err)
	}
	return nil
}

// tempCacheName names a uid's next cache while writeFile writes it: uid,
// then the time in nanoseconds.
const tempCacheName = ".fileshare-csi-krb5cc-%d-%d"

// removeTemporaries removes the temporary caches (tickets) of the pool's
// uids that a plugin killed between writing one and renaming it into
// place left beside the caches (writeFile). Called at start, before any
// write: none is in flight. Links are removed as links.
func (m *Manager) removeTemporaries() {
	dir := filepath.Dir(m.CachePath(m.cfg.First))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		var uid uint32
		var nanos int64
		if n, err := fmt.Sscanf(e.Name(), tempCacheName, &uid, &nanos); err != nil || n != 2 || uid < m.cfg.First || uid > m.cfg.Last {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			klog.Background().Error(err, "cannot remove a temporary Kerberos ticket cache an earlier run left", "file", e.Name())
		}
	}
}

// save writes the uids' records (no secrets) by a rename. Called with
// m.mu held.
func (m *Manager) save() error {
	ids := make([]*identity, 0, len(m.ids))
	for _, id := range m.ids {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b *identity) int { return int(a.UID) - int(b.UID) })
	b, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(m.cfg.StateFile), 0o700); err != nil {
		return err
	}
	tmp := m.cfg.StateFile + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("save the Kerberos uids: %w", err)
	}
	return os.Rename(tmp, m.cfg.StateFile)
}

func spns(servers []string) []string {
	out := make([]string, len(servers))
	for i, s := range servers {
		out[i] = SPN(s)
	}
	return out
}

// union is a with each of more not in it already appended.
func union(a []string, more ...string) []string {
	out := slices.Clone(a)
	for _, s := range more {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
