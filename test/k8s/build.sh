#!/usr/bin/env bash
# Builds, once, the real Kubernetes pieces `make test-k8s` runs as local
# processes: kube-apiserver, kube-controller-manager and kubectl
# (k8s.io/kubernetes) and csi-provisioner (kubernetes-csi/external-provisioner),
# all from the Go module proxy. etcd comes from Debian (etcd-server, see
# hack/install-deps.sh k8s).
#
# Nothing is built in the repository: each component gets a scratch Go module
# in the cache directory, keyed by its version, and its binaries land in
# $CACHE/<component>-<version>/bin. A second run finds them and returns at once.
#
#   K8S_CACHE         cache directory (default /var/cache/fileshare-csi-k8s, or
#                     ~/.cache/fileshare-csi-k8s when that is not writable)
#   KUBE_VERSION      k8s.io/kubernetes version (default v1.34.4)
#   PROVISIONER_VERSION  external-provisioner/v6 version (default v6.3.0)
#   HELM_VERSION      helm v3 version for the chart checks (default v3.22.0)
#   SNAPSHOTTER_VERSION  external-snapshotter/v8 version: snapshot-controller,
#                     csi-snapshotter and the snapshot CRDs (default v8.7.0)
#
# Prints the bin directories, one per line, on the last lines of stdout
# (prefixed "BIN "). Cold: about 10 minutes on 2 cores; warm: instant.
set -euo pipefail

KUBE_VERSION=${KUBE_VERSION:-v1.34.4}
PROVISIONER_VERSION=${PROVISIONER_VERSION:-v6.3.0}
HELM_VERSION=${HELM_VERSION:-v3.22.0}
SNAPSHOTTER_VERSION=${SNAPSHOTTER_VERSION:-v8.7.0}
# Bump when the recipe below changes in a way that needs a rebuild.
RECIPE=r1

if [ -z "${K8S_CACHE:-}" ]; then
  K8S_CACHE=/var/cache/fileshare-csi-k8s
  if ! mkdir -p "$K8S_CACHE" 2>/dev/null || [ ! -w "$K8S_CACHE" ]; then
    K8S_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/fileshare-csi-k8s
  fi
fi
mkdir -p "$K8S_CACHE"

export GOFLAGS=-mod=mod GOWORK=off GO111MODULE=on CGO_ENABLED=0
# The builds are big (kube-apiserver: ~5 min, 2 GB); be kind to whatever else
# runs on the machine.
NICE=(nice -n 10)
GO=${GO:-go}

log() { printf '[build %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# retry N CMD...: the module proxy sometimes drops a connection mid-download.
retry() {
  local n=$1 i; shift
  for ((i = 1; i <= n; i++)); do
    if "$@"; then return 0; fi
    [ "$i" = "$n" ] && break
    log "attempt $i of $n failed: $*; retrying in $((i * 5)) s"
    sleep $((i * 5))
  done
  return 1
}

# module_file MODULE@VERSION FIELD: a field of `go mod download -json`.
module_field() {
  local json
  json=$(cd "$1" && retry 3 "$GO" mod download -json "$2") || return 1
  printf '%s\n' "$json" | sed -n "s/^\t\"$3\": \"\(.*\)\",\{0,1\}$/\1/p"
}

# build_component NAME VERSION SETUP_FN PACKAGES LDFLAGS
# SETUP_FN writes go.mod (and go.sum) into the scratch directory; tools.go,
# which keeps PACKAGES in the module graph, is written here. Binaries already
# built are kept, so adding a package later builds only that one.
build_component() {
  local name=$1 version=$2 setup=$3 pkgs=$4 ldflags=$5
  local dir="$K8S_CACHE/$name-$version-$RECIPE" p missing=()
  for p in $pkgs; do [ -x "$dir/bin/${p##*/}" ] || missing+=("$p"); done
  if [ ${#missing[@]} = 0 ]; then
    log "$name $version: cached in $dir/bin"
    echo "BIN $dir/bin"
    return 0
  fi
  mkdir -p "$dir/bin"
  log "$name $version: preparing the scratch module in $dir"
  "$setup" "$dir" "$version"
  {
    echo '//go:build tools'
    echo
    echo '// Package tools only makes `go mod tidy` keep what these commands need.'
    echo 'package tools'
    echo
    echo 'import ('
    for p in $pkgs; do printf '\t_ "%s"\n' "$p"; done
    echo ')'
  } >"$dir/tools.go"
  log "$name $version: go mod tidy (downloads the dependencies)"
  (cd "$dir" && retry 3 "${NICE[@]}" "$GO" mod tidy) >&2
  for p in "${missing[@]}"; do
    local start=$SECONDS bin=${p##*/}
    log "$name $version: building $bin (this is the slow part)"
    (cd "$dir" && retry 2 "${NICE[@]}" "$GO" build -trimpath -ldflags "$ldflags" -o "bin/$bin.new" "$p") >&2
    mv "$dir/bin/$bin.new" "$dir/bin/$bin"
    log "$name $version: $bin built in $((SECONDS - start)) s"
  done
  echo "BIN $dir/bin"
}

# k8s.io/kubernetes cannot be required as it is: its go.mod replaces its 31
# staging modules (k8s.io/api, client-go, ...) with ./staging directories. The
# scratch module replaces each of them with the matching v0.X.Y release.
setup_kubernetes() {
  local work=$1 version=$2 gomod staging
  gomod=$(module_field "$work" "k8s.io/kubernetes@$version" GoMod)
  staging=$(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/.*#\1#p' "$gomod")
  [ "$(printf '%s\n' "$staging" | wc -l)" -ge 25 ] || { log "could not read the staging modules from $gomod"; exit 1; }
  {
    echo "module fileshare-csi.test/k8s-build"
    echo
    echo "go 1.24.0"
    echo
    echo "require k8s.io/kubernetes $version"
    echo
    printf '%s\n' "$staging" | while read -r m; do echo "replace $m => $m v0.${version#v1.}"; done
  } >"$work/go.mod"
}

# provisioner_module v6.3.0 -> github.com/kubernetes-csi/external-provisioner/v6
provisioner_module() {
  local major=${1#v}
  major=${major%%.*}
  echo "github.com/kubernetes-csi/external-provisioner/v$major"
}

# setup_from_module WORK MODULE VERSION: a scratch module that requires
# MODULE at VERSION with its own go directive, replace lines and go.sum
# (external-provisioner requires k8s.io/kubernetes and carries replaces).
setup_from_module() {
  local work=$1 mod=$2 version=$3 gomod srcdir
  gomod=$(module_field "$work" "$mod@$version" GoMod)
  srcdir=$(module_field "$work" "$mod@$version" Dir)
  {
    echo "module fileshare-csi.test/$(basename "$work")"
    echo
    sed -n 's/^go \(.*\)/go \1/p' "$gomod"
    echo
    echo "require $mod $version"
    echo
    # single-line replace directives and those inside a replace ( ) block
    awk '/^replace \(/{b=1;next} b&&/^\)/{b=0;next} b{print "replace " $0;next} /^replace /{print}' "$gomod"
  } >"$work/go.mod"
  cp "$srcdir/go.sum" "$work/go.sum"
  chmod u+w "$work/go.sum"
}

setup_provisioner() { setup_from_module "$1" "$(provisioner_module "$2")" "$2"; }
setup_helm() { setup_from_module "$1" helm.sh/helm/v3 "$2"; }
# external-snapshotter replaces its client module with ./client, which a
# module download does not have: the scratch module requires the client
# release of the same version instead.
setup_snapshotter() {
  setup_from_module "$1" github.com/kubernetes-csi/external-snapshotter/v8 "$2"
  sed -i '/=> \.\//d' "$1/go.mod"
  echo "require github.com/kubernetes-csi/external-snapshotter/client/v8 $2" >>"$1/go.mod"
}

# build_e2e VERSION: the external storage e2e suite as a test binary,
# e2e.test, from a scratch test package that imports only what the suite
# needs (the whole k8s e2e binary would take far longer to build).
build_e2e() {
  local version=$1 dir="$K8S_CACHE/kubernetes-e2e-$1-$RECIPE"
  if [ -x "$dir/bin/e2e.test" ]; then
    log "e2e.test $version: cached in $dir/bin"
    echo "BIN $dir/bin"
    return 0
  fi
  mkdir -p "$dir/bin"
  setup_kubernetes "$dir" "$version"
  cat >"$dir/e2e_test.go" <<'GO'
// Package e2e runs Kubernetes' external storage suite (the -storage.testdriver
// flag) and nothing else.
package e2e

import (
	"flag"
	"os"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"k8s.io/kubernetes/test/e2e/framework"
	"k8s.io/kubernetes/test/e2e/framework/config"
	"k8s.io/kubernetes/test/e2e/framework/testfiles"
	_ "k8s.io/kubernetes/test/e2e/storage/external"
)

func TestMain(m *testing.M) {
	config.CopyFlags(config.Flags, flag.CommandLine)
	framework.RegisterCommonFlags(flag.CommandLine)
	framework.RegisterClusterFlags(flag.CommandLine)
	flag.Parse()
	framework.AfterReadingAllFlags(&framework.TestContext)
	// The suite reads manifests through file sources; without one every
	// spec fails with "no file sources registered".
	testfiles.AddFileSource(testfiles.RootFileSource{Root: "/"})
	os.Exit(m.Run())
}

func TestE2E(t *testing.T) {
	gomega.RegisterFailHandler(framework.Fail)
	suiteConfig, reporterConfig := framework.CreateGinkgoConfig()
	ginkgo.RunSpecs(t, "fileshare-csi external storage", suiteConfig, reporterConfig)
}
GO
  log "e2e.test $version: go mod tidy (downloads the dependencies)"
  (cd "$dir" && retry 3 "${NICE[@]}" "$GO" mod tidy) >&2
  local start=$SECONDS
  log "e2e.test $version: building (slow)"
  (cd "$dir" && retry 2 "${NICE[@]}" "$GO" test -c -trimpath -o bin/e2e.test.new .) >&2
  mv "$dir/bin/e2e.test.new" "$dir/bin/e2e.test"
  log "e2e.test $version: built in $((SECONDS - start)) s"
  echo "BIN $dir/bin"
}

minor=${KUBE_VERSION#v1.}; minor=${minor%%.*}
build_component kubernetes "$KUBE_VERSION" setup_kubernetes \
  "k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kubectl" \
  "-s -w -X k8s.io/component-base/version.gitVersion=$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"

# make test-node also needs a node and the e2e suite (NODE=1): the kubelet,
# kube-scheduler and agnhost (the e2e suite's helper image) in a scratch
# module of their own, so the control plane's cached binaries stay valid.
if [ -n "${NODE:-}" ]; then
  build_component kubernetes-node "$KUBE_VERSION" setup_kubernetes \
    "k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/test/images/agnhost" \
    "-s -w -X k8s.io/component-base/version.gitVersion=$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
  build_e2e "$KUBE_VERSION"
fi

pmod=$(provisioner_module "$PROVISIONER_VERSION")
build_component external-provisioner "$PROVISIONER_VERSION" setup_provisioner \
  "$pmod/cmd/csi-provisioner" \
  "-s -w -X main.version=$PROVISIONER_VERSION"

# snapshot-controller and csi-snapshotter, and the CRDs they serve (from the
# client module, beside the binaries in crd/), for the snapshot checks.
build_component external-snapshotter "$SNAPSHOTTER_VERSION" setup_snapshotter \
  "github.com/kubernetes-csi/external-snapshotter/v8/cmd/snapshot-controller github.com/kubernetes-csi/external-snapshotter/v8/cmd/csi-snapshotter" \
  "-s -w -X main.version=$SNAPSHOTTER_VERSION"
snapdir="$K8S_CACHE/external-snapshotter-$SNAPSHOTTER_VERSION-$RECIPE"
if [ ! -f "$snapdir/bin/crd/snapshot.storage.k8s.io_volumesnapshots.yaml" ]; then
  crdsrc=$(module_field "$snapdir" "github.com/kubernetes-csi/external-snapshotter/client/v8@$SNAPSHOTTER_VERSION" Dir)/config/crd
  mkdir -p "$snapdir/bin/crd"
  cp "$crdsrc"/*storage.k8s.io_*.yaml "$snapdir/bin/crd/"
  chmod u+w "$snapdir/bin/crd"/*.yaml
fi

# helm, for the chart checks (charts/fileshare-csi).
build_component helm "$HELM_VERSION" setup_helm "helm.sh/helm/v3/cmd/helm" \
  "-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION"
