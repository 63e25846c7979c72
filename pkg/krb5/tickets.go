package krb5

import (
	"context"
	"fmt"

	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// Tickets logs in as creds' principal anew (an AS exchange: never a ticket
// kept from before, so a success proves the Secret holds the principal's
// key now) and gets a service ticket for each of spns ("cifs/<host>").
// defaultConf is the krb5.conf for a Secret without one. gokrb5 takes no
// context: the exchanges run aside, each bounded by gokrb5's own 5 s per
// KDC, and Tickets returns at ctx's end.
func Tickets(ctx context.Context, creds source.Credentials, defaultConf string, spns []string) (*Cache, error) {
	type result struct {
		c   *Cache
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := ticketsNow(creds, defaultConf, spns)
		done <- result{c, err}
	}()
	select {
	case r := <-done:
		return r.c, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("Kerberos login as %s: %w", creds.Principal, ctx.Err())
	}
}

func ticketsNow(creds source.Credentials, defaultConf string, spns []string) (*Cache, error) {
	cl, realm, err := NewClient(creds, defaultConf)
	if err != nil {
		return nil, err
	}
	defer cl.Destroy()
	who := cl.Credentials.CName().PrincipalNameString() + "@" + realm
	req, err := messages.NewASReqForTGT(realm, cl.Config, cl.Credentials.CName())
	if err != nil {
		return nil, Error("log in as "+who, err)
	}
	as, err := cl.ASExchange(realm, req, 0)
	if err != nil {
		return nil, Error("log in as "+who, err)
	}
	c := &Cache{Client: as.CName, Realm: as.CRealm}
	if c.Realm == "" {
		c.Client, c.Realm = cl.Credentials.CName(), realm
	}
	tgt, err := credOf(as.KDCRepFields)
	if err != nil {
		return nil, fmt.Errorf("Kerberos: the KDC's ticket for %s: %w", who, err)
	}
	c.Creds = append(c.Creds, tgt)
	for _, spn := range spns {
		_, tgs, err := cl.TGSREQGenerateAndExchange(types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, spn), realm, as.Ticket, as.DecryptedEncPart.Key, false)
		if err != nil {
			c.Wipe()
			return nil, Error("get a ticket for "+spn, err)
		}
		cr, err := credOf(tgs.KDCRepFields)
		if err != nil {
			c.Wipe()
			return nil, fmt.Errorf("Kerberos: the KDC's ticket for %s: %w", spn, err)
		}
		c.Creds = append(c.Creds, cr)
	}
	return c, nil
}

// credOf is the cache entry of a KDC's reply: the ticket as sent, and what
// the reply's encrypted part says of it.
func credOf(rep messages.KDCRepFields) (Cred, error) {
	t, err := rep.Ticket.Marshal()
	if err != nil {
		return Cred{}, err
	}
	p := rep.DecryptedEncPart
	return Cred{
		Server: p.SName, ServerRealm: p.SRealm, Key: p.Key,
		AuthTime: p.AuthTime, StartTime: p.StartTime, EndTime: p.EndTime, RenewTill: p.RenewTill,
		Flags: p.Flags, Ticket: t,
	}, nil
}
