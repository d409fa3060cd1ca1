"""The core against scripted answers (httpx.MockTransport): retries, keys, errors, pagination, enums."""
import json
from pathlib import Path

import httpx
import pytest

import shipping_service as ss

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "conformance" / "webhook-vectors.json").read_text())


def scripted(answers, seen):
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        answer = answers.pop(0) if answers else httpx.Response(200, json={"ok": True})
        if isinstance(answer, Exception):
            raise answer
        return answer

    return httpx.MockTransport(handler)


def client(answers, seen, **kw):
    waits = kw.pop("waits", [])
    return ss.ShippingClient("http://svc", "sk_test_x", "ws_1", transport=scripted(answers, seen), sleep=waits.append, **kw)


def test_credentials_and_a_fresh_idempotency_key_per_post():
    seen = []
    c = client([httpx.Response(201, json={"id": "ord_1"}), httpx.Response(201, json={"id": "ord_2"})], seen)
    assert c.create_order({"line_items": []})["id"] == "ord_1"
    c.create_order({"line_items": []})
    assert seen[0].headers["authorization"] == "Bearer sk_test_x"
    assert seen[0].headers["x-service-workspace"] == "ws_1"
    keys = [r.headers["idempotency-key"] for r in seen]
    assert len(set(keys)) == 2 and all(len(k) == 36 for k in keys)
    assert json.loads(seen[0].content) == {"line_items": []}


def test_retries_429_and_503_with_retry_after_and_the_same_key_and_body():
    seen, waits = [], []
    answers = [httpx.Response(429, headers={"retry-after": "2"}, json={"code": "rate_limited"}), httpx.Response(503, headers={"retry-after": "120"}), httpx.Response(503), httpx.Response(200, json={"rates": []})]
    c = client(answers, seen, waits=waits)
    assert c.query_rates({"ship_to": {"country": "US"}}) == {"rates": []}
    assert waits == [2.0, 30.0, 2.0]  # as asked; capped at max_delay; then 0.5 s * 2^2
    assert len({r.headers["idempotency-key"] for r in seen}) == 1
    assert len({r.content for r in seen}) == 1


def test_gives_up_after_max_retries_with_a_typed_error():
    seen = []
    c = client([httpx.Response(429, headers={"retry-after": "0"}, json={"code": "rate_limited", "message": "slow", "details": [], "request_id": "req_1"})] * 3, seen, max_retries=2)
    with pytest.raises(ss.RateLimitError) as e:
        c.list_orders()
    assert (e.value.status, e.value.code, e.value.request_id, e.value.details, e.value.retry_after) == (429, "rate_limited", "req_1", [], 0.0)
    assert len(seen) == 3


def test_network_errors_retry_a_get_and_a_keyed_post_but_not_an_unkeyed_post():
    seen = []
    c = client([httpx.ConnectError("refused"), httpx.Response(200, json={"data": [], "has_more": False, "next_cursor": None})], seen)
    assert c.list_orders()["data"] == []
    seen = []
    c = client([httpx.ReadError("reset"), httpx.Response(201, json={"id": "ord_1"})], seen)
    assert c.create_order({})["id"] == "ord_1"
    assert seen[0].headers["idempotency-key"] == seen[1].headers["idempotency-key"]
    seen = []
    c = client([httpx.ReadError("reset")], seen, idempotency_keys=False)
    with pytest.raises(ss.ShippingConnectionError):
        c.create_order({})
    assert len(seen) == 1 and "idempotency-key" not in seen[0].headers


def test_errors_carry_code_message_details_request_id():
    seen = []
    body = {"code": "validation_failed", "message": "The request is invalid.", "details": [{"field": "ship_to.postal_code", "message": "is required"}], "request_id": "req_9"}
    c = client([httpx.Response(400, json=body), httpx.Response(404, json={"code": "not_found", "message": "No such order.", "details": [], "request_id": "req_8"})], seen)
    with pytest.raises(ss.InvalidRequestError) as e:
        c.create_order({})
    assert (e.value.code, e.value.message, e.value.details, e.value.request_id) == ("validation_failed", "The request is invalid.", body["details"], "req_9")
    with pytest.raises(ss.NotFoundError) as e:
        c.get_order("ord_x")
    assert e.value.status == 404 and isinstance(e.value, ss.ShippingApiError)


def test_iterators_follow_cursors_and_keep_the_filters():
    seen = []
    pages = [
        httpx.Response(200, json={"data": [{"id": "a"}, {"id": "b"}], "has_more": True, "next_cursor": "c1"}),
        httpx.Response(200, json={"data": [{"id": "c"}], "has_more": False, "next_cursor": None}),
    ]
    c = client(pages, seen)
    assert [o["id"] for o in c.iter_orders(status="awaiting_fulfillment", limit=2)] == ["a", "b", "c"]
    assert [dict(r.url.params) for r in seen] == [{"status": "awaiting_fulfillment", "limit": "2"}, {"status": "awaiting_fulfillment", "limit": "2", "cursor": "c1"}]


def test_path_parameters_are_escaped():
    seen = []
    client([httpx.Response(200, json={})], seen).get_order("ord/../x")
    assert seen[0].url.raw_path == b"/v1/orders/ord%2F..%2Fx"


def test_a_new_enum_value_in_a_response_breaks_nothing():
    seen = []
    c = client([httpx.Response(200, json={"id": "shp_1", "status": "teleported", "brand_new_field": 1})], seen)
    shipment = c.get_shipment("shp_1")
    status = ss.ShipmentStatus(shipment["status"])
    assert status.value == "teleported" and not status.is_known() and status == "teleported"
    assert ss.ShipmentStatus("voided") is ss.ShipmentStatus.VOIDED and ss.ShipmentStatus.VOIDED.is_known()
    assert shipment["brand_new_field"] == 1


def test_binary_answers_are_bytes():
    seen = []
    pdf = b"%PDF-1.7 ..."
    assert client([httpx.Response(200, content=pdf, headers={"content-type": "application/pdf"})], seen).get_shipment_label("shp_1", format="pdf_4x6") == pdf


def test_every_operation_is_a_method():
    for op_id in ss.OPERATIONS:
        name = "".join("_" + ch.lower() if ch.isupper() else ch for ch in op_id)
        assert callable(getattr(ss.ShippingClient, name)), op_id


def test_retry_after_as_seconds_or_date():
    assert ss.retry_after_seconds("2") == 2.0
    assert ss.retry_after_seconds("Thu, 01 Jan 1970 00:00:10 GMT", now=4) == 6.0
    assert ss.retry_after_seconds(None) is None and ss.retry_after_seconds("soon") is None


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["name"])
def test_webhook_vectors(vector):
    body = VECTORS["body"]
    assert ss.verify_webhook(body.encode(), vector["header"], vector["secrets"], VECTORS["tolerance"], now=vector["now"]) is vector["valid"]
    assert ss.verify_webhook(body, vector["header"], vector["secrets"], now=vector["now"]) is vector["valid"]


def test_webhook_single_secret_string_and_missing_header():
    v = VECTORS["vectors"][0]
    assert ss.verify_webhook(VECTORS["body"], v["header"], v["secrets"][0], now=v["now"])
    assert not ss.verify_webhook(VECTORS["body"], None, "whsec_a")
