package mounter

import (
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// The user a CIFS mount logs on as, read from its super options as the
// kernel writes them (values with octal escapes).
func TestLogonIn(t *testing.T) {
	for _, c := range []struct {
		opts []string
		want source.Credentials
		ok   bool
	}{
		{[]string{"rw", "vers=3.1.1", "cache=strict", "username=alice", "domain=CORP", "uid=0"}, source.Credentials{Username: "alice", Domain: "CORP"}, true},
		{[]string{"rw", "username=j\\040doe"}, source.Credentials{Username: "j doe"}, true},
		{[]string{"rw", "sec=krb5", "cruid=0"}, source.Credentials{}, false},
	} {
		got, ok := logonIn(c.opts)
		if got != c.want || ok != c.ok {
			t.Errorf("logonIn(%q) = %+v, %v; want %+v, %v", c.opts, got, ok, c.want, c.ok)
		}
	}
}
