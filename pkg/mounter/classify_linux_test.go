//go:build linux

package mounter

import (
	"errors"
	"io/fs"
	"testing"

	"golang.org/x/sys/unix"
)

// The errors a probe meets decide whether a mount is torn down: only a mount
// broken for good may be, and one whose server is away must be waited for.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		err                 error
		broken, notAnswered bool
	}{
		{err: &fs.PathError{Op: "statfs", Err: unix.ESTALE}, broken: true},
		{err: &fs.PathError{Op: "statfs", Err: unix.ENOTCONN}, broken: true},
		{err: &fs.PathError{Op: "statfs", Err: unix.EIO}, broken: true},
		// A CIFS mount reconnecting to a server that is down.
		{err: &fs.PathError{Op: "statfs", Err: unix.EAGAIN}, notAnswered: true},
		{err: &fs.PathError{Op: "stat", Err: unix.ETIMEDOUT}, notAnswered: true},
		{err: &fs.PathError{Op: "stat", Err: unix.ECONNREFUSED}, notAnswered: true},
		// The server answers, just not to the plugin.
		{err: &fs.PathError{Op: "stat", Err: unix.EACCES}},
		{err: &fs.PathError{Op: "stat", Err: unix.EPERM}},
	} {
		got := classify("/p", "statfs", tc.err)
		if errors.Is(got, ErrBroken) != tc.broken || errors.Is(got, ErrNotResponding) != tc.notAnswered {
			t.Errorf("classify(%v) = %v: broken %v, not responding %v; want %v, %v", tc.err, got,
				errors.Is(got, ErrBroken), errors.Is(got, ErrNotResponding), tc.broken, tc.notAnswered)
		}
		if !errors.Is(got, tc.err.(*fs.PathError).Err) {
			t.Errorf("classify(%v) lost its cause: %v", tc.err, got)
		}
	}
}
