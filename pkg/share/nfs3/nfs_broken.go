package nfs3

// Broken reports whether a transport failure or a cut deadline happened on
// the session, so the pool closes it even when the caller's error no longer
// says so.
func (c *nfsClient) Broken() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.broken
}
