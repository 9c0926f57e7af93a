"""What the tests need from the real service: its address, tokens of prepared workspaces, and
which extensions its OpenAPI document lists.

The jest file clients/test/python-client.test.ts starts the service in-process and sets:
MARKWRIGHT_BASE_URL, MARKWRIGHT_TOKEN (a business workspace with plenty of credits),
MARKWRIGHT_TOKEN_BROKE (no credits), MARKWRIGHT_TOKEN_FREE (free plan, for the rate limit),
MARKWRIGHT_TOKEN_OTHER (another workspace), MARKWRIGHT_IDLE_BASE_URL and MARKWRIGHT_IDLE_TOKEN
(a second gateway without a converter, whose conversions stay pending), MARKWRIGHT_TEST_CERT / MARKWRIGHT_TEST_KEY (a
certificate the service trusts, for the HTTPS servers the tests start).
"""

import functools
import http.server
import json
import os
import ssl
import threading
import unittest
import urllib.request
from typing import Dict, List

from markwright import MarkwrightClient

BASE_URL = os.environ.get("MARKWRIGHT_BASE_URL", "")
needs_service = unittest.skipUnless(BASE_URL, "MARKWRIGHT_BASE_URL is not set (run through pnpm test)")


def token(kind: str = "") -> str:
    name = "MARKWRIGHT_TOKEN" + ("_" + kind.upper() if kind else "")
    value = os.environ.get(name)
    if not value:
        raise unittest.SkipTest(name + " is not set")
    return value


def client(kind: str = "", **options) -> MarkwrightClient:
    return MarkwrightClient(base_url=BASE_URL, token=token(kind), **options)


def idle_client() -> MarkwrightClient:
    """A client of a second gateway that has no converter: its conversions stay pending."""
    base_url, idle_token = os.environ.get("MARKWRIGHT_IDLE_BASE_URL"), os.environ.get("MARKWRIGHT_IDLE_TOKEN")
    if not base_url or not idle_token:
        raise unittest.SkipTest("MARKWRIGHT_IDLE_BASE_URL / MARKWRIGHT_IDLE_TOKEN are not set")
    return MarkwrightClient(base_url=base_url, token=idle_token)


@functools.lru_cache(maxsize=1)
def _openapi_text() -> str:
    with urllib.request.urlopen(BASE_URL + "/openapi.json", timeout=30) as response:
        return response.read().decode("utf-8")


def _openapi_paths() -> List[str]:
    return list(json.loads(_openapi_text()).get("paths", {}))


def needs_field(name: str):
    """Skips a test of an extension whose form field or header this server's OpenAPI does not name yet."""
    present = bool(BASE_URL) and '"{}"'.format(name) in _openapi_text()
    return unittest.skipUnless(present, "this server's OpenAPI has no {} yet".format(name))


def needs_path(suffix: str):
    """Skips a test of an extension endpoint (e.g. '/cancel') this server's OpenAPI does not list yet."""
    present = bool(BASE_URL) and any(p.endswith(suffix) for p in _openapi_paths())
    return unittest.skipUnless(present, "this server's OpenAPI has no path ending in {} yet".format(suffix))


class Receiver:
    """A real HTTPS server on 127.0.0.1, as a webhook receiver or a host of files to fetch by URL."""

    def __init__(self, files: Dict[str, bytes] = None) -> None:
        cert, key = os.environ.get("MARKWRIGHT_TEST_CERT"), os.environ.get("MARKWRIGHT_TEST_KEY")
        if not cert or not key:
            raise unittest.SkipTest("MARKWRIGHT_TEST_CERT / MARKWRIGHT_TEST_KEY are not set")
        self.deliveries: List[dict] = []
        self.files = files or {}
        self.arrived = threading.Condition()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.arrived:
                    receiver.deliveries.append({"path": self.path, "headers": self.headers, "body": body})
                    receiver.arrived.notify_all()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):  # noqa: N802
                data = receiver.files.get(self.path)
                self.send_response(200 if data is not None else 404)
                self.send_header("Content-Length", str(len(data or b"")))
                self.end_headers()
                self.wfile.write(data or b"")

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        return "https://localhost:{}{}".format(self.server.server_address[1], path)

    def wait_for(self, count: int, timeout: float = 60.0) -> List[dict]:
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.deliveries) >= count, timeout):
                raise AssertionError("{} deliveries after {} s, expected {}".format(len(self.deliveries), timeout, count))
            return list(self.deliveries)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
