//go:build linux

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"time"
)

// ExecRequest runs one command on the node for the host's test: looking at
// the node's mounts and the servers' directories, which only the guest sees.
type ExecRequest struct {
	Argv    []string `json:"argv"`
	Timeout string   `json:"timeout,omitempty"` // default 60s
}

// ExecResult is what the command printed and its exit code.
type ExecResult struct {
	Output string `json:"output"`
	Code   int    `json:"code"`
}

// serve answers the host on the forwarded control port:
//
//	GET  /status    what the node is doing ("running" once the kubelet runs)
//	GET  /servers   the file servers' shared directories
//	POST /exec      ExecRequest -> ExecResult
//	POST /shutdown  stops the node; the VM powers off after
func (n *node) serve(shutdown chan struct{}) {
	var once sync.Once
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		n.mu.Lock()
		s := n.ready
		n.mu.Unlock()
		fmt.Fprintln(w, s)
	})
	mux.HandleFunc("GET /servers", func(w http.ResponseWriter, r *http.Request) {
		n.mu.Lock()
		defer n.mu.Unlock()
		out := map[string]string{}
		if n.nfs != nil {
			out["nfs"] = n.nfs.Data
		}
		if n.smb != nil {
			out["smb"] = n.smb.Data
		}
		_ = json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("POST /exec", func(w http.ResponseWriter, r *http.Request) {
		var req ExecRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Argv) == 0 {
			http.Error(w, "want {\"argv\": [...]}", http.StatusBadRequest)
			return
		}
		limit := time.Minute
		if d, err := time.ParseDuration(req.Timeout); err == nil && d > 0 {
			limit = d
		}
		ctx, cancel := context.WithTimeout(r.Context(), limit)
		defer cancel()
		cmd := exec.CommandContext(ctx, req.Argv[0], req.Argv[1:]...)
		cmd.Env = append(os.Environ(), n.runtimePath())
		out, err := cmd.CombinedOutput()
		res := ExecResult{Output: string(out)}
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee):
			res.Code = ee.ExitCode()
		case err != nil:
			res.Code = -1
			res.Output += err.Error()
		}
		_ = json.NewEncoder(w).Encode(res)
	})
	mux.HandleFunc("POST /shutdown", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "stopping")
		once.Do(func() { close(shutdown) })
	})
	srv := &http.Server{Addr: fmt.Sprintf(":%d", n.cfg.ControlPort), Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		log.Printf("guestd: control API: %v", err)
	}
}
