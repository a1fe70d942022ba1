"""/metrics: latency histograms, event-loop lag, search hooks and the process collector."""

from __future__ import annotations

import re

from support.server import Api, ServerProcess, start_race


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
    for racer in racers.values():
        await racer.client.close()
