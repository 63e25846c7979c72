// Package driver implements the CSI Identity, Controller and Node services.
// It is OS-neutral: everything that touches the node's mount table goes
// through a mounter.Mounter chosen at build time.
package driver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/jobs"
	"github.com/fileshare-csi/fileshare-csi/pkg/keylock"
	"github.com/fileshare-csi/fileshare-csi/pkg/krb5cache"
	"github.com/fileshare-csi/fileshare-csi/pkg/metrics"
	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	// The protocol clients share.Dial (the pool's, and a node's
	// rotation check) opens sessions with: see TestDialReachesEveryProtocol.
	_ "github.com/fileshare-csi/fileshare-csi/pkg/share/all"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/usage"
)

// TopologyKeyOS is the topology segment the node reports its OS under. NFS
// volumes require "linux" in it, which keeps them off Windows nodes.
const TopologyKeyOS = "topology.fileshare.csi.dev/os"

// Config selects the services a Driver serves and what they depend on.
type Config struct {
	Name       string
	Version    string
	NodeID     string
	Controller bool
	Node       bool
	// Pool supplies user-space sessions to the file servers (controller).
	Pool *share.Pool
	// Mounter performs node mounts (node).
	Mounter mounter.Mounter
	// StateDir keeps, per staged volume, what is needed to remount it when
	// the mount breaks. Empty disables that repair.
	StateDir string
	// Metrics records what the services do; nil records nothing.
	Metrics *metrics.Metrics
	// InlineSources are the shares pods may mount as CSI inline volumes
	// (node); empty refuses inline volumes.
	InlineSources InlineSources
	// Krb5HostTickets lets a Linux node mount Kerberos volumes (sec=krb5)
	// with the host's own tickets, through cifs.upcall: root's credential
	// cache or the host's keytab, one identity for every such volume on the
	// node, whatever principal their Secrets name. Off, and without
	// Krb5Caches, they are refused.
	Krb5HostTickets bool
	// Krb5Caches gives each Kerberos identity a host uid whose ticket cache
	// the node writes from the Secret and renews (--krb5-cache-uids): a
	// Linux node's Kerberos mounts then log in as their Secret's
	// principal. It takes precedence over Krb5HostTickets.
	Krb5Caches *krb5cache.Manager
	// VerifyCredentials checks, before a live SMB mount is given a new
	// password, that the server takes it (node); nil logs on in user space.
	VerifyCredentials func(ctx context.Context, src source.Source, creds share.Credentials) error
	// Usage bounds the node's counts of each volume's use (node); its
	// zero fields take the usage package's defaults.
	Usage UsageBounds
	// Aliases map the sources of volumes to where their server is now
	// (--source-aliases, docs/server-move.md); nil maps nothing.
	Aliases *source.AliasFile
	// PodUID is the UID of the pod the controller runs in (--pod-uid,
	// the downward API's metadata.uid). A copy an earlier container of
	// the same pod left beating is taken over at once: the kubelet
	// starts a container again only once the one before it has exited.
	// Empty: after state.TakeoverAfter, as another process's.
	PodUID string
}

// UsageBounds are the node's bounds on counting volumes' use
// (--usage-walks, --usage-entries-per-second, --usage-interval).
type UsageBounds struct {
	Walks            int
	EntriesPerSecond int
	Interval         time.Duration
}

// Driver serves the CSI services: Identity here, the Controller and Group
// Controller services in the controller it embeds, the Node service in the
// node. The two share nothing but the configuration.
type Driver struct {
	csi.UnimplementedIdentityServer
	controller
	node

	cfg Config
}

// controller serves the CSI Controller and Group Controller services, and
// the CSI-Addons volume groups: the file servers reached in user space, the
// records on them, and the copies and the reclaimer that outlive a call.
type controller struct {
	csi.UnimplementedControllerServer
	csi.UnimplementedGroupControllerServer

	cfg         *Config
	aliases     *aliasUse
	volumeLocks keylock.Tree
	// jobs runs snapshot, restore and clone copies beyond their RPCs.
	jobs           *jobs.Runner
	copySlots      copySlots
	snapshotShares knownShares
	// groupShares: the shares ListVolumeGroups reads, those groups were
	// made on since the controller started.
	groupShares knownShares
	// reclaimShares: the shares volumes were made or deleted on since the
	// controller started, which the reclaimer passes over.
	reclaimShares knownShares
	newShares     chan source.Source
	dueShares     chan source.Source
	reclaimer     state.Reclaimer
	snapshotCalls activity
	volumeCalls   activity // volumes being filled
	// instance names this process in its copies' beats; foreign is what
	// it saw of other processes' (beat.go).
	instance  string
	foreign   foreignBeats
	beatTimes beatTimes
}

// node serves the CSI Node service: the node plugin's mounts, its records
// of them and its counts of their use. It shares nothing with the
// controller's services but the configuration.
type node struct {
	csi.UnimplementedNodeServer

	cfg       *Config
	aliases   *aliasUse
	nodeLocks tryLocks
	// serverLocks serializes the stages of one SMB server's volumes on a
	// Windows node (see mappingConflict).
	serverLocks keylock.Keyed
	mounts      mountHealth
	// usage counts each staged volume's own use for NodeGetVolumeStats;
	// over holds the volumes over their requested size.
	usage  *usage.Counter
	overMu sync.Mutex
	over   map[string]bool
}

// New checks cfg and returns a Driver.
func New(cfg Config) (*Driver, error) {
	if cfg.Name == "" {
		return nil, errors.New("driver name is empty")
	}
	if !cfg.Controller && !cfg.Node {
		return nil, errors.New("neither the controller nor the node service is enabled")
	}
	if cfg.Controller && cfg.Pool == nil {
		cfg.Pool = share.NewPool()
	}
	if cfg.Node {
		if cfg.NodeID == "" {
			return nil, errors.New("node ID is empty: set --nodeid")
		}
		if cfg.Mounter == nil {
			return nil, errors.New("the node service needs a mounter")
		}
	}
	if !podUID(cfg.PodUID) {
		return nil, fmt.Errorf("--pod-uid %q is not a pod's UID (letters, digits and dashes)", cfg.PodUID)
	}
	d := &Driver{cfg: cfg}
	aliases := newAliasUse(&d.cfg)
	d.controller = controller{cfg: &d.cfg, aliases: aliases, jobs: jobs.NewRunner(), instance: instanceID(cfg.PodUID), newShares: make(chan source.Source, 16), dueShares: make(chan source.Source)}
	d.node.cfg, d.node.aliases = &d.cfg, aliases
	d.reclaimer.SnapshotBusy = d.snapshotBusy
	d.reclaimer.VolumeBusy = d.volumeBusy
	if cfg.Controller {
		cfg.Metrics.WatchPool(cfg.Pool)
	}
	if cfg.Node {
		d.node.start()
	}
	return d, nil
}

// start readies the node service: its use counter, and its records as an
// earlier run left them.
func (n *node) start() {
	// A Windows unstage keeps a share's mapping while another volume links
	// into it: staged volumes beside it, and inline volumes, which only the
	// node's records say where to find.
	if w, ok := n.cfg.Mounter.(*mounter.Windows); ok {
		w.Mounted = n.mountedPaths
	}
	n.usage = usage.New(n.cfg.Mounter.Check)
	// A Windows node walks its volumes through its host (the SMB mapping,
	// listed with allocation sizes); a Linux node through the os package.
	if m, ok := n.cfg.Mounter.(interface{ UsageFS() usage.FS }); ok {
		n.usage.FS = m.UsageFS()
	}
	if b := n.cfg.Usage; b.Walks > 0 {
		n.usage.MaxWalks = b.Walks
	}
	if b := n.cfg.Usage; b.EntriesPerSecond > 0 {
		n.usage.EntriesPerSecond = b.EntriesPerSecond
	}
	if b := n.cfg.Usage; b.Interval > 0 {
		n.usage.Interval = b.Interval
	}
	// Records of an earlier version hold SMB passwords in plaintext
	// (issue #27): move them to where the node keeps them now.
	if moved, err := n.nodeState().MoveCredentialsOutOfRecords(); err != nil || moved > 0 {
		klog.Background().Info("moved the credentials of staged volumes out of their records", "records", moved, "error", errString(err))
	}
	for _, st := range n.nodeState().AllStaged() {
		n.mounts.known(st.Request.StagingPath, string(st.Request.Source.Protocol))
	}
	n.cfg.Metrics.WatchMounts(n.mounts.counts)
	// The Kerberos caches of volumes still staged are renewed from their
	// credentials, which the node kept; those of volumes unstaged while
	// the plugin was down go.
	if c := n.cfg.Krb5Caches; c != nil {
		err := c.Resume(context.Background(), n.stillStaged)
		if err != nil {
			klog.Background().Error(err, "cannot take over the Kerberos ticket caches of an earlier run; their volumes get them again at their next stage")
		}
	}
}

// stillStaged answers the Kerberos caches' Resume: whether the volume at
// staging still holds its uid, and the credentials to renew its tickets
// with. Only a volume with neither a record nor a mount has let it go: a
// record that cannot be read, or a mount (the staging mount, or a pod's
// bind of it) whose record was never saved (the plugin died before it, or
// SaveStaged failed and no call again came), keeps its uid, so the
// uid is never given to another principal under a live mount, whose
// reconnects would log in as that principal.
func (n *node) stillStaged(staging string) (share.Credentials, bool) {
	st, err := n.nodeState().Staged(staging)
	switch {
	case err == nil:
		return st.Request.Credentials, true
	case !errors.Is(err, fs.ErrNotExist):
		return share.Credentials{}, true
	}
	return share.Credentials{}, n.mountedFrom(context.Background(), staging)
}

// mountedPaths are where the node's records say it has mounted volumes:
// staging paths, and inline volumes' targets; an error when a record
// cannot be read (its volume may use any share).
func (n *node) mountedPaths() ([]string, error) {
	recs, err := n.nodeState().AllStagedOrError()
	var out []string
	for _, st := range recs {
		out = append(out, st.Request.StagingPath)
	}
	return out, err
}

// Register adds the enabled services to a gRPC server.
func (d *Driver) Register(s *grpc.Server) {
	csi.RegisterIdentityServer(s, d)
	if d.cfg.Controller {
		csi.RegisterControllerServer(s, d)
		csi.RegisterGroupControllerServer(s, d)
	}
	if d.cfg.Node {
		csi.RegisterNodeServer(s, d)
	}
}

// Listen opens the endpoint (unix:///path or tcp://host:port), removing a
// stale socket file left by a previous run.
func Listen(endpoint string) (net.Listener, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, fmt.Errorf("endpoint %q: %w", endpoint, err)
	}
	switch u.Scheme {
	case "unix":
		p := u.Path
		if u.Host != "" {
			p = u.Host + p
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("remove stale socket %s: %w", p, err)
		}
		return net.Listen("unix", p)
	case "tcp":
		return net.Listen("tcp", u.Host)
	}
	return nil, fmt.Errorf("endpoint %q: scheme must be unix or tcp", endpoint)
}

// LogInterceptor logs every call and its result with secrets stripped, also
// those a user put where no secret belongs (see forLog).
func LogInterceptor(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	logger := klog.FromContext(ctx).WithValues("method", info.FullMethod)
	logger.V(4).Info("call", "request", forLog(req))
	resp, err := handler(klog.NewContext(ctx, logger), req)
	if err != nil {
		logger.Error(err, "call failed")
	} else {
		logger.V(4).Info("call done", "response", forLog(resp))
	}
	return resp, err
}

// tryLocks refuses a second concurrent operation on one volume, which the
// spec answers with Aborted so the CO retries later.
type tryLocks struct {
	mu   sync.Mutex
	busy map[string]bool
}

// lockVolume is tryLock of a volume, failing as a handler answers.
func (t *tryLocks) lockVolume(id string) (func(), error) {
	unlock, ok := t.tryLock(id)
	if !ok {
		return nil, fail(errInProgress, "another operation on volume %s is in progress", shownID(id))
	}
	return unlock, nil
}

func (t *tryLocks) tryLock(key string) (func(), bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.busy == nil {
		t.busy = map[string]bool{}
	}
	if t.busy[key] {
		return nil, false
	}
	t.busy[key] = true
	return func() {
		t.mu.Lock()
		delete(t.busy, key)
		t.mu.Unlock()
	}, true
}

func credentialsFrom(secrets map[string]string) share.Credentials {
	return share.Credentials{
		Username: secrets["username"], Password: secrets["password"], Domain: secrets["domain"],
		Principal: secrets[source.SecretPrincipal], Keytab: secrets[source.SecretKeytab], Krb5Conf: secrets[source.SecretKrb5Conf],
	}
}

// nodeCredentials are the credentials a node mount takes: the kernel's
// Kerberos login goes through cifs.upcall and the host's ticket caches, so
// the node keeps no keytab or krb5.conf from the Secret, unless it writes
// those caches itself (--krb5-cache-uids), which it renews from them while
// the volume is staged (kept where staged credentials are: nodestate).
func (n *node) nodeCredentials(secrets map[string]string) share.Credentials {
	c := credentialsFrom(secrets)
	if n.cfg.Krb5Caches == nil {
		c.Keytab, c.Krb5Conf = "", ""
	}
	return c
}

// errString is err's message, or "" for nil, for a log value.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
