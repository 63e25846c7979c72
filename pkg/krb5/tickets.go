package krb5

import (
	"context"
	"fmt"

	"github.com/jcmturner/gokrb5/v8/messages"

	"github.com/fileshare-csi/fileshare-csi/pkg/aside"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// Tickets logs in as creds' principal anew (an AS exchange: never a ticket
// kept from before, so a success proves the Secret holds the principal's
// key now) and gets a service ticket for each of spns ("cifs/<host>").
// defaultConf is the krb5.conf for a Secret without one. The exchanges run
// aside: Tickets returns at ctx's end.
func Tickets(ctx context.Context, creds source.Credentials, defaultConf string, spns []string) (*Cache, error) {
	return aside.Run(ctx, "Kerberos login as "+creds.Principal, func() (*Cache, error) { return ticketsNow(creds, defaultConf, spns) })
}

func ticketsNow(creds source.Credentials, defaultConf string, spns []string) (*Cache, error) {
	cl, realm, err := NewClient(creds, defaultConf)
	if err != nil {
		return nil, err
	}
	defer cl.Destroy()
	as, err := LogIn(cl, realm)
	if err != nil {
		return nil, err
	}
	c := &Cache{Client: as.CName, Realm: as.CRealm}
	if c.Realm == "" {
		c.Client, c.Realm = cl.Credentials.CName(), realm
	}
	tgt, err := credOf(as.KDCRepFields)
	if err != nil {
		return nil, fmt.Errorf("Kerberos: the KDC's ticket for %s@%s: %w", cl.Credentials.CName().PrincipalNameString(), realm, err)
	}
	c.Creds = append(c.Creds, tgt)
	for _, spn := range spns {
		tgs, err := ServiceTicket(cl, realm, spn, as.Ticket, as.DecryptedEncPart.Key)
		if err != nil {
			c.Wipe()
			return nil, err
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
