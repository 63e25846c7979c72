package krb5

import (
	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
)

// LogIn is an AS exchange for cl's principal in realm: a new ticket-granting
// ticket, never one kept from before.
func LogIn(cl *client.Client, realm string) (messages.ASRep, error) {
	who := cl.Credentials.CName().PrincipalNameString() + "@" + realm
	req, err := messages.NewASReqForTGT(realm, cl.Config, cl.Credentials.CName())
	if err != nil {
		return messages.ASRep{}, Error("log in as "+who, err)
	}
	rep, err := cl.ASExchange(realm, req, 0)
	if err != nil {
		return messages.ASRep{}, Error("log in as "+who, err)
	}
	return rep, nil
}

// ServiceTicket is a TGS exchange for spn ("cifs/<host>") with the
// ticket-granting ticket tgt and its session key. gokrb5 keeps the ticket
// in cl's cache too, where its Krb5Initiator takes it from.
func ServiceTicket(cl *client.Client, realm, spn string, tgt messages.Ticket, key types.EncryptionKey) (messages.TGSRep, error) {
	_, rep, err := cl.TGSREQGenerateAndExchange(types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, spn), realm, tgt, key, false)
	if err != nil {
		return messages.TGSRep{}, Error("get a ticket for "+spn, err)
	}
	return rep, nil
}
