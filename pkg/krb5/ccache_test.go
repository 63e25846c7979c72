package krb5

import (
	"bytes"
	"testing"
	"time"

	"github.com/jcmturner/gofork/encoding/asn1"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/types"
)

// The file Marshal writes is read back by gokrb5's reader of MIT caches
// field by field (the host's libkrb5 reading it is in the integration
// suite's TestKerberosNodeCache, with klist and smbclient).
func TestCacheMarshalReadsBack(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	c := &Cache{
		Client: types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, "alice"),
		Realm:  "BARS.TEST",
		Creds: []Cred{{
			Server:      types.NewPrincipalName(nametype.KRB_NT_SRV_INST, "krbtgt/BARS.TEST"),
			ServerRealm: "BARS.TEST",
			Key:         types.EncryptionKey{KeyType: 18, KeyValue: bytes.Repeat([]byte{7}, 32)},
			AuthTime:    now, EndTime: now.Add(10 * time.Hour), RenewTill: now.Add(7 * 24 * time.Hour),
			Flags:  asn1.BitString{Bytes: []byte{0x40, 0xe1, 0x00, 0x00}, BitLength: 32},
			Ticket: []byte("tgt-der"),
		}, {
			Server:      types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, "cifs/dc1.bars.test"),
			ServerRealm: "BARS.TEST",
			Key:         types.EncryptionKey{KeyType: 17, KeyValue: bytes.Repeat([]byte{9}, 16)},
			AuthTime:    now, StartTime: now.Add(time.Minute), EndTime: now.Add(9 * time.Hour),
			Flags:  asn1.BitString{Bytes: []byte{0x00, 0xa1}, BitLength: 16},
			Ticket: []byte("cifs-der"),
		}},
	}
	var got credentials.CCache
	if err := got.Unmarshal(c.Marshal()); err != nil {
		t.Fatal(err)
	}
	if got.Version != 4 || got.GetClientRealm() != "BARS.TEST" || got.GetClientPrincipalName().PrincipalNameString() != "alice" {
		t.Fatalf("header: version %d, default principal %s@%s", got.Version, got.GetClientPrincipalName().PrincipalNameString(), got.GetClientRealm())
	}
	if len(got.Credentials) != 2 {
		t.Fatalf("%d credentials, want 2", len(got.Credentials))
	}
	for i, want := range c.Creds {
		g := got.Credentials[i]
		start := want.StartTime
		if start.IsZero() {
			start = want.AuthTime
		}
		switch {
		case g.Client.PrincipalName.PrincipalNameString() != "alice" || g.Client.Realm != "BARS.TEST":
			t.Errorf("%d: client %s@%s", i, g.Client.PrincipalName.PrincipalNameString(), g.Client.Realm)
		case g.Server.PrincipalName.PrincipalNameString() != want.Server.PrincipalNameString() || g.Server.PrincipalName.NameType != want.Server.NameType || g.Server.Realm != want.ServerRealm:
			t.Errorf("%d: server %v@%s, want %v@%s", i, g.Server.PrincipalName, g.Server.Realm, want.Server, want.ServerRealm)
		case g.Key.KeyType != want.Key.KeyType || !bytes.Equal(g.Key.KeyValue, want.Key.KeyValue):
			t.Errorf("%d: key type %d", i, g.Key.KeyType)
		case !g.AuthTime.Equal(want.AuthTime) || !g.StartTime.Equal(start) || !g.EndTime.Equal(want.EndTime):
			t.Errorf("%d: times %v %v %v", i, g.AuthTime, g.StartTime, g.EndTime)
		case !bytes.Equal(g.Ticket, want.Ticket) || len(g.SecondTicket) != 0 || g.IsSKey:
			t.Errorf("%d: ticket %q", i, g.Ticket)
		}
		var flags [4]byte
		copy(flags[:], want.Flags.Bytes)
		if !bytes.Equal(g.TicketFlags.Bytes, flags[:]) {
			t.Errorf("%d: flags %x, want %x", i, g.TicketFlags.Bytes, flags)
		}
	}
	if !got.Credentials[0].RenewTill.Equal(c.Creds[0].RenewTill) || got.Credentials[1].RenewTill.Unix() != 0 {
		t.Errorf("renew till: %v, %v", got.Credentials[0].RenewTill, got.Credentials[1].RenewTill)
	}
	if !c.Start().Equal(now) || !c.End().Equal(now.Add(9*time.Hour)) {
		t.Errorf("start %v end %v", c.Start(), c.End())
	}
	c.Wipe()
	for _, cr := range c.Creds {
		if !bytes.Equal(cr.Key.KeyValue, make([]byte, len(cr.Key.KeyValue))) {
			t.Error("Wipe left a session key")
		}
	}
}
