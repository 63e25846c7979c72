//go:build windows

package mounter

import (
	"context"
	"errors"
)

// errWindowsNotYet marks the Windows node plugin as not built yet: SMB global
// mappings through csi-proxy come with the Windows issue.
var errWindowsNotYet = errors.New("the Windows node plugin is not implemented yet")

type windows struct{}

// New returns the mounter of this OS.
func New() Mounter { return windows{} }

func (windows) OS() string                                { return "windows" }
func (windows) Stage(context.Context, StageRequest) error { return errWindowsNotYet }
func (windows) Unstage(context.Context, string) error     { return errWindowsNotYet }
func (windows) Publish(context.Context, string, string, bool) error {
	return errWindowsNotYet
}
func (windows) Unpublish(context.Context, string) error      { return errWindowsNotYet }
func (windows) Stats(context.Context, string) (Stats, error) { return Stats{}, errWindowsNotYet }
func (windows) Check(context.Context, string) error          { return errWindowsNotYet }
