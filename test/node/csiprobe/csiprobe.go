// Package csiprobe is what the sidecar stand-ins (test/node/registrar,
// test/node/livenessprobe) share: a connection to the driver's CSI socket,
// its name, and whether it says it is ready.
package csiprobe

import (
	"context"
	"fmt"
	"strings"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Dial connects to a CSI endpoint given as a path or unix:// URL; the
// connection is made lazily, as the real sidecars do, so a driver that
// starts later is found.
func Dial(address string) (*grpc.ClientConn, error) {
	if !strings.HasPrefix(address, "unix://") {
		address = "unix://" + address
	}
	conn, err := grpc.NewClient(address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, fmt.Errorf("CSI endpoint %s: %w", address, err)
	}
	return conn, nil
}

// DriverName asks the driver for its name (GetPluginInfo).
func DriverName(ctx context.Context, conn *grpc.ClientConn) (string, error) {
	info, err := csi.NewIdentityClient(conn).GetPluginInfo(ctx, &csi.GetPluginInfoRequest{})
	if err != nil {
		return "", fmt.Errorf("GetPluginInfo: %w", err)
	}
	if info.GetName() == "" {
		return "", fmt.Errorf("GetPluginInfo answered no name")
	}
	return info.GetName(), nil
}

// Ready calls Probe: nil when the driver is ready. A driver that leaves
// "ready" unset is ready, as the spec says.
func Ready(ctx context.Context, conn *grpc.ClientConn) error {
	resp, err := csi.NewIdentityClient(conn).Probe(ctx, &csi.ProbeRequest{})
	if err != nil {
		return fmt.Errorf("Probe: %w", err)
	}
	if r := resp.GetReady(); r != nil && !r.GetValue() {
		return fmt.Errorf("the driver says it is not ready")
	}
	return nil
}
