package winhost

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"regexp"
	"strconv"
	"strings"
)

// ErrNoKerberos says a mapping that may never use NTLM (auth krb5,
// -BlockNTLM) failed because Windows could not log on to the server with
// Kerberos: no ticket for the name the share has, no domain controller, no
// service principal. Retrying cannot help until the node, the realm or the
// class changes.
var ErrNoKerberos = errors.New("Windows could not log on to the SMB server with Kerberos, and the mapping may not use NTLM")

// kerberosFailure is why a -BlockNTLM mapping could not log on.
type kerberosFailure int

const (
	// noTicket: Windows got no Kerberos ticket for the server and may not
	// fall back to NTLM, without saying why. Most often the server is
	// named by an address or an alias that has no cifs/ service principal.
	noTicket kerberosFailure = iota + 1
	// noKDC: no domain controller of the realm answered.
	noKDC
	// noSPN: the realm has no service principal cifs/<host> for the name,
	// or it belongs to an account whose key the server does not hold.
	noSPN
	// badLogon: the domain refused the user's password.
	badLogon
)

// kerberosCodes are the Windows errors of a failed Kerberos logon, by
// every form the SMB cmdlets, net use and csi-proxy print them in: a
// Win32 error ("Windows System Error 1311" in PowerShell's
// FullyQualifiedErrorId, which is never translated), its HRESULT
// (0x8007xxxx), the NTSTATUS of the SMB client, and the SSPI status
// (SEC_E_*). The codes, not the English messages, are matched: Windows in
// another language translates the messages only.
var kerberosCodes = map[uint32]kerberosFailure{
	1937:       noTicket, // ERROR_NTLM_BLOCKED
	0x80070791: noTicket,
	0xC0000418: noTicket, // STATUS_NTLM_BLOCKED
	1312:       noTicket, // ERROR_NO_SUCH_LOGON_SESSION: no usable credential for the target
	0x80070520: noTicket,
	0xC000005F: noTicket, // STATUS_NO_SUCH_LOGON_SESSION
	0x8009030E: noTicket, // SEC_E_NO_CREDENTIALS

	1311:       noKDC, // ERROR_NO_LOGON_SERVERS
	0x8007051F: noKDC,
	0xC000005E: noKDC, // STATUS_NO_LOGON_SERVERS
	0x80090311: noKDC, // SEC_E_NO_AUTHENTICATING_AUTHORITY
	1355:       noKDC, // ERROR_NO_SUCH_DOMAIN
	0x8007054B: noKDC,

	0x80090303: noSPN, // SEC_E_TARGET_UNKNOWN (KDC_ERR_S_PRINCIPAL_UNKNOWN)
	0x80090322: noSPN, // SEC_E_WRONG_PRINCIPAL
	1396:       noSPN, // ERROR_WRONG_TARGET_NAME
	0x80070574: noSPN,

	1326:       badLogon, // ERROR_LOGON_FAILURE
	0x8007052E: badLogon,
	0xC000006D: badLogon, // STATUS_LOGON_FAILURE
	0x8009030C: badLogon, // SEC_E_LOGON_DENIED
}

// windowsCodeMarks find the codes in an error text: a decimal after
// "system error", "error" or csi-proxy's "result:" (PowerShell prints an
// HRESULT in decimal, negative), and any 32-bit hexadecimal.
var windowsCodeMarks = regexp.MustCompile(`(?i)(?:\berror|\bresult)\s*:?\s*(-?[0-9]+)\b|\b0x([0-9a-f]{8})\b`)

// kerberosFailureIn returns the first Windows error in text that is a
// failed Kerberos logon, and the code as text says it.
func kerberosFailureIn(text string) (kerberosFailure, string) {
	for _, m := range windowsCodeMarks.FindAllStringSubmatch(text, -1) {
		var code uint32
		switch {
		case m[1] != "":
			n, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil || n < -1<<31 || n > 1<<32-1 {
				continue
			}
			code = uint32(n)
		default:
			n, err := strconv.ParseUint(m[2], 16, 32)
			if err != nil {
				continue
			}
			code = uint32(n)
		}
		if k, ok := kerberosCodes[code]; ok {
			if code > 0xffff {
				return k, fmt.Sprintf("0x%08X", code)
			}
			return k, strconv.FormatUint(uint64(code), 10)
		}
	}
	return 0, ""
}

// KerberosFailure is the error for a -BlockNTLM mapping of share as
// username that Windows refused with one of kerberosCodes, or nil when
// text (what PowerShell or csi-proxy reported) has none of them. Its text
// is the driver's own and says what to fix; Windows' text is left out (it
// can quote the command). A refused password wraps fs.ErrPermission, as a
// refused login does everywhere in the driver; the rest ErrNoKerberos.
func KerberosFailure(share, username, text string) error {
	kind, code := kerberosFailureIn(text)
	if kind == 0 {
		return nil
	}
	host := shareHost(share)
	realm := "the principal's realm"
	if _, r, ok := strings.Cut(username, "@"); ok && r != "" {
		realm = "the realm " + r
	}
	// Windows asks for a ticket for cifs/<the name in the path>: an
	// address has no such principal unless one was registered for it.
	byAddress := net.ParseIP(strings.Trim(host, "[]")) != nil
	nameIt := "Name the server in the class's source by the name its cifs/ service principal has (its DNS name, not an address or an alias)"
	if byAddress {
		nameIt = fmt.Sprintf("Name the server in the class's source by the name its cifs/ service principal has: the source names it by the address %s, use its DNS name", host)
	}
	register := ""
	if !byAddress {
		register = fmt.Sprintf(", or register cifs/%s on the server's account (setspn -S)", host)
	}
	const orNegotiate = "or give the volume a class with auth negotiate where NTLM is allowed"
	switch kind {
	case noKDC:
		return fmt.Errorf("%w: no domain controller (KDC) of %s answered when the node mapped %s as %s (Windows error %s). The node must reach a domain controller of that realm (DNS: _kerberos._tcp.<realm> and _ldap._tcp.dc._msdcs.<realm>; port 88); %s",
			ErrNoKerberos, realm, share, username, code, orNegotiate)
	case noSPN:
		return fmt.Errorf("%w: %s has no service principal cifs/%s that the server answers to (Windows error %s), so the node got no Kerberos ticket to map %s. %s%s; %s",
			ErrNoKerberos, realm, host, code, share, nameIt, register, orNegotiate)
	case badLogon:
		return fmt.Errorf("the domain refused the logon of %s when the node mapped %s (Windows error %s): check principal (or username and domain) and password in the node-stage Secret: %w",
			username, share, code, fs.ErrPermission)
	}
	return fmt.Errorf("%w: Windows got no Kerberos ticket for %s as %s and a class with auth krb5 never falls back to NTLM (Windows error %s). %s, and let the node reach a domain controller of %s; %s",
		ErrNoKerberos, share, username, code, nameIt, realm, orNegotiate)
}

// shareHost is the server of \\host\share.
func shareHost(share string) string {
	host, _, _ := strings.Cut(strings.TrimLeft(share, `\`), `\`)
	return host
}
