#!/usr/bin/env bash
# Debian packages some converters run (and the tests use to make speech): poppler-utils renders
# scanned PDF pages for OCR, ffmpeg decodes audio, pocketsphinx + its US-English model
# transcribe offline, flite and espeak-ng synthesise test speech, DejaVu fonts draw test documents
# (SVG text for OCR, Hebrew in PDFs). Tesseract traineddata for other scripts (Chinese, Japanese, Korean,
# with their vertical models, Cyrillic, Arabic, Hebrew, Greek, Devanagari, Thai) and the script detector (osd)
# let OCR read them; WenQuanYi Zen Hei draws the CJK test images; chromium renders the /docs page in its
# browser test. Installs only what is missing.
set -euo pipefail
OCR_DATA=(tesseract-ocr-osd tesseract-ocr-chi-sim tesseract-ocr-chi-sim-vert tesseract-ocr-chi-tra tesseract-ocr-chi-tra-vert
  tesseract-ocr-jpn tesseract-ocr-jpn-vert tesseract-ocr-kor tesseract-ocr-kor-vert tesseract-ocr-rus tesseract-ocr-ara
  tesseract-ocr-heb tesseract-ocr-ell tesseract-ocr-hin tesseract-ocr-tha)
PACKAGES=(poppler-utils ffmpeg pocketsphinx pocketsphinx-en-us flite espeak-ng fonts-dejavu-core fonts-wqy-zenhei chromium "${OCR_DATA[@]}")
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
