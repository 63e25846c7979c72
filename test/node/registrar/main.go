//go:build linux

// Command registrar stands in for csi-node-driver-registrar in the test
// cluster (test/node/overlay), which the Go module proxy does not serve. Like
// the real one it asks the driver for its name over the CSI socket, serves
// the kubelet's plugin registration API (k8s.io/kubelet
// pluginregistration/v1) on <plugin-registration-path>/<driver>-reg.sock,
// tells the kubelet where the driver's socket is on the node, exits when the
// kubelet reports that registration failed, and answers /healthz while it
// is registered. It takes the flags the manifests pass.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"google.golang.org/grpc"
	registerapi "k8s.io/kubelet/pkg/apis/pluginregistration/v1"

	"github.com/fileshare-csi/fileshare-csi/test/node/csiprobe"
)

type registration struct {
	registerapi.UnimplementedRegistrationServer
	driver, endpoint string
	registered       atomic.Bool
	failed           chan string
}

func (r *registration) GetInfo(context.Context, *registerapi.InfoRequest) (*registerapi.PluginInfo, error) {
	return &registerapi.PluginInfo{
		Type:              registerapi.CSIPlugin,
		Name:              r.driver,
		Endpoint:          r.endpoint,
		SupportedVersions: []string{"1.0.0"},
	}, nil
}

func (r *registration) NotifyRegistrationStatus(_ context.Context, s *registerapi.RegistrationStatus) (*registerapi.RegistrationStatusResponse, error) {
	if !s.GetPluginRegistered() {
		r.failed <- s.GetError()
		return &registerapi.RegistrationStatusResponse{}, nil
	}
	log.Printf("the kubelet registered %s", r.driver)
	r.registered.Store(true)
	return &registerapi.RegistrationStatusResponse{}, nil
}

func main() {
	address := flag.String("csi-address", "/run/csi/socket", "the driver's CSI socket in this container")
	kubeletPath := flag.String("kubelet-registration-path", "", "the driver's CSI socket as the kubelet sees it on the node")
	regDir := flag.String("plugin-registration-path", "/registration", "the kubelet's plugin registration directory in this container")
	endpoint := flag.String("http-endpoint", "", "address to serve /healthz on, e.g. :29764")
	flag.Int("v", 0, "log verbosity (accepted for the manifests' sake)")
	flag.Parse()
	if *kubeletPath == "" {
		log.Fatal("--kubelet-registration-path is required")
	}
	conn, err := csiprobe.Dial(*address)
	if err != nil {
		log.Fatal(err)
	}
	var driver string
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		driver, err = csiprobe.DriverName(ctx, conn)
		cancel()
		if err == nil {
			break
		}
		log.Printf("waiting for the driver at %s: %v", *address, err)
		time.Sleep(2 * time.Second)
	}
	conn.Close()

	r := &registration{driver: driver, endpoint: *kubeletPath, failed: make(chan string, 1)}
	sock := filepath.Join(*regDir, driver+"-reg.sock")
	if err := os.Remove(sock); err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Fatalf("remove the old %s: %v", sock, err)
	}
	lis, err := net.Listen("unix", sock)
	if err != nil {
		log.Fatal(err)
	}
	srv := grpc.NewServer()
	registerapi.RegisterRegistrationServer(srv, r)
	go func() {
		if err := srv.Serve(lis); err != nil {
			log.Fatalf("registration server: %v", err)
		}
	}()
	log.Printf("registering %s (kubelet sees its socket at %s) through %s", driver, *kubeletPath, sock)
	if *endpoint != "" {
		http.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
			if _, err := os.Stat(sock); err != nil {
				http.Error(w, fmt.Sprintf("registration socket: %v", err), http.StatusInternalServerError)
				return
			}
			if !r.registered.Load() {
				http.Error(w, "not registered with the kubelet yet", http.StatusServiceUnavailable)
				return
			}
			fmt.Fprintln(w, "ok")
		})
		go func() {
			s := &http.Server{Addr: *endpoint, ReadHeaderTimeout: 10 * time.Second}
			log.Fatal(s.ListenAndServe())
		}()
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	select {
	case msg := <-r.failed:
		// As the real registrar does: a restart tries again.
		log.Printf("the kubelet failed to register %s: %s", driver, msg)
		_ = os.Remove(sock)
		os.Exit(1)
	case <-sigs:
		srv.Stop()
		_ = os.Remove(sock)
	}
}
