# A stand-in for the service images' pinned runtime base (gcr.io/distroless/nodejs20-debian12:nonroot)
# on a machine that reaches Debian's archive but no container registry: Node and the libraries it
# links, CA certificates, time zones and the users of a distroless image, nothing else (no shell, no
# package manager, no npm), taken from the offline Node base (deploy/docker/offlineNodeImage.sh).
# Node sits where distroless has it, /nodejs/bin/node.
#   podman build -f deploy/docker/offlineNodeRuntime.Dockerfile --build-arg NODE_IMAGE=<offline node tag> -t localhost/offline/nodejs20-distroless .
ARG NODE_IMAGE=localhost/offline/node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS rootfs
RUN set -eu \
 && mkdir -p /rootfs/nodejs/bin /rootfs/etc/ssl/certs /rootfs/tmp /rootfs/home/nonroot \
 && cp /usr/local/bin/node /rootfs/nodejs/bin/node \
 && for lib in $(ldd /usr/local/bin/node | grep -o '/[^ ]*'); do cp --parents -L "$lib" /rootfs/; done \
 && cp /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/ \
 && if [ -d /usr/share/zoneinfo ]; then cp -a --parents /usr/share/zoneinfo /rootfs/; fi \
 && printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' 'nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin' 'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin' >/rootfs/etc/passwd \
 && printf '%s\n' 'root:x:0:' 'nobody:x:65534:' 'nonroot:x:65532:' >/rootfs/etc/group \
 && chmod 1777 /rootfs/tmp && chown 65532:65532 /rootfs/home/nonroot \
 && /rootfs/nodejs/bin/node --version >/dev/null

FROM scratch
COPY --from=rootfs /rootfs/ /
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/nodejs/bin \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
USER 65532:65532
WORKDIR /home/nonroot
HEALTHCHECK NONE
ENTRYPOINT ["/nodejs/bin/node"]
