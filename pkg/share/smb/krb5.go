package smb

import (
	"context"
	"sync"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"

	"github.com/fileshare-csi/fileshare-csi/pkg/aside"
	"github.com/fileshare-csi/fileshare-csi/pkg/krb5"
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

// loginFor returns the kept login for creds, or a new one that keep
// registers once it got a ticket.
func loginFor(creds share.Credentials) (*krbLogin, error) {
	krbLogins.Lock()
	l := krbLogins.byKey[krb5.IdentityKey(creds)]
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
	key := krb5.IdentityKey(creds)
	krbLogins.Lock()
	defer krbLogins.Unlock()
	if old := krbLogins.byPrincipal[creds.Principal]; old != key {
		delete(krbLogins.byKey, old)
	}
	krbLogins.byKey[key] = l
	krbLogins.byPrincipal[creds.Principal] = key
}

func newKrbLogin(creds share.Credentials) (*krbLogin, error) {
	cl, realm, err := krb5.NewClient(creds, Krb5ConfigPath)
	if err != nil {
		return nil, err
	}
	return &krbLogin{cl: cl, realm: realm, svcEnd: map[string]time.Time{}}, nil
}

// ticketMargin is how long before its end a ticket is replaced: a sixth of
// its lifetime, as gokrb5 renews its TGT.
func ticketMargin(start, end time.Time) time.Duration { return end.Sub(start) / 6 }

// serviceTicket makes sure gokrb5's cache holds a ticket for spn that lasts
// well beyond now, and returns when it ends. gokrb5's calls take no context:
// they run aside, each KDC exchange bounded by gokrb5's own 5 s per KDC, and
// the caller returns at its deadline.
func (l *krbLogin) serviceTicket(ctx context.Context, spn string) (time.Time, error) {
	return aside.Run(ctx, "Kerberos ticket for "+spn, func() (time.Time, error) { return l.serviceTicketNow(spn) })
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
		rep, err := krb5.LogIn(l.cl, l.realm)
		if err != nil {
			return time.Time{}, err
		}
		l.tgt, l.tgtKey = rep.Ticket, rep.DecryptedEncPart.Key
		l.tgtStart, l.tgtEnd = now, rep.DecryptedEncPart.EndTime
	}
	// The exchange puts the ticket in gokrb5's cache, where Krb5Initiator
	// takes it from.
	rep, err := krb5.ServiceTicket(l.cl, l.realm, spn, l.tgt, l.tgtKey)
	if err != nil {
		return time.Time{}, err
	}
	l.svcEnd[spn] = rep.DecryptedEncPart.EndTime
	return rep.DecryptedEncPart.EndTime, nil
}
