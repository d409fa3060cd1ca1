"""The language-neutral conformance scenario (clients/conformance/scenario.json) against a real
service. test/clients/conformance.test.ts starts the service, onboards workspaces and runs this
with SHIPPING_* variables set; without them it is skipped."""
import json
import os
import re
import time
from pathlib import Path

import httpx
import pytest

import shipping_service as ss

SCENARIO = json.loads((Path(__file__).resolve().parents[2] / "conformance" / "scenario.json").read_text())
ENV = os.environ.get("SHIPPING_BASE_URL")
pytestmark = pytest.mark.skipif(not ENV, reason="SHIPPING_BASE_URL not set: run through test/clients/conformance.test.ts")

KEYWORDS = {"from", "import", "class", "def", "return", "global", "in", "is", "not", "and", "or", "async", "await", "lambda"}


def snake(name: str) -> str:
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).replace("-", "_").lower()
    return s + "_" if s in KEYWORDS else s


def subst(value, variables):
    if isinstance(value, str):
        return re.sub(r"\$\{(\w+)\}", lambda m: str(variables[m.group(1)]), value)
    if isinstance(value, list):
        return [subst(v, variables) for v in value]
    if isinstance(value, dict):
        return {k: subst(v, variables) for k, v in value.items()}
    return value


def dig(obj, dotted):
    for part in dotted.split("."):
        obj = obj[int(part)] if isinstance(obj, list) else obj.get(part) if isinstance(obj, dict) else None
    return obj


def check(step, result, variables):
    where = step["name"]
    for path, want in subst(step.get("expect", {}), variables).items():
        assert dig(result, path) == want, f"{where}: {path} is {dig(result, path)!r}, want {want!r}"
    for path, prefix in subst(step.get("expect_prefix", {}), variables).items():
        assert str(dig(result, path)).startswith(prefix), f"{where}: {path} is {dig(result, path)!r}, want prefix {prefix!r}"
    for path in step.get("expect_nonempty", []):
        assert dig(result, path) not in (None, "", [], {}), f"{where}: {path} is empty"
    for var, path in step.get("save", {}).items():
        variables[var] = dig(result, path)


def invoke(client, step, variables):
    method = getattr(client, snake(step["call"]))
    kwargs = {snake(k): v for k, v in subst(step.get("path", {}), variables).items()}
    kwargs.update({snake(k): v for k, v in subst(step.get("query", {}), variables).items()})
    if "body" in step:
        kwargs["body"] = subst(step["body"], variables)
    if step.get("iterate"):
        lister = getattr(client, snake(step["call"]).replace("list_", "iter_", 1))
        return list(lister(**kwargs))
    return method(**kwargs)


def run_rate_limit(step, variables):
    creds = (os.environ["SHIPPING_BASE_URL"], os.environ["SHIPPING_THROTTLED_API_KEY"], os.environ["SHIPPING_THROTTLED_WORKSPACE_ID"])
    with ss.ShippingClient(*creds, max_retries=0) as impatient:
        error = None
        calls = 0
        for _ in range(step["max_calls"]):
            calls += 1
            try:
                getattr(impatient, snake(step["call"]))()
            except ss.ShippingApiError as e:
                error = e
                break
        assert error is not None, f"{step['name']}: no 429 within {step['max_calls']} calls"
        assert isinstance(error, ss.RateLimitError)
        assert (error.status, error.code) == (step["expect_error"]["status"], step["expect_error"]["code"])
        assert error.request_id and isinstance(error.details, list)
        assert error.retry_after and error.retry_after > 0
    # Up to as many calls as it took to be refused, plus one (stopping once the wait is seen): at
    # least one is refused again, so the run only lasts that long if a 429 was waited out.
    with ss.ShippingClient(*creds) as patient:
        started = time.monotonic()
        for _ in range(calls + 1):
            getattr(patient, snake(step["call"]))()
            if time.monotonic() - started >= step["expect_min_wait_seconds"]:
                break
        assert time.monotonic() - started >= step["expect_min_wait_seconds"], "the retry did not wait for Retry-After"


def run_webhook(client, step, variables):
    path = subst(step["receiver_path"], variables)
    receiver = os.environ["SHIPPING_RECEIVER_URL"]
    hook = client.create_webhook({"url": receiver + path, "events": step["events"]})
    secret = hook["secret"]
    client.test_webhook(hook["id"])
    deadline = time.monotonic() + 60
    received = []
    while not received and time.monotonic() < deadline:
        received = httpx.get(f"{receiver}/_received{path}").json()
        if not received:
            time.sleep(0.2)
    assert received, f"{step['name']}: no delivery reached the receiver"
    body, header = received[0]["body"], received[0]["signature"]
    assert ss.verify_webhook(body.encode(), header, ["whsec_not_this_one", secret])
    assert not ss.verify_webhook(body.encode(), header, ["whsec_not_this_one"])
    assert not ss.verify_webhook(body.encode() + b" ", header, secret)
    assert json.loads(body)["type"] == step["expect_event_type"]


def test_conformance_scenario():
    variables = {"run": os.environ["SHIPPING_RUN_ID"], "client": "python", "receiver_url": os.environ["SHIPPING_RECEIVER_URL"]}
    with ss.ShippingClient(os.environ["SHIPPING_BASE_URL"], os.environ["SHIPPING_API_KEY"], os.environ["SHIPPING_WORKSPACE_ID"]) as client:
        for step in SCENARIO["steps"]:
            kind = step.get("kind")
            if kind == "rate_limit":
                run_rate_limit(step, variables)
                continue
            if kind == "webhook":
                run_webhook(client, step, variables)
                continue
            for i in range(1, step.get("repeat", 1) + 1):
                variables["i"] = i
                if "expect_error" in step:
                    want = step["expect_error"]
                    with pytest.raises(ss.ShippingApiError) as caught:
                        invoke(client, step, variables)
                    e = caught.value
                    assert (e.status, e.code) == (want["status"], want["code"]), f"{step['name']}: {e}"
                    assert e.message and e.request_id and isinstance(e.details, list)
                    if want.get("details_nonempty"):
                        assert e.details, f"{step['name']}: no details"
                    continue
                result = invoke(client, step, variables)
                if "expect_bytes_prefix" in step:
                    assert isinstance(result, bytes) and result.startswith(step["expect_bytes_prefix"].encode()), f"{step['name']}: {result[:20]!r}"
                    continue
                if step.get("iterate"):
                    assert len(result) == step["expect_count"], f"{step['name']}: {len(result)} items"
                    for path, prefix in subst(step.get("expect_each_prefix", {}), variables).items():
                        assert all(str(dig(item, path)).startswith(prefix) for item in result)
                    continue
                check(step, result, variables)
