// Command livenessprobe stands in for Kubernetes' livenessprobe sidecar in
// the test cluster (test/node/overlay), which the Go module proxy does not
// serve. Like the real one it answers HTTP GET /healthz with 200 when the
// driver's CSI Probe says it is ready, and 500 otherwise; it takes the same
// flags the manifests pass.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/fileshare-csi/fileshare-csi/test/node/csiprobe"
)

func main() {
	address := flag.String("csi-address", "/run/csi/socket", "the driver's CSI socket")
	timeout := flag.Duration("probe-timeout", time.Second, "how long one Probe may take")
	endpoint := flag.String("http-endpoint", "", "address to serve /healthz on, e.g. :9808")
	port := flag.Int("health-port", 9808, "port to serve /healthz on when --http-endpoint is not set")
	flag.Int("v", 0, "log verbosity (accepted for the manifests' sake)")
	flag.Parse()
	if *endpoint == "" {
		*endpoint = fmt.Sprintf(":%d", *port)
	}
	conn, err := csiprobe.Dial(*address)
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), *timeout)
		defer cancel()
		if err := csiprobe.Ready(ctx, conn); err != nil {
			log.Printf("health check failed: %v", err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	srv := &http.Server{Addr: *endpoint, ReadHeaderTimeout: 10 * time.Second}
	log.Printf("serving /healthz on %s for %s", *endpoint, *address)
	log.Fatal(srv.ListenAndServe())
}
