#!/usr/bin/env bash
# Regenerates pkg/csiv0/csi (the CSI v0.1 Go bindings) from its csi.proto.
# The module proxy has no bindings of that protobuf (the spec module's v0.1.0
# tag is a later, different protocol: string IDs, gRPC status errors), so
# they are generated here and checked in; run this after editing csi.proto.
# Needs protoc (Debian's protobuf-compiler) and the two Go plugins, pinned to
# the versions go.mod uses.
set -euo pipefail
cd "$(dirname "$0")/.."
PROTOC_GEN_GO_VERSION=v1.36.12    # google.golang.org/protobuf in go.mod
PROTOC_GEN_GO_GRPC_VERSION=v1.6.2 # google.golang.org/grpc/cmd/protoc-gen-go-grpc
command -v protoc >/dev/null || {
  [ "$(id -u)" = 0 ] || { echo "need protoc: apt-get install protobuf-compiler" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq protobuf-compiler >/dev/null
}
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
GOBIN="$bin" go install "google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOC_GEN_GO_VERSION"
GOBIN="$bin" go install "google.golang.org/grpc/cmd/protoc-gen-go-grpc@$PROTOC_GEN_GO_GRPC_VERSION"
# From the repository's root, so the file registers as
# pkg/csiv0/csi/csi.proto: the CSI v1 bindings already hold "csi.proto".
PATH="$bin:$PATH" protoc -I . \
  --go_out=. --go_opt=paths=source_relative \
  --go-grpc_out=. --go-grpc_opt=paths=source_relative \
  pkg/csiv0/csi/csi.proto
