//go:build !linux

package krb5cache

// noFollow: the caches are a Linux node's; elsewhere nothing writes them.
const noFollow = 0
