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

// ErrNoBlockNTLM says a mapping that must never use NTLM (auth krb5) was
// refused because the node's Windows has no New-SmbGlobalMapping
// -BlockNTLM (before Windows Server 2025); the driver maps it to
// FailedPrecondition, as ErrUnsupported: another node or class is needed.
var ErrNoBlockNTLM = winhost.ErrNoBlockNTLM

// ErrNoKerberos says a mapping that must never use NTLM (auth krb5) failed
// because Windows could not log on to the server with Kerberos (no ticket
// for the server's name, no domain controller, no cifs/ service
// principal); the driver maps it to FailedPrecondition: the node, the realm
// or the class must change, and the message says which.
var ErrNoKerberos = winhost.ErrNoKerberos
