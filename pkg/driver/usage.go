package driver

import (
	"context"
	"fmt"
	"strconv"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/usage"
)

// capacityOf reads the volume context's capacityBytes: 0 when absent (a
// static PV, or a volume made before the controller set it).
func capacityOf(vctx map[string]string) (int64, error) {
	s := vctx[ContextCapacity]
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, status.Errorf(codes.InvalidArgument, "volume attribute %s=%q is not a number of bytes", ContextCapacity, s)
	}
	return n, nil
}

// usageKey is where the volume at path (a pod's target, or its staging
// path) is counted: its staging mount, one count per volume per node, or
// the path itself for an inline volume.
func (n *node) usageKey(path, staging string) string {
	if staging != "" {
		return staging
	}
	if p, err := n.nodeState().Published(path); err == nil && p.StagingPath != "" {
		return p.StagingPath
	}
	return path
}

// volumeUsage is NodeGetVolumeStats' answer for the volume at path whose
// mount answered with the share's numbers st: the volume's own use once a
// walk counted it (usage.Counter; never waited for), the share's until
// then. Capacity is the requested size where known, the share's otherwise;
// available is the smaller of what the capacity leaves and the share's
// free space.
func (n *node) volumeUsage(path, staging string, st mounter.Stats) []*csi.VolumeUsage {
	bytes := &csi.VolumeUsage{Unit: csi.VolumeUsage_BYTES, Total: st.TotalBytes, Available: st.AvailableBytes, Used: st.UsedBytes}
	inodes := &csi.VolumeUsage{Unit: csi.VolumeUsage_INODES, Total: st.TotalInodes, Available: st.FreeInodes, Used: st.UsedInodes}
	key := n.usageKey(path, staging)
	u, ok := n.usage.Get(key)
	if ok {
		requested := n.capacityAt(key)
		capacity := requested
		if capacity <= 0 {
			capacity = st.TotalBytes
		}
		bytes.Total, bytes.Used = capacity, u.Bytes
		bytes.Available = max(0, min(capacity-u.Bytes, st.AvailableBytes))
		inodes.Used = u.Inodes
		n.noteCapacity(key, over(u, requested))
	}
	return []*csi.VolumeUsage{bytes, inodes}
}

// over says whether a count exceeds a requested size (0: none requested).
func over(u usage.Usage, requested int64) bool { return requested > 0 && u.Bytes > requested }

func (n *node) capacityAt(key string) int64 {
	if s, err := n.nodeState().Staged(key); err == nil {
		return s.CapacityBytes
	}
	return 0
}

// overCapacity says, from the last count, how far the volume at path is
// over its requested size, or "" when it is not (or nothing is known).
func (n *node) overCapacity(path, staging string) string {
	key := n.usageKey(path, staging)
	u, ok := n.usage.Peek(key)
	if !ok {
		return ""
	}
	capacity := n.capacityAt(key)
	if !over(u, capacity) {
		return ""
	}
	return fmt.Sprintf("uses %s of %s requested (counted %s ago); the file server enforces no limit unless a quota is set there", gib(u.Bytes), gib(capacity), n.sinceCount(u))
}

func gib(b int64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }

func (n *node) sinceCount(u usage.Usage) string {
	return n.usage.Age(u).Round(1e9).String()
}

// noteCapacity keeps the node's count of volumes over their capacity.
func (n *node) noteCapacity(key string, over bool) {
	n.overMu.Lock()
	defer n.overMu.Unlock()
	if n.over == nil {
		n.over = map[string]bool{}
	}
	if over {
		n.over[key] = true
	} else {
		delete(n.over, key)
	}
	n.cfg.Metrics.VolumesOverCapacity(len(n.over))
}

// forgetUsage drops the count of a volume being unstaged, and ends a walk
// under way there, whose open directories would keep its mount busy; it
// waits for the walk no longer than the call's ctx lasts.
func (n *node) forgetUsage(ctx context.Context, key string) {
	n.usage.Forget(ctx, key)
	n.overMu.Lock()
	defer n.overMu.Unlock()
	delete(n.over, key)
	n.cfg.Metrics.VolumesOverCapacity(len(n.over))
}

// NodeExpandVolume records the volume's new size for its stats: capacity
// and the over-capacity check use it from now on. Nothing on the node
// grows (a share has no per-directory size), and the controller answers
// NodeExpansionRequired false, so a claim's expansion completes at once,
// in use or not; the kubelet still calls this on every node where the
// volume is mounted and its size lags the PV's, which is what tells each
// node. The size is kept in the node's staging record, so it survives a
// plugin restart and a stage again, and goes with the unstage.
func (n *node) NodeExpandVolume(ctx context.Context, req *csi.NodeExpandVolumeRequest) (*csi.NodeExpandVolumeResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	if req.GetVolumePath() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume path is missing")
	}
	if c := req.GetVolumeCapability(); c != nil {
		if err := validateNodeCapability(c); err != nil {
			return nil, err
		}
	}
	// The controller's rules for a capacity range (one rule for both
	// calls): required_bytes above limit_bytes, or a negative value, is
	// INVALID_ARGUMENT (requestedBytes); a limit below the size already
	// recorded is OUT_OF_RANGE, below (withinLimit).
	size, err := requestedBytes(req.GetCapacityRange())
	if err != nil {
		return nil, err
	}
	if size == 0 {
		size = req.GetCapacityRange().GetLimitBytes()
	}
	unlock, err := n.nodeLocks.lockVolume(req.GetVolumeId())
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := n.volumeNotAt(req.GetVolumeId(), req.GetVolumePath(), req.GetStagingTargetPath()); err != nil {
		return nil, err
	}
	staging := n.stagingOf(req.GetVolumePath(), req.GetStagingTargetPath())
	if staging == "" {
		return nil, status.Errorf(codes.NotFound, "volume %s is not staged or published at %s on this node", shownID(req.GetVolumeId()), req.GetVolumePath())
	}
	if size == 0 {
		// No size asked: report what is recorded.
		s, _ := n.nodeState().Staged(staging)
		return &csi.NodeExpandVolumeResponse{CapacityBytes: s.CapacityBytes}, nil
	}
	recorded, err := n.nodeState().SetCapacity(staging, size)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "record the new size of volume %s: %v", shownID(req.GetVolumeId()), err)
	}
	if err := withinLimit(recorded, req.GetCapacityRange()); err != nil {
		// The record already had more (size is within the limit, so
		// SetCapacity wrote nothing): answering OK with a capacity above
		// limit_bytes would say the volume is what the caller forbade.
		return nil, err
	}
	klog.FromContext(ctx).V(2).Info("volume expanded", "volumeID", shownID(req.GetVolumeId()), "path", staging, "capacityBytes", recorded)
	// The last count is judged against the new size now, not at the next
	// stats call: a volume that fits it is no longer counted as over.
	if u, ok := n.usage.Peek(staging); ok {
		n.noteCapacity(staging, over(u, recorded))
	}
	return &csi.NodeExpandVolumeResponse{CapacityBytes: recorded}, nil
}

// stagingOf finds the staging record the volume at path (a target or a
// staging path) belongs to: "" when this node has none. The kubelet passes
// the published path as volume_path, and the staging path beside it; where
// that is no staged volume's, path leads to one as it does for the stats
// (usageKey).
func (n *node) stagingOf(path, staging string) string {
	for _, p := range []string{staging, n.usageKey(path, "")} {
		if _, err := n.nodeState().Staged(p); p != "" && err == nil {
			return p
		}
	}
	return ""
}
