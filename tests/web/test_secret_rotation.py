"""Rotating the server secret (after a leak) changes no daily already prepared or played."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from scorpion.race.daily import daily_seed, utc_date
from scorpion_dev.server import Api, Client, ServerProcess


def saved_dailies(db: Path) -> dict[str, str]:
    with sqlite3.connect(db) as c:
        return dict(c.execute("SELECT day, deal FROM dailies"))


async def board_of_the_day(db: Path, secret: str, name: str, day: str) -> dict[str, object]:
    """The daily's opening board as a new player sees it on a server with ``secret``, once
    that server has saved today's and tomorrow's deals."""
    server = ServerProcess(db, secret=secret)
    server.start()
    try:
        async with Api(server.url) as api:
            _, token = await api.new_player(name)
            client = await Client.connect(server.ws_url, name)
            welcome = await client.hello(token, daily=day)
            await client.close()
        for _ in range(200):  # tomorrow's deal is prepared in the background: bounded wait
            if len(saved_dailies(db)) >= 2:
                break
            await asyncio.sleep(0.05)
    finally:
        server.stop()
    assert welcome["type"] == "welcome", welcome
    view: dict[str, object] = welcome["view"]
    return view


async def test_a_new_secret_keeps_the_saved_daily_deals(tmp_path: Path) -> None:
    db = tmp_path / "data" / "scorpion.db"
    today = utc_date(time.time())
    before = await board_of_the_day(db, "old-secret", "Ann", today)
    prepared = saved_dailies(db)  # today's and tomorrow's, prepared ahead
    assert prepared[today] == str(daily_seed(b"old-secret", today))
    assert len(prepared) == 2

    after = await board_of_the_day(db, "new-secret", "Bo", today)
    assert after == before  # the same deal, dealt the same way
    kept = saved_dailies(db)
    assert {day: kept[day] for day in prepared} == prepared
    assert daily_seed(b"new-secret", today) != daily_seed(b"old-secret", today)
