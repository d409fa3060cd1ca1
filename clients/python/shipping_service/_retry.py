"""Retry-After reading and the backoff schedule."""
from __future__ import annotations

import email.utils
import time


def retry_after_seconds(header: str | None, now: float | None = None) -> float | None:
    """Retry-After as seconds or an HTTP date, in seconds; None when absent or unreadable."""
    if header is None or header.strip() == "":
        return None
    try:
        return max(0.0, float(header))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))
