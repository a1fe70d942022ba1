"""/metrics: latency histograms, event-loop lag, search hooks and the process collector."""

from __future__ import annotations

import datetime as dt
import re

from scorpion_dev.server import Api, Client, ServerProcess, start_race


def sample(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found, f"{name} missing"
    return float(found.group(1))


async def test_metrics_show_latency_lag_search_and_process(server: ServerProcess, api: Api) -> None:
    _, racers, _ = await start_race(server, api, ["Ann", "Bo"], 4242, hints=True)
    for racer in racers.values():
        assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
    hint = await racers["Ann"].client.call("hint", timeout=60)
    assert hint["type"] == "applied", hint  # answered by a search worker
    text = (await api.call("GET", "/metrics")).text
    # Every command answered (ready, start, join, moves) was timed, and every write.
    assert sample(text, "scorpion_ack_seconds_count") >= 2
    assert sample(text, "scorpion_store_write_seconds_count") >= 2
    assert 'scorpion_ack_seconds_bucket{le="+Inf"}' in text
    assert sample(text, "scorpion_event_loop_lag_seconds") >= 0
    assert sample(text, "scorpion_search_queue") == 0  # the hint's search is done
    assert sample(text, "scorpion_search_seconds_count") >= 1
    assert sample(text, "process_resident_memory_bytes") > 1_000_000
    assert sample(text, "process_cpu_seconds_total") > 0
    assert sample(text, "scorpion_moves_total") >= 2
    # The collector's clock collected (every 0.25 s) while the race started and the hint ran.
    assert sample(text, "scorpion_gc_pause_seconds_count") >= 1
    assert sample(text, "scorpion_gc_pause_seconds_sum") > 0
    for racer in racers.values():
        await racer.client.close()


def labelled(text: str, name: str, **labels: str) -> float | None:
    """The sample of ``name`` with exactly these labels (any order), None when absent."""
    for found in re.finditer(rf"^{re.escape(name)}\{{(.*)\}} (\S+)$", text, re.MULTILINE):
        pairs = dict(re.findall(r'(\w+)="([^"]*)"', found.group(1)))
        if pairs == labels:
            return float(found.group(2))
    return None


async def test_labelled_counters_and_cluster_counters_are_exported_at_zero(
    server: ServerProcess, api: Api
) -> None:
    text = (await api.call("GET", "/metrics")).text  # the first request this server answers
    for status in ("400", "404", "429", "500"):
        assert labelled(text, "scorpion_http_errors_total", status=status) == 0, status
    # the fixture's readiness probe may have met a 503 while the server was starting
    assert labelled(text, "scorpion_http_errors_total", status="503") is not None
    assert labelled(text, "scorpion_refused_commands_total", reason="rate-limited") == 0
    for method, route in (("POST", "/api/rooms"), ("GET", "/api/rooms/{room_id}")):
        for status in ("2xx", "4xx", "5xx"):
            assert (
                labelled(
                    text, "scorpion_http_requests_total", route=route, method=method, status=status
                )
                == 0
            ), (route, method, status)
    for name in (
        "scorpion_redis_published_total", "scorpion_redis_received_total",
        "scorpion_redis_errors_total", "scorpion_redis_dropped_total",
        "scorpion_lease_takeovers_total", "scorpion_lease_renew_failures_total",
        "scorpion_leases_lost_total", "scorpion_fenced_writes_total",
        "scorpion_forwarded_frames_total",
    ):  # fmt: skip
        assert sample(text, name) == 0, name
    assert sample(text, "scorpion_redis_configured") == 0  # one process: no Redis to miss


async def test_requests_are_counted_by_route_template_never_by_path(
    server: ServerProcess, api: Api
) -> None:
    for room in ("nosuch1", "nosuch2", "nosuch3"):
        assert (await api.call("GET", f"/api/rooms/{room}")).status_code == 404
    assert (await api.call("GET", "/api/no/such/thing")).status_code == 404
    assert (await api.call("GET", "/healthz")).status_code == 200
    odd = await api.http.request("TRACE", "/healthz")  # no such method: one label for all
    assert odd.status_code == 405
    text = (await api.call("GET", "/metrics")).text
    requests = "scorpion_http_requests_total"
    room = {"route": "/api/rooms/{room_id}", "method": "GET"}
    assert labelled(text, requests, **room, status="4xx") == 3
    assert labelled(text, requests, **room, status="2xx") == 0
    assert labelled(text, requests, route="/api/{rest:path}", method="GET", status="4xx") == 1
    assert labelled(text, requests, route="/healthz", method="GET", status="2xx") == 1
    assert labelled(text, requests, route="/healthz", method="OTHER", status="4xx") == 1
    assert labelled(text, "scorpion_http_request_seconds_count", **room) == 3
    assert labelled(text, "scorpion_http_request_seconds_bucket", **room, le="+Inf") == 3
    assert labelled(text, "scorpion_http_errors_total", status="404") == 4
    assert labelled(text, "scorpion_http_errors_total", status="405") == 1
    assert "nosuch" not in text and "/api/no/such" not in text  # no raw path in any label


async def test_daily_players_count_one_per_player_and_day_and_outlive_their_sockets(
    server: ServerProcess, api: Api
) -> None:
    today = dt.datetime.now(dt.UTC).date()
    days = [today.isoformat(), (today - dt.timedelta(days=1)).isoformat()]
    _, token = await api.new_player("Ann")
    for day in [*days, days[0]]:  # today twice: still one player there
        client = await Client.connect(server.ws_url, "ann")
        assert (await client.hello(token, daily=day))["type"] == "welcome"
        assert (await client.call("start"))["type"] == "applied"
        await client.close()
    text = (await api.call("GET", "/metrics")).text
    # Kept for the day (their attempts, their rank): what the soak's fixed pool must fill.
    assert sample(text, "scorpion_daily_players") == 2
