package volume

import (
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

func TestAuthAndEncryptionParameters(t *testing.T) {
	ok := []struct {
		params map[string]string
		auth   source.Auth
		enc    source.Encryption
		id     string // the source as the volume ID carries it
	}{
		{map[string]string{"source": "smb://h/s"}, "", "", "smb://h/s"},
		{map[string]string{"source": "smb://h/s", "auth": "krb5"}, source.AuthKrb5, "", "smb://h/s?auth=krb5"},
		{map[string]string{"source": "smb://h/s", "auth": "ntlm", "encryption": "off"}, source.AuthNTLM, source.EncryptionOff, "smb://h/s?auth=ntlm&encryption=off"},
		{map[string]string{"source": "smb://h/s/b", "auth": "negotiate", "encryption": "required"}, source.AuthNegotiate, source.EncryptionRequired, "smb://h/s/b?auth=negotiate&encryption=required"},
		{map[string]string{"source": "smb://h/s?auth=krb5", "auth": "krb5", "encryption": "preferred"}, source.AuthKrb5, source.EncryptionPreferred, "smb://h/s?auth=krb5&encryption=preferred"},
	}
	for _, c := range ok {
		p, err := ParseParams("pvc-1", c.params)
		if err != nil {
			t.Errorf("%v: %v", c.params, err)
			continue
		}
		if p.Source.Auth != c.auth || p.Source.Encryption != c.enc || p.Source.String() != c.id {
			t.Errorf("%v: auth %q encryption %q source %q; want %q %q %q", c.params, p.Source.Auth, p.Source.Encryption, p.Source.String(), c.auth, c.enc, c.id)
		}
		// The volume ID carries the choices to DeleteVolume and the node.
		v := Volume{Source: p.Source, SubDir: p.SubDir, OnDelete: p.OnDelete, UID: "0123456789abcdef"}
		back, err := ParseID(v.ID())
		if err != nil || back.Source != p.Source {
			t.Errorf("%v: the ID %q gives back %+v, %v", c.params, v.ID(), back.Source, err)
		}
	}
	bad := map[string]map[string]string{
		"not one of ntlm, krb5, negotiate":    {"source": "smb://h/s", "auth": "kerberos"},
		"not one of ntlm, krb5, negotiate ":   {"source": "smb://h/s", "auth": ""},
		"not one of required, preferred, off": {"source": "smb://h/s", "encryption": "yes"},
		"are for SMB sources":                 {"source": "nfs://h/e", "auth": "krb5"},
		"are for SMB sources ":                {"source": "nfs://h/e", "encryption": "required"},
		"set it in one place":                 {"source": "smb://h/s?auth=ntlm", "auth": "krb5"},
		"set it in one place ":                {"source": "smb://h/s?encryption=off", "encryption": "required"},
	}
	for want, params := range bad {
		_, err := ParseParams("pvc-1", params)
		if err == nil || !strings.Contains(err.Error(), strings.TrimSpace(want)) {
			t.Errorf("%v: %v, want an error saying %q", params, err, want)
		}
	}
}
