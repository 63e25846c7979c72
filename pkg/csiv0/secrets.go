package csiv0

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxSecretBytes bounds one secret file: a password, not a disk image.
const maxSecretBytes = 64 << 10

// SecretDir reads the secrets that v1 calls carry and v0.1 requests cannot
// (SMB's username, password and domain) from dir, one file per key, as a
// Kubernetes Secret mounted as a volume lays them out. It reads them on
// every call, so a rotated Secret is taken without a restart. Errors name
// the file, never what is in it.
func SecretDir(dir string) func() (map[string]string, error) {
	return func() (map[string]string, error) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("read the CSI v0.1 secrets: %w", err)
		}
		out := map[string]string{}
		for _, e := range entries {
			// A Secret volume's ..data and ..<timestamp> entries are its
			// own bookkeeping; the keys are links into them.
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			p := filepath.Join(dir, e.Name())
			v, err := readSecret(p)
			if err != nil {
				return nil, fmt.Errorf("read the CSI v0.1 secret %s: %w", p, err)
			}
			out[e.Name()] = v
		}
		return out, nil
	}
}

func readSecret(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", errors.New("not a regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSecretBytes+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxSecretBytes {
		return "", fmt.Errorf("larger than %d bytes", maxSecretBytes)
	}
	return string(b), nil
}
