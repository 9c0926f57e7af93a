#!/usr/bin/env bash
# The native tools `pnpm bench` measures the converters against (not needed to run or test Markwright):
# pandoc (DOCX, HTML) and the tesseract CLI (OCR); pdftotext comes with poppler-utils from setup-system.sh.
# Installs only what is missing; without them the bench still runs and leaves those ratios out.
set -euo pipefail
PACKAGES=(pandoc tesseract-ocr)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; } ||
    echo "bench: could not install ${missing[*]}; their rows will have no baseline" >&2
fi
