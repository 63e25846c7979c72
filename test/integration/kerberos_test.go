//go:build linux

package integration

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// The controller provisions on a share of a Samba AD domain controller that
// refuses NTLM (ntlm auth = disabled), through the driver binary's
// CreateVolume and DeleteVolume: with Kerberos from a keytab, and from a
// principal and password; an NTLM class with the right password is
// refused, which proves the passes used Kerberos, and a krb5 class whose
// Secret holds only a username and password never falls back to NTLM.
// encryption: required works on a share that encrypts and is refused on
// one that does not.
func TestKerberosController(t *testing.T) {
	if _, err := exec.LookPath("samba-tool"); err != nil {
		t.Skip("samba-ad-dc is not installed (hack/install-deps.sh installs it)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	began := time.Now()
	dc, err := localservers.StartADDC(ctx, filepath.Join(env.dir, "addc"), "fileshare-addc", "10.254.29.1/24", "10.254.29.2/24")
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Stop()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	password := "Pw-" + hex.EncodeToString(b) + "!"
	if err := dc.AddUser(ctx, "csikrb", password); err != nil {
		t.Fatal(err)
	}
	keytab, err := dc.Keytab(ctx, "csikrb")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("domain controller up and user made in %v", time.Since(began).Round(time.Millisecond))

	principal := "csikrb@" + dc.Realm
	byKeytab := map[string]string{"principal": principal, "krb5.keytab": base64.StdEncoding.EncodeToString(keytab), "krb5.conf": dc.Krb5Conf}
	byPassword := map[string]string{"principal": principal, "password": password, "krb5.conf": dc.Krb5Conf}
	ntlmOnly := map[string]string{"username": "csikrb", "password": password, "domain": dc.Domain}
	share := "smb://" + dc.Addr + "/" + dc.Share
	encShare := "smb://" + dc.Addr + "/" + dc.EncryptedShare
	c := controller(t)

	roundTrip := func(t *testing.T, name string, params, secrets map[string]string, dir string) {
		t.Helper()
		vol := create(t, c, name, params, secrets)
		if !strings.Contains(vol.GetVolumeId(), "auth=krb5") && params["auth"] == "krb5" {
			t.Errorf("the volume ID %q does not carry auth=krb5 to DeleteVolume", vol.GetVolumeId())
		}
		if got := vol.GetVolumeContext()["source"]; !strings.Contains(got, "auth="+params["auth"]) {
			t.Errorf("the volume context's source %q does not carry the auth to the node", got)
		}
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || !fi.IsDir() {
			t.Fatalf("CreateVolume made no directory %s on the share: %v", name, err)
		}
		deleteVol(t, c, vol.GetVolumeId(), secrets)
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Fatalf("DeleteVolume left %s: %v", name, err)
		}
	}

	t.Run("keytab", func(t *testing.T) {
		roundTrip(t, "krb-keytab", map[string]string{"source": share, "auth": "krb5"}, byKeytab, dc.Data)
	})
	t.Run("password", func(t *testing.T) {
		// The same principal with a password: for the pool another set of
		// credentials of the same user, as a rotated Secret is.
		roundTrip(t, "krb-password", map[string]string{"source": share, "auth": "krb5"}, byPassword, dc.Data)
	})
	t.Run("negotiate", func(t *testing.T) {
		both := map[string]string{"username": "csikrb", "domain": dc.Domain}
		for k, v := range byKeytab {
			both[k] = v
		}
		roundTrip(t, "krb-negotiate", map[string]string{"source": share, "auth": "negotiate"}, both, dc.Data)
	})
	t.Run("ntlm is refused", func(t *testing.T) {
		_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "ntlm", Parameters: map[string]string{"source": share, "auth": "ntlm"},
			Secrets: ntlmOnly, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		wantCode(t, "an NTLM class on a Kerberos-only server", err, codes.FailedPrecondition)
		if !strings.Contains(status.Convert(err).Message(), "refuses NTLM") {
			t.Errorf("the message does not say the server refuses NTLM: %v", err)
		}
	})
	t.Run("krb5 never falls back to NTLM", func(t *testing.T) {
		_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "nofallback", Parameters: map[string]string{"source": share, "auth": "krb5"},
			Secrets: ntlmOnly, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		wantCode(t, "a krb5 class with a username and password only", err, codes.PermissionDenied)
		if msg := status.Convert(err).Message(); !strings.Contains(msg, "principal") || strings.Contains(msg, password) {
			t.Errorf("the message should name the missing principal and never the password: %q", msg)
		}
	})
	t.Run("a wrong key", func(t *testing.T) {
		wrong := map[string]string{"principal": principal, "password": password + "x", "krb5.conf": dc.Krb5Conf}
		_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "wrongkey", Parameters: map[string]string{"source": share, "auth": "krb5"},
			Secrets: wrong, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		wantCode(t, "a krb5 class with a wrong password", err, codes.PermissionDenied)
	})
	t.Run("encryption required", func(t *testing.T) {
		_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "clear", Parameters: map[string]string{"source": share, "auth": "krb5", "encryption": "required"},
			Secrets: byKeytab, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		wantCode(t, "encryption: required on a share that does not encrypt", err, codes.FailedPrecondition)
		if _, serr := os.Stat(filepath.Join(dc.Data, "clear")); !os.IsNotExist(serr) {
			t.Errorf("the refused CreateVolume left a directory: %v", serr)
		}
		roundTrip(t, "krb-sealed", map[string]string{"source": encShare, "auth": "krb5", "encryption": "required"}, byKeytab, filepath.Join(dc.Dir, dc.EncryptedShare))
		// The server's side: the controller's session, idle in its pool
		// now, is connected to the share with encryption.
		out, err := dc.SMBStatus(ctx, "--shares")
		if err != nil {
			t.Fatal(err)
		}
		var line string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), dc.EncryptedShare+" ") {
				line = l
			}
		}
		if !strings.Contains(line, "AES") {
			t.Errorf("smbstatus shows no encrypted connection to %s:\n%s", dc.EncryptedShare, out)
		}
		t.Logf("smbstatus: %s", strings.Join(strings.Fields(line), " "))
	})
}
