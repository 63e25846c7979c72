package driver

import (
	"fmt"
	"path"
	"strings"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// ContextEphemeral is what the kubelet sets in NodePublishVolume's volume
// context (podInfoOnMount) for a CSI inline volume of a pod.
const ContextEphemeral = "csi.storage.k8s.io/ephemeral"

// InlineSources is the node's allow-list for CSI inline volumes. Inline
// volumes let anyone who may create a pod mount a share the node can reach,
// so they are refused unless the node plugin names the shares (or
// directories of them) pods may mount. An empty list turns them off.
type InlineSources []source.Source

// ParseInlineSources reads --inline-sources: comma-separated sources in the
// StorageClass `source` forms (nfs://HOST/EXPORT[/DIR], smb://HOST/SHARE[/DIR]).
func ParseInlineSources(s string) (InlineSources, error) {
	var out InlineSources
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		src, err := source.Parse(f)
		if err != nil {
			return nil, fmt.Errorf("--inline-sources: %w", err)
		}
		out = append(out, src)
	}
	return out, nil
}

// Allows says whether an inline volume of src (with subDir below it) lies
// within one of the allowed sources: same protocol, server and port, and
// the same share or export path or a directory below it, compared by whole
// path components (smb://h/share/a allows share/a/b, not share/ab). SMB
// names compare without case, as the server does; NFS paths with case.
func (l InlineSources) Allows(src source.Source, subDir string) bool {
	_, _, ok := l.Root(src, subDir)
	return ok
}

// Root splits an allowed inline volume into the allowed source it lies in,
// which the server resolves (an administrator wrote it), and the path below
// it, which the pod's volumeAttributes wrote and the node resolves itself,
// refusing links (see mounter/beneath_linux.go). A text check alone is not
// enough: a pod may link esc -> /export inside the allowed directory.
//
// The allowed source's settings (?vers=, ?auth=, ?encryption=) are the
// administrator's and hold for every volume below it: the root carries them,
// and a pod's source may not weaken them (encryption off below an entry
// that requires it) or name another auth or version than one the entry
// sets. A pod may ask for more encryption than the entry does, and pick the
// version and auth where the entry sets none (Kerberos is then refused for
// inline volumes on its own, with its own message).
func (l InlineSources) Root(src source.Source, subDir string) (source.Source, string, bool) {
	for _, a := range l {
		if a.Protocol != src.Protocol || !strings.EqualFold(a.Host, src.Host) || a.Port != src.Port {
			continue
		}
		root, ok := withSettingsOf(a, src)
		if !ok {
			continue
		}
		if src.Protocol == source.NFS {
			if rel, ok := below(path.Join(src.Export, subDir), a.Export, false); ok {
				root.Export = path.Clean("/" + a.Export)
				return root, rel, true
			}
			continue
		}
		if !strings.EqualFold(a.Share, src.Share) {
			continue
		}
		if rel, ok := below(path.Join("/", src.Base, subDir), path.Join("/", a.Base), true); ok {
			root.Base = strings.Trim(path.Clean("/"+a.Base), "/")
			return root, rel, true
		}
	}
	return source.Source{}, "", false
}

// encryptionRank orders encryption settings from weakest to strongest; the
// empty setting is the default, preferred.
var encryptionRank = map[source.Encryption]int{source.EncryptionOff: 0, "": 1, source.EncryptionPreferred: 1, source.EncryptionRequired: 2}

// withSettingsOf is src with the allowed source a's settings, or false when
// src asks for a version or auth a does not have, or less encryption.
func withSettingsOf(a, src source.Source) (source.Source, bool) {
	if a.Version != "" && src.Version != "" && src.Version != a.Version ||
		a.Auth != "" && src.Auth != "" && src.EffectiveAuth() != a.EffectiveAuth() ||
		src.Encryption != "" && encryptionRank[src.Encryption] < encryptionRank[a.Encryption] {
		return source.Source{}, false
	}
	root := src
	if a.Version != "" {
		root.Version = a.Version
	}
	if a.Auth != "" {
		root.Auth = a.Auth
	}
	if src.Encryption == "" || encryptionRank[a.Encryption] > encryptionRank[src.Encryption] {
		root.Encryption = a.Encryption
	}
	return root, true
}

// below reports whether the clean absolute path p is dir or below it, by
// whole components, and the path from dir to p ("" for dir itself).
func below(p, dir string, foldCase bool) (string, bool) {
	pc := strings.Split(strings.Trim(path.Clean("/"+p), "/"), "/")
	dc := strings.Split(strings.Trim(path.Clean("/"+dir), "/"), "/")
	if dc[0] == "" {
		dc = nil // dir is "/"
	}
	if pc[0] == "" {
		pc = nil
	}
	if len(pc) < len(dc) {
		return "", false
	}
	for i, c := range dc {
		if c != pc[i] && !(foldCase && strings.EqualFold(c, pc[i])) {
			return "", false
		}
	}
	return strings.Join(pc[len(dc):], "/"), true
}

func (l InlineSources) String() string {
	var s []string
	for _, a := range l {
		s = append(s, a.String())
	}
	return strings.Join(s, ",")
}
