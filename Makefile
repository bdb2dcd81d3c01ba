# Shortcuts; the README's two commands are all a developer needs.
.PHONY: dev test build bench lint

dev:
	npm start

test:
	npm test

build:
	npm run build

bench:
	npm run bench

lint:
	npm run typecheck

# --- Kubernetes (docs/cluster.md) -----------------------------------------------------------------
# Services are derived from the workspace: services/<name>/src/index.ts, minus the shared libraries.
SERVICES := $(patsubst services/%/src/index.ts,%,$(wildcard services/*/src/index.ts))
IMAGE_PREFIX ?= leadforge/
IMAGE_TAG ?= dev
KIND_CLUSTER ?= leadforge
NAMESPACE ?= leadforge
VALUES ?= charts/leadforge/values-dev.yaml
.PHONY: images service-images offline-node-image kind-up skaffold-dev deploy

# Every image: one per service, the gateway (Envoy) and the web app; context = the repository root.
# CONTAINER=podman builds with podman (docker format, so HEALTHCHECK is kept); NODE_IMAGE, RUNTIME_IMAGE
# and NGINX_IMAGE replace the pinned bases, e.g. with the offline stand-ins where no registry is reachable (`npm run
# images` builds those and every image but the gateway's; docs/cluster.md, "Images").
CONTAINER ?= docker
NODE_IMAGE ?=
RUNTIME_IMAGE ?=
NGINX_IMAGE ?=
BUILD_ARGS := $(if $(filter podman,$(CONTAINER)),--format docker) $(if $(NODE_IMAGE),--build-arg NODE_IMAGE=$(NODE_IMAGE)) $(if $(RUNTIME_IMAGE),--build-arg RUNTIME_IMAGE=$(RUNTIME_IMAGE)) $(if $(NGINX_IMAGE),--build-arg NGINX_IMAGE=$(NGINX_IMAGE))
images: service-images
	$(CONTAINER) build $(BUILD_ARGS) -f gateway/Dockerfile -t $(IMAGE_PREFIX)gateway:$(IMAGE_TAG) .
	$(CONTAINER) build $(BUILD_ARGS) -f web/Dockerfile -t $(IMAGE_PREFIX)web:$(IMAGE_TAG) .

service-images:
	@for s in $(SERVICES); do \
	  echo "== $(IMAGE_PREFIX)$$s:$(IMAGE_TAG)"; \
	  $(CONTAINER) build $(BUILD_ARGS) -f deploy/docker/service.Dockerfile --build-arg SERVICE=$$s -t $(IMAGE_PREFIX)$$s:$(IMAGE_TAG) . || exit 1; \
	done

# A stand-in for the pinned Node base image from Debian's archive and this machine's Node 20, for
# machines that reach Debian and npm but no container registry (docs/cluster.md, "Images").
offline-node-image:
	CONTAINER=$(CONTAINER) deploy/docker/offlineNodeImage.sh

# A kind cluster with the operators the chart uses (MONITORING=1 adds Prometheus and Grafana).
kind-up:
	@kind get clusters | grep -qx $(KIND_CLUSTER) || kind create cluster --name $(KIND_CLUSTER) --config deploy/kind/cluster.yaml
	kubectl config use-context kind-$(KIND_CLUSTER)
	deploy/kind/install-operators.sh

# Build, deploy and watch; the gateway is forwarded to http://localhost:8080.
skaffold-dev:
	skaffold dev --kube-context kind-$(KIND_CLUSTER) --port-forward

# helm install/upgrade with the images of `make images` (loaded into kind when the context is kind).
deploy:
	@if kubectl config current-context | grep -q '^kind-'; then \
	  for i in $(SERVICES) gateway web; do kind load docker-image --name $(KIND_CLUSTER) $(IMAGE_PREFIX)$$i:$(IMAGE_TAG); done; \
	fi
	helm upgrade --install leadforge charts/leadforge --namespace $(NAMESPACE) --create-namespace \
	  -f $(VALUES) --set image.tag=$(IMAGE_TAG) --set image.pullPolicy=IfNotPresent $(HELM_ARGS)
