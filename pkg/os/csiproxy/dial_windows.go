//go:build windows

package csiproxy

import (
	"context"
	"fmt"
	"net"

	"github.com/Microsoft/go-winio"
	fsv1 "github.com/kubernetes-csi/csi-proxy/client/api/filesystem/v1"
	smbv1 "github.com/kubernetes-csi/csi-proxy/client/api/smb/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/hostfs"
)

// Dial returns a Client for csi-proxy on this node, connected for the life
// of the process. It does not wait for csi-proxy: a pipe is opened at the
// first call, within that call's context, so the plugin starts (and
// registers) while csi-proxy is still coming up, and a call made while it is
// down fails with an error that says so. gRPC reconnects after a csi-proxy
// restart.
func Dial() (*Client, error) {
	smbConn, err := dialPipe(SMBPipe)
	if err != nil {
		return nil, err
	}
	fsConn, err := dialPipe(FilesystemPipe)
	if err != nil {
		smbConn.Close()
		return nil, err
	}
	return New(smbv1.NewSmbClient(smbConn), SMBPipe, fsv1.NewFilesystemClient(fsConn), FilesystemPipe, hostfs.FS{}), nil
}

func dialPipe(pipe string) (*grpc.ClientConn, error) {
	conn, err := grpc.NewClient("passthrough:///"+pipe,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
			return winio.DialPipeContext(ctx, addr)
		}))
	if err != nil {
		return nil, fmt.Errorf("set up a connection to csi-proxy on %s: %w", pipe, err)
	}
	return conn, nil
}
