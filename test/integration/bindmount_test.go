//go:build linux

package integration

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// unmountBelow detaches every mount whose mount point lies below dir.
func unmountBelow(t *testing.T, dir string) {
	f, err := os.Open("/proc/self/mounts")
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	var points []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 1 && strings.HasPrefix(fields[1], dir+"/") {
			points = append(points, fields[1])
		}
	}
	for i := len(points) - 1; i >= 0; i-- {
		if err := syscall.Unmount(points[i], syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", points[i], err)
		}
	}
}

// Someone with root on the file server bind-mounts another volume and the
// export's root inside a volume: the server shows them as plain
// directories, with the IDs of what they show, on the export's own file
// system. The walk, over NFSv3 and NFSv4.1 alike, recognises another
// volume's root by its mark and the export's root as a directory above it,
// never enters them, deletes the rest of the volume, and leaves the two in
// the quarantine.
func TestNFSDeleteNeverEntersBindMounts(t *testing.T) {
	if env.nfs.Name != "ganesha" {
		// Kernel nfsd hides a mount below an export unless the export has
		// crossmnt or nohide: the client would see the empty directory
		// under it, which is not the case under test.
		t.Skip("written for NFS-Ganesha, which shows bind mounts below an export")
	}
	for _, v := range []struct {
		name   string
		source func(string) string
	}{{"nfs", nfsSource}, {"nfs41", nfs41Source}} {
		t.Run(v.name, func(t *testing.T) { deleteNeverEntersBindMounts(t, "bind-"+v.name, v.source) })
	}
}

func deleteNeverEntersBindMounts(t *testing.T, dir string, source func(string) string) {
	c := controller(t)
	base := filepath.Join(env.nfs.Data, dir)
	if err := os.MkdirAll(base, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unmountBelow(t, env.nfs.Data) })
	params := map[string]string{"source": source(dir)}
	victim := create(t, c, "victim", params, nil)
	writeFile(t, filepath.Join(base, "victim", "data", "deep"), "victim deep")
	bystander := filepath.Join(env.nfs.Data, dir+"-bystander")
	writeFile(t, filepath.Join(bystander, "file"), "not a volume")

	attacker := create(t, c, "attacker", params, nil)
	adir := filepath.Join(base, "attacker")
	writeFile(t, filepath.Join(adir, "own", "file"), "the attacker's own")
	// Enough siblings that the NFSv3 walk spreads the directory over its
	// helper sessions, which must keep the same guards.
	for i := range 40 {
		writeFile(t, filepath.Join(adir, "sub", fmt.Sprintf("own-%02d", i), "file"), "the attacker's own")
	}
	for name, target := range map[string]string{"bind-victim": filepath.Join(base, "victim"), "bind-root": env.nfs.Data} {
		p := filepath.Join(adir, "sub", name)
		if err := os.MkdirAll(p, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mount(target, p, "", syscall.MS_BIND, ""); err != nil {
			t.Skipf("bind mounts are not allowed here: %v", err)
		}
	}
	deleteVol(t, c, attacker.GetVolumeId(), nil)

	mustRead(t, filepath.Join(base, "victim", "data", "deep"), "victim deep")
	mustRead(t, filepath.Join(bystander, "file"), "not a volume")
	if _, err := os.Lstat(adir); !os.IsNotExist(err) {
		t.Errorf("the attacker's volume is still in its place: %v", err)
	}
	quarantine := filepath.Join(env.nfs.Data, ".fileshare-csi", "deleting", attacker.GetVolumeId()[len(attacker.GetVolumeId())-16:])
	if _, err := os.Stat(filepath.Join(quarantine, "own")); !os.IsNotExist(err) {
		t.Errorf("the attacker's own data was not deleted: %v", err)
	}
	if left, err := os.ReadDir(filepath.Join(quarantine, "sub")); err != nil {
		t.Error(err)
	} else if len(left) != 2 {
		names := make([]string, len(left))
		for i, e := range left {
			names[i] = e.Name()
		}
		t.Errorf("the quarantine holds %v, want only the two bind mounts", names)
	}
	for _, name := range []string{"bind-victim", "bind-root"} {
		if _, err := os.Stat(filepath.Join(quarantine, "sub", name)); err != nil {
			t.Errorf("%s is not left in the quarantine: %v", name, err)
		}
	}
	unmountBelow(t, env.nfs.Data)
	deleteVol(t, c, victim.GetVolumeId(), nil)
	if _, err := os.Lstat(filepath.Join(base, "victim")); !os.IsNotExist(err) {
		t.Errorf("the victim's own delete left its directory: %v", err)
	}
}
