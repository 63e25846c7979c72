// Command csicall asks a CSI node plugin for one volume's stats and health
// over its socket (NodeGetVolumeStats, NodeGetVolumeHealth), as the kubelet
// and health monitors do.
// test/node runs it on the VM's node to check that a restarted node plugin
// answers for volumes that pods kept using. It prints the answer as JSON and
// exits 1 on an error or when the volume's health has entries (it is not
// healthy).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/test/node/csiprobe"
)

func main() {
	endpoint := flag.String("endpoint", "/var/lib/kubelet/plugins/fileshare.csi.dev/csi.sock", "the node plugin's CSI socket")
	volume := flag.String("volume-id", "", "the volume's ID (the PV's volumeHandle)")
	path := flag.String("path", "", "a path where the volume is published")
	staging := flag.String("staging", "", "the volume's staging path")
	flag.Parse()
	conn, err := csiprobe.Dial(*endpoint)
	if err != nil {
		fail(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := csi.NewNodeClient(conn).NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{
		VolumeId: *volume, VolumePath: *path, StagingTargetPath: *staging,
	})
	if err != nil {
		fail(err)
	}
	health, err := csi.NewNodeClient(conn).NodeGetVolumeHealth(ctx, &csi.NodeGetVolumeHealthRequest{
		VolumeId: *volume, VolumePublishPath: *path, StagingTargetPath: *staging,
	})
	if err != nil {
		fail(err)
	}
	statuses := health.GetVolumeHealth().GetHealthStatuses()
	_ = json.NewEncoder(os.Stdout).Encode(map[string]any{"usage": resp.GetUsage(), "health": statuses, "healthy": len(statuses) == 0})
	if len(statuses) != 0 {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "csicall:", err)
	os.Exit(1)
}
