// Command fileshare-csi is the CSI driver for NFS and SMB file shares. One
// binary serves the controller (user-space, unprivileged), the node plugin,
// or both.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/csiv0"
	"github.com/fileshare-csi/fileshare-csi/pkg/driver"
	"github.com/fileshare-csi/fileshare-csi/pkg/krb5"
	"github.com/fileshare-csi/fileshare-csi/pkg/krb5cache"
	"github.com/fileshare-csi/fileshare-csi/pkg/metrics"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	_ "github.com/fileshare-csi/fileshare-csi/pkg/share/all"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/smb"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/usage"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// krb5HostTickets is --krb5-host-tickets (see driver.Config).
var krb5HostTickets bool

// sourceAliases is --source-aliases, the file of driver.Config.Aliases.
var sourceAliases string

// podUID is --pod-uid, driver.Config.PodUID.
var podUID string

// krb5CacheUIDs and krb5CachePath are --krb5-cache-uids and
// --krb5-cache-path (see krb5cache.Config).
var krb5CacheUIDs, krb5CachePath string

func main() {
	klog.InitFlags(nil)
	endpoint := flag.String("endpoint", "unix:///csi/csi.sock", "CSI endpoint: unix:///path/to.sock or tcp://host:port")
	nodeID := flag.String("nodeid", "", "node name (required for --mode=node and all)")
	mode := flag.String("mode", "all", "services to serve: controller, node or all")
	driverName := flag.String("driver-name", "fileshare.csi.dev", "CSI driver name")
	stateDir := flag.String("state-dir", "/var/lib/kubelet/plugins/fileshare.csi.dev/state", "node: where staged-volume records are kept for remounting broken mounts")
	maxSessions := flag.Int("max-sessions-per-share", 16, "controller: file server sessions open at once per share and credentials, reused across calls (0: a new session for every call)")
	metricsAddress := flag.String("metrics-address", "", "serve Prometheus metrics at http://ADDRESS/metrics, e.g. :9808 (off when empty)")
	inlineSources := flag.String("inline-sources", "", "node: comma-separated shares pods may mount as CSI inline volumes, e.g. nfs://nas/exports/scratch,smb://fs/team (empty: inline volumes are refused)")
	addonsEndpoint := flag.String("csi-addons-endpoint", "", "controller: serve the CSI-Addons services (Identity, VolumeGroup) here, e.g. unix:///run/csi-addons/socket for the csi-addons sidecar (off when empty)")
	var v0 v0Flags
	flag.BoolVar(&v0.enabled, "csi-v0", false, "also serve the pre-1.0 CSI v0.1 API (package csi) on the same endpoint, for orchestrators that speak only that")
	flag.StringVar(&v0.stagingDir, "csi-v0-staging-dir", "/var/lib/kubelet/plugins/fileshare.csi.dev/csi-v0", "node, with --csi-v0: where v0.1 NodePublishVolume stages volumes (v0.1 has no staging of its own)")
	flag.StringVar(&v0.secretDir, "csi-v0-secret-dir", "", "with --csi-v0: a directory of secret files (username, password, optional domain; a mounted Kubernetes Secret) for the SMB calls, which v0.1 requests carry no secrets for")
	reclaimInterval := flag.Duration("reclaim-interval", 10*time.Minute, "controller: how often the reclaimer undoes, on every share a call named within 30 minutes and three intervals, CreateVolumes that stopped before their commit and were never retried for 30 minutes (0: never)")
	var ub driver.UsageBounds
	flag.IntVar(&ub.Walks, "usage-walks", usage.DefaultMaxWalks, "node: volumes counted at once for NodeGetVolumeStats (each volume's own use, on its mount)")
	flag.IntVar(&ub.EntriesPerSecond, "usage-entries-per-second", usage.DefaultEntriesPerSecond, "node: entries one count reads per second at most")
	flag.DurationVar(&ub.Interval, "usage-interval", usage.DefaultInterval, "node: age of a volume's count before it is counted again")
	flag.StringVar(&smb.Krb5ConfigPath, "krb5-config", smb.Krb5ConfigPath, "controller and node (--krb5-cache-uids): the krb5.conf (realm, KDCs) for SMB classes with auth krb5 or negotiate whose Secret has no krb5.conf key, e.g. a mounted ConfigMap; read when an identity first logs in")
	flag.BoolVar(&krb5HostTickets, "krb5-host-tickets", false, "node: mount SMB volumes of auth krb5 classes (sec=krb5) with the host's own Kerberos tickets, which cifs.upcall finds in root's credential cache or the host's keytab: one identity for every such volume on the node; off, they fail with FailedPrecondition")
	flag.StringVar(&krb5CacheUIDs, "krb5-cache-uids", "", "node: FIRST-LAST, host uids (each with a passwd entry on the host, used by nothing else) to give each Kerberos principal of a Secret one of: its SMB mounts (sec=krb5) then log in as that principal, from a ticket cache the plugin writes and renews for the uid (needs Linux 6.13 or 6.12.30+, and cifs-utils 7.2+ on the host; docs/kerberos.md); empty: off")
	flag.StringVar(&krb5CachePath, "krb5-cache-path", "/host/tmp/krb5cc_%{uid}", "node, with --krb5-cache-uids: a uid's ticket cache file as the plugin sees it, the host's default cache for the uid (FILE:/tmp/krb5cc_%{uid} unless the host's krb5.conf says otherwise) under where the host's directory is mounted")
	flag.StringVar(&podUID, "pod-uid", "", "controller: the UID of the pod it runs in (the downward API's metadata.uid): a copy an earlier container of this pod left is resumed at once, not after 30 s (empty: after 30 s)")
	flag.StringVar(&sourceAliases, "source-aliases", "", "a file of source aliases (a mounted ConfigMap key, docs/server-move.md): volumes made against a server's old address reach it where it is now; read again when it changes; a missing file maps nothing, one that does not parse stops the start (empty: no aliases)")
	showVersion := flag.Bool("version", false, "print the version and exit")
	flag.Parse()
	if *showVersion {
		fmt.Println(version)
		return
	}
	if err := run(*endpoint, *nodeID, *mode, *driverName, *stateDir, *maxSessions, *metricsAddress, *inlineSources, *addonsEndpoint, *reclaimInterval, v0, ub); err != nil {
		klog.ErrorS(err, "fileshare-csi failed")
		klog.Flush()
		os.Exit(1)
	}
}

// v0Flags turn on the CSI v0.1 adapter (pkg/csiv0).
type v0Flags struct {
	enabled               bool
	stagingDir, secretDir string
}

func run(endpoint, nodeID, mode, name, stateDir string, maxSessions int, metricsAddress, inlineSources, addonsEndpoint string, reclaimInterval time.Duration, v0 v0Flags, ub driver.UsageBounds) error {
	inline, err := driver.ParseInlineSources(inlineSources)
	if err != nil {
		return err
	}
	cfg := driver.Config{Name: name, Version: version, NodeID: nodeID, StateDir: stateDir, InlineSources: inline, Usage: ub, Krb5HostTickets: krb5HostTickets, PodUID: podUID}
	if sourceAliases != "" {
		if cfg.Aliases, err = source.OpenAliasFile(sourceAliases); err != nil {
			return fmt.Errorf("--source-aliases: %w", err)
		}
	}
	if metricsAddress != "" {
		cfg.Metrics = metrics.New(name)
	}
	switch mode {
	case "controller":
		cfg.Controller = true
	case "node":
		cfg.Node = true
	case "all":
		cfg.Controller, cfg.Node = true, true
	default:
		return fmt.Errorf("--mode=%q: use controller, node or all", mode)
	}
	if cfg.Controller {
		cfg.Pool = share.NewPool()
		cfg.Pool.MaxOpenPerKey = maxSessions
		defer cfg.Pool.Close()
	}
	if cfg.Node {
		m, err := newNodeMounter()
		if err != nil {
			return err
		}
		cfg.Mounter = m
		if cfg.Krb5Caches, err = krb5Caches(stateDir); err != nil {
			return err
		}
		if cfg.Krb5Caches != nil {
			defer cfg.Krb5Caches.Close()
		}
	}
	d, err := driver.New(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	// The metrics address and the CSI-Addons socket are listened on before
	// the CSI socket: whoever waits for the CSI socket finds all of them.
	if cfg.Metrics != nil {
		if err := cfg.Metrics.Serve(ctx, metricsAddress); err != nil {
			return err
		}
	}
	var addonsLis net.Listener
	if addonsEndpoint != "" {
		if !cfg.Controller {
			return fmt.Errorf("--csi-addons-endpoint: the CSI-Addons services are a controller's; use --mode=controller or all")
		}
		if addonsLis, err = driver.Listen(addonsEndpoint); err != nil {
			return fmt.Errorf("--csi-addons-endpoint: %w", err)
		}
	}
	lis, err := driver.Listen(endpoint)
	if err != nil {
		return err
	}
	srv := grpc.NewServer(grpc.ChainUnaryInterceptor(cfg.Metrics.UnaryInterceptor(), driver.LogInterceptor))
	d.Register(srv)
	if v0.enabled {
		if err := registerV0(srv, d, cfg, v0); err != nil {
			return err
		}
	}
	servers := []*grpc.Server{srv}
	if addonsLis != nil {
		addons := grpc.NewServer(grpc.ChainUnaryInterceptor(cfg.Metrics.UnaryInterceptor(), driver.LogInterceptor))
		d.RegisterAddons(addons)
		servers = append(servers, addons)
		go func() {
			if err := addons.Serve(addonsLis); err != nil {
				klog.ErrorS(err, "CSI-Addons endpoint failed", "endpoint", addonsEndpoint)
			}
		}()
		klog.InfoS("serving CSI-Addons", "endpoint", addonsEndpoint)
	}

	if cfg.Controller {
		go d.RunReclaimer(ctx, reclaimInterval)
	}
	go func() {
		<-ctx.Done()
		klog.InfoS("shutting down")
		if cfg.Controller {
			// The copies end first, each removing its beat from the
			// share, so the next leader resumes them at once.
			sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			if err := d.StopCopies(sctx); err != nil {
				klog.ErrorS(err, "copies still running at exit; the next controller takes them over once their beats stop")
			}
			cancel()
		}
		done := make(chan struct{})
		go func() {
			for _, s := range servers {
				s.GracefulStop()
			}
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			for _, s := range servers {
				s.Stop()
			}
		}
	}()
	klog.InfoS("serving", "endpoint", endpoint, "driver", name, "version", version, "mode", mode, "node", nodeID)
	return srv.Serve(lis)
}

// registerV0 serves CSI v0.1 beside v1, through the adapter over the
// driver's v1 services.
func registerV0(srv *grpc.Server, d *driver.Driver, cfg driver.Config, v0 v0Flags) error {
	acfg := csiv0.Config{Identity: d, StagingDir: v0.stagingDir}
	if cfg.Controller {
		acfg.Controller = d
	}
	if cfg.Node {
		acfg.Node = d
	}
	if v0.secretDir != "" {
		acfg.Secrets = csiv0.SecretDir(v0.secretDir)
	}
	a, err := csiv0.New(acfg)
	if err != nil {
		return fmt.Errorf("--csi-v0: %w", err)
	}
	a.Register(srv)
	klog.InfoS("serving CSI v0.1 beside v1", "staging", v0.stagingDir, "secrets", v0.secretDir != "")
	return nil
}

// krb5Caches is the node's Kerberos ticket caches of --krb5-cache-uids, or
// nil when that is empty.
func krb5Caches(stateDir string) (*krb5cache.Manager, error) {
	if krb5CacheUIDs == "" {
		return nil, nil
	}
	if runtime.GOOS != "linux" {
		return nil, fmt.Errorf("--krb5-cache-uids is for Linux nodes: a Windows node maps SMB shares with the Secret's credentials itself (docs/windows.md)")
	}
	first, last, ok := strings.Cut(krb5CacheUIDs, "-")
	f, ferr := strconv.ParseUint(first, 10, 32)
	l, lerr := strconv.ParseUint(last, 10, 32)
	if !ok || ferr != nil || lerr != nil {
		return nil, fmt.Errorf("--krb5-cache-uids=%q: use FIRST-LAST, e.g. 40000-40099", krb5CacheUIDs)
	}
	m, err := krb5cache.New(krb5cache.Config{
		First: uint32(f), Last: uint32(l),
		Path:      krb5CachePath,
		StateFile: filepath.Join(stateDir, "krb5-uids.json"),
		Login: func(ctx context.Context, creds source.Credentials, spns []string) (*krb5.Cache, error) {
			return krb5.Tickets(ctx, creds, smb.Krb5ConfigPath, spns)
		},
	})
	if err != nil {
		return nil, fmt.Errorf("--krb5-cache-uids, --krb5-cache-path: %w", err)
	}
	return m, nil
}
