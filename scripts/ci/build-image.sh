#!/usr/bin/env bash
# Builds deploy/Dockerfile as CI does, with podman, on the stand-in base image (base-image.sh):
# never pulls, Docker format (OCI drops HEALTHCHECK), host network (the npm proxy), and this
# machine's pnpm store mounted for the build's RUN steps only (a cache, as BuildKit's cache mounts).
# Usage: build-image.sh [tag]   (default localhost/markwright:ci)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/ci/podman-env.sh
TAG=${1:-localhost/markwright:ci}
bash scripts/ci/base-image.sh
cache=()
store=$(pnpm store path 2>/dev/null || true)
if [ -n "$store" ] && [ -d "$store" ]; then cache=(--volume "$store:/root/.local/share/pnpm/store/$(basename "$store")"); fi
start=$SECONDS
podman build --pull=never --format docker --network host "${cache[@]}" -f deploy/Dockerfile -t "$TAG" . >"$CACHE_DIR/image-build.log" 2>&1 ||
  { tail -n 40 "$CACHE_DIR/image-build.log" >&2; exit 1; }
echo "image $TAG built in $(elapsed "$start") s; size $(podman image inspect --format '{{.Size}}' "$TAG") bytes"
