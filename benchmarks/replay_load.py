"""How long the replay page takes to load a 4-racer round of 400 moves each (the issue's goal:
under 1 s on this machine). Not a timed test: run it by hand.

    .venv/bin/python benchmarks/replay_load.py [--moves 400] [--racers 4] [--runs 5]

A real ``scorpion serve`` on a temporary SQLite file holds the round (written by
scorpion_dev.replays: random legal play, every game given up at its end); headless
Chromium opens ``/replay/room/<room>/1`` in a fresh context each run (nothing cached) and
the page's own clock gives the time from navigation to every board drawn (the page marks
itself ``data-ready``). Also reported: the API's answer alone (time and size).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

from scorpion_dev.replays import write_round
from scorpion_dev.server import ServerProcess

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
# The moment the page marks itself ready, on its own clock (ms since navigation started).
WATCH = """
new MutationObserver((_, observer) => {
  if (document.querySelector('.replay[data-ready]')) {
    window.replayReadyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400, help="actions per racer")
    parser.add_argument("--racers", type=int, default=4)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--width", type=int, default=1366)
    parser.add_argument("--height", type=int, default=768)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "bench.db")
        server.start()
        try:
            players = [(f"p_bench{i}", f"Racer {i + 1}") for i in range(opts.racers)]
            write_round(server.db, "benchroom", players, opts.moves)  # type: ignore[arg-type]
            api = f"{server.url}/api/replays/room/benchroom/1"
            answers = []
            for _ in range(opts.runs):
                started = time.perf_counter()
                r = httpx.get(api, timeout=30)
                answers.append((time.perf_counter() - started) * 1000)
                r.raise_for_status()
            steps = len(r.json()["steps"])
            loads = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                for _ in range(opts.runs):
                    ctx = browser.new_context(
                        viewport={"width": opts.width, "height": opts.height}, bypass_csp=True
                    )
                    page = ctx.new_page()
                    page.add_init_script(WATCH)
                    page.goto(f"{server.url}/replay/room/benchroom/1")
                    page.wait_for_function("window.replayReadyAt !== undefined", timeout=30_000)
                    loads.append(float(page.evaluate("window.replayReadyAt")))
                    ctx.close()
                browser.close()
        finally:
            server.stop()
    print(f"round: {opts.racers} racers x {opts.moves} actions = {steps} steps")
    print(
        f"API answer: {len(r.content) / 1024:.0f} KiB, median {statistics.median(answers):.0f} ms"
        f" (min {min(answers):.0f}, max {max(answers):.0f})"
    )
    print(
        f"page load to every board drawn, {opts.width}x{opts.height}, {opts.runs} cold runs: "
        f"median {statistics.median(loads):.0f} ms (min {min(loads):.0f}, max {max(loads):.0f})"
    )


if __name__ == "__main__":
    main()
