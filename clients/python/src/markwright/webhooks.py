"""Checking that a webhook delivery comes from Markwright, for receivers."""

import base64
import hashlib
import hmac
import time
from typing import Any, Iterable, Mapping, Optional, Tuple, Union

#: How old (or how far in the future) webhook-timestamp may be, as the Standard Webhooks libraries allow.
DEFAULT_TOLERANCE_SECONDS = 5 * 60

Headers = Union[Mapping[str, str], Iterable[Tuple[str, str]], Any]


def verify_webhook(
    body: Union[bytes, str],
    headers: Headers,
    secret: Union[str, bytes],
    *,
    tolerance: float = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> bool:
    """True when the delivery is signed with ``secret``; pass the raw body, before any JSON parsing.

    Two signatures may come with a delivery, and each one present must be valid:

    - ``X-Webhook-Signature``: lowercase hex HMAC-SHA256 of the body (the API contract's);
    - ``webhook-id``, ``webhook-timestamp`` and ``webhook-signature`` (Standard Webhooks):
      ``v1,`` + base64 HMAC-SHA256 of ``id.timestamp.body``; the timestamp must be within
      ``tolerance`` seconds of ``now``, so an old delivery replayed later is refused.

    ``headers`` is any mapping or list of pairs (a dict, ``http.client.HTTPMessage``, Flask's or
    Django's headers); names are matched case-insensitively. Comparisons are constant-time.
    A delivery without either signature is False.
    """
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    key = secret.encode("utf-8") if isinstance(secret, str) else bytes(secret)
    found = _lowercase(headers)
    contract = found.get("x-webhook-signature")
    standard = found.get("webhook-signature")
    if contract is None and standard is None:
        return False
    if contract is not None and not _contract_signature_ok(raw, contract, key):
        return False
    if standard is not None and not _standard_signature_ok(raw, found, standard, key, tolerance, now):
        return False
    return True


def _contract_signature_ok(raw: bytes, header: str, key: bytes) -> bool:
    expected = hmac.new(key, raw, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode("ascii"), header.strip().encode("utf-8", "replace"))


def _standard_signature_ok(
    raw: bytes, found: Mapping[str, str], header: str, key: bytes, tolerance: float, now: Optional[float]
) -> bool:
    webhook_id = found.get("webhook-id")
    timestamp = found.get("webhook-timestamp", "").strip()
    if not webhook_id or not timestamp.isdigit():
        return False
    current = time.time() if now is None else now
    if abs(current - int(timestamp)) > tolerance:
        return False
    signed = "{}.{}.".format(webhook_id, timestamp).encode("utf-8") + raw
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())
    # The header may list several space-separated signatures (e.g. during a secret rotation).
    for candidate in header.split():
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(expected, signature.encode("utf-8", "replace")):
            return True
    return False


def _lowercase(headers: Headers) -> Mapping[str, str]:
    items = headers.items() if hasattr(headers, "items") else headers
    return {str(name).lower(): str(value) for name, value in items}
