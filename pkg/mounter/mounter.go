// Package mounter performs the node's mounts. The implementation is chosen at
// build time: mount(8) through k8s.io/mount-utils on Linux, SMB global
// mappings and symlinks on Windows, and on every other OS a mounter that
// answers ErrUnsupported (so the controller still builds and runs there).
package mounter

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// ErrUnsupported is returned for what this OS's mounter cannot do (NFS on
// Windows); the driver maps it to FailedPrecondition.
var ErrUnsupported = errors.New("not supported on this node")

// StageRequest describes one share subdirectory to mount at a staging path.
type StageRequest struct {
	Source      source.Source
	SubDir      string // relative to the source's base; "" for the base itself
	StagingPath string
	// MountOptions are the StorageClass mountOptions (mount_flags).
	MountOptions []string
	Credentials  source.Credentials
	// MountGroup is the fsGroup the kubelet delegates (VOLUME_MOUNT_GROUP),
	// "" when none.
	MountGroup string
	ReadOnly   bool
	// CredUID is the host uid whose Kerberos ticket cache a Linux sec=krb5
	// mount logs in with (cruid, with upcall_target=mount: pkg/krb5cache);
	// nil for root's own tickets (cruid=0, --krb5-host-tickets).
	CredUID *uint32 `json:",omitempty"`
	// MapFloor is what other volumes staged on a Windows node ask of the
	// SMB global mapping of this volume's share (encryption, signing,
	// never NTLM), which a mapping this volume makes again (after the
	// server dropped it, or a password rotation) keeps: otherwise such a
	// remap would be made with this volume's weaker switches under the
	// others. nil elsewhere; set by the node service.
	MapFloor *winhost.MapOptions `json:",omitempty"`
}

// UpcallTargeter is a mounter that can tell whether the kernel's CIFS
// client takes upcall_target=mount, which a mount with a CredUID needs.
type UpcallTargeter interface {
	UpcallTargetSupported() error
}

// Stats of a mounted volume.
type Stats struct {
	TotalBytes, AvailableBytes, UsedBytes int64
	TotalInodes, FreeInodes, UsedInodes   int64
}

// Mounter stages, publishes and inspects volumes on this node.
type Mounter interface {
	// OS is the value of the driver's OS topology segment: "linux" or "windows".
	OS() string
	// Stage mounts the share subdirectory at req.StagingPath. It is idempotent,
	// and replaces a mount that is there but broken (stale, disconnected).
	Stage(ctx context.Context, req StageRequest) error
	// Unstage undoes Stage; a path that is gone or not mounted is fine.
	Unstage(ctx context.Context, stagingPath string) error
	// Publish makes stagingPath visible at targetPath, read-only if asked.
	Publish(ctx context.Context, stagingPath, targetPath string, readOnly bool) error
	// Unpublish undoes Publish; a path that is gone or not mounted is fine.
	Unpublish(ctx context.Context, targetPath string) error
	// Stats reports usage of the file system at path, with the errors of
	// Check when the mount does not work.
	Stats(ctx context.Context, path string) (Stats, error)
	// Check reports whether path holds a working mount: nil when it does,
	// ErrNotMounted when nothing is mounted there, ErrNotResponding when the
	// server does not answer, an error wrapping ErrBroken when the mount is
	// broken for good and must be remounted, or another error (permission
	// denied, ...) that says the mount answers but cannot be inspected: such
	// a mount may work for the pod and must be left alone.
	Check(ctx context.Context, path string) error
}

// ErrNotMounted says nothing is mounted at a path (or the path is gone).
var ErrNotMounted = errors.New("not mounted")

// ErrInvalid says the request's options can never mount (a mount option that
// contradicts the source); the caller maps it to InvalidArgument.
var ErrInvalid = errors.New("invalid mount request")

// ErrEscapes says a volume's subdirectory on the share passes through a
// symbolic link or into another file system: it is never followed (Linux
// nodes open it themselves, see beneath_linux.go).
var ErrEscapes = fmt.Errorf("%w: the path passes through a symbolic link or another file system on the share, which the node never follows", ErrInvalid)

// ErrNotResponding says a mount did not answer in time: typically a hard NFS
// mount whose server is down. That is not broken: the kernel resumes when
// the server is back, so it must not be torn down and remounted.
var ErrNotResponding = errors.New("mount not responding")

// ErrBroken says a mount is broken for good: the kernel answers every access
// with an error that only a new mount cures (a stale file handle, a lost
// connection, an I/O error). Only such mounts are torn down and remounted;
// any other error leaves the mount in place.
var ErrBroken = errors.New("mount is broken")

// CredentialRotator is a mounter that can hand a live SMB mount a new
// password, so the pods using it keep their mount (and their open files)
// when the server's password changes. Mounters without it leave rotation to
// a new mount, which only a pod restart brings.
type CredentialRotator interface {
	// RotateCredentials gives the SMB mount at path creds' password for its
	// next session setup, without unmounting: the kernel keeps using the
	// session it has until the server drops it, then logs on with the new
	// password (or the old one, should the server not have changed yet).
	// It answers an error wrapping ErrUnsupported when this kernel cannot.
	RotateCredentials(ctx context.Context, path string, creds source.Credentials) error
}

// LogonReader is a mounter that can tell who the live SMB mount at a path
// logs on as, from the kernel rather than the node's records: after a
// plugin restart on a node without a kernel keyring the record no longer
// holds the credentials a mount was made with, and the mount is the one
// witness left of its user.
type LogonReader interface {
	// MountedLogon answers the user name and domain the SMB mount at path
	// logs on with; false when path is no such mount, or it names no user.
	MountedLogon(path string) (source.Credentials, bool)
}

// MappingRotator is a mounter whose mounts are the node's SMB global
// mappings (Windows): one per share and node, shared by the volumes on it,
// whose credentials cannot change while the mapping lives.
type MappingRotator interface {
	// RotateMapping makes the mapping behind the volume staged at
	// req.StagingPath use req.Credentials, which the caller has checked
	// with the server. A mapping that works is left as it is (replaced
	// false): removing it would close every file the pods hold open
	// through it, and its session goes on until the server drops it; the
	// volume's next stage (the repair of the link that stops working then)
	// maps with the new credentials. A mapping that does not work is
	// replaced at once, at the same remote path, so every link to the share
	// works again. An error wraps ErrNotMounted when nothing is staged
	// there.
	RotateMapping(ctx context.Context, req StageRequest) (replaced bool, err error)
}

// OptionsAskForKerberos reports whether mount options pick a Kerberos
// sec= flavour themselves (sec=krb5 or krb5i: the form classes used before
// auth: krb5, which a CIFS mount serves with the mounting uid's tickets,
// root's, when no cruid is given).
func OptionsAskForKerberos(opts []string) bool {
	return strings.HasPrefix(secOption(opts), "krb5")
}

// OptionsNameKerberos reports whether any sec= of mount options names a
// Kerberos flavour (krb5, krb5i, krb5p) among its colon-separated ones: an
// NFS mount takes a list (sec=sys:krb5i) and logs in with whichever of
// them the server offers, so one Kerberos flavour anywhere in any sec= may
// be the one used.
func OptionsNameKerberos(opts []string) bool {
	for _, v := range secOptions(opts) {
		for _, f := range strings.Split(v, ":") {
			if strings.HasPrefix(strings.TrimSpace(f), "krb5") {
				return true
			}
		}
	}
	return false
}

// OptionsNameSec reports whether mount options name a sec= at all.
func OptionsNameSec(opts []string) bool { return len(secOptions(opts)) > 0 }

// secOptions are the values of every sec= of mount options, lower case.
func secOptions(opts []string) []string {
	var out []string
	for _, o := range strings.Split(strings.Join(opts, ","), ",") {
		if k, v, _ := strings.Cut(o, "="); strings.EqualFold(strings.TrimSpace(k), "sec") {
			out = append(out, strings.ToLower(strings.TrimSpace(v)))
		}
	}
	return out
}

// secOption is the sec= flavour mount options ask for, lower case ("" when
// none does; the last one when several do, as mount.cifs takes it). The
// one reading of sec= for every check: a key in any case counts.
func secOption(opts []string) string {
	sec := ""
	for _, o := range strings.Split(strings.Join(opts, ","), ",") {
		if k, v, _ := strings.Cut(o, "="); strings.EqualFold(strings.TrimSpace(k), "sec") {
			sec = strings.ToLower(strings.TrimSpace(v))
		}
	}
	return sec
}

// KerberosMount reports whether an SMB mount of src logs in with Kerberos
// (sec=krb5 on Linux): always for auth krb5, and for negotiate when the
// Secret has a Kerberos principal and no NTLM user. The kernel has no
// negotiate of its own that would fall back, so the Secret decides.
func KerberosMount(src source.Source, creds source.Credentials) bool {
	switch src.EffectiveAuth() {
	case source.AuthKrb5:
		return true
	case source.AuthNegotiate:
		return creds.Username == "" && creds.Principal != ""
	}
	return false
}
