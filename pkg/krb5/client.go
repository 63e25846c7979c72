// Package krb5 logs in to a Kerberos realm with the credentials of a
// class's Secret (a keytab, or a principal's password), for the
// controller's SMB sessions and for the node's ticket caches, and writes
// what it got as an MIT credential cache that the host's cifs.upcall
// reads. It is the one place that builds a gokrb5 client from a Secret and
// says what a KDC's refusal means.
package krb5

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/krberror"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// HasIdentity reports whether creds carry a Kerberos identity: a principal
// and its key (a keytab or a password).
func HasIdentity(creds source.Credentials) bool {
	return creds.Principal != "" && (creds.Keytab != "" || creds.Password != "")
}

// IdentityKey is a hash of everything a login with creds depends on: two
// Secrets with the same key log in the same way.
func IdentityKey(creds source.Credentials) string {
	return share.HashOf(creds.Principal, creds.Keytab, creds.Password, creds.Krb5Conf)
}

// NewClient builds the gokrb5 client of creds, with the Secret's own
// krb5.conf or, without one, the file at defaultConf. It does not talk to
// the KDC. realm is the principal's realm (krb5.conf's default_realm when
// the principal names none).
func NewClient(creds source.Credentials, defaultConf string) (cl *client.Client, realm string, err error) {
	text, fromSecret := creds.Krb5Conf, true
	if text == "" {
		b, err := os.ReadFile(defaultConf)
		if err != nil {
			return nil, "", fmt.Errorf("no krb5.conf: put one in the Secret's krb5.conf key, or mount one at %s: %w: %w", defaultConf, share.ErrPrecondition, err)
		}
		text, fromSecret = string(b), false
	}
	cfg, err := config.NewFromString(text)
	if err != nil && fromSecret {
		// The parser's message quotes the line it stopped at, and a
		// Secret's contents never reach an error.
		return nil, "", fmt.Errorf("the Secret's krb5.conf does not parse (the parser's message is left out, as it quotes the Secret; try the file with kinit): %w", share.ErrPrecondition)
	}
	if err != nil {
		return nil, "", fmt.Errorf("%s does not parse (%v): %w", defaultConf, err, share.ErrPrecondition)
	}
	user, realm, ok := strings.Cut(creds.Principal, "@")
	if !ok || realm == "" {
		realm = cfg.LibDefaults.DefaultRealm
	}
	if user == "" || realm == "" {
		return nil, "", fmt.Errorf("the Secret's principal must be NAME@REALM (or NAME with default_realm in krb5.conf): %w", fs.ErrPermission)
	}
	// Active Directory KDCs do not do FAST; asking for it only adds a
	// failed round trip.
	settings := client.DisablePAFXFAST(true)
	if creds.Keytab == "" {
		return client.NewWithPassword(user, realm, creds.Password, cfg, settings), realm, nil
	}
	kt := keytab.New()
	b, err := KeytabBytes(creds.Keytab)
	if err == nil {
		err = kt.Unmarshal(b)
	}
	clear(b)
	if err != nil {
		// Not the error itself: it might quote bytes of the keytab.
		return nil, "", fmt.Errorf("the Secret's krb5.keytab is not a base64-encoded keytab file (make one with ktutil or samba-tool domain exportkeytab, then base64 -w0): %w", fs.ErrPermission)
	}
	return client.NewWithKeytab(user, realm, kt, cfg, settings), realm, nil
}

// KeytabBytes decodes the Secret's krb5.keytab. CSI carries secrets as
// protobuf strings, which must be UTF-8, and the sidecars pass a Secret's
// bytes as they are: a keytab file itself fails the gRPC marshalling, so
// the Secret holds it in base64. A raw keytab (it starts with 0x05 0x02,
// the format version), as a --csi-v0-secret-dir file that never crosses
// gRPC may hold, is taken as it is.
func KeytabBytes(s string) ([]byte, error) {
	if strings.HasPrefix(s, "\x05\x02") {
		return []byte(s), nil
	}
	return base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
}

// Error classifies a gokrb5 failure of the step what: the KDC refusing the
// principal or its key is the Secret's to fix (fs.ErrPermission), a
// missing service principal the class's or the realm's
// (share.ErrPrecondition), an unreachable KDC transient
// (share.ErrUnavailable).
func Error(what string, err error) error {
	msg := err.Error()
	has := func(codes ...string) bool {
		for _, c := range codes {
			if strings.Contains(msg, c) {
				return true
			}
		}
		return false
	}
	var ke krberror.Krberror
	isKrb := errors.As(err, &ke)
	switch {
	case has("KDC_ERR_S_PRINCIPAL_UNKNOWN"):
		return fmt.Errorf("Kerberos: %s: the realm has no such service principal; the source's host must be the server's name as the realm knows it (an IP address or an alias has no cifs/ principal): %w (%v)", what, share.ErrPrecondition, err)
	case has("KDC_ERR_C_PRINCIPAL_UNKNOWN", "KDC_ERR_PREAUTH_FAILED", "KDC_ERR_KEY_EXPIRED", "KDC_ERR_CLIENT_REVOKED", "KDC_ERR_ETYPE_NOSUPP", "KRB_AP_ERR_BAD_INTEGRITY") || isKrb && ke.RootCause == krberror.DecryptingError:
		return fmt.Errorf("Kerberos: %s: the KDC refused the principal or its key (check principal, and krb5.keytab or password, in the Secret): %w (%v)", what, fs.ErrPermission, err)
	case isKrb && ke.RootCause == krberror.ConfigError:
		return fmt.Errorf("Kerberos: %s: check the krb5.conf (realm, kdc): %w (%v)", what, share.ErrPrecondition, err)
	}
	return fmt.Errorf("Kerberos: %s: %w: %w", what, share.ErrUnavailable, err)
}
