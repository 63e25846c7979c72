# fileshare-csi: the two commands a newcomer needs are `make demo` and `make test`.
SHELL := /bin/bash
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: all build deps demo test test-unit test-integration lint cross fuzz clean

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/fileshare-csi ./cmd/fileshare-csi

# deps installs the real servers the tests and the demo run against (Debian).
deps:
	./hack/install-deps.sh

# demo provisions, lists and deletes an NFS and an SMB volume through the CSI
# API against Samba and NFS-Ganesha started on loopback.
demo: deps
	$(GO) run ./test/demo

test: lint cross test-unit test-integration

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=windows $(GO) vet ./...

cross:
	GOOS=windows GOARCH=amd64 $(GO) build ./...
	GOOS=linux GOARCH=arm64 $(GO) build ./...
	GOOS=linux GOARCH=arm GOARM=7 $(GO) build ./...

test-unit:
	$(GO) test -count=1 ./pkg/...

# Needs root and the servers from `make deps`.
test-integration: deps
	$(GO) test -count=1 -v ./test/integration/ -ginkgo.no-color 2>&1 | tee /tmp/fileshare-integration.log | grep -E '^(=== RUN|--- |PASS|FAIL|ok|panic)|Ran [0-9]+ of|Passed|\[FAIL\]'; exit $${PIPESTATUS[0]}

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParseID -fuzztime 30s ./pkg/volume/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./pkg/source/

clean:
	rm -rf bin
