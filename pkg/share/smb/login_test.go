package smb

import (
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// HasLoginFor tells a Secret made for another class's auth from one the
// share could log in with, whatever the server then says.
func TestHasLoginFor(t *testing.T) {
	smbSrc := func(a source.Auth) source.Source {
		return source.Source{Protocol: source.SMB, Host: "fs.example.test", Share: "s", Auth: a}
	}
	userPass := share.Credentials{Username: "u", Password: "p"}
	krb := share.Credentials{Principal: "u@R", Keytab: "kt"}
	for _, c := range []struct {
		auth  source.Auth
		creds share.Credentials
		want  bool
	}{
		{"", userPass, true},
		{source.AuthNTLM, userPass, true},
		{source.AuthNTLM, krb, false},
		{source.AuthKrb5, krb, true},
		{source.AuthKrb5, share.Credentials{Principal: "u@R"}, false},
		{source.AuthKrb5, userPass, false},
		{source.AuthNegotiate, krb, true},
		{source.AuthNegotiate, userPass, true},
		{source.AuthNegotiate, share.Credentials{}, false},
	} {
		if got := HasLoginFor(smbSrc(c.auth), c.creds); got != c.want {
			t.Errorf("auth %q with principal %q, username %q: %v, want %v", c.auth, c.creds.Principal, c.creds.Username, got, c.want)
		}
	}
	nfs, err := source.Parse("nfs://nas.example.com/export")
	if err != nil {
		t.Fatal(err)
	}
	if !HasLoginFor(nfs, share.Credentials{}) {
		t.Error("NFS needs no credentials")
	}
}
