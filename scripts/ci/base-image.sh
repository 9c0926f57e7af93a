#!/usr/bin/env bash
# Builds the stand-in for the Dockerfile's FROM (node:20-bookworm-slim), which Docker Hub would
# serve but this machine cannot reach: a Debian bookworm rootfs made by debootstrap from the
# mirror apt already uses, this machine's Node 20 with npm and corepack, user node (uid 1000),
# and this machine's CA bundle (npm reaches the registry through a proxy with its own CA).
# Cached: the rootfs tarball in $CACHE_DIR, the image by a label naming its inputs.
# Usage: base-image.sh [--systemd]   (--systemd: the same plus systemd as PID 1, for the bare-machine run)
set -euo pipefail
source "$(dirname "$0")/podman-env.sh"
need_image_tools

SUITE=bookworm
node_version=$(node --version)
ca_sum=$(sha256sum /etc/ssl/certs/ca-certificates.crt | cut -c1-12)
inputs="$SUITE node-$node_version ca-$ca_sum v1"

# The first Debian mirror apt uses (deb822 sources or the classic list).
mirror() {
  local uri
  uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n 1 || true)
  [ -n "$uri" ] || uri=$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | head -n 1 || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

image_inputs() { podman image inspect --format '{{index .Labels "markwright.ci.inputs"}}' "$1" 2>/dev/null || true; }

build_base() {
  local rootfs_tar="$CACHE_DIR/rootfs-$SUITE.tar"
  if [ ! -s "$rootfs_tar" ]; then
    local dir
    dir=$(mktemp -d "$CACHE_DIR/rootfs.XXXXXX")
    echo "debootstrap $SUITE from $(mirror) ..."
    debootstrap --variant=minbase "$SUITE" "$dir" "$(mirror)" >"$CACHE_DIR/debootstrap.log" 2>&1 ||
      { tail -n 20 "$CACHE_DIR/debootstrap.log" >&2; rm -rf "$dir"; return 1; }
    # As the official slim images: no package lists, no caches.
    rm -rf "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/archives/*.deb
    tar -C "$dir" -cf "$rootfs_tar.tmp" . && mv "$rootfs_tar.tmp" "$rootfs_tar"
    rm -rf "$dir"
  fi
  local ctx
  ctx=$(mktemp -d)
  trap 'rm -rf "$ctx"' RETURN
  mkdir -p "$ctx/usr/bin" "$ctx/usr/lib/node_modules"
  cp -a "$(readlink -f "$(command -v node)")" "$ctx/usr/bin/node"
  cp -a /usr/lib/node_modules/npm /usr/lib/node_modules/corepack "$ctx/usr/lib/node_modules/"
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/ci-ca.crt"
  cp "$rootfs_tar" "$ctx/rootfs.tar"
  cat >"$ctx/Containerfile" <<'CF'
FROM scratch
ADD rootfs.tar /
COPY usr/ /usr/
COPY ci-ca.crt /usr/local/share/ci/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/bin/npx \
 && ln -s ../lib/node_modules/corepack/dist/corepack.js /usr/bin/corepack \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# Node reads its own CA list, not the system's: the proxy's CA reaches npm through this.
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ci/ca-certificates.crt NODE_VERSION=stand-in
CMD ["node"]
CF
  podman build --pull=never --network host --format docker --label "markwright.ci.inputs=$inputs" \
    -t "$BASE_IMAGE" "$ctx" >"$CACHE_DIR/base-build.log" 2>&1 || { tail -n 30 "$CACHE_DIR/base-build.log" >&2; return 1; }
}

build_systemd() {
  local ctx
  ctx=$(mktemp -d)
  trap 'rm -rf "$ctx"' RETURN
  # A Debian machine as it boots: systemd as PID 1, sudo for the setup script, nothing else.
  cat >"$ctx/Containerfile" <<CF
FROM $BASE_IMAGE
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd systemd-sysv dbus sudo ca-certificates \
 && cp /usr/local/share/ci/ca-certificates.crt /usr/local/share/ca-certificates/ci-proxy.crt && update-ca-certificates \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
STOPSIGNAL SIGRTMIN+3
CMD ["/sbin/init"]
CF
  podman build --pull=never --network host --format docker --label "markwright.ci.inputs=$inputs systemd" \
    -t markwright-ci/bookworm-systemd "$ctx" >"$CACHE_DIR/systemd-build.log" 2>&1 ||
    { tail -n 30 "$CACHE_DIR/systemd-build.log" >&2; return 1; }
}

start=$SECONDS
if [ "$(image_inputs "$BASE_IMAGE")" != "$inputs" ]; then build_base; fi
if [ "${1:-}" = "--systemd" ] && [ "$(image_inputs markwright-ci/bookworm-systemd)" != "$inputs systemd" ]; then
  build_systemd
fi
echo "base image $BASE_IMAGE ready ($(elapsed "$start") s)"
