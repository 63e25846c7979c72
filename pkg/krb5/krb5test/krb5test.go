// Package krb5test is a fake KDC for unit tests of code that logs in with
// krb5.Tickets: the node's ticket caches and the node service that uses
// them. The real login is tested against a Samba AD domain controller in
// the integration suite.
package krb5test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/types"

	"github.com/fileshare-csi/fileshare-csi/pkg/krb5"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// KDC logs in a principal whose keytab is the one it was told of, and
// hands out tickets that last Life.
type KDC struct {
	mu    sync.Mutex
	keys  map[string]string // principal -> the keytab that logs in
	life  time.Duration
	fail  int
	calls []Login
}

// Login is one call of KDC.Login.
type Login struct {
	Creds source.Credentials
	SPNs  []string
}

// New is a KDC that knows keys (principal -> keytab) and gives tickets of
// life.
func New(keys map[string]string, life time.Duration) *KDC {
	return &KDC{keys: keys, life: life}
}

// Login is krb5.Tickets' stand-in: a key it does not know fails as the
// KDC's refusal does (fs.ErrPermission); each ticket differs from the
// last login's.
func (k *KDC) Login(_ context.Context, c source.Credentials, spns []string) (*krb5.Cache, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls = append(k.calls, Login{c, slices.Clone(spns)})
	if k.fail > 0 {
		k.fail--
		return nil, errors.New("KDC unreachable")
	}
	if k.keys[c.Principal] != c.Keytab {
		return nil, fmt.Errorf("KDC_ERR_PREAUTH_FAILED: %w", fs.ErrPermission)
	}
	now := time.Now()
	user, realm, _ := strings.Cut(c.Principal, "@")
	cache := &krb5.Cache{Client: types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, user), Realm: realm}
	for _, s := range append([]string{"krbtgt/" + realm}, spns...) {
		cache.Creds = append(cache.Creds, krb5.Cred{
			Server: types.NewPrincipalName(nametype.KRB_NT_SRV_INST, s), ServerRealm: realm,
			Key:      types.EncryptionKey{KeyType: 18, KeyValue: []byte("0123456789abcdef0123456789abcdef")},
			AuthTime: now, EndTime: now.Add(k.life), Ticket: []byte(fmt.Sprintf("ticket %d", len(k.calls))),
		})
	}
	return cache, nil
}

// SetKey makes keytab the one principal logs in with from now on.
func (k *KDC) SetKey(principal, keytab string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.keys[principal] = keytab
}

// FailNext makes the next n logins fail as an unreachable KDC would.
func (k *KDC) FailNext(n int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.fail = n
}

// Count is how many logins were asked for.
func (k *KDC) Count() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.calls)
}

// Last is the last login asked for.
func (k *KDC) Last() Login {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.calls[len(k.calls)-1]
}
