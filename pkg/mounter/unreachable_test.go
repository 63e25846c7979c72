package mounter

import (
	"errors"
	"fmt"
	"syscall"
	"testing"
)

func TestUnreachable(t *testing.T) {
	cases := []struct {
		msg  string
		want bool
	}{
		{"mount -t nfs 10.0.0.5:/export /s failed: exit status 32: mount.nfs: Connection refused", true},
		{"mount.nfs: No route to host", true},
		{"mount.nfs: Connection timed out", true},
		{"mount.nfs: Failed to resolve server nas.lan: Name or service not known", true},
		{"mount error(111): could not connect to 10.0.0.6Unable to find suitable address.", true},
		{"mount error(113): Could not connect to nas.lan", true},
		{"mount error(112): Host is down", true},
		{"New-SmbGlobalMapping : The network path was not found.", true},
		{"mount.nfs: access denied by server while mounting 10.0.0.5:/export", false},
		{"mount error(13): Permission denied", false},
		{"mount error(2): No such file or directory", false},
		{"mount.nfs: mounting nas:/nope failed, reason given by server: No such file or directory", false},
	}
	for _, c := range cases {
		if got := Unreachable(errors.New(c.msg)); got != c.want {
			t.Errorf("Unreachable(%q) = %v, want %v", c.msg, got, c.want)
		}
	}
	if !Unreachable(fmt.Errorf("dial: %w", syscall.ECONNREFUSED)) || Unreachable(nil) {
		t.Error("errno or nil misjudged")
	}
}
