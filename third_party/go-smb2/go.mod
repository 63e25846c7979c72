module github.com/cloudsoda/go-smb2

go 1.25

require (
	github.com/cloudsoda/sddl v0.0.0-20250224235906-926454e91efc
	github.com/geoffgarside/ber v1.1.0
	github.com/jcmturner/gokrb5/v8 v8.4.4
	github.com/stretchr/testify v1.8.3
	golang.org/x/crypto v0.9.0
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/hashicorp/go-uuid v1.0.3 // indirect
	github.com/jcmturner/aescts/v2 v2.0.0 // indirect
	github.com/jcmturner/dnsutils/v2 v2.0.0 // indirect
	github.com/jcmturner/gofork v1.7.6 // indirect
	github.com/jcmturner/goidentity/v6 v6.0.1 // indirect
	github.com/jcmturner/rpc/v2 v2.0.3 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	golang.org/x/net v0.10.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
