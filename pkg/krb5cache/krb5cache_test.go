package krb5cache

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/credentials"

	"github.com/fileshare-csi/fileshare-csi/pkg/krb5/krb5test"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

type fixture struct {
	m      *Manager
	kdc    *krb5test.KDC
	dir    string
	owners map[string]int
}

func newFixture(t *testing.T, first, last uint32, life time.Duration) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir(), owners: map[string]int{},
		kdc: krb5test.New(map[string]string{"alice@BARS.TEST": "alice-key", "bob@BARS.TEST": "bob-key"}, life)}
	f.m = f.manager(t, first, last)
	return f
}

func (f *fixture) manager(t *testing.T, first, last uint32) *Manager {
	t.Helper()
	var mu sync.Mutex
	m, err := New(Config{
		First: first, Last: last,
		Path:      filepath.Join(f.dir, "tmp", "krb5cc_%{uid}"),
		StateFile: filepath.Join(f.dir, "state", "krb5-uids.json"),
		Login:     f.kdc.Login,
		Chown: func(file *os.File, uid int) error {
			mu.Lock()
			defer mu.Unlock()
			f.owners[filepath.Base(file.Name())] = uid
			return nil
		},
		Retry: 20 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(f.dir, "tmp"), 0o1777); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func creds(principal, key string) source.Credentials {
	return source.Credentials{Principal: principal, Keytab: key}
}

// cacheOf reads uid's cache as the host's libkrb5 would find it: the
// default principal and the services it has tickets for.
func (f *fixture) cacheOf(t *testing.T, uid uint32) (principal string, services []string) {
	t.Helper()
	path := f.m.CachePath(uid)
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("uid %d: %v", uid, err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("uid %d's cache is %v, want a regular file of mode 0600", uid, fi.Mode())
	}
	c, err := credentials.LoadCCache(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, cr := range c.Credentials {
		services = append(services, cr.Server.PrincipalName.PrincipalNameString())
	}
	return c.GetClientPrincipalName().PrincipalNameString() + "@" + c.GetClientRealm(), services
}

func TestEachIdentityHasAUIDAndACacheOfItsOwn(t *testing.T) {
	f := newFixture(t, 20000, 20009, time.Hour)
	ctx := context.Background()
	a1, added, err := f.m.Acquire(ctx, "/staging/a1", creds("alice@BARS.TEST", "alice-key"), "fs1.bars.test")
	if err != nil || !added {
		t.Fatal(added, err)
	}
	b, _, err := f.m.Acquire(ctx, "/staging/b", creds("bob@BARS.TEST", "bob-key"), "fs1.bars.test")
	if err != nil {
		t.Fatal(err)
	}
	// A second volume of alice's, on another server: the same uid, and its
	// cache now has a ticket for both servers.
	a2, added, err := f.m.Acquire(ctx, "/staging/a2", creds("alice@BARS.TEST", "alice-key"), "FS2.bars.test")
	if err != nil || !added {
		t.Fatal(added, err)
	}
	if a1 != 20000 || b != 20001 || a2 != a1 {
		t.Fatalf("uids alice %d and %d, bob %d; want 20000 twice and 20001", a1, a2, b)
	}
	if got := f.kdc.Last().SPNs; !slices.Equal(got, []string{"cifs/fs2.bars.test", "cifs/fs1.bars.test"}) && !slices.Equal(got, []string{"cifs/fs1.bars.test", "cifs/fs2.bars.test"}) {
		t.Errorf("alice's second login asked for %v", got)
	}
	if p, svc := f.cacheOf(t, a1); p != "alice@BARS.TEST" || len(svc) != 3 {
		t.Errorf("alice's cache: %s with %v", p, svc)
	}
	if p, svc := f.cacheOf(t, b); p != "bob@BARS.TEST" || !slices.Equal(svc, []string{"krbtgt/BARS.TEST", "cifs/fs1.bars.test"}) {
		t.Errorf("bob's cache: %s with %v", p, svc)
	}
	if len(f.owners) == 0 {
		t.Error("no cache was given to its uid")
	}
	for name, uid := range f.owners {
		if !strings.HasPrefix(name, ".fileshare-csi-krb5cc-"+fmt.Sprint(uid)+"-") {
			t.Errorf("%s was given to uid %d", name, uid)
		}
	}
	// Staging a volume again is no new use.
	if _, added, err := f.m.Acquire(ctx, "/staging/a1", creds("alice@BARS.TEST", "alice-key"), "fs1.bars.test"); err != nil || added {
		t.Errorf("a stage again: added %v, %v", added, err)
	}
	// The state file says which uid is whose, and holds no key.
	st, err := os.ReadFile(filepath.Join(f.dir, "state", "krb5-uids.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(st), "-key") || !strings.Contains(string(st), "/staging/a2") {
		t.Errorf("state file: %s", st)
	}
}

func TestAWrongKeyGetsNoUIDAndNoTicketsOfAnother(t *testing.T) {
	f := newFixture(t, 20000, 20009, time.Hour)
	ctx := context.Background()
	uid, _, err := f.m.Acquire(ctx, "/staging/a", creds("alice@BARS.TEST", "alice-key"), "fs1.bars.test")
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(f.m.CachePath(uid))
	// Another tenant's Secret names alice without her key: refused, and
	// alice's uid (her tickets) is not shared with the volume.
	if _, _, err := f.m.Acquire(ctx, "/staging/mallory", creds("alice@BARS.TEST", "guess"), "fs1.bars.test"); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("a wrong key: %v", err)
	}
	if _, ok := f.m.Uses("/staging/mallory"); ok {
		t.Error("the refused volume got a uid")
	}
	after, _ := os.ReadFile(f.m.CachePath(uid))
	if string(before) != string(after) {
		t.Error("a refused login changed alice's cache")
	}
	if _, _, err := f.m.Acquire(ctx, "/staging/x", source.Credentials{Principal: "alice@BARS.TEST"}, "fs1.bars.test"); !errors.Is(err, ErrNoIdentity) {
		t.Errorf("no key at all: %v", err)
	}
	// A staged volume of alice's staged again with bob's Secret: its mount
	// logs in as alice until it is unstaged.
	if _, _, err := f.m.Acquire(ctx, "/staging/a", creds("bob@BARS.TEST", "bob-key"), "fs1.bars.test"); !errors.Is(err, ErrOtherPrincipal) {
		t.Errorf("another principal for a staged volume: %v", err)
	}
	if got, _ := f.m.Uses("/staging/a"); got != uid {
		t.Errorf("the volume now uses uid %d", got)
	}
}

func TestTheLastVolumeOfAUIDRemovesItsCache(t *testing.T) {
	f := newFixture(t, 20000, 20009, time.Hour)
	ctx := context.Background()
	for _, v := range []string{"/staging/1", "/staging/2"} {
		if _, _, err := f.m.Acquire(ctx, v, creds("alice@BARS.TEST", "alice-key"), "fs1.bars.test"); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.m.Release("/staging/1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(f.m.CachePath(20000)); err != nil {
		t.Fatalf("a volume still uses the cache: %v", err)
	}
	if err := f.m.Release("/staging/2"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(f.m.CachePath(20000)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the cache of a uid no volume uses: %v", err)
	}
	// The uid is free again, for whoever comes next.
	if uid, _, err := f.m.Acquire(ctx, "/staging/3", creds("bob@BARS.TEST", "bob-key"), "fs1.bars.test"); err != nil || uid != 20000 {
		t.Errorf("bob after alice left: uid %d, %v", uid, err)
	}
	if err := f.m.Release("/staging/never"); err != nil {
		t.Errorf("releasing a volume that has no uid: %v", err)
	}
}

func TestAFullPoolRefusesAnotherIdentity(t *testing.T) {
	f := newFixture(t, 20000, 20000, time.Hour)
	ctx := context.Background()
	if _, _, err := f.m.Acquire(ctx, "/staging/a", creds("alice@BARS.TEST", "alice-key"), "fs1.bars.test"); err != nil {
		t.Fatal(err)
	}
	_, _, err := f.m.Acquire(ctx, "/staging/b", creds("bob@BARS.TEST", "bob-key"), "fs1.bars.test")
	if !errors.Is(err, ErrNoFreeUID) || !strings.Contains(err.Error(), "20000-20000") {
		t.Fatalf("bob with the pool full: %v", err)
	}
	if _, ok := f.m.Uses("/staging/b"); ok {
		t.Error("bob's volume is on record")
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestCachesAreRenewedBeforeTheyEndAndAfterAFailedTry(t *testing.T) {
	f := newFixture(t, 20000, 20009, 300*time.Millisecond)
	ctx := context.Background()
	uid, _, err := f.m.Acquire(ctx, "/staging/a", creds("alice@BARS.TEST", "alice-key"), "fs1.bars.test")
	if err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(f.m.CachePath(uid))
	// The first renewal finds the KDC down; the one after it succeeds.
	f.kdc.FailNext(1)
	waitFor(t, "a renewal after a failed one", func() bool { return f.kdc.Count() >= 3 })
	waitFor(t, "the renewed cache", func() bool {
		b, _ := os.ReadFile(f.m.CachePath(uid))
		return len(b) > 0 && string(b) != string(first)
	})
	// A rotated keytab, brought by a stage or a republish, is what later
	// renewals log in with.
	f.kdc.SetKey("alice@BARS.TEST", "alice-key-2")
	if _, _, err := f.m.Acquire(ctx, "/staging/a", creds("alice@BARS.TEST", "alice-key-2"), "fs1.bars.test"); err != nil {
		t.Fatal(err)
	}
	n := f.kdc.Count()
	waitFor(t, "a renewal with the new key", func() bool { return f.kdc.Count() > n })
	if got := f.kdc.Last().Creds.Keytab; got != "alice-key-2" {
		t.Errorf("renewed with %q", got)
	}
	// Released: no more renewals.
	if err := f.m.Release("/staging/a"); err != nil {
		t.Fatal(err)
	}
	// A renewal that began before the Release may still log in (its
	// cache is then dropped): counted from after it.
	time.Sleep(200 * time.Millisecond)
	n = f.kdc.Count()
	time.Sleep(500 * time.Millisecond)
	if f.kdc.Count() != n {
		t.Errorf("%d logins after the last volume went", f.kdc.Count()-n)
	}
}

func TestARestartKeepsTheUIDsOfStagedVolumesAndRenewsAtOnce(t *testing.T) {
	f := newFixture(t, 20000, 20009, time.Hour)
	ctx := context.Background()
	for _, a := range []struct{ vol, principal, key string }{
		{"/staging/a1", "alice@BARS.TEST", "alice-key"},
		{"/staging/a2", "alice@BARS.TEST", "alice-key"},
		{"/staging/b", "bob@BARS.TEST", "bob-key"},
	} {
		if _, _, err := f.m.Acquire(ctx, a.vol, creds(a.principal, a.key), "fs1.bars.test"); err != nil {
			t.Fatal(err)
		}
	}
	f.m.Close()
	// The plugin restarts: a2 and b were unstaged while it was down (they
	// have no staging record), a1 is staged with its credentials.
	restarted := f.manager(t, 20000, 20009)
	n := f.kdc.Count()
	err := restarted.Resume(ctx, func(v string) (source.Credentials, bool) {
		if v == "/staging/a1" {
			return creds("alice@BARS.TEST", "alice-key"), true
		}
		return source.Credentials{}, false
	})
	if err != nil {
		t.Fatal(err)
	}
	if uid, ok := restarted.Uses("/staging/a1"); !ok || uid != 20000 {
		t.Errorf("a1 after the restart: uid %d, %v", uid, ok)
	}
	if _, ok := restarted.Uses("/staging/b"); ok {
		t.Error("bob's unstaged volume is still on record")
	}
	if _, err := os.Stat(restarted.CachePath(20001)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("bob's cache after his last volume went: %v", err)
	}
	waitFor(t, "alice's cache renewed after the restart", func() bool { return f.kdc.Count() > n })
	if got := f.kdc.Last(); got.Creds.Principal != "alice@BARS.TEST" || !slices.Equal(got.SPNs, []string{"cifs/fs1.bars.test"}) {
		t.Errorf("renewed %s for %v", got.Creds.Principal, got.SPNs)
	}
	// A pool that no longer holds a uid leaves it (and its cache) alone.
	narrowed := f.manager(t, 20005, 20009)
	if err := narrowed.Resume(ctx, func(string) (source.Credentials, bool) { return creds("alice@BARS.TEST", "alice-key"), true }); err != nil {
		t.Fatal(err)
	}
	if _, ok := narrowed.Uses("/staging/a1"); ok {
		t.Error("a uid outside the pool was taken over")
	}
	if _, err := os.Stat(narrowed.CachePath(20000)); err != nil {
		t.Errorf("the cache of a uid outside the pool was touched: %v", err)
	}
}

// The cache's directory is the host's /tmp, where any host user may place
// a link at a cache's name ahead of the driver: it is replaced, and what
// it leads to is never written.
func TestALinkAtTheCachesNameIsNotFollowed(t *testing.T) {
	f := newFixture(t, 20000, 20009, time.Hour)
	victim := filepath.Join(f.dir, "victim")
	if err := os.WriteFile(victim, []byte("not yours"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, f.m.CachePath(20000)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.m.Acquire(context.Background(), "/staging/a", creds("alice@BARS.TEST", "alice-key"), "fs1.bars.test"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "not yours" {
		t.Errorf("the link's target now holds %q", b)
	}
	if p, _ := f.cacheOf(t, 20000); p != "alice@BARS.TEST" {
		t.Errorf("cache of %s", p)
	}
}

func TestNewRefusesAPoolWithRootOrACacheFileForAll(t *testing.T) {
	for _, c := range []Config{
		{First: 0, Last: 10, Path: "/tmp/krb5cc_%{uid}"},
		{First: 20, Last: 10, Path: "/tmp/krb5cc_%{uid}"},
		{First: 20000, Last: 20010, Path: "/tmp/krb5cc"},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("%+v was taken", c)
		}
	}
}

// A cache that cannot be written fails the Acquire, and leaves the volume
// off the uid's record: kept there, it would hold the uid for a volume
// whose stage failed, and the retry would see the volume as using it
// already (added false), so nothing would give it back.
func TestACacheNotWrittenLeavesNoUseOnRecord(t *testing.T) {
	f := newFixture(t, 20000, 20009, time.Hour)
	tmp := filepath.Join(f.dir, "tmp")
	if err := os.RemoveAll(tmp); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.m.Acquire(context.Background(), "/staging/a", creds("alice@BARS.TEST", "alice-key"), "fs1.bars.test"); err == nil {
		t.Fatal("the cache's directory is gone, and Acquire succeeded")
	}
	if uid, ok := f.m.Uses("/staging/a"); ok {
		t.Fatalf("the failed Acquire left the volume on uid %d", uid)
	}
	if b, err := os.ReadFile(filepath.Join(f.dir, "state", "krb5-uids.json")); err == nil && strings.Contains(string(b), "/staging/a") {
		t.Fatalf("the state file still names the volume: %s", b)
	}
	if err := os.MkdirAll(tmp, 0o1777); err != nil {
		t.Fatal(err)
	}
	uid, added, err := f.m.Acquire(context.Background(), "/staging/a", creds("alice@BARS.TEST", "alice-key"), "fs1.bars.test")
	if err != nil || !added || uid != 20000 {
		t.Fatalf("the retry: uid %d, added %v, %v; want 20000, added, so a failed stage gives it back", uid, added, err)
	}
}

// A plugin killed between writing a uid's new cache and renaming it into
// place leaves the temporary (tickets) beside the caches; the next start
// removes those of its pool's uids, and nothing else.
func TestResumeRemovesTemporaryCachesAnEarlierRunLeft(t *testing.T) {
	f := newFixture(t, 20000, 20009, time.Hour)
	tmp := filepath.Join(f.dir, "tmp")
	left := filepath.Join(tmp, ".fileshare-csi-krb5cc-20003-1795735762069869079")
	foreign := filepath.Join(tmp, ".fileshare-csi-krb5cc-30000-1795735762069869079")
	other := filepath.Join(tmp, "krb5cc_1000")
	for _, p := range []string{left, foreign, other} {
		if err := os.WriteFile(p, []byte("tickets"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.manager(t, 20000, 20009).Resume(context.Background(), func(string) (source.Credentials, bool) { return source.Credentials{}, false }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(left); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the temporary cache an earlier run left: %v", err)
	}
	for _, p := range []string{foreign, other} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s is not the pool's: %v", p, err)
		}
	}
}
