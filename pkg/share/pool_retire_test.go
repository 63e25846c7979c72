package share

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// retiringClient is a session whose ticket ends at a set time.
type retiringClient struct {
	countingClient
	at time.Time
}

func (c retiringClient) RetireAt() time.Time { return c.at }

// A session past its RetireAt is never lent again: the next call gets a
// fresh session (a fresh ticket), and the janitor closes the idle one.
func TestPoolRetiresSessionsBeforeTheirTicketEnds(t *testing.T) {
	var dialed, closed atomic.Int32
	retireAt := time.Now().Add(-time.Second) // the first session is due already
	p := &Pool{MaxOpenPerKey: 2, IdleTimeout: time.Hour, Dial: func(context.Context, source.Source, Credentials) (Client, error) {
		dialed.Add(1)
		c := retiringClient{countingClient{closed: &closed}, retireAt}
		retireAt = time.Now().Add(time.Hour)
		return c, nil
	}}
	defer p.Close()
	src := source.Source{Protocol: source.SMB, Host: "h", Share: "s", Auth: source.AuthKrb5}
	creds := Credentials{Principal: "u@R", Keytab: "kt"}
	l, err := p.Get(context.Background(), src, creds)
	if err != nil {
		t.Fatal(err)
	}
	l.Release(nil)
	if p.GetIdle(src) != nil {
		t.Fatal("GetIdle lent a session past its RetireAt")
	}
	l, err = p.Get(context.Background(), src, creds)
	if err != nil {
		t.Fatal(err)
	}
	if l.Reused || dialed.Load() != 2 || closed.Load() != 1 {
		t.Fatalf("reused %v, dialed %d, closed %d: want a fresh session and the due one closed", l.Reused, dialed.Load(), closed.Load())
	}
	l.Release(nil)
	l, _ = p.Get(context.Background(), src, creds)
	if !l.Reused {
		t.Fatal("a session with a long ticket was not reused")
	}
	l.Release(nil)

	// The janitor's rule closes idle sessions that are due.
	retireAt = time.Now().Add(-time.Second)
	p.mu.Lock()
	for _, ks := range p.keys {
		for i := range ks.idle {
			ks.idle[i].c = retiringClient{countingClient{closed: &closed}, retireAt}
		}
	}
	p.mu.Unlock()
	now := time.Now()
	p.closeIdle(func(_ string, ic idleClient) bool { return retired(ic.c, now) })
	if closed.Load() != 2 {
		t.Fatalf("closed %d, want the due idle session closed too", closed.Load())
	}
}

// The class's auth and encryption are part of the share's key: a session an
// NTLM class opened is never lent to a krb5 one, nor a session of a class
// that does not require encryption to one that does.
func TestPoolKeepsAuthAndEncryptionApart(t *testing.T) {
	base := source.Source{Protocol: source.SMB, Host: "h", Share: "s"}
	krb := base
	krb.Auth = source.AuthKrb5
	enc := base
	enc.Encryption = source.EncryptionRequired
	creds := Credentials{Username: "u", Password: "p", Principal: "u@R"}
	keys := map[string]bool{poolKey(base, creds): true, poolKey(krb, creds): true, poolKey(enc, creds): true}
	if len(keys) != 3 {
		t.Fatal("auth or encryption does not change the pool key")
	}
	// A rotated keytab is another key for the same user: it supersedes.
	rotated := creds
	rotated.Keytab = "new"
	if poolKey(krb, creds) == poolKey(krb, rotated) || userKey(krb, creds) != userKey(krb, rotated) {
		t.Fatal("a rotated keytab must make a new key for the same user")
	}
}
