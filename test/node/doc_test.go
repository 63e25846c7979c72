//go:build linux

// Package node runs the driver the way a user does, on a real one-node
// cluster: the control plane on the host loopback (test/cluster), and in the
// test VM containerd, runc, the kubelet and the NFS and SMB servers
// (test/node/guestd). The driver is installed with `kubectl apply -k` of the
// quickstart through test/node/overlay, from the images `make images`
// built, and then claims, pods and Kubernetes' own storage e2e suite run
// against it. `make test-node` runs it through test/node/run.sh.
package node
