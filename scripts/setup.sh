#!/usr/bin/env bash
# Installs everything Markwright needs on a fresh machine with Node 20: the system tools some
# converters use (Debian packages), pnpm, and the workspace's npm dependencies. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -f scripts/setup-system.sh ]; then
  bash scripts/setup-system.sh
fi

PNPM_VERSION=10.34.9
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$PNPM_VERSION" ]; then
  npm install -g "pnpm@${PNPM_VERSION}" --no-fund --no-audit --loglevel=error
fi

pnpm install --frozen-lockfile --reporter=append-only
