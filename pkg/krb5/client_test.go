package krb5

import (
	"errors"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// A Secret's krb5.conf that does not parse is FailedPrecondition, and the
// error quotes nothing of it (the parser's message would quote the line).
func TestABrokenKrb5ConfInASecretIsNotQuoted(t *testing.T) {
	// gokrb5 answers "invalid krb5 config libdefaults section line
	// (ticket_lifetime = 10hSECRET)" for this one.
	conf := "[libdefaults]\n default_realm = EXAMPLE.TEST\n ticket_lifetime = 10hSECRET\n"
	_, _, err := NewClient(source.Credentials{Principal: "csi@EXAMPLE.TEST", Password: "pw", Krb5Conf: conf}, "/nonexistent")
	if err == nil || !errors.Is(err, share.ErrPrecondition) || strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "ticket_lifetime") {
		t.Errorf("NewClient = %v, want ErrPrecondition quoting nothing of the file", err)
	}
}
