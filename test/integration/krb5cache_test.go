//go:build linux

package integration

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/krb5"
	"github.com/fileshare-csi/fileshare-csi/pkg/krb5cache"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// The ticket caches a node writes for its Kerberos mounts (pkg/krb5cache,
// --krb5-cache-uids) are read by MIT Kerberos on the host, through
// cifs.upcall: here the host's own MIT tools read one the node's code wrote
// from a Secret, logged in against the Samba AD domain controller. klist
// lists its tickets, and smbclient, run as the cache's uid as cifs.upcall
// is, opens the Kerberos-only share with it twice: with the realm's KDC, and with no KDC reachable at all, which
// works only with the cache's own service ticket (what cifs.upcall 7.2
// and later take without a KDC). A wrong key gets no cache. The kernel's
// side (a mount with cruid and upcall_target=mount, reconnects from a
// pod's namespace) is make test-krb5-node's, in the test VM.
func TestKerberosNodeCache(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dc, keytab, password := needDC(t)
	principal := "csikrb@" + dc.Realm
	dir := t.TempDir()
	// The cache's uid reads its cache through these, as cifs.upcall does.
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	confFile := filepath.Join(dir, "krb5.conf")
	// The tools take the service's name as written (no DNS canonicalising
	// of the address), as cifs.upcall asks for cifs/<the source's host>.
	conf := strings.Replace(dc.Krb5Conf, "[libdefaults]\n", "[libdefaults]\n  rdns = false\n  dns_canonicalize_hostname = false\n", 1)
	if err := os.WriteFile(confFile, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	noKDC := filepath.Join(dir, "krb5-nokdc.conf")
	if err := os.WriteFile(noKDC, []byte(strings.Replace(conf, "kdc = "+dc.Addr, "kdc = 127.0.0.1:9", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := krb5cache.New(krb5cache.Config{
		First: 40000, Last: 40009,
		Path:      filepath.Join(dir, "krb5cc_%{uid}"),
		StateFile: filepath.Join(dir, "state", "krb5-uids.json"),
		Login: func(ctx context.Context, c source.Credentials, spns []string) (*krb5.Cache, error) {
			return krb5.Tickets(ctx, c, "/nonexistent/krb5.conf", spns)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()

	// smbclient does no Kerberos to an address: the server is named as the
	// realm knows it (the DC's dc1.<realm>), and reached at its address.
	server := "dc1." + strings.ToLower(dc.Realm)
	for _, secret := range []struct {
		name  string
		creds source.Credentials
	}{
		{"keytab", source.Credentials{Principal: principal, Keytab: base64.StdEncoding.EncodeToString(keytab), Krb5Conf: dc.Krb5Conf}},
		{"password", source.Credentials{Principal: principal, Password: password, Krb5Conf: dc.Krb5Conf}},
	} {
		t.Run(secret.name, func(t *testing.T) {
			vol := filepath.Join(dir, "staging-"+secret.name)
			uid, _, err := m.Acquire(ctx, vol, secret.creds, server)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Release(vol)
			cache := m.CachePath(uid)
			fi, err := os.Stat(cache)
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Fatalf("cache %s: %v, %v", cache, fi, err)
			}
			out, err := exec.CommandContext(ctx, "klist", "-c", "FILE:"+cache).CombinedOutput()
			if err != nil {
				t.Fatalf("klist: %v: %s", err, out)
			}
			for _, want := range []string{"Default principal: " + principal, "krbtgt/" + dc.Realm + "@" + dc.Realm, "cifs/" + server + "@" + dc.Realm} {
				if !strings.Contains(string(out), want) {
					t.Errorf("klist shows no %q:\n%s", want, out)
				}
			}
			for _, c := range []struct{ what, conf string }{{"with the KDC", confFile}, {"with no KDC reachable", noKDC}} {
				cmd := exec.CommandContext(ctx, "smbclient", fmt.Sprintf("//%s/%s", server, dc.Share), "-I", dc.Addr, "--use-kerberos=required", "--use-krb5-ccache=FILE:"+cache, "-c", "ls")
				// As the cache's uid, which cifs.upcall switches to: MIT
				// Kerberos does not take another user's cache from root.
				cmd.Env = append(os.Environ(), "KRB5CCNAME=FILE:"+cache, "KRB5_CONFIG="+c.conf, "HOME="+dir)
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("smbclient %s: %v: %s", c.what, err, out)
				}
			}
		})
	}
	wrong := source.Credentials{Principal: principal, Password: password + "x", Krb5Conf: dc.Krb5Conf}
	if _, _, err := m.Acquire(ctx, filepath.Join(dir, "staging-wrong"), wrong, server); err == nil || strings.Contains(err.Error(), password) {
		t.Errorf("a wrong password: %v", err)
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, "krb5cc_*")); len(entries) != 0 {
		t.Errorf("caches left after every volume went: %v", entries)
	}
}
