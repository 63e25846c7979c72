//go:build !linux

package state

// creds is the plugin's memory: no kernel keyring here (see creds.go).
var creds credStore = &memoryCreds{}
