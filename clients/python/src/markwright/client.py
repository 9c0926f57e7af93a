"""MarkwrightClient: the Markwright API over urllib (standard library only)."""

import email.utils
import http.client
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple, Union

from ._version import __version__
from .errors import ConversionTimeoutError, MarkwrightConnectionError, error_from_response
from .multipart import FileSource, MultipartBody

DEFAULT_MAX_RETRIES = 3
DEFAULT_TIMEOUT_SECONDS = 180.0
DEFAULT_WAIT_TIMEOUT_SECONDS = 300.0
DEFAULT_INITIAL_DELAY_SECONDS = 0.5
DEFAULT_MAX_DELAY_SECONDS = 10.0
#: Pause before resending a 429 answered without a usable Retry-After, doubled per retry.
FALLBACK_RETRY_SECONDS = 1.0
FINISHED = ("completed", "failed")
USER_AGENT = "markwright-python/" + __version__

#: The form fields of POST /convert besides ``file`` (the contract's and extensions E1–E5).
CONVERT_FIELDS = (
    "webhook_url",
    "webhook_secret",
    "use_enhanced_ai",
    "optimize_tokens",
    "include_metadata",
    "include_pages",
    "page_range",
    "chunk_max_tokens",
    "include_document",
    "file_url",
)


class ApiResponse(dict):
    """The JSON answer as a dict, plus the HTTP ``status`` and the response ``headers``."""

    def __init__(self, body: Any, status: int, headers: Mapping[str, str]) -> None:
        super().__init__(body if isinstance(body, dict) else {})
        self.status = status
        self.headers = dict(headers)

    @property
    def replayed(self) -> bool:
        """True when the answer is a replay of an earlier request with the same Idempotency-Key."""
        return _header(self.headers, "Idempotent-Replayed") == "true"


class MarkwrightClient:
    """A client of the Markwright API.

    ``base_url`` includes the version, e.g. ``https://markwright.example.com/api/v1``; ``token`` is
    a workspace token (``mwk_…``). A 429 answer is resent after the Retry-After it names, up to
    ``max_retries`` times (``retry_on_429=False`` raises RateLimitError at once). ``timeout`` is
    the socket timeout per request, in seconds; a sync conversion can take a while, hence 180 s.
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        retry_on_429: bool = True,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
    ) -> None:
        if not base_url:
            raise ValueError("MarkwrightClient: base_url is required")
        if not token:
            raise ValueError("MarkwrightClient: token is required")
        self.base_url = base_url.rstrip("/")
        self._token = token
        self.retry_on_429 = retry_on_429
        self.max_retries = max_retries
        self.timeout = timeout
        self._opener = urllib.request.build_opener(_NoRedirect)

    def __repr__(self) -> str:
        return "MarkwrightClient(base_url={!r})".format(self.base_url)

    def convert(
        self,
        path: Optional[FileSource] = None,
        *,
        filename: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        **options: Union[str, bool, int, None],
    ) -> ApiResponse:
        """POST /convert: converts the file at ``path`` (or ``bytes`` with ``filename``).

        ``options`` are the form fields: webhook_url, webhook_secret, use_enhanced_ai,
        optimize_tokens, include_metadata, include_pages, page_range, chunk_max_tokens,
        include_document, file_url (then leave ``path`` out). Booleans are sent as true/false;
        None leaves a field out. Without webhook_url the answer is the sync result (200, the
        Markdown); with it, the queued acknowledgement (202). ``idempotency_key`` is sent as the
        Idempotency-Key header: a repeat returns the first answer (``result.replayed``).
        """
        unknown = sorted(set(options) - set(CONVERT_FIELDS))
        if unknown:
            raise TypeError("convert() got unknown option(s): {}".format(", ".join(unknown)))
        fields = [(name, _form_value(options[name])) for name in CONVERT_FIELDS if options.get(name) is not None]
        if path is not None and filename is None:
            if isinstance(path, (bytes, bytearray, memoryview)):
                raise ValueError("convert(): pass filename= with bytes (its extension picks the format)")
            filename = os.path.basename(os.fspath(path))
        body = MultipartBody(fields, path, filename)
        headers = {"Content-Type": body.content_type, "Content-Length": str(body.content_length)}
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        return self._request("POST", "/convert", body=body, headers=headers)

    def get_conversion(self, conversion_id: str) -> ApiResponse:
        """GET /conversions/{id}: the status, and the result once completed."""
        return self._request("GET", "/conversions/" + _segment(conversion_id))

    def list_conversions(
        self, *, status: Optional[str] = None, per_page: Optional[int] = None, page: Optional[int] = None
    ) -> Iterator[ApiResponse]:
        """GET /conversions, newest first: yields each page (a dict with ``data``), following next links."""
        query = {"status": status, "per_page": per_page, "page": page}
        params = [(k, str(v)) for k, v in query.items() if v is not None]
        while True:
            current = self._request("GET", "/conversions", query=params)
            yield current
            next_url = current.get("next_page_url")
            if not next_url or not current.get("data"):
                return
            # The next link's query, asked of our own base URL: behind a proxy the link's host may
            # be the gateway's, and the token is never sent anywhere but base_url.
            params = urllib.parse.parse_qsl(urllib.parse.urlsplit(next_url).query)

    def iter_conversions(self, **filters: Any) -> Iterator[Dict[str, Any]]:
        """The conversions themselves (list items), page after page; same filters as list_conversions."""
        for page in self.list_conversions(**filters):
            for item in page.get("data", []):
                yield item

    def wait_for_conversion(
        self,
        conversion_id: str,
        *,
        timeout: float = DEFAULT_WAIT_TIMEOUT_SECONDS,
        initial_delay: float = DEFAULT_INITIAL_DELAY_SECONDS,
        max_delay: float = DEFAULT_MAX_DELAY_SECONDS,
    ) -> ApiResponse:
        """Polls until the conversion is completed or failed and returns it (a failure is returned,
        not raised), pausing initial_delay, then twice as long each time up to max_delay; raises
        ConversionTimeoutError when ``timeout`` seconds pass first."""
        deadline = time.monotonic() + timeout
        delay = initial_delay
        while True:
            conversion = self.get_conversion(conversion_id)
            if conversion.get("status") in FINISHED:
                return conversion
            left = deadline - time.monotonic()
            if left <= 0:
                raise ConversionTimeoutError(conversion_id, str(conversion.get("status")), timeout)
            time.sleep(min(delay, left))
            delay = min(delay * 2, max_delay)

    def cancel(self, conversion_id: str) -> ApiResponse:
        """POST /conversions/{id}/cancel: a pending or processing conversion fails, refunded; returns its detail."""
        return self._request("POST", "/conversions/{}/cancel".format(_segment(conversion_id)))

    def delete(self, conversion_id: str) -> None:
        """DELETE /conversions/{id}: removes a finished conversion's result and upload (204)."""
        self._request("DELETE", "/conversions/" + _segment(conversion_id))

    def redeliver_webhook(self, conversion_id: str) -> ApiResponse:
        """POST /conversions/{id}/webhook/redeliver: sends a finished async conversion's webhook again (202)."""
        return self._request("POST", "/conversions/{}/webhook/redeliver".format(_segment(conversion_id)))

    def _request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[List[Tuple[str, str]]] = None,
        body: Optional[MultipartBody] = None,
        headers: Optional[Dict[str, str]] = None,
    ) -> ApiResponse:
        url = self.base_url + path + ("?" + urllib.parse.urlencode(query) if query else "")
        all_headers = {
            "Authorization": "Bearer " + self._token,
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
        }
        all_headers.update(headers or {})
        retry = 0
        while True:
            request = urllib.request.Request(url, data=body, headers=all_headers, method=method)
            status, response_headers, raw = self._send(request, url)
            retry_after = _retry_after_seconds(_header(response_headers, "Retry-After"))
            if status == 429 and self.retry_on_429 and retry < self.max_retries:
                time.sleep(retry_after if retry_after is not None else FALLBACK_RETRY_SECONDS * 2**retry)
                retry += 1
                continue
            parsed = _parse_json(raw)
            if not 200 <= status < 300:
                raise error_from_response(status, parsed, response_headers, retry_after)
            return ApiResponse(parsed, status, response_headers)

    def _send(self, request: urllib.request.Request, url: str) -> Tuple[int, Dict[str, str], bytes]:
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                return response.status, dict(response.headers.items()), response.read()
        except urllib.error.HTTPError as answer:
            with answer:
                return answer.code, dict(answer.headers.items()), answer.read()
        except (OSError, http.client.HTTPException) as err:  # URLError, timeouts, resets, a cut-off answer
            raise MarkwrightConnectionError(url, getattr(err, "reason", err)) from err


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """The API never redirects; following one could carry the token to another host."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None


def _form_value(value: Union[str, bool, int]) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _segment(value: str) -> str:
    return urllib.parse.quote(str(value), safe="")


def _header(headers: Mapping[str, str], name: str) -> Optional[str]:
    wanted = name.lower()
    for key, value in headers.items():
        if key.lower() == wanted:
            return value
    return None


def _parse_json(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except ValueError:
        return raw.decode("utf-8", "replace")


def _retry_after_seconds(header: Optional[str]) -> Optional[float]:
    """Retry-After is delay-seconds or an HTTP date (RFC 9110 §10.2.3)."""
    if header is None or not header.strip():
        return None
    value = header.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())
