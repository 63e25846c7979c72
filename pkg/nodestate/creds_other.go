//go:build !linux

package nodestate

// creds is the plugin's memory: no kernel keyring here (see creds.go).
var creds credStore = &memoryCreds{}
