"""A PEP 517 / PEP 660 build backend for the `markwright` package, standard library only.

It packs src/markwright into a pure-Python wheel (py3-none-any), an sdist, or an editable wheel
that points at src/. The package's metadata lives here, in one place; the version is read from
src/markwright/_version.py.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile

NAME = "markwright"
SUMMARY = "Python client for the Markwright document-to-Markdown API (standard library only)"
REQUIRES_PYTHON = ">=3.9"
LICENSE = "MIT"
CLASSIFIERS = (
    "Programming Language :: Python :: 3",
    "License :: OSI Approved :: MIT License",
    "Operating System :: OS Independent",
    "Typing :: Typed",
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
PACKAGE_DIR = os.path.join(SRC, NAME)
SDIST_FILES = ("pyproject.toml", "README.md")
SDIST_DIRS = ("build_backend", "src")
WHEEL_TAG = "py3-none-any"


def _version():
    with open(os.path.join(PACKAGE_DIR, "_version.py"), encoding="utf-8") as handle:
        match = re.search(r'__version__\s*=\s*"([^"]+)"', handle.read())
    if not match:
        raise RuntimeError("src/markwright/_version.py must define __version__")
    return match.group(1)


def _readme():
    path = os.path.join(ROOT, "README.md")
    if not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _metadata():
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + NAME,
        "Version: " + _version(),
        "Summary: " + SUMMARY,
        "License: " + LICENSE,
        "Requires-Python: " + REQUIRES_PYTHON,
    ]
    lines += ["Classifier: " + c for c in CLASSIFIERS]
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + _readme()


def _dist_info():
    return "{}-{}.dist-info".format(NAME, _version())


def _wheel_name():
    return "{}-{}-{}.whl".format(NAME, _version(), WHEEL_TAG)


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return "{},sha256={},{}".format(path, digest, len(data))


def _package_files():
    """(archive path, bytes) of every file of the package, sorted, caches left out."""
    files = []
    for folder, dirs, names in os.walk(PACKAGE_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith((".pyc", ".pyo")):
                continue
            full = os.path.join(folder, name)
            with open(full, "rb") as handle:
                files.append((os.path.relpath(full, SRC).replace(os.sep, "/"), handle.read()))
    return files


def _write_wheel(wheel_directory, files):
    dist_info = _dist_info()
    files = list(files) + [
        (dist_info + "/METADATA", _metadata().encode("utf-8")),
        (
            dist_info + "/WHEEL",
            "Wheel-Version: 1.0\nGenerator: markwright_build\nRoot-Is-Purelib: true\nTag: {}\n".format(
                WHEEL_TAG
            ).encode("utf-8"),
        ),
        (dist_info + "/top_level.txt", (NAME + "\n").encode("utf-8")),
    ]
    record = [_record_line(path, data) for path, data in files]
    record.append(dist_info + "/RECORD,,")
    files.append((dist_info + "/RECORD", ("\n".join(record) + "\n").encode("utf-8")))
    os.makedirs(wheel_directory, exist_ok=True)
    name = _wheel_name()
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files:
            wheel.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, _package_files())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 660: a wheel holding only a .pth file that puts src/ on sys.path."""
    return _write_wheel(wheel_directory, [("_markwright_editable.pth", (SRC + "\n").encode("utf-8"))])


def build_sdist(sdist_directory, config_settings=None):
    base = "{}-{}".format(NAME, _version())
    os.makedirs(sdist_directory, exist_ok=True)
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        pkg_info = _metadata().encode("utf-8")
        info = tarfile.TarInfo(base + "/PKG-INFO")
        info.size, info.mtime = len(pkg_info), int(time.time())
        tar.addfile(info, io.BytesIO(pkg_info))
        for entry in SDIST_FILES + SDIST_DIRS:
            path = os.path.join(ROOT, entry)
            if os.path.exists(path):
                tar.add(path, arcname=base + "/" + entry, filter=_without_caches)
    return name


def _without_caches(info):
    return None if "__pycache__" in info.name or info.name.endswith(".pyc") else info
