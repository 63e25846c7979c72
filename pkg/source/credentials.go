package source

// Credentials authenticate SMB sessions and mounts. NFS uses AUTH_SYS and
// ignores them. They live beside Source so that the mounter and the share
// layer take the same struct without one importing the other.
type Credentials struct {
	Username string
	Password string
	Domain   string
}
