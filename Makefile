# fileshare-csi: the two commands a newcomer needs are `make demo` and `make test`.
SHELL := /bin/bash
GO ?= go
# The version `fileshare-csi --version` prints (docs/development.md, "Versions").
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: all build deps deps-vm deps-krb5-node demo test test-unit test-integration test-vm test-k8s test-scale bench lint cross fuzz clean

all: build

# The one recipe the images and the tests build with (hack/gobuild): static,
# -trimpath, stripped, stamped with VERSION.
build:
	$(GO) run ./hack/gobuild/cmd -version "$(VERSION)" -o bin/fileshare-csi

# deps installs the real servers the tests and the demo run against (Debian).
deps:
	./hack/install-deps.sh

deps-vm:
	./hack/install-deps.sh vm

# demo provisions, stages, publishes and deletes an NFS and an SMB volume
# through the CSI API against Samba and an NFS server started on loopback;
# in the test VM when this kernel cannot mount NFS or CIFS.
demo: deps
	./hack/demo.sh

test: lint cross test-unit test-integration test-vm test-k8s test-node

# actionlint checks the release workflow; built from the Go module proxy.
ACTIONLINT_VERSION ?= v1.7.12
ACTIONLINT = $(shell $(GO) env GOPATH)/bin/actionlint
lint:
	@test -x $(ACTIONLINT) || $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)
	$(ACTIONLINT) .github/workflows/*.yml
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=windows $(GO) vet ./...
	cd third_party/go-smb2 && $(GO) vet .

cross:
	GOOS=windows GOARCH=amd64 $(GO) build ./...
	GOOS=linux GOARCH=arm64 $(GO) build ./...
	GOOS=linux GOARCH=arm GOARM=7 $(GO) build ./...
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build ./...
	# No node plugin there (pkg/mounter/mounter_unsupported.go), but the tree builds.
	GOOS=darwin GOARCH=arm64 $(GO) build ./...
	GOOS=freebsd GOARCH=amd64 $(GO) build ./...

# test-unit: no root, no servers; ./test/docs checks the documentation against the
# tree (links, anchors, flags, parameters, metrics, YAML examples, install lines);
# ./test/chart renders the chart's optional values against their kustomize
# components (skipped until test/k8s/build.sh has built helm).
test-unit:
	$(GO) test -count=1 ./pkg/... ./hack/... ./test/docs/ ./test/chart/ ./test/freeport/ ./test/localservers/
	cd third_party/go-smb2 && $(GO) test -count=1 ./...

# Needs root and the servers from `make deps`. The stream is filtered to the
# tests' names and results; a failure prints what the failing tests logged.
test-integration: deps
	$(GO) test -count=1 -v -timeout 30m ./test/integration/ -ginkgo.no-color 2>&1 | tee /tmp/fileshare-integration.log | grep -E '^(=== RUN|--- |PASS|FAIL|ok|panic)|Ran [0-9]+ of|Passed|\[FAIL\]'; \
	rc=$${PIPESTATUS[0]}; [ $$rc = 0 ] || awk -f hack/failures.awk /tmp/fileshare-integration.log; exit $$rc

# DeleteVolume of one NFS directory with a million entries, within the
# controller's manifest memory limit (test-integration runs 50,000). Slow:
# several minutes.
test-scale: deps
	FILESHARE_COPY_DIRS=1000000 $(GO) test -count=1 -v ./pkg/copytree/ -run 'TestCopyMemoryIsBoundedWhateverTheTreeShape'
	FILESHARE_SCALE_ENTRIES=1000000 $(GO) test -count=1 -v -timeout 3h ./test/integration/ -run 'TestDeleteVolumeOfALargeDirectoryStaysWithinTheMemoryLimit' -ginkgo.no-color

# The controller killed at random under concurrent clients for two minutes
# per share (test-integration runs 15 s of it): a release check.
.PHONY: test-fault
test-fault: deps
	FILESHARE_FAULT_SECONDS=120 $(GO) test -count=1 -v -timeout 30m ./test/integration/ -run 'TestControllerKilledAtRandomConverges|TestCreateVolumeCutByItsDeadlineConverges' -ginkgo.no-color

# Kerberos across a ticket's end: 10-minute tickets from the Samba AD domain
# controller, calls every 15 s that must never fail (test-integration runs
# the rest of the Kerberos tests in seconds). About 12 minutes.
.PHONY: test-krb5-expiry
test-krb5-expiry: deps build
	FILESHARE_KRB5_EXPIRY=1 $(GO) test -count=1 -v -timeout 30m ./test/integration/ -run 'TestKerberosTicketExpiry' -ginkgo.no-color

# Node mounts with sec=krb5 in the test VM, made by the node plugin against
# the Samba AD domain controller of the integration suite, which
# test/krb5node/run.sh starts on the host. With --krb5-host-tickets
# (cruid=0): an auth: krb5 class refused without the flag, an encryption:
# required one mounted with seal (the DC's smbstatus shows it encrypted), and
# a writer that never fails across two 3-minute ticket lifetimes while the
# test renews root's cache and the DC ends the kernel's sessions twice. With
# --krb5-cache-uids (a cache of the Secret's principal, upcall_target=mount):
# a pod's writer in a mount namespace of its own across two lifetimes, three
# forced reconnects and a keytab rotation. Boots Debian trixie's kernel with
# trixie's cifs.upcall 7.4 (test/vm/fetch-kernel.sh, fetch-cifs-utils.sh,
# pinned). About 16 minutes (FILESHARE_KRB5_LIFETIME=3m; each writer runs
# 2.5 of them).
.PHONY: test-krb5-node
deps-krb5-node:
	./hack/install-deps.sh krb5-node

test-krb5-node: deps deps-vm deps-krb5-node
	./test/krb5node/run.sh

# The whole integration suite again inside a qemu VM with a real Debian
# kernel: kernel nfsd and Samba in the guest, real NFS and CIFS mounts, and
# csi-sanity with no node-mount skips.
test-vm: deps deps-vm
	./test/vm/test.sh

# Provisioning and mount cost next to the mount-based way, host and VM;
# writes docs/benchmarks.md.
bench: deps
	./hack/bench.sh

# The quickstart manifests (manifests/), then a helm install of the chart
# (charts/fileshare-csi), against a real Kubernetes control plane on loopback:
# etcd, kube-apiserver, kube-controller-manager and the real csi-provisioner
# as local processes (built once from the Go module proxy by
# test/k8s/build.sh and cached in /var/cache/fileshare-csi-k8s), our
# controller, Samba and NFS-Ganesha. Needs root; NFS-Ganesha takes port 2049,
# so it waits while test-integration runs.
.PHONY: test-k8s
test-k8s: deps
	./test/k8s/run.sh

# The controller and node images for linux/amd64, arm64 and arm/v7, without a
# container engine: bin/images/fileshare-csi-{node,controller}-linux-<arch>.tar
# (for ctr/kind/k3s/microk8s image import) and a multi-platform OCI layout in
# bin/images/oci/. ARCHES=amd64 builds one; PUSH=registry/prefix pushes.
# The binaries in them print TAG as their version (--version), and the images
# carry it as the label org.opencontainers.image.version.
# images-lock re-pins the node image's Debian packages (after a security
# update).
ARCHES ?= amd64,arm64,arm/v7
TAG ?= v0.1.0
.PHONY: images images-lock
images:
	$(GO) run ./hack/images build -arches $(ARCHES) -tag $(TAG) $(if $(PUSH),-push $(PUSH)) $(IMAGES_FLAGS)

images-lock:
	$(GO) run ./hack/images lock

# The driver on a real one-node cluster: the control plane on the host
# loopback, containerd and the kubelet in the test VM, the driver installed
# from its own images (make images) with the quickstart manifests; claims and
# pods on both protocols, a node-plugin restart, a curated set of Kubernetes'
# external storage e2e specs per class, and an uninstall that leaves the node
# clean. Builds the kubelet, kube-scheduler, agnhost and the e2e suite once
# from the Go module proxy (cached with the other Kubernetes binaries).
.PHONY: test-node test-e2e
test-node: deps deps-vm
	./test/node/run.sh

# Every spec of the external storage suite, the three classes side by side;
# rewrites docs/conformance.md. About 35 minutes under emulation.
# FILESHARE_E2E_BUDGET=20m bounds it (the record then says so).
test-e2e: deps deps-vm
	FILESHARE_E2E=full ./test/node/run.sh

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParseID -fuzztime 30s ./pkg/volume/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./pkg/source/
	$(GO) test -run '^$$' -fuzz FuzzReply -fuzztime 30s ./pkg/share/oncrpc/
	$(GO) test -run '^$$' -fuzz FuzzCompoundReply -fuzztime 30s ./pkg/share/nfs4/
	$(GO) test -run '^$$' -fuzz FuzzReaddirplusReply -fuzztime 30s ./pkg/share/nfs3/
	$(GO) test -run '^$$' -fuzz FuzzSMBListedNames -fuzztime 30s ./pkg/share/smb/
	cd third_party/go-smb2 && $(GO) test -run '^$$' -fuzz FuzzChainReplies -fuzztime 30s .

clean:
	rm -rf bin
