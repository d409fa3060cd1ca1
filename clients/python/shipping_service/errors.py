"""Typed errors: every non-2xx answer becomes a ShippingApiError carrying the contract's body."""
from __future__ import annotations

from typing import Any

import httpx


class ShippingError(Exception):
    """Base class of everything this client raises."""


class ShippingConnectionError(ShippingError):
    """The request did not get an answer (connection refused, reset, timed out), after retries."""


class ShippingApiError(ShippingError):
    """A non-2xx answer: ``{code, message, details, request_id}`` from the body, plus the status."""

    def __init__(self, status: int, code: str, message: str, details: list[Any], request_id: str | None, headers: httpx.Headers | None = None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.request_id = request_id
        self.headers = headers if headers is not None else httpx.Headers()

    @property
    def retry_after(self) -> float | None:
        """Seconds the service asked to wait (429/503), when it said."""
        from ._retry import retry_after_seconds

        return retry_after_seconds(self.headers.get("retry-after"))


class AuthenticationError(ShippingApiError):
    """401: missing, wrong, revoked or expired credentials."""


class PermissionDeniedError(ShippingApiError):
    """403: the credentials may not do this."""


class NotFoundError(ShippingApiError):
    """404: no such resource in this workspace (another workspace's resource is 404 too)."""


class ConflictError(ShippingApiError):
    """409: the resource's state or an Idempotency-Key in use forbids it."""


class InvalidRequestError(ShippingApiError):
    """400/422: the request is invalid; ``details`` lists the fields."""


class RateLimitError(ShippingApiError):
    """429 after every retry: see ``retry_after``."""


class ServerError(ShippingApiError):
    """5xx."""


_BY_STATUS: dict[int, type[ShippingApiError]] = {400: InvalidRequestError, 401: AuthenticationError, 403: PermissionDeniedError, 404: NotFoundError, 409: ConflictError, 422: InvalidRequestError, 429: RateLimitError}


def error_from_response(response: httpx.Response) -> ShippingApiError:
    """The typed error of a non-2xx answer; a body that is not the contract's still gives one."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        body = {}
    details = body.get("details")
    cls = _BY_STATUS.get(response.status_code, ServerError if response.status_code >= 500 else ShippingApiError)
    return cls(
        response.status_code,
        str(body.get("code") or "unknown"),
        str(body.get("message") or response.reason_phrase or "HTTP error"),
        details if isinstance(details, list) else ([] if details is None else [details]),
        body.get("request_id") or response.headers.get("x-request-id"),
        response.headers,
    )
