#!/usr/bin/env bash
# Builds a stand-in for the pinned Node base image (node:20.20.2-bookworm-slim) on a machine that
# reaches Debian's archive and the npm registry but no container registry, so the real Dockerfiles
# can be built and run there:  make images CONTAINER=podman NODE_IMAGE=<the tag printed at the end>
#
# What goes in: a Debian bookworm minbase root filesystem (debootstrap; no documentation, manual pages
# or translations, as in Debian's slim images) with ca-certificates, this
# machine's Node 20 and npm under /usr/local (where the official image has them), the user `node`
# (uid 1000), and this machine's CA bundle as NODE_EXTRA_CA_CERTS, so npm inside a build trusts what
# npm outside it trusts (an egress proxy's CA, say). Needs root, debootstrap and docker or podman.
set -euo pipefail

CONTAINER="${CONTAINER:-docker}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
NODE_BIN="$(command -v node)"
NODE_VERSION="$("$NODE_BIN" -p 'process.versions.node')"
NPM_DIR="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
CA_BUNDLE="${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
TAG="${OFFLINE_NODE_IMAGE:-localhost/offline/node:${NODE_VERSION}-bookworm-slim}"

case "$NODE_VERSION" in 20.*) ;; *) echo "Node 20 is needed (found $NODE_VERSION): the images run Node 20" >&2; exit 1 ;; esac
for tool in debootstrap "$CONTAINER"; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (apt-get install $tool)" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo 'debootstrap needs root' >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

echo "== Debian bookworm (minbase) from $MIRROR"
debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
# As Debian's slim images: no documentation, manual pages or translations, now or from later installs.
printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' 'path-exclude /usr/share/man/*' \
  'path-exclude /usr/share/groff/*' 'path-exclude /usr/share/info/*' 'path-exclude /usr/share/lintian/*' \
  'path-exclude /usr/share/locale/*' >"$rootfs/etc/dpkg/dpkg.cfg.d/slim"
find "$rootfs/usr/share/doc" -mindepth 2 -not -name copyright -not -type d -delete
rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/groff/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/lintian/* "$rootfs"/usr/share/locale/*
cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
chroot "$rootfs" /bin/sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ca-certificates >/dev/null && apt-get clean && rm -rf /var/lib/apt/lists/*'
: >"$rootfs/etc/resolv.conf"

echo "== Node $NODE_VERSION and npm from this machine"
install -D -m 0755 "$NODE_BIN" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$NPM_DIR" "$rootfs/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
cp "$CA_BUNDLE" "$rootfs/etc/ssl/certs/ca-certificates.crt"
chroot "$rootfs" /bin/sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node && node --version >/dev/null && npm --version >/dev/null'

echo "== $TAG"
tar -C "$rootfs" -c . | "$CONTAINER" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' - "$TAG" >/dev/null
echo "$TAG"
