package source

// Credentials authenticate SMB sessions and mounts. NFS uses AUTH_SYS and
// ignores them. They live beside Source so that the mounter and the share
// layer take the same struct without one importing the other.
type Credentials struct {
	Username string
	Password string
	Domain   string
	// Principal (NAME@REALM), with Keytab (the bytes of a keytab file) or
	// Password, is the Kerberos identity of auth krb5 and negotiate.
	// Krb5Conf is a krb5.conf of the Secret's own (realm, KDCs), in place
	// of the controller's.
	Principal string
	Keytab    string
	Krb5Conf  string
}

// Secret keys of the Kerberos identity (see docs/kerberos.md).
const (
	SecretPrincipal = "principal"
	SecretKeytab    = "krb5.keytab"
	SecretKrb5Conf  = "krb5.conf"
)

// HasIdentity reports whether c names anyone to log in as.
func (c Credentials) HasIdentity() bool { return c.Username != "" || c.Principal != "" }
