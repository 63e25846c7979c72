package krb5cache

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/types"

	"github.com/fileshare-csi/fileshare-csi/pkg/krb5"
	"github.com/fileshare-csi/fileshare-csi/pkg/krb5/krb5test"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// A Secret that names a victim's principal with a krb5.conf of its own
// (its realm's KDC the attacker's) "proves" the key to that KDC only. It
// must never get the victim's uid (whose kernel SMB sessions any mount with
// the same cruid shares), nor replace the tickets in the victim's cache or
// the credentials its renewals use.
func TestASecretWithItsOwnKDCNeverSharesAnotherSecretsUID(t *testing.T) {
	dir := t.TempDir()
	real := krb5test.New(map[string]string{"alice@BARS.TEST": "alice-key"}, time.Hour)
	login := func(ctx context.Context, c source.Credentials, spns []string) (*krb5.Cache, error) {
		if strings.Contains(c.Krb5Conf, "kdc.evil.test") {
			// The attacker's KDC says yes to any key of any principal.
			user, realm, _ := strings.Cut(c.Principal, "@")
			now := time.Now()
			cache := &krb5.Cache{Client: types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, user), Realm: realm}
			for _, s := range append([]string{"krbtgt/" + realm}, spns...) {
				cache.Creds = append(cache.Creds, krb5.Cred{Server: types.NewPrincipalName(nametype.KRB_NT_SRV_INST, s), ServerRealm: realm,
					Key: types.EncryptionKey{KeyType: 18, KeyValue: make([]byte, 32)}, AuthTime: now, EndTime: now.Add(time.Hour), Ticket: []byte("FORGED")})
			}
			return cache, nil
		}
		return real.Login(ctx, c, spns)
	}
	m, err := New(Config{First: 20000, Last: 20009, Path: filepath.Join(dir, "krb5cc_%{uid}"), StateFile: filepath.Join(dir, "state.json"),
		Login: login, Chown: func(*os.File, int) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	victim, _, err := m.Acquire(ctx, "/staging/victim", source.Credentials{Principal: "alice@BARS.TEST", Keytab: "alice-key"}, "fs1.bars.test")
	if err != nil {
		t.Fatal(err)
	}
	evil := source.Credentials{Principal: "alice@BARS.TEST", Keytab: "guess",
		Krb5Conf: "[realms]\n BARS.TEST = {\n  kdc = kdc.evil.test\n }\n"}
	uid, _, err := m.Acquire(ctx, "/staging/attacker", evil, "fs1.bars.test")
	if err == nil && uid == victim {
		t.Errorf("a Secret with the victim's principal and its own KDC got the victim's uid %d (cruid: the kernel shares the victim's SMB session with its mount)", uid)
	}
	if b, _ := os.ReadFile(m.CachePath(victim)); strings.Contains(string(b), "FORGED") {
		t.Error("the victim's ticket cache now holds the attacker's KDC's tickets")
	}
	m.mu.Lock()
	got := m.ids[victim].creds
	m.mu.Unlock()
	if got.Krb5Conf != "" {
		t.Error("the victim's renewals now log in with the attacker's krb5.conf")
	}
}

// A volume staged with a krb5.conf of its own before identities named
// theirs (the state file has no "conf") keeps its uid through a restart:
// the identity takes the krb5.conf its volume was staged with, and the
// same Secret finds it again.
func TestAnIdentityRecordedBeforeItsKrb5ConfKeepsItsUID(t *testing.T) {
	f := newFixture(t, 20000, 20009, time.Hour)
	ctx := context.Background()
	withConf := creds("alice@BARS.TEST", "alice-key")
	withConf.Krb5Conf = "[libdefaults]\n default_realm = BARS.TEST\n"
	uid, _, err := f.m.Acquire(ctx, "/staging/a", withConf, "fs1.bars.test")
	if err != nil {
		t.Fatal(err)
	}
	f.m.Close()
	// The state file as an earlier build wrote it: no conf.
	state := filepath.Join(f.dir, "state", "krb5-uids.json")
	b, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	var ids []map[string]any
	if err := json.Unmarshal(b, &ids); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		delete(id, "conf")
	}
	if b, err = json.Marshal(ids); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(state, b, 0o600); err != nil {
		t.Fatal(err)
	}
	restarted := f.manager(t, 20000, 20009)
	defer restarted.Close()
	if err := restarted.Resume(ctx, func(v string) (source.Credentials, bool) { return withConf, v == "/staging/a" }); err != nil {
		t.Fatal(err)
	}
	again, added, err := restarted.Acquire(ctx, "/staging/a", withConf, "fs1.bars.test")
	if err != nil || again != uid || added {
		t.Fatalf("the same Secret after the restart: uid %d (was %d), added %v, %v", again, uid, added, err)
	}
}
