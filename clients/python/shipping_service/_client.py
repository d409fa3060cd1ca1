"""The hand-written core: credentials, Idempotency-Key, retries, errors and pagination.

Every operation method comes from ``_generated.Operations`` and calls ``_request``.
"""
from __future__ import annotations

import time
import uuid
from typing import Any, Callable, Iterator, Mapping
from urllib.parse import quote

import httpx

from ._generated import Operations
from ._retry import retry_after_seconds
from .errors import ShippingConnectionError, error_from_response

__version__ = "0.1.0"

RETRYABLE_STATUSES = frozenset({429, 503})


def _wire(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value.value if hasattr(value, "value") else value)


class ShippingClient(Operations):
    """A client of the shipping service API.

    ``api_key`` is a secret API key (``sk_test_…``/``sk_live_…``) for ``/v1``, or a session token
    from ``login`` for ``/api/admin`` routes; ``workspace_id`` goes in ``X-Service-Workspace``.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        workspace_id: str | None = None,
        *,
        environment: str | None = None,
        max_retries: int = 3,
        base_delay: float = 0.5,
        max_delay: float = 30.0,
        timeout: float = 30.0,
        idempotency_keys: bool = True,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        headers = {"user-agent": f"shipping-service-python/{__version__}", "accept": "application/json"}
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
        if workspace_id:
            headers["x-service-workspace"] = workspace_id
        if environment:
            headers["x-service-environment"] = environment
        self.max_retries = max_retries
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.idempotency_keys = idempotency_keys
        self._sleep = sleep
        self._http = httpx.Client(base_url=base_url.rstrip("/"), headers=headers, timeout=timeout, transport=transport)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "ShippingClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _request(
        self,
        method: str,
        template: str,
        *,
        path_params: Mapping[str, str] | None = None,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        idempotency_key: str | None = None,
        answer: str = "json",
    ) -> Any:
        url = template
        for name, value in (path_params or {}).items():
            if value is None or str(value) == "":
                raise ValueError(f"{name} is required")
            url = url.replace("{" + name + "}", quote(str(value), safe=""))
        params = {k: _wire(v) for k, v in (query or {}).items() if v is not None}
        headers: dict[str, str] = {}
        if method == "POST" and (idempotency_key or self.idempotency_keys):
            # Fixed before the first attempt: every retry replays the same request, answered once.
            headers["idempotency-key"] = idempotency_key or str(uuid.uuid4())
        # Without a key a POST lost in transit may have been processed: only a GET, or a POST the
        # service can deduplicate, is sent again after a network error.
        replayable = method in ("GET", "HEAD") or "idempotency-key" in headers
        attempt = 0
        while True:
            try:
                response = self._http.request(method, url, params=params, json=body, headers=headers)
            except httpx.TransportError as error:
                if not replayable or attempt >= self.max_retries:
                    raise ShippingConnectionError(f"{method} {url}: {error}") from error
                self._sleep(min(self.base_delay * 2**attempt, self.max_delay))
                attempt += 1
                continue
            if response.status_code in RETRYABLE_STATUSES and attempt < self.max_retries:
                wait = retry_after_seconds(response.headers.get("retry-after"))
                self._sleep(min(self.base_delay * 2**attempt if wait is None else wait, self.max_delay))
                attempt += 1
                continue
            break
        if response.status_code >= 400:
            raise error_from_response(response)
        if answer == "none" or response.status_code == 204:
            return None
        if answer == "binary":
            return response.content
        if answer == "text":
            return response.text
        return response.json()


    def _paginate(self, list_method: Callable[..., Any], kwargs: dict[str, Any]) -> Iterator[Any]:
        cursor: str | None = None
        while True:
            page = list_method(**kwargs, cursor=cursor)
            yield from page["data"]
            cursor = page.get("next_cursor")
            if not page.get("has_more") or not cursor:
                return
