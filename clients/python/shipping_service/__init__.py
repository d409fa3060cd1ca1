"""Python client of the shipping service API (see README.md)."""
from ._client import ShippingClient, __version__
from ._enum import OpenEnum
from ._generated import *  # noqa: F401,F403 - the enums and TypedDicts of the API
from ._generated import ENUMS, OPERATIONS, Page
from ._retry import retry_after_seconds
from .errors import (
    AuthenticationError,
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    ShippingApiError,
    ShippingConnectionError,
    ShippingError,
)
from .webhooks import verify_webhook

__all__ = [
    "ShippingClient",
    "__version__",
    "OpenEnum",
    "ENUMS",
    "OPERATIONS",
    "Page",
    "retry_after_seconds",
    "AuthenticationError",
    "ConflictError",
    "InvalidRequestError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "ServerError",
    "ShippingApiError",
    "ShippingConnectionError",
    "ShippingError",
    "verify_webhook",
]
