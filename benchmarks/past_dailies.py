"""Past-day dailies under a flood of hellos: search processes and memory stay bounded.

    .venv/bin/python benchmarks/past_dailies.py [--days 366] [--secret S]

Two runs, each on a fresh ``scorpion serve`` (SQLite, ``--daily-search solver``, so each
past day's deal is a real solver search): ``--days`` past days (yesterday and back) asked
for at once with one hello each,

1. from one account (one address), then
2. from as many accounts as days, each from its own address (X-Forwarded-For, the server
   trusting 127.0.0.1 as a proxy).

A hello refused ``busy`` (the daily deal worker's queue, or the asker's share of it, is
full) is sent again after the browser client's backoff (0.4 s doubling to 10 s, with
jitter); ``rate-limited`` (past days asked for beyond ``past_dailies_burst``) is a final
answer, as a welcome is, and so is a socket the server closed meanwhile.

Printed per run: the answers (welcomes, rate-limited, closed), the hellos sent, the peak
number of search worker processes, the peak memory (resident, the server and all its
children) and the time until every day had its final answer. Sampled every 20 ms from
/proc.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import random
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.exceptions import ConnectionClosed

from scorpion.race.daily import utc_date
from scorpion_dev.processes import children, rss_bytes
from scorpion_dev.server import Client, ServerProcess, place_url

MB = 1024 * 1024


@dataclass
class Peaks:
    """The server's search processes and memory, sampled on a thread while a run goes."""

    pid: int
    searches: int = 0
    rss: int = 0
    running: bool = True
    thread: threading.Thread = field(init=False)

    def __post_init__(self) -> None:
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self) -> None:
        while self.running:
            kids = children(self.pid, b"")
            searching = children(self.pid, b"search_worker")
            self.searches = max(self.searches, len(searching))
            self.rss = max(self.rss, rss_bytes(self.pid) + sum(rss_bytes(k) for k in kids))
            time.sleep(0.02)

    def stop(self) -> None:
        self.running = False
        self.thread.join()


async def ask(server: ServerProcess, token: str, day: str, address: str, sent: Counter[str]) -> str:
    """Hello for ``day`` until a final answer: "welcome" or the refusal's code."""
    attempt = 0
    while True:
        sent["hellos"] += 1
        client = await Client.connect(
            place_url(server.ws_url, daily=day), headers={"X-Forwarded-For": address}
        )
        try:
            answer = await client.hello(token, timeout=600, daily=day)
        except ConnectionClosed as exc:  # e.g. closed silent (4010) while the hello waited
            return f"closed {exc.rcvd.code if exc.rcvd else None}"
        finally:
            await client.close()
        if answer["type"] == "welcome":
            return "welcome"
        if answer["code"] != "busy":
            return str(answer["code"])
        attempt += 1  # the browser client's backoff (client/js/socket.js)
        base = min(10.0, 0.4 * 2 ** min(attempt - 1, 5))
        await asyncio.sleep(base * (0.6 + random.random() * 0.4))


async def run(days: list[str], accounts: int, secret: str, label: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(
            Path(tmp) / "bench.db",
            secret=secret,
            daily_search="solver",
            args=("--trusted-proxies", "127.0.0.1", "--limits", '{"new_players_burst": 1000}'),
        )
        server.start(timeout=120)
        assert server.proc is not None
        try:
            tokens = []
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                for n in range(accounts):
                    r = await http.post("/api/players", json={"name": f"P{n}"})
                    tokens.append(r.json()["token"])
            peaks = Peaks(server.proc.pid)
            sent: Counter[str] = Counter()
            started = time.monotonic()
            answers = await asyncio.gather(
                *(
                    ask(server, tokens[i % accounts], day, f"10.2.{i // 250}.{i % 250 + 1}"
                        if accounts > 1 else "10.2.0.1", sent)
                    for i, day in enumerate(days)
                )
            )  # fmt: skip
            took = time.monotonic() - started
            peaks.stop()
        finally:
            server.stop()
    counts = Counter(answers)
    print(
        f"{label}: {len(days)} past days, {accounts} account(s): answers {dict(counts)}, "
        f"{sent['hellos']} hellos sent; peak search processes {peaks.searches}, "
        f"peak memory {peaks.rss / MB:.0f} MB (server and children); "
        f"all answered in {took:.1f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--days", type=int, default=366)
    parser.add_argument("--secret", default="past-dailies-benchmark")
    args = parser.parse_args()
    today = dt.date.fromisoformat(utc_date(time.time()))
    days = [(today - dt.timedelta(days=n)).isoformat() for n in range(1, args.days + 1)]
    asyncio.run(run(days, 1, args.secret, "one account"))
    asyncio.run(run(days, len(days), args.secret, "many accounts"))


if __name__ == "__main__":
    main()
