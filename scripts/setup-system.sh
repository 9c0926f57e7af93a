#!/usr/bin/env bash
# Debian packages Markwright needs, installed only when missing, with one `apt-get update`:
# - runtime: poppler-utils reads PDF text (pdftohtml, run with libmimalloc2.0's
#   allocator preloaded: tool-runner.ts) and renders scanned pages for OCR, ffmpeg decodes audio, pocketsphinx +
#   its US-English model transcribe offline; Tesseract traineddata for other scripts (Chinese,
#   Japanese, Korean, with their vertical models, Cyrillic, Arabic, Hebrew, Greek, Devanagari, Thai)
#   and the script detector (osd) let OCR read them; tesseract-ocr is the native engine OCR runs
#   per page as a child process (about 3x the WebAssembly engine's speed; without it OCR falls back to WebAssembly);
# - tests: flite and espeak-ng synthesise test speech (and the `pnpm bench speech` recordings), DejaVu fonts draw test documents (SVG text
#   for OCR, Hebrew in PDFs), WenQuanYi Zen Hei draws the CJK test images, Noto (CJK, Arabic, Devanagari), Nanum
#   and FreeFont draw the held-out scans in other scripts (test/heldout), chromium renders the
#   /docs page in its browser test;
# - infrastructure: PostgreSQL, RabbitMQ and Redis, only when none answers on the address
#   DATABASE_URL / AMQP_URL / REDIS_URL name (their defaults otherwise) and that address is this
#   machine; they are then installed if missing and started. A server that answers is left alone.
# Options: --runtime-only (runtime packages only: the Docker image), --dry-run (print the plan),
# --image-tools (only what CI builds and runs the image with: podman, runc, debootstrap).
set -euo pipefail

OCR_DATA=(tesseract-ocr-osd tesseract-ocr-chi-sim tesseract-ocr-chi-sim-vert tesseract-ocr-chi-tra tesseract-ocr-chi-tra-vert
  tesseract-ocr-jpn tesseract-ocr-jpn-vert tesseract-ocr-kor tesseract-ocr-kor-vert tesseract-ocr-rus tesseract-ocr-ara
  tesseract-ocr-heb tesseract-ocr-ell tesseract-ocr-hin tesseract-ocr-tha)
RUNTIME_PACKAGES=(poppler-utils libmimalloc2.0 ffmpeg pocketsphinx pocketsphinx-en-us tesseract-ocr tesseract-ocr-eng "${OCR_DATA[@]}")
IMAGE_TOOLS=(podman runc debootstrap)
TEST_PACKAGES=(flite espeak-ng fonts-dejavu-core fonts-wqy-zenhei fonts-noto-cjk fonts-noto-core fonts-nanum fonts-freefont-ttf fonts-droid-fallback
  chromium)
READY_TIMEOUT_S=60

RUNTIME_ONLY=false
DRY_RUN=false
IMAGE_TOOLS_ONLY=false
for arg in "$@"; do
  case "$arg" in
    --runtime-only) RUNTIME_ONLY=true ;;
    --dry-run) DRY_RUN=true ;;
    --image-tools) IMAGE_TOOLS_ONLY=true ;;
    *) echo "usage: setup-system.sh [--runtime-only | --image-tools] [--dry-run]" >&2; exit 2 ;;
  esac
done

is_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# "host port" of a URL (scheme://user:pass@host:port/path), with the scheme's default port.
host_port() {
  local scheme=${1%%://*} authority=${1#*://} host port
  authority=${authority%%[/?]*}
  authority=${authority##*@}
  if [[ $authority =~ ^\[(.*)\](:([0-9]+))?$ || $authority =~ ^([^:]*)(:([0-9]+))?$ ]]; then
    host=${BASH_REMATCH[1]}
    port=${BASH_REMATCH[3]}
  fi
  if [ -z "${port:-}" ]; then
    case "$scheme" in
      postgres | postgresql) port=5432 ;; amqp) port=5672 ;; amqps) port=5671 ;; *) port=6379 ;;
    esac
  fi
  echo "${host:-127.0.0.1} $port"
}

reachable() {
  timeout 3 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null
}

is_local() {
  case "$1" in 127.* | localhost | ::1) return 0 ;; *) return 1 ;; esac
}

wait_until_reachable() {
  local name=$1 host=$2 port=$3
  for _ in $(seq 1 "$READY_TIMEOUT_S"); do
    reachable "$host" "$port" && { echo "$name is up on $host:$port."; return 0; }
    sleep 1
  done
  echo "$name did not come up on $host:$port within ${READY_TIMEOUT_S} s." >&2
  return 1
}

# Runs a command as the postgres user (peer authentication on the local socket).
as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

# Starts, stops or reloads a Debian cluster through systemd when systemd runs it, else directly.
cluster_ctl() {
  local action=$1 version=$2
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
    $SUDO systemctl "$action" "postgresql@$version-main"
  else
    $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main "$action"
  fi
}

newest_cluster_version() {
  ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1
}

start_postgresql() {
  local port=$2 version
  version=$(newest_cluster_version)
  if [ -z "$version" ]; then
    version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    $SUDO pg_createcluster --port "$port" "$version" main
  elif [ "$($SUDO pg_conftool -s "$version" main show port 2>/dev/null)" != "$port" ]; then
    # The package's cluster listens on its default port; DATABASE_URL names another.
    echo "Moving PostgreSQL $version/main to port $port (DATABASE_URL)."
    $SUDO pg_conftool "$version" main set port "$port"
    cluster_ctl stop "$version" 2>/dev/null || true
  fi
  cluster_ctl start "$version"
}

# True when DATABASE_URL's user can log in (to the `postgres` database: markwright's may not exist yet).
postgres_login_ok() {
  local url=${1%%\?*}
  PGCONNECT_TIMEOUT=5 psql -w "${url%/*}/postgres" -Atqc 'SELECT 1' >/dev/null 2>&1
}

# Whoever started this machine's PostgreSQL (setup, the Debian package under systemd, an admin),
# DATABASE_URL has no password: trust local TCP connections in the cluster on that port, first in
# pg_hba.conf (the first matching rule wins), then reload. Nothing changes when the login works.
allow_local_logins() {
  local url=$1 port=$2 version hba
  postgres_login_ok "$url" && return 0
  version=$(pg_lsclusters -h 2>/dev/null | awk -v p="$port" '$3 == p && $2 == "main" { print $1; exit }')
  if [ -z "$version" ] || [[ $url =~ ://[^/@]*:[^/@]*@ ]]; then
    echo "PostgreSQL on port $port refuses the login of DATABASE_URL; give its user a password in DATABASE_URL or let it in (pg_hba.conf)." >&2
    return 0
  fi
  hba=$($SUDO pg_conftool -s "$version" main show hba_file 2>/dev/null || echo "/etc/postgresql/$version/main/pg_hba.conf")
  if [ "$DRY_RUN" = true ]; then
    echo "Would let local TCP connections into PostgreSQL without a password ($hba)"
    return 0
  fi
  echo "Letting local TCP connections into PostgreSQL without a password ($hba)."
  $SUDO sed -i '/^host all all \(127.0.0.1\/32\|::1\/128\) trust$/d' "$hba"
  $SUDO sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
  as_postgres psql -p "$port" -Atqc 'SELECT pg_reload_conf()' >/dev/null || cluster_ctl reload "$version"
  for _ in $(seq 1 10); do
    postgres_login_ok "$url" && return 0
    sleep 1
  done
  echo "PostgreSQL on port $port still refuses the login of DATABASE_URL after trusting local connections ($hba)." >&2
  return 1
}

start_rabbitmq() {
  $SUDO env RABBITMQ_NODE_PORT="$2" rabbitmq-server -detached
}

start_redis() {
  $SUDO redis-server --daemonize yes --bind 127.0.0.1 --port "$2" --save "" --appendonly no
}

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

local_postgres=""
wanted=("${RUNTIME_PACKAGES[@]}")
[ "$IMAGE_TOOLS_ONLY" = true ] && wanted=("${IMAGE_TOOLS[@]}")
to_start=()
if [ "$RUNTIME_ONLY" = false ] && [ "$IMAGE_TOOLS_ONLY" = false ]; then
  wanted+=("${TEST_PACKAGES[@]}")
  # name | URL | Debian package | start function
  for service in \
    "PostgreSQL|${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/markwright}|postgresql|start_postgresql" \
    "RabbitMQ|${AMQP_URL:-amqp://guest:guest@127.0.0.1:5672}|rabbitmq-server|start_rabbitmq" \
    "Redis|${REDIS_URL:-redis://127.0.0.1:6379}|redis-server|start_redis"; do
    IFS='|' read -r name url package starter <<<"$service"
    read -r host port <<<"$(host_port "$url")"
    if [ "$name" = PostgreSQL ] && is_local "$host"; then local_postgres="$url|$port"; fi
    if reachable "$host" "$port"; then
      continue
    elif is_local "$host"; then
      echo "No $name answers on $host:$port: setup will install $package if missing and start it."
      wanted+=("$package")
      to_start+=("$name|$host|$port|$starter")
    else
      echo "No $name answers on $host:$port; it is not this machine, so start it there." >&2
    fi
  done
fi

missing=()
for p in "${wanted[@]}"; do
  is_installed "$p" || missing+=("$p")
done

if [ "$DRY_RUN" = true ]; then
  if [ "${#missing[@]}" -gt 0 ]; then echo "Would install: ${missing[*]}"; fi
  for entry in "${to_start[@]}"; do
    IFS='|' read -r name host port _ <<<"$entry"
    echo "Would start $name on $host:$port"
    version=$(newest_cluster_version)
    if [ "$name" = PostgreSQL ] && [ -n "$version" ] && [ "$(pg_conftool -s "$version" main show port 2>/dev/null)" != "$port" ]; then
      echo "Would move PostgreSQL $version/main to port $port (pg_conftool set port)"
    fi
  done
  if [ -n "$local_postgres" ] && command -v psql >/dev/null && reachable 127.0.0.1 "${local_postgres#*|}"; then
    allow_local_logins "${local_postgres%|*}" "${local_postgres#*|}"
  fi
  exit 0
fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

for entry in "${to_start[@]}"; do
  IFS='|' read -r name host port starter <<<"$entry"
  # Installing a package may have started its server already.
  if ! reachable "$host" "$port"; then
    echo "Starting $name on $host:$port."
    "$starter" "$host" "$port"
  fi
  wait_until_reachable "$name" "$host" "$port"
done

# A local PostgreSQL, started by whoever, must let DATABASE_URL's user in.
if [ -n "$local_postgres" ] && command -v psql >/dev/null; then
  allow_local_logins "${local_postgres%|*}" "${local_postgres#*|}"
fi
