package driver

import (
	"context"
	"errors"
	"io/fs"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/copytree"
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

func codeOf(err error) codes.Code {
	// A status from a step that mapped its own error already (a dial,
	// a lock) keeps its code when a caller wraps it in words of its own.
	var st interface{ GRPCStatus() *status.Status }
	if errors.As(err, &st) && st.GRPCStatus().Code() != codes.Unknown {
		return st.GRPCStatus().Code()
	}
	switch {
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
	case errors.Is(err, mounter.ErrUnsupported):
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
