package driver

import (
	"context"
	"fmt"
	"io/fs"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/copytree"
	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
)

// TestCodeOf: the one error map, including a status that a step mapped
// already and a caller wrapped (a snapshot copy that could not reach the
// server stays Unavailable, so the sidecar retries, not Internal).
func TestCodeOf(t *testing.T) {
	for _, c := range []struct {
		err  error
		want codes.Code
	}{
		{fmt.Errorf("copying: %w", status.Error(codes.Unavailable, "connect to mountd")), codes.Unavailable},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), codes.DeadlineExceeded},
		{fmt.Errorf("x: %w", state.ErrConflict), codes.AlreadyExists},
		{fmt.Errorf("x: %w", state.ErrBusy), codes.Aborted},
		{fmt.Errorf("x: %w", share.ErrInUse), codes.Aborted},
		{fmt.Errorf("x: %w: %w", share.ErrUnavailable, fs.ErrNotExist), codes.Unavailable},
		{fmt.Errorf("x: %w", fs.ErrPermission), codes.PermissionDenied},
		{fmt.Errorf("x: %w (%v)", share.ErrPrecondition, "KDC_ERR_S_PRINCIPAL_UNKNOWN"), codes.FailedPrecondition},
		// The node's mount errors, through the same map.
		{fmt.Errorf("stage: %w", mounter.ErrUnsupported), codes.FailedPrecondition},
		{fmt.Errorf("stage: %w", mounter.ErrInvalid), codes.InvalidArgument},
		{fmt.Errorf("subDir: %w", mounter.ErrEscapes), codes.InvalidArgument},
		{fmt.Errorf("stage: %w", mounter.ErrNotResponding), codes.Unavailable},
		{fmt.Errorf("subdirectory: %w", fs.ErrNotExist), codes.NotFound},
		{fmt.Errorf("x: %w", context.Canceled), codes.Canceled},
		// Copies that would be incomplete or too large.
		{fmt.Errorf("copy: %w", copytree.ErrIncomplete), codes.FailedPrecondition},
		{fmt.Errorf("copy: %w", copytree.ErrTooDeep), codes.FailedPrecondition},
		{fmt.Errorf("something else"), codes.Internal},
	} {
		if got := codeOf(c.err); got != c.want {
			t.Errorf("codeOf(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
