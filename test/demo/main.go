//go:build linux

// Command demo shows the driver's main job on one machine: it starts Samba
// and NFS-Ganesha on loopback, runs fileshare-csi, and provisions, inspects
// and deletes an NFS and an SMB volume through the CSI API, printing each
// step. Run it with `make demo` (as root).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/test/harness"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

var (
	withNode   = flag.Bool("node", false, "also stage and publish each volume through the node service (needs a kernel with NFS and CIFS clients)")
	driverPath = flag.String("driver", "", "prebuilt driver binary (default: build ./cmd/fileshare-csi with hack/gobuild)")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "demo failed:", err)
		os.Exit(1)
	}
}

func step(format string, args ...any) { fmt.Printf("==> "+format+"\n", args...) }

func run() error {
	if os.Geteuid() != 0 {
		return fmt.Errorf("run as root: the demo starts smbd, rpcbind and ganesha.nfsd")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "fileshare-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	if *driverPath == "" {
		step("building the driver")
	}
	bin, err := harness.BuildDriver(dir, ".", *driverPath)
	if err != nil {
		return err
	}
	servers, err := harness.StartServers(ctx, dir, 4450, harness.HasFilesystem("nfsd"))
	if err != nil {
		return err
	}
	defer servers.Stop()
	smb, nfs := servers.Samba, servers.NFS
	step("started Samba on 127.0.0.1:4450 and %s (NFS) on 127.0.0.1:2049", nfs.Name)

	mode := "controller"
	if *withNode {
		mode = "all"
	}
	drv, err := harness.StartDriver(bin, dir, "--mode", mode, "--nodeid", "demo-node", "--state-dir", filepath.Join(dir, "state"), "--v", "2")
	if err != nil {
		return err
	}
	defer drv.Stop()
	step("started fileshare-csi --mode=%s on %s", mode, drv.Endpoint)
	logPath := drv.LogPath
	conn := drv.Conn
	id := csi.NewIdentityClient(conn)
	ctrl := csi.NewControllerClient(conn)
	nodeClient := csi.NewNodeClient(conn)
	info, err := id.GetPluginInfo(ctx, &csi.GetPluginInfoRequest{})
	if err != nil {
		return fmt.Errorf("GetPluginInfo: %w", err)
	}
	step("driver %s %s is up", info.GetName(), info.GetVendorVersion())

	classes := []struct {
		name    string
		params  map[string]string
		secrets map[string]string
		data    string
	}{
		{"NFS", map[string]string{"source": "nfs://127.0.0.1" + nfs.Data, "subDir": "${pvc.metadata.namespace}-${pvc.metadata.name}", "onDelete": "delete", "mountOptions": "vers=4.1"}, nil, nfs.Data},
		{"SMB", map[string]string{"source": "smb://127.0.0.1:4450/" + localservers.SMBShare, "onDelete": "archive", "mountOptions": "vers=3.0"},
			map[string]string{"username": localservers.SMBUser, "password": localservers.SMBPassword}, smb.Data},
	}
	mount := &csi.VolumeCapability{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
	}
	for _, c := range classes {
		params := map[string]string{"csi.storage.k8s.io/pvc/name": "data", "csi.storage.k8s.io/pvc/namespace": "demo"}
		for k, v := range c.params {
			params[k] = v
		}
		step("%s: CreateVolume pvc-demo-%s (10 GiB, MULTI_NODE_MULTI_WRITER) with parameters %v", c.name, strings.ToLower(c.name), c.params)
		start := time.Now()
		resp, err := ctrl.CreateVolume(ctx, &csi.CreateVolumeRequest{
			Name: "pvc-demo-" + strings.ToLower(c.name), Parameters: params, Secrets: c.secrets,
			CapacityRange:      &csi.CapacityRange{RequiredBytes: 10 << 30},
			VolumeCapabilities: []*csi.VolumeCapability{mount},
		})
		if err != nil {
			return fmt.Errorf("%s CreateVolume: %w", c.name, err)
		}
		vol := resp.GetVolume()
		fmt.Printf("    volume ID  %s\n    context    %v\n    topology   %v\n    took       %s\n", vol.GetVolumeId(), vol.GetVolumeContext(), vol.GetAccessibleTopology(), time.Since(start).Round(time.Millisecond))
		fmt.Printf("    on the server: %s\n", listDir(c.data))

		got, err := ctrl.ControllerGetVolume(ctx, &csi.ControllerGetVolumeRequest{VolumeId: vol.GetVolumeId()})
		if err != nil {
			return fmt.Errorf("%s ControllerGetVolume: %w", c.name, err)
		}
		step("%s: ControllerGetVolume says capacity %d bytes", c.name, got.GetVolume().GetCapacityBytes())
		health, err := ctrl.ControllerGetVolumeHealth(ctx, &csi.ControllerGetVolumeHealthRequest{VolumeId: vol.GetVolumeId(), Secrets: c.secrets})
		if err != nil {
			return fmt.Errorf("%s ControllerGetVolumeHealth: %w", c.name, err)
		}
		step("%s: ControllerGetVolumeHealth: %d problems", c.name, len(health.GetVolumeHealth().GetHealthStatuses()))
		capResp, err := ctrl.GetCapacity(ctx, &csi.GetCapacityRequest{Parameters: c.params})
		if err != nil {
			return fmt.Errorf("%s GetCapacity: %w", c.name, err)
		}
		step("%s: GetCapacity: %.1f GiB free on the share", c.name, float64(capResp.GetAvailableCapacity())/(1<<30))

		if *withNode {
			if err := nodeSteps(ctx, nodeClient, dir, c.name, vol, mount, c.secrets, filepath.Join(c.data, vol.GetVolumeContext()["subDir"])); err != nil {
				return err
			}
		}

		step("%s: DeleteVolume (onDelete=%s)", c.name, c.params["onDelete"])
		if _, err := ctrl.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: vol.GetVolumeId(), Secrets: c.secrets}); err != nil {
			return fmt.Errorf("%s DeleteVolume: %w", c.name, err)
		}
		fmt.Printf("    on the server: %s\n", listDir(c.data))
	}
	step("bad input gets a clear error:")
	_, err = ctrl.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "bad", Parameters: map[string]string{"source": "nfs://127.0.0.1" + nfs.Data, "subDir": "../escape"}, VolumeCapabilities: []*csi.VolumeCapability{mount}})
	fmt.Printf("    %v\n", err)
	fmt.Printf("\ndemo done; the driver's log was %s (removed with the temp dir)\n", logPath)
	return nil
}

// nodeSteps stages the volume, publishes it at two pod paths, writes through
// one and reads through the other, and cleans up: a real kernel mount.
func nodeSteps(ctx context.Context, nodeClient csi.NodeClient, dir, name string, vol *csi.Volume, capab *csi.VolumeCapability, secrets map[string]string, serverDir string) error {
	staging := filepath.Join(dir, "node", name, "globalmount")
	podA := filepath.Join(dir, "node", name, "pod-a")
	podB := filepath.Join(dir, "node", name, "pod-b")
	if err := os.MkdirAll(staging, 0o750); err != nil {
		return err
	}
	step("%s: NodeStageVolume at %s", name, staging)
	if _, err := nodeClient.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging,
		VolumeCapability: capab, VolumeContext: vol.GetVolumeContext(), Secrets: secrets}); err != nil {
		return fmt.Errorf("%s NodeStageVolume: %w", name, err)
	}
	if line := mountLine(staging); line != "" {
		fmt.Printf("    kernel mount: %s\n", line)
	}
	for _, p := range []string{podA, podB} {
		step("%s: NodePublishVolume to %s", name, p)
		if _, err := nodeClient.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging,
			TargetPath: p, VolumeCapability: capab, VolumeContext: vol.GetVolumeContext()}); err != nil {
			return fmt.Errorf("%s NodePublishVolume: %w", name, err)
		}
	}
	if err := os.WriteFile(filepath.Join(podA, "hello.txt"), []byte("written by pod A\n"), 0o644); err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(podB, "hello.txt"))
	if err != nil {
		return err
	}
	onServer, _ := os.ReadFile(filepath.Join(serverDir, "hello.txt"))
	fmt.Printf("    pod B reads %q; the server's disk has %q\n", strings.TrimSpace(string(b)), strings.TrimSpace(string(onServer)))
	stats, err := nodeClient.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: vol.GetVolumeId(), VolumePath: podA})
	if err != nil {
		return fmt.Errorf("%s NodeGetVolumeStats: %w", name, err)
	}
	step("%s: NodeGetVolumeStats: %.1f GiB available", name, float64(stats.GetUsage()[0].GetAvailable())/(1<<30))
	for _, p := range []string{podA, podB} {
		if _, err := nodeClient.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: vol.GetVolumeId(), TargetPath: p}); err != nil {
			return fmt.Errorf("%s NodeUnpublishVolume: %w", name, err)
		}
	}
	if _, err := nodeClient.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging}); err != nil {
		return fmt.Errorf("%s NodeUnstageVolume: %w", name, err)
	}
	step("%s: unpublished and unstaged", name)
	return nil
}

func mountLine(path string) string {
	b, _ := os.ReadFile("/proc/self/mounts")
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 3 && f[1] == path {
			return f[0] + " type " + f[2]
		}
	}
	return ""
}

func listDir(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err.Error()
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name()+"/")
		} else {
			names = append(names, e.Name())
		}
	}
	return "[" + strings.Join(names, " ") + "]"
}
