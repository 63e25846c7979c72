package mounter

import "github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"

// ErrUnavailable says a service the mounter works through does not answer
// (csi-proxy, on Windows); the same call may succeed later. The driver maps
// it to Unavailable, which the kubelet retries.
var ErrUnavailable = winhost.ErrUnavailable

// ErrCredentialConflict says Windows refused a mapping because the node is
// connected to the same server with other credentials (system error 1219);
// the driver maps it to FailedPrecondition.
var ErrCredentialConflict = winhost.ErrCredentialConflict
