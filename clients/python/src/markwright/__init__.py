"""Python client for the Markwright document-to-Markdown API (standard library only).

    from markwright import MarkwrightClient
    client = MarkwrightClient(base_url="http://127.0.0.1:8080/api/v1", token="mwk_...")
    result = client.convert("report.pdf", include_metadata=True)
    print(result["markdown"])
"""

from ._version import __version__
from .client import ApiResponse, MarkwrightClient
from .errors import (
    AuthenticationError,
    ConflictError,
    ConversionFailedError,
    ConversionTimeoutError,
    InsufficientCreditsError,
    MarkwrightConnectionError,
    MarkwrightError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitError,
    ServiceUnavailableError,
    ValidationError,
)
from .webhooks import verify_webhook

__all__ = [
    "__version__",
    "ApiResponse",
    "MarkwrightClient",
    "AuthenticationError",
    "ConflictError",
    "ConversionFailedError",
    "ConversionTimeoutError",
    "InsufficientCreditsError",
    "MarkwrightConnectionError",
    "MarkwrightError",
    "NotFoundError",
    "PayloadTooLargeError",
    "RateLimitError",
    "ServiceUnavailableError",
    "ValidationError",
    "verify_webhook",
]
