package csiv0

import (
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/csiv0/csi"
)

// A v1 call's failure becomes the v0.1 error of the call's own kind where
// the v0.1 protobuf has a code that means the same, and a GeneralError
// otherwise. A GeneralError says whether the caller may retry: yes for
// the codes the v1 spec makes retryable, no for a request that is wrong.
// The description keeps the v1 message, which says what to fix.

func generalError(code csi.Error_GeneralError_GeneralErrorCode, mustNotRetry bool, msg string) *csi.Error {
	return &csi.Error{Value: &csi.Error_GeneralError_{GeneralError: &csi.Error_GeneralError{
		ErrorCode: code, CallerMustNotRetry: mustNotRetry, ErrorDescription: msg,
	}}}
}

func missingField(name string) *csi.Error {
	return generalError(csi.Error_GeneralError_MISSING_REQUIRED_FIELD, true, name+" is missing")
}

// retryable says whether a v1 code names a condition that may pass.
func retryable(c codes.Code) bool {
	switch c {
	case codes.Unavailable, codes.DeadlineExceeded, codes.Aborted, codes.ResourceExhausted,
		codes.Internal, codes.Unknown, codes.Canceled:
		return true
	}
	return false
}

// general is any v1 error as a GeneralError.
func general(st *status.Status) *csi.Error {
	return generalError(csi.Error_GeneralError_UNDEFINED, !retryable(st.Code()), describe(st))
}

func describe(st *status.Status) string {
	return fmt.Sprintf("%s: %s", st.Code(), st.Message())
}

// fromV1 is a v1 error as a v0.1 reply's error: the code the table has for
// it, wrapped as the call's own error, else a general error.
func fromV1[C ~int32](err error, table map[codes.Code]C, wrap func(C, string) *csi.Error) *csi.Error {
	st := status.Convert(err)
	if c, ok := table[st.Code()]; ok {
		return wrap(c, st.Message())
	}
	return general(st)
}

// v1 AlreadyExists is "that name with other parameters", which v0.1's
// VOLUME_ALREADY_EXISTS ("assume it succeeded") is not: a general error.
var createCodes = map[codes.Code]csi.Error_CreateVolumeError_CreateVolumeErrorCode{
	codes.Unimplemented: csi.Error_CreateVolumeError_CALL_NOT_IMPLEMENTED,
	codes.Aborted:       csi.Error_CreateVolumeError_OPERATION_PENDING_FOR_VOLUME,
	codes.OutOfRange:    csi.Error_CreateVolumeError_UNSUPPORTED_CAPACITY_RANGE,
}

func createError(code csi.Error_CreateVolumeError_CreateVolumeErrorCode, msg string) *csi.Error {
	return &csi.Error{Value: &csi.Error_CreateVolumeError_{CreateVolumeError: &csi.Error_CreateVolumeError{ErrorCode: code, ErrorDescription: msg}}}
}

var deleteCodes = map[codes.Code]csi.Error_DeleteVolumeError_DeleteVolumeErrorCode{
	codes.Unimplemented:   csi.Error_DeleteVolumeError_CALL_NOT_IMPLEMENTED,
	codes.Aborted:         csi.Error_DeleteVolumeError_OPERATION_PENDING_FOR_VOLUME,
	codes.InvalidArgument: csi.Error_DeleteVolumeError_INVALID_VOLUME_ID,
}

func deleteError(code csi.Error_DeleteVolumeError_DeleteVolumeErrorCode, msg string) *csi.Error {
	return &csi.Error{Value: &csi.Error_DeleteVolumeError_{DeleteVolumeError: &csi.Error_DeleteVolumeError{ErrorCode: code, ErrorDescription: msg}}}
}

var controllerPublishCodes = map[codes.Code]csi.Error_ControllerPublishVolumeError_ControllerPublishVolumeErrorCode{
	codes.Unimplemented: csi.Error_ControllerPublishVolumeError_CALL_NOT_IMPLEMENTED,
	codes.Aborted:       csi.Error_ControllerPublishVolumeError_OPERATION_PENDING_FOR_VOLUME,
	codes.NotFound:      csi.Error_ControllerPublishVolumeError_VOLUME_DOES_NOT_EXIST,
}

func controllerPublishError(code csi.Error_ControllerPublishVolumeError_ControllerPublishVolumeErrorCode, msg string) *csi.Error {
	return &csi.Error{Value: &csi.Error_ControllerPublishVolumeError_{ControllerPublishVolumeError: &csi.Error_ControllerPublishVolumeError{ErrorCode: code, ErrorDescription: msg}}}
}

var controllerUnpublishCodes = map[codes.Code]csi.Error_ControllerUnpublishVolumeError_ControllerUnpublishVolumeErrorCode{
	codes.Unimplemented: csi.Error_ControllerUnpublishVolumeError_CALL_NOT_IMPLEMENTED,
	codes.Aborted:       csi.Error_ControllerUnpublishVolumeError_OPERATION_PENDING_FOR_VOLUME,
	codes.NotFound:      csi.Error_ControllerUnpublishVolumeError_VOLUME_DOES_NOT_EXIST,
}

func controllerUnpublishError(code csi.Error_ControllerUnpublishVolumeError_ControllerUnpublishVolumeErrorCode, msg string) *csi.Error {
	return &csi.Error{Value: &csi.Error_ControllerUnpublishVolumeError_{ControllerUnpublishVolumeError: &csi.Error_ControllerUnpublishVolumeError{ErrorCode: code, ErrorDescription: msg}}}
}

var validateCodes = map[codes.Code]csi.Error_ValidateVolumeCapabilitiesError_ValidateVolumeCapabilitiesErrorCode{
	codes.NotFound:        csi.Error_ValidateVolumeCapabilitiesError_VOLUME_DOES_NOT_EXIST,
	codes.InvalidArgument: csi.Error_ValidateVolumeCapabilitiesError_INVALID_VOLUME_INFO,
}

func validateError(code csi.Error_ValidateVolumeCapabilitiesError_ValidateVolumeCapabilitiesErrorCode, msg string) *csi.Error {
	return &csi.Error{Value: &csi.Error_ValidateVolumeCapabilitiesError_{ValidateVolumeCapabilitiesError: &csi.Error_ValidateVolumeCapabilitiesError{ErrorCode: code, ErrorDescription: msg}}}
}

// The codes the v1 node answers for a mount that failed (FailedPrecondition,
// PermissionDenied, Internal) are MOUNT_ERROR; a server that does not
// answer (Unavailable) stays a general error the caller may retry.
var nodePublishCodes = map[codes.Code]csi.Error_NodePublishVolumeError_NodePublishVolumeErrorCode{
	codes.Aborted:            csi.Error_NodePublishVolumeError_OPERATION_PENDING_FOR_VOLUME,
	codes.NotFound:           csi.Error_NodePublishVolumeError_VOLUME_DOES_NOT_EXIST,
	codes.FailedPrecondition: csi.Error_NodePublishVolumeError_MOUNT_ERROR,
	codes.PermissionDenied:   csi.Error_NodePublishVolumeError_MOUNT_ERROR,
	codes.Internal:           csi.Error_NodePublishVolumeError_MOUNT_ERROR,
}

func nodePublishError(code csi.Error_NodePublishVolumeError_NodePublishVolumeErrorCode, msg string) *csi.Error {
	return &csi.Error{Value: &csi.Error_NodePublishVolumeError_{NodePublishVolumeError: &csi.Error_NodePublishVolumeError{ErrorCode: code, ErrorDescription: msg}}}
}

var nodeUnpublishCodes = map[codes.Code]csi.Error_NodeUnpublishVolumeError_NodeUnpublishVolumeErrorCode{
	codes.Aborted:            csi.Error_NodeUnpublishVolumeError_OPERATION_PENDING_FOR_VOLUME,
	codes.NotFound:           csi.Error_NodeUnpublishVolumeError_VOLUME_DOES_NOT_EXIST,
	codes.FailedPrecondition: csi.Error_NodeUnpublishVolumeError_UNMOUNT_ERROR,
	codes.PermissionDenied:   csi.Error_NodeUnpublishVolumeError_UNMOUNT_ERROR,
	codes.Internal:           csi.Error_NodeUnpublishVolumeError_UNMOUNT_ERROR,
}

func nodeUnpublishError(code csi.Error_NodeUnpublishVolumeError_NodeUnpublishVolumeErrorCode, msg string) *csi.Error {
	return &csi.Error{Value: &csi.Error_NodeUnpublishVolumeError_{NodeUnpublishVolumeError: &csi.Error_NodeUnpublishVolumeError{ErrorCode: code, ErrorDescription: msg}}}
}
