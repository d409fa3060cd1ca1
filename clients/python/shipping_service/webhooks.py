"""Webhook signature checks: ``X-Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]``."""
from __future__ import annotations

import hashlib
import hmac
import re
import time
from typing import Sequence

_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")


def verify_webhook(raw_body: bytes | str, header: str | None, secrets: str | Sequence[str], tolerance: int = 300, now: int | None = None) -> bool:
    """True when a v1 signature is the HMAC-SHA256 of ``"<t>.<raw body>"`` under one of ``secrets``
    and ``t`` is within ``tolerance`` seconds of now.

    Pass the body exactly as received (bytes, or the decoded text): re-serialised JSON will not
    match. During a secret rotation the service signs with both secrets, and a receiver may hold
    both too, hence several secrets.
    """
    if not header:
        return False
    timestamp: int | None = None
    signatures: list[bytes] = []
    for part in header.split(","):
        key, _, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if key == "t" and value.isdigit():
            timestamp = int(value)
        elif key == "v1" and _HEX64.match(value):
            signatures.append(bytes.fromhex(value))
    if timestamp is None or not signatures:
        return False
    current = int(time.time()) if now is None else now
    if abs(current - timestamp) > tolerance:
        return False
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
    ok = False
    for secret in [secrets] if isinstance(secrets, str) else secrets:
        expected = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode() + body, hashlib.sha256).digest()
        for signature in signatures:
            # No early exit: timing says nothing about which candidate matched.
            ok = hmac.compare_digest(expected, signature) or ok
    return ok
