"""The app without nginx: what unfinished requests cost its memory (scorpion.web.http_protocol).

One ``scorpion serve`` (scorpion_dev), then ``--connections`` (10) raw connections of
each kind, all at once, each sending ``--megabytes`` (20) as fast as the server reads:

- ``head``: one header that never ends (the request head is never complete);
- ``body``: a POST to /api/players announcing that many bytes of JSON body;
- ``silent``: nothing at all after connecting.

Printed: the server's resident memory (from /proc) before, at its peak while they send
(read every 50 ms), and after; how many bytes each kind got in before the server closed the
connection; and how long it kept them. Run::

    .venv/bin/python benchmarks/http_bounds.py --connections 10 --megabytes 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load.servers import cpu_and_rss
from scorpion_dev.server import ServerProcess

HEADS = {
    "head": b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-Never-Ends: ",
    "body": b"POST /api/players HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
    b"Content-Length: %d\r\n\r\n",
    "silent": b"",
}


async def attack(port: int, kind: str, size: int) -> tuple[int, float, bytes]:
    """Bytes written before the server closed, seconds it kept the connection, its answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    started = time.monotonic()
    head = HEADS[kind] % size if b"%d" in HEADS[kind] else HEADS[kind]
    reading = asyncio.ensure_future(reader.read(-1))
    sent = 0
    with contextlib.suppress(ConnectionError):
        writer.write(head)
        chunk = b"a" * (1 << 16) if kind != "silent" else b""
        while chunk and sent < size and not reading.done():
            writer.write(chunk)
            await writer.drain()
            sent += len(chunk)
    try:
        answer = await asyncio.wait_for(reading, 120)
    except (TimeoutError, ConnectionError):
        answer = b"(no close within 120 s)"
    kept = time.monotonic() - started
    writer.close()
    return sent, kept, answer.split(b"\r\n", 1)[0]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=10)
    parser.add_argument("--megabytes", type=int, default=20)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="scorpion-http-bounds-"))
    server = ServerProcess(tmp / "b.db")
    server.start()
    try:
        assert server.proc is not None
        pid = server.proc.pid
        before = cpu_and_rss(pid)[1]
        peak = before
        size = args.megabytes << 20
        tasks = {
            kind: [asyncio.ensure_future(attack(server.port, kind, size))
                   for _ in range(args.connections)]
            for kind in HEADS
        }  # fmt: skip
        every = [t for kind in tasks.values() for t in kind]
        while not all(t.done() for t in every):
            peak = max(peak, cpu_and_rss(pid)[1])
            await asyncio.sleep(0.05)
        after = cpu_and_rss(pid)[1]
        mib = 2**20
        print(f"RSS {before / mib:.0f} MiB before, peak {peak / mib:.0f} MiB "
              f"(+{(peak - before) / mib:.0f}), {after / mib:.0f} MiB after")  # fmt: skip
        for kind, done in tasks.items():
            results = [t.result() for t in done]
            sent = max(r[0] for r in results)
            kept = max(r[1] for r in results)
            answers = sorted({r[2].decode(errors="replace") or "(closed)" for r in results})
            print(f"{kind}: {len(results)} connections, at most {sent / mib:.1f} MiB sent each, "
                  f"kept at most {kept:.1f} s; answers: {', '.join(answers)}")  # fmt: skip
    finally:
        server.stop()


if __name__ == "__main__":
    asyncio.run(main())
