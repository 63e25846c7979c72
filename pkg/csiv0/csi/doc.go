// Package csi holds the Go bindings of the CSI v0.1 protobuf (package csi):
// the Identity, Controller and Node services with their result/error reply
// shapes. Generated from csi.proto by protoc-gen-go and protoc-gen-go-grpc,
// not edited by hand; see csi.proto for where the protocol comes from.
package csi

//go:generate ../../../hack/gen-csiv0.sh
