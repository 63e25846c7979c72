package volume

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// StorageClass parameter keys.
const (
	ParamSource           = "source"
	ParamSubDir           = "subDir"
	ParamOnDelete         = "onDelete"
	ParamMountPermissions = "mountPermissions"
	// ParamMountOptions are mount options for every node mount of the class's
	// volumes, comma-separated, added to the StorageClass mountOptions; they
	// reach the node through the volume context, so static PVs can set them too.
	ParamMountOptions = "mountOptions"
	// ParamAuth (ntlm, krb5, negotiate) and ParamEncryption (required,
	// preferred, off) are SMB choices; they end up in the source, and so
	// in the volume ID (see source.Source.Auth).
	ParamAuth       = "auth"
	ParamEncryption = "encryption"

	// ReservedPrefix marks keys the Kubernetes sidecars add or reserve
	// (--extra-create-metadata, secret references): never the driver's own.
	ReservedPrefix   = "csi.storage.k8s.io/"
	metaPVCName      = ReservedPrefix + "pvc/name"
	metaPVCNamespace = ReservedPrefix + "pvc/namespace"
	metaPVName       = ReservedPrefix + "pv/name"
)

// DefaultMountPermissions is the mode of a new volume directory.
const DefaultMountPermissions = 0o777

// Params are the validated StorageClass parameters of one CreateVolume call.
type Params struct {
	Source           source.Source
	SubDir           string
	OnDelete         OnDelete
	MountPermissions uint32
	MountOptions     []string
}

// ParseParams validates the parameters and resolves the subDir template.
// name is the CreateVolume name, used when subDir is not set.
func ParseParams(name string, p map[string]string) (Params, error) {
	out, err := ParseShareParams(p)
	if err != nil {
		return Params{}, err
	}
	sub := name
	if tmpl, ok := p[ParamSubDir]; ok {
		if sub, err = ExpandSubDir(tmpl, p); err != nil {
			return Params{}, err
		}
	}
	if err := ValidateSubDir(sub); err != nil {
		return Params{}, fmt.Errorf("parameter %s: %w", ParamSubDir, err)
	}
	if out.Source.Protocol == source.SMB {
		// The node refuses to mount such a name (nodeVolume), so a volume
		// made with one could be created and deleted but never used.
		if err := source.CheckSMBPath(sub); err != nil {
			return Params{}, fmt.Errorf("parameter %s: %w", ParamSubDir, err)
		}
	}
	out.SubDir = sub
	return out, nil
}

// UnknownParameterError names a parameter key this driver does not know.
// APIs with a code of their own for that case (CSI v0.1's
// UNSUPPORTED_PARAMETER_KEY) tell it from a bad value by its type.
type UnknownParameterError struct{ Key string }

func (e *UnknownParameterError) Error() string {
	return fmt.Sprintf("unknown parameter %q: the known ones are source, subDir, onDelete, mountPermissions, mountOptions, auth, encryption", e.Key)
}

// ParseShareParams validates everything but the per-volume subDir, for calls
// about the share as a whole (GetCapacity).
func ParseShareParams(p map[string]string) (Params, error) {
	var unknown []string
	for k := range p {
		switch k {
		case ParamSource, ParamSubDir, ParamOnDelete, ParamMountPermissions, ParamMountOptions, ParamAuth, ParamEncryption:
		default:
			if !strings.HasPrefix(k, ReservedPrefix) {
				unknown = append(unknown, k)
			}
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return Params{}, &UnknownParameterError{Key: unknown[0]}
	}
	srcStr, ok := p[ParamSource]
	if !ok {
		return Params{}, fmt.Errorf("parameter %q is required, e.g. nfs://server/export or smb://server/share", ParamSource)
	}
	src, err := source.Parse(srcStr)
	if err == nil {
		// A new volume must mount on Linux and Windows nodes alike.
		if err = src.CheckMountCifs(); err == nil {
			err = src.CheckMapping()
		}
	}
	if err != nil {
		return Params{}, fmt.Errorf("parameter %s: %w", ParamSource, err)
	}
	if src, err = smbChoices(src, p); err != nil {
		return Params{}, err
	}
	out := Params{Source: src, MountPermissions: DefaultMountPermissions}
	if out.OnDelete, err = parseOnDelete(p[ParamOnDelete]); err != nil {
		return Params{}, fmt.Errorf("parameter %s: %w", ParamOnDelete, err)
	}
	if s, ok := p[ParamMountPermissions]; ok {
		m, err := strconv.ParseUint(s, 8, 32)
		if err != nil || m > 0o7777 {
			return Params{}, fmt.Errorf("parameter %s %q is not an octal mode such as 0777 or 2775", ParamMountPermissions, s)
		}
		out.MountPermissions = uint32(m)
	}
	if s, ok := p[ParamMountOptions]; ok {
		if out.MountOptions, err = ParseMountOptions(s); err != nil {
			return Params{}, fmt.Errorf("parameter %s: %w", ParamMountOptions, err)
		}
	}
	// Refused here, at CreateVolume, rather than at every node stage.
	if _, err := NFSVersionOptions(src, out.MountOptions); err != nil {
		return Params{}, fmt.Errorf("parameter %s: %w", ParamMountOptions, err)
	}
	return out, nil
}

// smbChoices puts the auth and encryption parameters into src. The source
// may carry them already (?auth=krb5): the same value twice is fine, two
// different ones are refused rather than one silently winning.
func smbChoices(src source.Source, p map[string]string) (source.Source, error) {
	a, hasAuth := p[ParamAuth]
	e, hasEnc := p[ParamEncryption]
	if src.Protocol != source.SMB {
		if hasAuth || hasEnc {
			return src, fmt.Errorf("parameters %s and %s are for SMB sources; NFS uses AUTH_SYS", ParamAuth, ParamEncryption)
		}
		return src, nil
	}
	if hasAuth {
		auth, err := source.ParseAuth(a)
		if err != nil || auth == "" {
			return src, fmt.Errorf("parameter %s %q is not one of ntlm, krb5, negotiate", ParamAuth, a)
		}
		if src.Auth != "" && src.Auth != auth {
			return src, fmt.Errorf("parameter %s is %s but the source says auth=%s: set it in one place", ParamAuth, auth, src.Auth)
		}
		src.Auth = auth
	}
	if hasEnc {
		enc, err := source.ParseEncryption(e)
		if err != nil || enc == "" {
			return src, fmt.Errorf("parameter %s %q is not one of required, preferred, off", ParamEncryption, e)
		}
		if src.Encryption != "" && src.Encryption != enc {
			return src, fmt.Errorf("parameter %s is %s but the source says encryption=%s: set it in one place", ParamEncryption, enc, src.Encryption)
		}
		src.Encryption = enc
	}
	return src, nil
}

// ParseMountOptions splits a comma-separated option list, refusing empty
// entries, characters that have no place in a mount option, and the options
// CheckMountOptions refuses. Messages never quote a value that may be a
// password.
func ParseMountOptions(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	opts := strings.Split(s, ",")
	if err := CheckMountOptions(opts); err != nil {
		return nil, err
	}
	var out []string
	for i, o := range opts {
		o = strings.TrimSpace(o)
		if err := checkOptionWord(o, i, len(opts)); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// checkOptionWord refuses option i of n, one word of a comma-separated
// list, when it is empty or holds a space or control character. Its error
// shows the option as RedactMountOptions does.
func checkOptionWord(o string, i, n int) error {
	if o == "" {
		return fmt.Errorf("option %d of %d is empty (two commas in a row, or one at an end)", i+1, n)
	}
	if strings.ContainsFunc(o, func(r rune) bool { return r < 0x20 || r == ' ' || r == 0x7f }) {
		return fmt.Errorf("option %q contains a space or control character", redactOption(o))
	}
	return nil
}

// CheckMountFlags holds every mount option the node passes on (the
// mountOptions attribute's, the capability's mount flags, a record's) to
// the rules ParseMountOptions has for the attribute: no empty option, none
// with a space or control character. mount(8) gets them joined with
// commas, mount.cifs copies an empty one through, and the kernel's CIFS
// parser reads ",," as a comma inside the option before it (a password's
// escaped comma): an empty flag, or one that ends in a comma, made the
// option the node adds next (seal, cruid=) part of the value of the last
// one (symlinkroot=/x,,seal is the path "/x,seal"), and it was gone.
func CheckMountFlags(opts []string) error {
	words := splitOptions(opts)
	for i, o := range words {
		if err := checkOptionWord(o, i, len(words)); err != nil {
			return err
		}
	}
	return nil
}

var templateVars = map[string]string{
	"${pvc.metadata.name}":      metaPVCName,
	"${pvc.metadata.namespace}": metaPVCNamespace,
	"${pv.metadata.name}":       metaPVName,
}

// ExpandSubDir replaces the ${...} variables csi-provisioner supplies through
// --extra-create-metadata. A variable without its value is an error: silently
// using an empty string would put different claims in one directory.
func ExpandSubDir(tmpl string, p map[string]string) (string, error) {
	out := tmpl
	for v, key := range templateVars {
		if !strings.Contains(out, v) {
			continue
		}
		val, ok := p[key]
		if !ok || val == "" {
			return "", fmt.Errorf("subDir %q uses %s but the request has no %s: run csi-provisioner with --extra-create-metadata", tmpl, v, key)
		}
		if strings.ContainsAny(val, "/\\") || val == "." || val == ".." {
			return "", fmt.Errorf("subDir %q: value %q of %s is not a plain name", tmpl, val, v)
		}
		out = strings.ReplaceAll(out, v, val)
	}
	if strings.Contains(out, "${") {
		return "", fmt.Errorf("subDir %q has an unknown variable: the known ones are ${pvc.metadata.name}, ${pvc.metadata.namespace}, ${pv.metadata.name}", tmpl)
	}
	return out, nil
}
