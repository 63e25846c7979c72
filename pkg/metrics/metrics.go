// Package metrics exports the driver's Prometheus metrics: every CSI call by
// method and gRPC code, the controller's session pool per share, the node's
// mounts and repairs, and what DeleteVolume removed.
//
// Labels are bounded and carry nothing secret: a protocol, a server and a
// share or export name (never a user, a password, a volume ID or a path
// below the share), a method, a code, a state. A nil *Metrics records
// nothing, so the driver needs no checks when metrics are off.
package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	csimetrics "github.com/kubernetes-csi/csi-lib-utils/metrics"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"google.golang.org/grpc"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

const namespace = "fileshare_csi"

// Mount states the node reports. A mount is unknown from a plugin restart
// until the kubelet's next stats or health call looks at it.
const (
	MountHealthy = "healthy"
	MountHung    = "hung"
	MountBroken  = "broken"
	MountUnknown = "unknown"
)

var mountStates = []string{MountHealthy, MountHung, MountBroken, MountUnknown}

// Protocols the driver mounts; the node's mount gauge shows each with every
// state, zeros included, so a dashboard's series exist from the start.
var protocols = []string{"nfs", "smb"}

// Metrics is the driver's registry and the recorders the services use.
type Metrics struct {
	reg   *prometheus.Registry
	calls csimetrics.CSIMetricsManager

	deletes       *prometheus.CounterVec
	deleteEntries *prometheus.CounterVec
	repairs       *prometheus.CounterVec
	probeTimeouts *prometheus.CounterVec
	rotations     *prometheus.CounterVec
	copies        *prometheus.CounterVec
	copyBytes     *prometheus.CounterVec
	copyFiles     *prometheus.CounterVec
	copiesRunning *prometheus.GaugeVec
	reclaimed     *prometheus.CounterVec
	reclaimKept   *prometheus.CounterVec
	overCapacity  prometheus.Gauge
	aliasUses     *prometheus.CounterVec
	aliasRules    prometheus.Gauge
	aliasErrors   prometheus.Counter
}

// New returns a registry with the process and Go runtime collectors and the
// driver's own metrics. driverName labels the CSI call metrics.
func New(driverName string) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		// csi_plugin_operations_seconds{driver_name, method_name,
		// grpc_status_code}: the histogram, and with its _count the call
		// counter, that the CSI sidecars export as csi_sidecar_* and CSI
		// dashboards read.
		calls: csimetrics.NewCSIMetricsManagerWithOptions(driverName,
			csimetrics.WithSubsystem(csimetrics.SubsystemPlugin),
			// The process collector below has it already.
			csimetrics.WithProcessStartTime(false)),
		deletes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "volume_deletes_total",
			Help: "Volumes DeleteVolume disposed of, by protocol and by what the class's onDelete did (delete, retain, archive).",
		}, []string{"protocol", "action"}),
		deleteEntries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "volume_delete_entries_removed_total",
			Help: "Files, links and directories DeleteVolume removed from the file servers, by protocol.",
		}, []string{"protocol"}),
		repairs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "node_mount_repairs_total",
			Help: "Broken node mounts the plugin remounted, by protocol and result (ok, failed).",
		}, []string{"protocol", "result"}),
		probeTimeouts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "node_probe_timeouts_total",
			Help: "Health and stats probes of a node mount that the file server did not answer in time, by protocol.",
		}, []string{"protocol"}),
		rotations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "node_credential_rotations_total",
			Help: "New SMB passwords from a Secret given to live node mounts, by result (ok; refused: the server rejects it; failed: the node could not set it).",
		}, []string{"result"}),
	}
	m.copies = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace, Name: "copies_total",
		Help: "Tree copies ended, by kind (snapshot, restore, clone), protocol and result (ok; failed: the next call resumes it; canceled: its snapshot or volume was deleted, or the controller stopped).",
	}, []string{"kind", "protocol", "result"})
	m.copyBytes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace, Name: "copy_bytes_total",
		Help: "File data tree copies copied, by kind, protocol and how (streamed through the controller, or server: copied by the file server itself).",
	}, []string{"kind", "protocol", "how"})
	m.copyFiles = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace, Name: "copy_files_total",
		Help: "Files tree copies copied, by kind and protocol.",
	}, []string{"kind", "protocol"})
	m.copiesRunning = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: namespace, Name: "copies_running",
		Help: "Tree copies running now (snapshots not yet ready, restores and clones not yet filled), by kind.",
	}, []string{"kind"})
	for _, k := range []string{"snapshot", "restore", "clone"} {
		m.copiesRunning.WithLabelValues(k)
	}
	m.reclaimed = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace, Name: "reclaimed_total",
		Help: "What the reclaimer removed of calls that never came back, by protocol and kind (create: a CreateVolume stopped before its commit and never retried, undone with its holds; temporary: a record's temporary file; snapshot: a snapshot whose copy stopped and that no call asked for within 30 minutes).",
	}, []string{"protocol", "kind"})
	m.reclaimKept = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace, Name: "reclaim_kept_directories_total",
		Help: "Directories of never-finished CreateVolumes that the reclaimer kept because something was written into them (the controller log names each), by protocol.",
	}, []string{"protocol"})
	m.overCapacity = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: namespace, Name: "node_volumes_over_capacity",
		Help: "Volumes staged on this node that use more than their requested size, by the node's last count (NodeGetVolumeHealth says DEGRADED for each; the file server enforces nothing without a quota).",
	})
	// The rule's two sources are the operator's own lines, so the series
	// are as many as the rules; sources never hold credentials (they are
	// refused there).
	m.aliasUses = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace, Name: "source_alias_uses_total",
		Help: "Volumes' sources the driver reached through a source alias (--source-aliases), by the rule's source (from) and first address (to): each controller operation and node mount that looked one up.",
	}, []string{"from", "to"})
	m.aliasRules = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: namespace, Name: "source_alias_rules",
		Help: "Rules of the source aliases in use (the last version of the file that parsed).",
	})
	m.aliasErrors = prometheus.NewCounter(prometheus.CounterOpts{
		Namespace: namespace, Name: "source_alias_reload_errors_total",
		Help: "Changed source alias files that could not be read or parsed; the last good mapping stays in use (the log names the line).",
	})
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.deletes, m.deleteEntries, m.repairs, m.probeTimeouts, m.rotations,
		m.copies, m.copyBytes, m.copyFiles, m.copiesRunning, m.reclaimed, m.reclaimKept, m.overCapacity,
		m.aliasUses, m.aliasRules, m.aliasErrors,
	)
	return m
}

// Registry is where the metrics live, for tests and for serving.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// UnaryInterceptor times every call by method and gRPC code. Without
// metrics it passes calls through.
func (m *Metrics) UnaryInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if m == nil {
			return h(ctx, req)
		}
		began := time.Now()
		resp, err := h(ctx, req)
		m.calls.RecordMetrics(info.FullMethod, err, time.Since(began))
		return resp, err
	}
}

// WatchPool exports the pool's sessions, waits and dials per share.
func (m *Metrics) WatchPool(p *share.Pool) {
	if m == nil {
		return
	}
	m.reg.MustRegister(poolCollector{pool: p})
	for _, p := range protocols {
		m.deleteEntries.WithLabelValues(p)
	}
}

// MountCounts returns, per protocol and state, how many volumes the node
// has staged.
type MountCounts func() map[[2]string]int

// WatchMounts exports the node's staged volumes by protocol and state.
func (m *Metrics) WatchMounts(counts MountCounts) {
	if m == nil {
		return
	}
	m.reg.MustRegister(mountCollector{counts: counts})
	for _, p := range protocols {
		m.repairs.WithLabelValues(p, "ok")
		m.repairs.WithLabelValues(p, "failed")
		m.probeTimeouts.WithLabelValues(p)
	}
	for _, r := range []string{"ok", "refused", "failed"} {
		m.rotations.WithLabelValues(r)
	}
}

// VolumeDeleted records one DeleteVolume that did its work: action is the
// class's onDelete, entries what it removed.
func (m *Metrics) VolumeDeleted(protocol, action string, entries int64) {
	if m == nil {
		return
	}
	m.deletes.WithLabelValues(protocol, action).Inc()
	m.deleteEntries.WithLabelValues(protocol).Add(float64(entries))
}

// CopyStarted records a tree copy that began; the function it returns
// records its end: files and bytes it copied (server the part the file
// server copied itself) and how it ended.
func (m *Metrics) CopyStarted(kind, protocol string) func(files, bytes, server int64, err error) {
	if m == nil {
		return func(int64, int64, int64, error) {}
	}
	m.copiesRunning.WithLabelValues(kind).Inc()
	return func(files, bytes, server int64, err error) {
		m.copiesRunning.WithLabelValues(kind).Dec()
		result := "ok"
		switch {
		case errors.Is(err, context.Canceled):
			result = "canceled"
		case err != nil:
			result = "failed"
		}
		m.copies.WithLabelValues(kind, protocol, result).Inc()
		m.copyFiles.WithLabelValues(kind, protocol).Add(float64(files))
		m.copyBytes.WithLabelValues(kind, protocol, "streamed").Add(float64(bytes - server))
		m.copyBytes.WithLabelValues(kind, protocol, "server").Add(float64(server))
	}
}

// Reclaimed records one reclaim pass on a share of protocol.
func (m *Metrics) Reclaimed(protocol string, creates, temps, snapshots, quarantines, kept int) {
	if m == nil {
		return
	}
	m.reclaimed.WithLabelValues(protocol, "create").Add(float64(creates))
	m.reclaimed.WithLabelValues(protocol, "temporary").Add(float64(temps))
	m.reclaimed.WithLabelValues(protocol, "snapshot").Add(float64(snapshots))
	m.reclaimed.WithLabelValues(protocol, "quarantine").Add(float64(quarantines))
	m.reclaimKept.WithLabelValues(protocol).Add(float64(kept))
}

// VolumesOverCapacity sets how many staged volumes use more than their
// requested size.
func (m *Metrics) VolumesOverCapacity(n int) {
	if m == nil {
		return
	}
	m.overCapacity.Set(float64(n))
}

// SourceAliasUsed records a volume's source reached through the alias rule
// from -> to.
func (m *Metrics) SourceAliasUsed(from, to string) {
	if m != nil {
		m.aliasUses.WithLabelValues(from, to).Inc()
	}
}

// SourceAliasesLoaded records the number of rules of a mapping taken into
// use.
func (m *Metrics) SourceAliasesLoaded(rules int) {
	if m != nil {
		m.aliasRules.Set(float64(rules))
	}
}

// SourceAliasesFailed records a changed alias file that was refused.
func (m *Metrics) SourceAliasesFailed() {
	if m != nil {
		m.aliasErrors.Inc()
	}
}

// MountRepaired records a remount of a broken node mount.
func (m *Metrics) MountRepaired(protocol string, err error) {
	if m == nil {
		return
	}
	result := "ok"
	if err != nil {
		result = "failed"
	}
	m.repairs.WithLabelValues(protocol, result).Inc()
}

// CredentialsRotated records a new SMB password handed to a live mount:
// result is ok, refused (the server rejects it) or failed.
func (m *Metrics) CredentialsRotated(result string) {
	if m != nil {
		m.rotations.WithLabelValues(result).Inc()
	}
}

// ProbeTimedOut records a mount probe the server did not answer in time.
func (m *Metrics) ProbeTimedOut(protocol string) {
	if m != nil {
		m.probeTimeouts.WithLabelValues(protocol).Inc()
	}
}

// Serve answers /metrics on addr until ctx ends. An address that cannot be
// listened on is an error at once, so a bad flag stops the plugin at start.
func (m *Metrics) Serve(ctx context.Context, addr string) error {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--metrics-address %q: %w", addr, err)
	}
	mux := http.NewServeMux()
	m.calls.WithAdditionalRegistry(m.reg).RegisterToServer(mux, "/metrics")
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	go func() {
		klog.InfoS("serving metrics", "address", lis.Addr().String())
		if err := srv.Serve(lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			klog.ErrorS(err, "metrics server stopped")
		}
	}()
	return nil
}

var (
	poolOpenDesc = prometheus.NewDesc(namespace+"_pool_sessions_open",
		"File server sessions the controller holds open (in use or idle), per share.", []string{"protocol", "server", "share"}, nil)
	poolInUseDesc = prometheus.NewDesc(namespace+"_pool_sessions_in_use",
		"File server sessions leased to a call now, per share.", []string{"protocol", "server", "share"}, nil)
	poolWaitsDesc = prometheus.NewDesc(namespace+"_pool_waits_total",
		"Calls that waited for a session because the share's limit (--max-sessions-per-share) was reached.", []string{"protocol", "server", "share"}, nil)
	poolWaitSecondsDesc = prometheus.NewDesc(namespace+"_pool_wait_seconds_total",
		"Time calls spent waiting for a session, per share.", []string{"protocol", "server", "share"}, nil)
	poolDialsDesc = prometheus.NewDesc(namespace+"_pool_dials_total",
		"Sessions the controller set out to open, per share (fileshare_csi_pool_dial_failures_total counts those that failed).", []string{"protocol", "server", "share"}, nil)
	poolDialFailuresDesc = prometheus.NewDesc(namespace+"_pool_dial_failures_total",
		"Sessions that could not be opened (unreachable server, refused credentials, ...), per share.", []string{"protocol", "server", "share"}, nil)
	mountsDesc = prometheus.NewDesc(namespace+"_node_mounts",
		"Volumes staged on this node, by protocol and by state as the last look found it (healthy, hung, broken; unknown after a plugin restart until the kubelet's next stats call).", []string{"protocol", "state"}, nil)
)

type poolCollector struct{ pool *share.Pool }

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolOpenDesc, poolInUseDesc, poolWaitsDesc, poolWaitSecondsDesc, poolDialsDesc, poolDialFailuresDesc} {
		ch <- d
	}
}

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	for _, s := range c.pool.Stats() {
		l := []string{s.Protocol, s.Server, s.Share}
		ch <- prometheus.MustNewConstMetric(poolOpenDesc, prometheus.GaugeValue, float64(s.Open), l...)
		ch <- prometheus.MustNewConstMetric(poolInUseDesc, prometheus.GaugeValue, float64(s.InUse), l...)
		ch <- prometheus.MustNewConstMetric(poolWaitsDesc, prometheus.CounterValue, float64(s.Waits), l...)
		ch <- prometheus.MustNewConstMetric(poolWaitSecondsDesc, prometheus.CounterValue, s.WaitSeconds, l...)
		ch <- prometheus.MustNewConstMetric(poolDialsDesc, prometheus.CounterValue, float64(s.Dials), l...)
		ch <- prometheus.MustNewConstMetric(poolDialFailuresDesc, prometheus.CounterValue, float64(s.DialFailures), l...)
	}
}

type mountCollector struct{ counts MountCounts }

func (c mountCollector) Describe(ch chan<- *prometheus.Desc) { ch <- mountsDesc }

func (c mountCollector) Collect(ch chan<- prometheus.Metric) {
	counts := c.counts()
	for _, p := range protocols {
		for _, s := range mountStates {
			ch <- prometheus.MustNewConstMetric(mountsDesc, prometheus.GaugeValue, float64(counts[[2]string{p, s}]), p, s)
		}
	}
}
