# Sourced by the CI image steps: podman with a private configuration (never /etc): runc (crun
# rejects this kernel's cgroup layout), cgroupfs and file events (no systemd on the CI machine),
# and lower default ulimits than the machine's, which runc cannot grant inside a container.
CI_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE_DIR=${MARKWRIGHT_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/markwright-ci}
mkdir -p "$CACHE_DIR"
export CONTAINERS_CONF="$CACHE_DIR/containers.conf"
cat >"$CONTAINERS_CONF" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF

# The Dockerfile's FROM, fully qualified so --pull=never finds the stand-in.
BASE_IMAGE=docker.io/library/node:20-bookworm-slim

# Installs podman, runc and debootstrap through the project's setup script when one is missing.
need_image_tools() {
  if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v debootstrap >/dev/null; then
    bash "$CI_DIR/../setup-system.sh" --image-tools
  fi
}

elapsed() { echo $((SECONDS - ${1:-0})); }
