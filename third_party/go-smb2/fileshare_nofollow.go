package smb2

// NoClientLinks returns a Share on the same tree that never follows a link
// on the client's side. A Windows server answers a CREATE whose path goes
// through a symbolic link with STATUS_STOPPED_ON_SYMLINK and the link's
// target, and leaves it to the client to open that instead; the library's
// OpenFile, Stat, Chmod, Chtimes, Truncate and the like do so, wherever in
// the share the target lies. On this Share they fail with that status (a
// *ResponseError) and open nothing else: a client confined to one directory
// tree, whose files others may swap for links between a listing and an
// open, must not be led out of it. WithContext keeps the setting.
func (fs *Share) NoClientLinks() *Share {
	s := *fs
	s.noClientLinks = true
	return &s
}

// FollowsClientLinks says whether fs opens a link's target for its client
// (the library's default), or not (NoClientLinks).
func (fs *Share) FollowsClientLinks() bool { return !fs.noClientLinks }
