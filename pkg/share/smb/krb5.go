package smb

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/krberror"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// Krb5ConfigPath is the krb5.conf the controller reads when a Secret has no
// krb5.conf key of its own (the --krb5-config flag: a ConfigMap mounted
// into the controller, or the image's /etc/krb5.conf). It is read when an
// identity first logs in (a rotated Secret logs in anew).
var Krb5ConfigPath = "/etc/krb5.conf"

// krbLogin is one Kerberos identity's client: it logs in once (AS
// exchange) and asks for service tickets while the TGT lasts, so that the
// pool's sessions do not each send an AS-REQ. The tickets' end times are
// kept because gokrb5 does not show them, and a pooled SMB session must
// be retired before the server expires it with its ticket.
type krbLogin struct {
	mu     sync.Mutex
	cl     *client.Client
	realm  string
	tgt    messages.Ticket
	tgtKey types.EncryptionKey
	// tgtStart and tgtEnd bound the TGT; zero before the first login.
	tgtStart, tgtEnd time.Time
	// svcEnd is the end time of the service ticket gokrb5 holds in its
	// cache for each SPN (the one Krb5Initiator will use).
	svcEnd map[string]time.Time
}

// krbLogins holds one krbLogin per set of Kerberos credentials (keyed by a
// hash) that got a ticket, and per principal only the latest: a rotated
// keytab replaces the login of the old one. Credentials the KDC refused are
// never kept, so wrong Secrets do not pile up.
var krbLogins = struct {
	sync.Mutex
	byKey       map[string]*krbLogin
	byPrincipal map[string]string // principal -> key
}{byKey: map[string]*krbLogin{}, byPrincipal: map[string]string{}}

// hasKrb5 reports whether creds carry a Kerberos identity.
func hasKrb5(creds share.Credentials) bool {
	return creds.Principal != "" && (creds.Keytab != "" || creds.Password != "")
}

func loginKey(creds share.Credentials) string {
	return share.HashOf(creds.Principal, creds.Keytab, creds.Password, creds.Krb5Conf)
}

// loginFor returns the kept login for creds, or a new one that keep
// registers once it got a ticket.
func loginFor(creds share.Credentials) (*krbLogin, error) {
	krbLogins.Lock()
	l := krbLogins.byKey[loginKey(creds)]
	krbLogins.Unlock()
	if l != nil {
		return l, nil
	}
	return newKrbLogin(creds)
}

// keep registers l, which got a ticket with creds, in place of the
// principal's previous login. The previous one is dropped, not destroyed:
// a dial may still be using it, and it runs nothing (gokrb5 renews only
// a login of its own, which the ticket fetched ahead spares it).
func keep(creds share.Credentials, l *krbLogin) {
	key := loginKey(creds)
	krbLogins.Lock()
	defer krbLogins.Unlock()
	if old := krbLogins.byPrincipal[creds.Principal]; old != key {
		delete(krbLogins.byKey, old)
	}
	krbLogins.byKey[key] = l
	krbLogins.byPrincipal[creds.Principal] = key
}

func newKrbLogin(creds share.Credentials) (*krbLogin, error) {
	text := creds.Krb5Conf
	if text == "" {
		b, err := os.ReadFile(Krb5ConfigPath)
		if err != nil {
			return nil, fmt.Errorf("no krb5.conf: put one in the Secret's krb5.conf key, or mount one at %s (--krb5-config): %w: %w", Krb5ConfigPath, share.ErrPrecondition, err)
		}
		text = string(b)
	}
	cfg, err := config.NewFromString(text)
	if err != nil {
		return nil, fmt.Errorf("the krb5.conf does not parse (%v): %w", err, share.ErrPrecondition)
	}
	user, realm, ok := strings.Cut(creds.Principal, "@")
	if !ok || realm == "" {
		realm = cfg.LibDefaults.DefaultRealm
	}
	if user == "" || realm == "" {
		return nil, fmt.Errorf("the Secret's principal must be NAME@REALM (or NAME with default_realm in krb5.conf): %w", fs.ErrPermission)
	}
	// Active Directory KDCs do not do FAST; asking for it only adds a
	// failed round trip.
	settings := client.DisablePAFXFAST(true)
	var cl *client.Client
	if creds.Keytab != "" {
		kt := keytab.New()
		b, err := keytabBytes(creds.Keytab)
		if err == nil {
			err = kt.Unmarshal(b)
		}
		clear(b)
		if err != nil {
			// Not the error itself: it might quote bytes of the keytab.
			return nil, fmt.Errorf("the Secret's krb5.keytab is not a base64-encoded keytab file (make one with ktutil or samba-tool domain exportkeytab, then base64 -w0): %w", fs.ErrPermission)
		}
		cl = client.NewWithKeytab(user, realm, kt, cfg, settings)
	} else {
		cl = client.NewWithPassword(user, realm, creds.Password, cfg, settings)
	}
	return &krbLogin{cl: cl, realm: realm, svcEnd: map[string]time.Time{}}, nil
}

// keytabBytes decodes the Secret's krb5.keytab. CSI carries secrets as
// protobuf strings, which must be UTF-8, and the sidecars pass a Secret's
// bytes as they are: a keytab file itself fails the gRPC marshalling, so
// the Secret holds it in base64. A raw keytab (it starts with 0x05 0x02,
// the format version), as a --csi-v0-secret-dir file that never crosses
// gRPC may hold, is taken as it is.
func keytabBytes(s string) ([]byte, error) {
	if strings.HasPrefix(s, "\x05\x02") {
		return []byte(s), nil
	}
	return base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
}

// ticketMargin is how long before its end a ticket is replaced: a sixth of
// its lifetime, as gokrb5 renews its TGT.
func ticketMargin(start, end time.Time) time.Duration { return end.Sub(start) / 6 }

// serviceTicket makes sure gokrb5's cache holds a ticket for spn that lasts
// well beyond now, and returns when it ends. gokrb5's calls take no context:
// they run aside, each KDC exchange bounded by gokrb5's own 5 s per KDC, and
// the caller returns at its deadline.
func (l *krbLogin) serviceTicket(ctx context.Context, spn string) (time.Time, error) {
	type result struct {
		end time.Time
		err error
	}
	done := make(chan result, 1)
	go func() {
		end, err := l.serviceTicketNow(spn)
		done <- result{end, err}
	}()
	select {
	case r := <-done:
		return r.end, r.err
	case <-ctx.Done():
		return time.Time{}, fmt.Errorf("Kerberos ticket for %s: %w", spn, ctx.Err())
	}
}

func (l *krbLogin) serviceTicketNow(spn string) (time.Time, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if end, ok := l.svcEnd[spn]; ok && end.Sub(now) > ticketMargin(l.tgtStart, end) {
		if _, _, ok := l.cl.GetCachedTicket(spn); ok {
			return end, nil
		}
	}
	if l.tgtEnd.IsZero() || l.tgtEnd.Sub(now) <= ticketMargin(l.tgtStart, l.tgtEnd) {
		req, err := messages.NewASReqForTGT(l.realm, l.cl.Config, l.cl.Credentials.CName())
		if err != nil {
			return time.Time{}, krbError("log in as "+l.cl.Credentials.CName().PrincipalNameString(), err)
		}
		rep, err := l.cl.ASExchange(l.realm, req, 0)
		if err != nil {
			return time.Time{}, krbError("log in as "+l.cl.Credentials.CName().PrincipalNameString()+"@"+l.realm, err)
		}
		l.tgt, l.tgtKey = rep.Ticket, rep.DecryptedEncPart.Key
		l.tgtStart, l.tgtEnd = now, rep.DecryptedEncPart.EndTime
	}
	// The exchange puts the ticket in gokrb5's cache, where Krb5Initiator
	// takes it from.
	_, rep, err := l.cl.TGSREQGenerateAndExchange(types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, spn), l.realm, l.tgt, l.tgtKey, false)
	if err != nil {
		return time.Time{}, krbError("get a ticket for "+spn, err)
	}
	l.svcEnd[spn] = rep.DecryptedEncPart.EndTime
	return rep.DecryptedEncPart.EndTime, nil
}

// krbError classifies a gokrb5 failure: the KDC refusing the principal or
// its key is the Secret's to fix, a missing service principal the class's
// (or the realm's), an unreachable KDC transient.
func krbError(what string, err error) error {
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
