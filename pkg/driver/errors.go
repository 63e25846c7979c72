package driver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/copytree"
	"github.com/fileshare-csi/fileshare-csi/pkg/jobs"
	"github.com/fileshare-csi/fileshare-csi/pkg/krb5cache"
	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
)

// toStatus is the one place where store, share and mounter errors become the gRPC
// codes the CSI spec names, keeping the message that says what to fix.
// Handlers pass it what the store or share returned; errors that are
// already statuses (validation in the handler) pass through.
func toStatus(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	return status.Error(codeOf(err), err.Error())
}

// What the driver itself finds wrong, as kinds of error for codeOf: a
// handler says what happened (fail), and the code is decided here alone.
var (
	// errInProgress: another call holds the volume or its copy; a retry
	// proceeds once it is done.
	errInProgress = errors.New("another operation is in progress")
	// errNotReady: a snapshot whose copy is still being made; a retry
	// succeeds once it is.
	errNotReady = errors.New("not ready")
	// errStaleToken: a list's starting_token this driver did not give (the
	// spec's Aborted, so the CO starts over). One it gave stays valid
	// after the entries it names are deleted: it names a place in the
	// listing's order (paging.go), and the page after it may be empty.
	errStaleToken = errors.New("stale starting token")
	// errNoTopology: the requested topology has no node that can mount the
	// volume.
	errNoTopology = errors.New("no accessible topology")
	// errTooLarge: the content source is larger than limit_bytes.
	errTooLarge = errors.New("larger than the limit")
	// Conditions the caller has to change before a retry can succeed:
	// errNoSession: a call without secrets and no idle SMB session to
	// borrow; errNotStaged: a publish before its stage; errPublished: a
	// single-writer volume published elsewhere; errInlineOff: inline
	// volumes on a node that allows none; errKeepsMount: a changed Secret a
	// live mount cannot take.
	errNoSession  = errors.New("no session")
	errNotStaged  = errors.New("not staged")
	errPublished  = errors.New("published elsewhere")
	errInlineOff  = errors.New("inline volumes are off")
	errKeepsMount = errors.New("the mount keeps its credentials")
)

// failure is an error of a kind codeOf maps, with a message of its own that
// says what to fix. A nil kind is a fault of the driver or the node
// (Internal).
type failure struct {
	kind error
	msg  string
}

func (f failure) Error() string { return f.msg }
func (f failure) Unwrap() error { return f.kind }

// fail is the status of a failure of kind, with the message format makes.
func fail(kind error, format string, a ...any) error {
	return toStatus(failure{kind: kind, msg: fmt.Sprintf(format, a...)})
}

// dialError is a failure to open a session: a share that is not there is
// the request's to fix (InvalidArgument), not a volume that is not found.
type dialError struct{ err error }

func (e dialError) Error() string { return e.err.Error() }
func (e dialError) Unwrap() error { return e.err }

func codeOf(err error) codes.Code {
	var de dialError
	if errors.As(err, &de) {
		switch {
		case errors.Is(de.err, fs.ErrNotExist):
			return codes.InvalidArgument
		case errors.Is(de.err, fs.ErrPermission):
			return codes.PermissionDenied
		}
	}
	// A status from a step that mapped its own error already (a dial,
	// a lock) keeps its code when a caller wraps it in words of its own.
	var st interface{ GRPCStatus() *status.Status }
	if errors.As(err, &st) && st.GRPCStatus().Code() != codes.Unknown {
		return st.GRPCStatus().Code()
	}
	switch {
	case errors.Is(err, state.ErrInOtherGroup):
		// Checked first: the volume must leave its group before it joins
		// another, whatever else went wrong.
		return codes.FailedPrecondition
	case errors.Is(err, errNoSession), errors.Is(err, errNotStaged), errors.Is(err, errPublished),
		errors.Is(err, errInlineOff), errors.Is(err, errKeepsMount), errors.Is(err, krb5cache.ErrOtherPrincipal):
		return codes.FailedPrecondition
	case errors.Is(err, errInProgress), errors.Is(err, errStaleToken):
		return codes.Aborted
	case errors.Is(err, errNotReady), errors.Is(err, jobs.ErrClosed):
		return codes.Unavailable
	case errors.Is(err, errNoTopology), errors.Is(err, krb5cache.ErrNoFreeUID), errors.Is(err, share.ErrNoSpace):
		return codes.ResourceExhausted
	case errors.Is(err, krb5cache.ErrNoIdentity):
		return codes.InvalidArgument
	case errors.Is(err, errTooLarge):
		return codes.OutOfRange
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		return codes.Canceled
	case errors.Is(err, state.ErrNotFound):
		return codes.NotFound
	case errors.Is(err, state.ErrInvalid):
		return codes.InvalidArgument
	case errors.Is(err, state.ErrConflict):
		return codes.AlreadyExists
	case errors.Is(err, state.ErrBusy):
		return codes.Aborted
	case errors.Is(err, copytree.ErrIncomplete), errors.Is(err, copytree.ErrTooDeep):
		return codes.FailedPrecondition
	case errors.Is(err, mounter.ErrUnsupported), errors.Is(err, mounter.ErrCredentialConflict), errors.Is(err, mounter.ErrNoBlockNTLM),
		errors.Is(err, mounter.ErrNoKerberos):
		return codes.FailedPrecondition
	case errors.Is(err, mounter.ErrInvalid):
		return codes.InvalidArgument
	case errors.Is(err, mounter.ErrUnavailable), errors.Is(err, mounter.ErrNotResponding):
		return codes.Unavailable
	case errors.Is(err, share.ErrPrecondition):
		// The realm, the server or the class lacks what the class asks
		// for (a service principal, encryption): an operator must act.
		return codes.FailedPrecondition
	case errors.Is(err, share.ErrUnavailable):
		return codes.Unavailable
	case errors.Is(err, share.ErrInUse):
		return codes.Aborted
	case errors.Is(err, share.ErrNotEmpty):
		// A writer is still at work in the directory: retryable.
		return codes.Aborted
	case errors.Is(err, fs.ErrPermission):
		return codes.PermissionDenied
	case errors.Is(err, fs.ErrNotExist):
		return codes.NotFound
	case errors.Is(err, fs.ErrExist):
		return codes.AlreadyExists
	}
	return codes.Internal
}
