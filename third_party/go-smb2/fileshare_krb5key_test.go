package smb2

import (
	"bytes"
	"testing"

	"github.com/jcmturner/gokrb5/v8/types"
)

// fileshare-csi: a session key shorter than 16 bytes (none at all: an
// AP-REP without an acceptor subkey) was sliced to 16 bytes and panicked,
// which ended the whole process; it is padded, and a longer one cut.
func TestKrb5SessionKeyOfAnyLength(t *testing.T) {
	for _, n := range []int{0, 8, 16, 32} {
		key := bytes.Repeat([]byte{0xab}, n)
		ki := &Krb5Initiator{sessSubkey: types.EncryptionKey{KeyValue: key}}
		got := func() (k []byte) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("a %d-byte key: panic %v", n, r)
				}
			}()
			return ki.SessionKey()
		}()
		want := append(bytes.Repeat([]byte{0xab}, min(n, 16)), make([]byte, 16-min(n, 16))...)
		if !bytes.Equal(got, want) {
			t.Errorf("a %d-byte key: session key %x, want %x", n, got, want)
		}
	}
}
