"""The exceptions of the client: one class per error answer of the API, all MarkwrightError."""

from typing import Any, Dict, List, Mapping, Optional


class MarkwrightError(Exception):
    """An error answer of the API.

    ``status`` is the HTTP status, ``message`` the body's message, ``code`` the body's ``error``
    field (None for 401, 413, 429 and validation errors, which carry only a message), ``errors``
    the validation messages per field ({} when there are none), ``retry_after`` the Retry-After
    header in seconds (None when absent), ``body`` the parsed JSON as received and ``headers``
    the response headers.
    """

    def __init__(
        self,
        status: int,
        body: Any,
        headers: Optional[Mapping[str, str]] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        fields = body if isinstance(body, dict) else {}
        message = fields.get("message")
        self.status = status
        self.message = message if isinstance(message, str) else "HTTP {}".format(status)
        code = fields.get("error")
        self.code: Optional[str] = code if isinstance(code, str) else None
        self.errors: Dict[str, List[str]] = _field_errors(fields.get("errors"))
        self.retry_after = retry_after
        self.body = body
        self.headers = dict(headers or {})
        super().__init__(self.message)

    def __repr__(self) -> str:
        return "{}(status={!r}, code={!r}, message={!r})".format(
            type(self).__name__, self.status, self.code, self.message
        )


class AuthenticationError(MarkwrightError):
    """401: the token is missing, malformed, revoked or unknown."""


class InsufficientCreditsError(MarkwrightError):
    """402 insufficient_credits: the workspace balance is below the cost of the conversion."""

    def __init__(self, status: int, body: Any, headers=None, retry_after=None) -> None:
        super().__init__(status, body, headers, retry_after)
        fields = body if isinstance(body, dict) else {}
        self.credits_required: Optional[int] = _int_or_none(fields.get("credits_required"))
        self.credits_available: Optional[int] = _int_or_none(fields.get("credits_available"))


class NotFoundError(MarkwrightError):
    """404 not_found: the conversion does not exist or belongs to another workspace."""


class ConflictError(MarkwrightError):
    """409: the conversion's state forbids the call; ``code`` says why.

    idempotency_conflict (the first request with this Idempotency-Key is still running; see
    ``retry_after``), not_cancellable (already finished), not_finished (delete or redeliver
    before the conversion finished), no_webhook (redeliver without a webhook URL).
    """


class PayloadTooLargeError(MarkwrightError):
    """413: the upload is over the server-level cap (checked before any validation)."""


class ValidationError(MarkwrightError):
    """422 with ``errors``: a parameter failed validation; ``errors`` maps each field to its messages."""


class ConversionFailedError(MarkwrightError):
    """422 conversion_failed: a synchronous conversion failed (its credits were refunded)."""


class RateLimitError(MarkwrightError):
    """429: the workspace's per-minute budget is spent; ``retry_after`` says how long to wait."""


class ServiceUnavailableError(MarkwrightError):
    """503, e.g. at_capacity: the queue is full; nothing was charged; retry after ``retry_after``."""


class MarkwrightConnectionError(Exception):
    """The service could not be reached (DNS, refused connection, reset, timeout): no HTTP answer."""

    def __init__(self, url: str, reason: Any) -> None:
        self.url = url
        self.reason = reason
        super().__init__("Could not reach {}: {}".format(url, reason))


class ConversionTimeoutError(Exception):
    """wait_for_conversion's deadline passed while the conversion was still pending or processing."""

    def __init__(self, conversion_id: str, last_status: str, timeout: float) -> None:
        self.conversion_id = conversion_id
        self.last_status = last_status
        self.timeout = timeout
        super().__init__("Conversion {} was still {} after {} s".format(conversion_id, last_status, timeout))


def error_from_response(
    status: int, body: Any, headers: Mapping[str, str], retry_after: Optional[float]
) -> MarkwrightError:
    """The typed exception for one error answer of the API."""
    fields = body if isinstance(body, dict) else {}
    code = fields.get("error")
    cls = MarkwrightError
    if status == 401:
        cls = AuthenticationError
    elif status == 402 and code == "insufficient_credits":
        cls = InsufficientCreditsError
    elif status == 404:
        cls = NotFoundError
    elif status == 409:
        cls = ConflictError
    elif status == 413:
        cls = PayloadTooLargeError
    elif status == 422 and code == "conversion_failed":
        cls = ConversionFailedError
    elif status == 422 and "errors" in fields:
        cls = ValidationError
    elif status == 429:
        cls = RateLimitError
    elif status == 503:
        cls = ServiceUnavailableError
    return cls(status, body, headers, retry_after)


def _field_errors(value: Any) -> Dict[str, List[str]]:
    if not isinstance(value, dict):
        return {}
    return {str(k): [str(m) for m in v] if isinstance(v, list) else [str(v)] for k, v in value.items()}


def _int_or_none(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
