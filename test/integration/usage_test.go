//go:build linux

package integration

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
)

// TestNodeStatsCountTheVolume: files written through a real mount, one of
// them sparse; NodeGetVolumeStats answers, once the node has counted the
// volume, what du says of the volume's directory on the server (bytes
// allocated, inodes), not the share's statfs.
func TestNodeStatsCountTheVolume(t *testing.T) {
	requireMounts(t)
	for _, c := range classes(t) {
		if c.name == "nfs41only" {
			continue // the same NFS client as nfs41
		}
		t.Run(c.name, func(t *testing.T) {
			sv, capab := stage(t, c, "usage-"+c.name, csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, "")
			target := filepath.Join(env.dir, "pods-usage-"+c.name, "mount")
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				t.Fatal(err)
			}
			publish(t, sv, capab, target, false)
			defer unpublish(t, sv, target)
			for i := range 20 {
				d := filepath.Join(target, fmt.Sprintf("d%d", i%4))
				if err := os.MkdirAll(d, 0o777); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%d", i)), []byte(strings.Repeat("u", 20_000*i)), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			f, err := os.Create(filepath.Join(target, "sparse"))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Truncate(256 << 20); err != nil {
				t.Fatal(err)
			}
			f.Close()
			// The CIFS client reckons a file it truncated itself at its
			// size in blocks until it takes the attributes from the server
			// again (actimeo: one second by default); a pod's files are
			// counted long after they were written, as here.
			time.Sleep(2 * time.Second)
			out, err := exec.Command("du", "-s", "--block-size=1", sv.dir).Output()
			if err != nil {
				t.Fatal(err)
			}
			wantBytes, _ := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)
			out, err = exec.Command("du", "-s", "--inodes", sv.dir).Output()
			if err != nil {
				t.Fatal(err)
			}
			wantInodes, _ := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)

			var bytes, inodes *csi.VolumeUsage
			deadline := time.Now().Add(time.Minute)
			for time.Now().Before(deadline) {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				st, err := node(t).NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: sv.id, VolumePath: target, StagingTargetPath: sv.staging})
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				bytes, inodes = st.GetUsage()[0], st.GetUsage()[1]
				if inodes.GetUsed() == wantInodes {
					break
				}
				time.Sleep(200 * time.Millisecond)
			}
			if inodes.GetUsed() != wantInodes {
				t.Fatalf("inodes used %d, du --inodes of the volume's directory says %d", inodes.GetUsed(), wantInodes)
			}
			// The server may round allocations (SMB: the allocation size
			// Samba reports); within one block of 64 KiB per file.
			if d := bytes.GetUsed() - wantBytes; d < -21*65536 || d > 21*65536 {
				t.Fatalf("bytes used %d, du of the volume's directory says %d", bytes.GetUsed(), wantBytes)
			}
			if bytes.GetUsed() > 100<<20 {
				t.Fatalf("the sparse file counted at its size: %d bytes used", bytes.GetUsed())
			}
			t.Logf("%s: %d bytes and %d inodes used (du: %d and %d); total %d, available %d", c.name, bytes.GetUsed(), inodes.GetUsed(), wantBytes, wantInodes, bytes.GetTotal(), bytes.GetAvailable())
		})
	}
}
