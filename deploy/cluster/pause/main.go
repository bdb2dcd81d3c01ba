// The pod sandbox's process (containerd's sandbox_image): it holds a pod's namespaces while the pod
// lives, reaps the orphans a pod's containers leave, and exits on SIGINT or SIGTERM. Built here
// because no registry reachable from this machine serves Kubernetes' own pause image.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for received := range signals {
		if received != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
	}
}
