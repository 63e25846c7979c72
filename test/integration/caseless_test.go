//go:build linux

package integration

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
)

// Samba takes names that differ only in case for one name (for SMB2/3
// clients, by its default "case sensitive = auto"), as Windows does: two
// classes on one share whose bases are spelled in another case are one
// directory to it. A volume around another, or inside one, through such
// spellings is refused AlreadyExists, and the other volume's data stays
// where it is. (The guards were keyed by the path as spelled: the outer
// volume adopted the directory holding the inner one, and its DeleteVolume
// moved the inner volume's data into the quarantine.)
func TestSMBSpellingsOfOneDirectoryNeverNest(t *testing.T) {
	c := controller(t)
	secrets := smbSecrets()
	dir := filepath.Join(env.samba.Data, "caseless")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { // the share's user writes it
		t.Fatal(err)
	}
	refused := func(what, name string, params map[string]string) {
		t.Helper()
		resp, err := c.CreateVolume(context.Background(), &csi.CreateVolumeRequest{
			Name: name, Parameters: params, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap},
		})
		wantCode(t, what, err, codes.AlreadyExists)
		if err == nil {
			deleteVol(t, c, resp.GetVolume().GetVolumeId(), secrets)
		}
	}
	// A volume at caseless/team/inner, then one at Caseless/Team: around it.
	inner := create(t, c, "inner", map[string]string{"source": smbSource("caseless/team")}, secrets)
	writeFile(t, filepath.Join(dir, "team", "inner", "db"), "inner's data")
	refused("a volume at Caseless/Team around caseless/team/inner", "Team", map[string]string{"source": smbSource("Caseless")})
	mustRead(t, filepath.Join(dir, "team", "inner", "db"), "inner's data")
	deleteVol(t, c, inner.GetVolumeId(), secrets)

	// A volume at caseless/outer, then one at Caseless/OUTER/in: inside it.
	outer := create(t, c, "outer", map[string]string{"source": smbSource("caseless")}, secrets)
	writeFile(t, filepath.Join(dir, "outer", "db"), "outer's data")
	refused("a volume at Caseless/OUTER/in inside caseless/outer", "in", map[string]string{"source": smbSource("Caseless/OUTER")})
	mustRead(t, filepath.Join(dir, "outer", "db"), "outer's data")
	deleteVol(t, c, outer.GetVolumeId(), secrets)
	if _, err := os.Lstat(filepath.Join(dir, "outer")); !os.IsNotExist(err) {
		t.Errorf("the outer volume's directory is left: %v", err)
	}
}
