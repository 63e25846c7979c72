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
		// A full share, or a user's quota reached: the spec's code for
		// "not enough space" (CreateSnapshot) and "quota issues"
		// (CreateVolume).
		{fmt.Errorf("write: NFS status 28: %w", share.ErrNoSpace), codes.ResourceExhausted},
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
		// A session that cannot be opened: a missing share is the
		// request's to fix, a refused login the caller's.
		{dialError{fmt.Errorf("dial: %w", fs.ErrNotExist)}, codes.InvalidArgument},
		{dialError{fmt.Errorf("dial: %w: %w", share.ErrUnavailable, fs.ErrNotExist)}, codes.InvalidArgument},
		{dialError{fmt.Errorf("dial: %w", fs.ErrPermission)}, codes.PermissionDenied},
		{dialError{fmt.Errorf("dial: %w", share.ErrUnavailable)}, codes.Unavailable},
		{fmt.Errorf("join: %w", state.ErrInOtherGroup), codes.FailedPrecondition},
		// What the handlers find themselves (fail).
		{failure{kind: errInProgress}, codes.Aborted},
		{failure{kind: errStaleToken}, codes.Aborted},
		{failure{kind: errNotReady}, codes.Unavailable},
		{failure{kind: errNoTopology}, codes.ResourceExhausted},
		{failure{kind: errTooLarge}, codes.OutOfRange},
		{failure{kind: errNoSession}, codes.FailedPrecondition},
		{failure{kind: errNotStaged}, codes.FailedPrecondition},
		{failure{kind: errPublished}, codes.FailedPrecondition},
		{failure{kind: errInlineOff}, codes.FailedPrecondition},
		{failure{kind: errKeepsMount}, codes.FailedPrecondition},
		{failure{kind: state.ErrNotFound}, codes.NotFound},
		{failure{kind: fs.ErrNotExist}, codes.NotFound},
		{failure{kind: fs.ErrPermission}, codes.PermissionDenied},
		{failure{kind: share.ErrUnavailable}, codes.Unavailable},
		{failure{}, codes.Internal},
		// A failure's code is its kind's alone, not its cause's: a probe
		// that timed out is Unavailable, not DeadlineExceeded.
		{failure{kind: mounter.ErrNotResponding, msg: fmt.Sprintf("%v", fmt.Errorf("%w: %w", mounter.ErrNotResponding, context.DeadlineExceeded))}, codes.Unavailable},
	} {
		if got := codeOf(c.err); got != c.want {
			t.Errorf("codeOf(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// TestFail: a failure's status carries its message alone.
func TestFail(t *testing.T) {
	st := status.Convert(fail(errInProgress, "volume %s is busy", "v"))
	if st.Code() != codes.Aborted || st.Message() != "volume v is busy" {
		t.Errorf("fail = %v %q", st.Code(), st.Message())
	}
}
