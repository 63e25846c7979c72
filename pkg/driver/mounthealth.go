package driver

import (
	"errors"
	"sync"

	"github.com/fileshare-csi/fileshare-csi/pkg/metrics"
	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
)

// mountHealth remembers, per staging path, the volume's protocol and what
// the last look at its mount found. It feeds the node's mount metrics from
// the looks the kubelet asks for anyway (stats, health, publish): a scrape
// never touches a mount, so a hung server cannot hang it.
type mountHealth struct {
	mu        sync.Mutex
	byStaging map[string]mountSeen
}

type mountSeen struct{ protocol, state string }

// staged records a volume mounted (or remounted) just now.
func (h *mountHealth) staged(stagingPath, protocol string) {
	h.set(stagingPath, mountSeen{protocol: protocol, state: metrics.MountHealthy})
}

// known records a volume staged before this plugin started: its state is
// unknown until the next look.
func (h *mountHealth) known(stagingPath, protocol string) {
	h.set(stagingPath, mountSeen{protocol: protocol, state: metrics.MountUnknown})
}

func (h *mountHealth) set(stagingPath string, s mountSeen) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byStaging == nil {
		h.byStaging = map[string]mountSeen{}
	}
	h.byStaging[stagingPath] = s
}

func (h *mountHealth) unstaged(stagingPath string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.byStaging, stagingPath)
}

// observed records what a check of the volume staged at stagingPath
// returned, and the volume's protocol ("" when it is not one we staged).
// Errors that say the mount answers but cannot be inspected change nothing.
func (h *mountHealth) observed(stagingPath string, err error) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.byStaging[stagingPath]
	if !ok {
		return ""
	}
	switch {
	case err == nil:
		s.state = metrics.MountHealthy
	case errors.Is(err, mounter.ErrNotResponding):
		s.state = metrics.MountHung
	case errors.Is(err, mounter.ErrBroken):
		s.state = metrics.MountBroken
	}
	h.byStaging[stagingPath] = s
	return s.protocol
}

func (h *mountHealth) protocolOf(stagingPath string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.byStaging[stagingPath].protocol
}

// counts is the metrics.MountCounts of this node.
func (h *mountHealth) counts() map[[2]string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[[2]string]int{}
	for _, s := range h.byStaging {
		out[[2]string{s.protocol, s.state}]++
	}
	return out
}
