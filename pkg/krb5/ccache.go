package krb5

import (
	"encoding/binary"
	"time"

	"github.com/jcmturner/gofork/encoding/asn1"
	"github.com/jcmturner/gokrb5/v8/types"
)

// Cache is what one login got: the principal's ticket-granting ticket and
// a service ticket per server, each with its session key. Marshal writes
// it as an MIT credential cache file, which the host's libkrb5 (and so
// cifs.upcall) reads; gokrb5 reads such files but cannot write them.
type Cache struct {
	Client types.PrincipalName
	Realm  string
	Creds  []Cred
}

// Cred is one ticket of a Cache.
type Cred struct {
	Server      types.PrincipalName
	ServerRealm string
	Key         types.EncryptionKey
	AuthTime    time.Time
	StartTime   time.Time
	EndTime     time.Time
	RenewTill   time.Time
	Flags       asn1.BitString
	// Ticket is the ticket as the KDC sent it (DER), opaque to the client.
	Ticket []byte
}

// Start is when the cache's tickets became valid, End when the first of
// them expires: a cache is as good as its shortest ticket.
func (c *Cache) Start() time.Time {
	var s time.Time
	for _, cr := range c.Creds {
		t := cr.StartTime
		if t.IsZero() {
			t = cr.AuthTime
		}
		if s.IsZero() || t.Before(s) {
			s = t
		}
	}
	return s
}

// End is when the first of the cache's tickets expires.
func (c *Cache) End() time.Time {
	var e time.Time
	for _, cr := range c.Creds {
		if e.IsZero() || cr.EndTime.Before(e) {
			e = cr.EndTime
		}
	}
	return e
}

// Wipe clears the session keys, which are as good as the tickets' holder's
// password while the tickets last.
func (c *Cache) Wipe() {
	for i := range c.Creds {
		clear(c.Creds[i].Key.KeyValue)
	}
}

// Marshal is the cache in the MIT file format, version 4
// (krb5 doc/formats/ccache_file_format.rst): big-endian throughout, an
// empty header (no KDC time offset), the default principal, then each
// credential; no count, the file ends after the last one.
func (c *Cache) Marshal() []byte {
	b := []byte{5, 4, 0, 0}
	b = putPrincipal(b, c.Client, c.Realm)
	for _, cr := range c.Creds {
		b = putPrincipal(b, c.Client, c.Realm)
		b = putPrincipal(b, cr.Server, cr.ServerRealm)
		b = binary.BigEndian.AppendUint16(b, uint16(cr.Key.KeyType))
		b = putData(b, cr.Key.KeyValue)
		start := cr.StartTime
		if start.IsZero() {
			start = cr.AuthTime
		}
		for _, t := range []time.Time{cr.AuthTime, start, cr.EndTime, cr.RenewTill} {
			b = binary.BigEndian.AppendUint32(b, unixSeconds(t))
		}
		b = append(b, 0) // not a user-to-user ticket
		var flags [4]byte
		copy(flags[:], cr.Flags.Bytes)
		b = append(b, flags[:]...)
		b = binary.BigEndian.AppendUint32(b, 0) // no addresses
		b = binary.BigEndian.AppendUint32(b, 0) // no authorization data
		b = putData(b, cr.Ticket)
		b = putData(b, nil) // no second ticket
	}
	return b
}

func putPrincipal(b []byte, p types.PrincipalName, realm string) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(p.NameType))
	b = binary.BigEndian.AppendUint32(b, uint32(len(p.NameString)))
	b = putData(b, []byte(realm))
	for _, s := range p.NameString {
		b = putData(b, []byte(s))
	}
	return b
}

func putData(b, d []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(d)))
	return append(b, d...)
}

// unixSeconds is t as the format's unsigned 32-bit seconds; the zero time
// (a renew-till the KDC did not give) is 0.
func unixSeconds(t time.Time) uint32 {
	if t.IsZero() || t.Unix() < 0 {
		return 0
	}
	return uint32(t.Unix())
}
