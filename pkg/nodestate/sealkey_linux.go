//go:build linux

package nodestate

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// The credentials in the keyring are sealed with a key kept in the state
// directory (see creds.go): every process of uid 0 on the node shares root's
// user keyring, a root pod included, but only the plugin mounts the state
// directory.

// sealKeyLen is AES-256's key size.
const sealKeyLen = 32

// errBadSealKey: the key file is not one the plugin made. It is refused, not
// replaced: whoever could put it there can reach the state directory, and an
// administrator should look.
var errBadSealKey = errors.New("not a regular file of mode 0600 owned by the plugin's uid, of 32 bytes")

// loadSealKey reads the key in file. O_NOFOLLOW refuses a symbolic link,
// O_NONBLOCK keeps a FIFO from blocking the open; the checks on the open file
// refuse anything else the plugin did not write.
func loadSealKey(file string) ([]byte, error) {
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("open the credentials key: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("credentials key: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.Mode().IsRegular() || fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != 0o600 ||
		!ok || int(st.Uid) != os.Geteuid() || fi.Size() != sealKeyLen {
		return nil, fmt.Errorf("credentials key %s: %w", file, errBadSealKey)
	}
	key := make([]byte, sealKeyLen)
	if _, err := io.ReadFull(f, key); err != nil {
		clear(key)
		return nil, fmt.Errorf("read the credentials key: %w", err)
	}
	return key, nil
}

// sealKey returns the key in file, making it if there is none. A new key is
// written whole to a file of its own, then linked to file: link(2) never
// replaces, so of two plugins (or two stages) that race to make it, the
// first link wins and the other reads its key; nobody ever reads a key half
// written. The key needs no fsync: what it seals is gone at a reboot anyway.
func sealKey(file string) ([]byte, error) {
	key, err := loadSealKey(file)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return nil, fmt.Errorf("create node state dir: %w", err)
	}
	key = make([]byte, sealKeyLen)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("make the credentials key: %w", err)
	}
	tmp := file + ".new-" + rand.Text()
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		clear(key)
		return nil, fmt.Errorf("create the credentials key: %w", err)
	}
	defer os.Remove(tmp)
	_, err = f.Write(key)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Link(tmp, file)
	}
	if err != nil {
		clear(key)
		if errors.Is(err, fs.ErrExist) {
			return loadSealKey(file) // another made it first
		}
		return nil, fmt.Errorf("create the credentials key: %w", err)
	}
	return key, nil
}

// seal encrypts plain with key, under a random nonce, and binds it to desc
// (the keyring key's description) as additional data: a payload copied to
// another volume's key does not open there.
func seal(key []byte, desc string, plain []byte) ([]byte, error) {
	aead, err := newAEAD(key)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("nonce: %w", err)
	}
	return aead.Seal(nonce, nonce, plain, []byte(desc)), nil
}

// unseal undoes seal; it fails for a payload sealed with another key, under
// another description, or not sealed at all.
func unseal(key []byte, desc string, sealed []byte) ([]byte, error) {
	aead, err := newAEAD(key)
	if err != nil {
		return nil, err
	}
	if len(sealed) < aead.NonceSize() {
		return nil, errors.New("sealed credentials too short")
	}
	n := aead.NonceSize()
	return aead.Open(nil, sealed[:n], sealed[n:], []byte(desc))
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("credentials key: %w", err)
	}
	return cipher.NewGCM(b)
}
