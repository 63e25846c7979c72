//go:build !linux && !windows

package mounter

import (
	"context"
	"fmt"
	"runtime"
)

// Unsupported is the mounter of an OS without a node plugin (darwin, the
// BSDs): every node operation answers ErrUnsupported, which the driver maps
// to FailedPrecondition. The controller, which never mounts, works there.
type Unsupported struct{}

// New returns the mounter of this OS.
func New() Mounter { return Unsupported{} }

// OS reports GOOS, so a scheduler never places Linux-only volumes here.
func (Unsupported) OS() string { return runtime.GOOS }

func unsupported(op string) error {
	return fmt.Errorf("%s on %s: %w", op, runtime.GOOS, ErrUnsupported)
}

func (Unsupported) Stage(context.Context, StageRequest) error { return unsupported("stage") }

func (Unsupported) Unstage(context.Context, string) error { return unsupported("unstage") }

func (Unsupported) Publish(context.Context, string, string, bool) error {
	return unsupported("publish")
}

func (Unsupported) Unpublish(context.Context, string) error { return unsupported("unpublish") }

func (Unsupported) Stats(context.Context, string) (Stats, error) {
	return Stats{}, unsupported("volume stats")
}

func (Unsupported) Check(context.Context, string) error { return unsupported("mount check") }
