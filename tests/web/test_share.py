"""Sharing a result over real HTTP: the text round-trips to its replay link, whose page
carries the Open Graph tags of the result's image; the image is SVG with names escaped; a
round's share opens with its results, a daily's as soon as the leaderboard shows it."""

from __future__ import annotations

import datetime as dt
import html
import re
import urllib.parse

import pytest

from scorpion_dev.server import Api, Client, ServerProcess, start_race
from support.sql import past_daily_results

pytestmark = pytest.mark.backends

DEAL = 987_654_321
NAME = "<script>x()</script>&A"
CARD = re.compile(r"(?<![\w-])(10|[2-9AJQKT])\s?[SHDC♠♥♦♣](?![\w-])")  # not in an id


def day(days_ago: int) -> str:
    return (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=days_ago)).isoformat()


def og(page: str) -> dict[str, str]:
    found = re.findall(r'<meta property="([^"]+)" content="([^"]*)">', page)
    return {key: html.unescape(value) for key, value in found}


def local(url: str) -> str:
    """The path and query of an absolute link (the test server's)."""
    parts = urllib.parse.urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


async def check_shared(api: Api, share: dict[str, str], name: str) -> dict[str, str]:
    """What every shared result must be: no card, no deal, the link last; the link's page
    has the tags of the image; the image is SVG with the name as text."""
    text = share["text"]
    *lines, link = text.split("\n")
    assert link == share["url"]
    # The link's random id may spell a card's name ("p_JS6..."): the words before it may not.
    assert not CARD.search("\n".join(lines)) and str(DEAL) not in text, text
    page = await api.http.get(local(share["url"]))
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    tags = og(page.text)
    assert tags["og:image"] == share["image"] and tags["og:url"] == share["url"]
    assert name in tags["og:description"] and str(DEAL) not in page.text
    assert "<script>x()" not in page.text  # the name, escaped
    image = await api.http.get(local(share["image"]))
    assert image.status_code == 200
    assert image.headers["content-type"] == "image/svg+xml; charset=utf-8"
    assert html.escape(name, quote=True) in image.text and "<script>" not in image.text
    assert str(DEAL) not in image.text and not CARD.search(image.text)
    return tags


async def test_a_rounds_share_opens_with_its_results_and_links_its_replay(
    server: ServerProcess, api: Api
) -> None:
    room, racers, tokens = await start_race(server, api, [NAME, "Bob"], DEAL)
    ann, bob = racers[NAME], racers["Bob"]
    for _ in range(2):
        assert (await ann.act("move", move=ann.pick()))["type"] == "applied"
    assert (await ann.act("give-up"))["type"] == "applied"
    path = f"/api/share/room/{room}/1/{ann.id}"
    early = await api.call("GET", path)
    assert (early.status_code, early.json()["error"]["code"]) == (403, "not-finished")
    svg = await api.http.get(f"/share/room/{room}/1/{ann.id}.svg")
    assert svg.status_code == 403
    page = await api.http.get(f"/replay/room/{room}/1?by={ann.id}")
    assert page.status_code == 200 and "og:image" not in page.text  # the plain page
    assert (await bob.act("give-up"))["type"] == "applied"
    await bob.client.expect(lambda f: f.get("event") == "results")
    share = (await api.call("GET", path)).json()
    assert share["url"].endswith(f"/replay/room/{room}/1?by={ann.id}")
    assert share["text"].startswith(f"Scorpion Race · room {room} · round 1\n")
    assert share["racers"] == 2 and len(share["strip"]) == 10
    await check_shared(api, share, NAME)
    # The link is the round's replay, with this racer in it.
    replay = (await api.call("GET", f"/api/replays/room/{room}/1")).json()
    assert ann.id in {r["player"] for r in replay["racers"]}
    for bad, status, code in [
        (f"/api/share/room/{room}/1/p_nobody", 404, "no-result"),
        (f"/api/share/room/{room}/x/{ann.id}", 400, "bad-field"),
        (f"/api/share/room/nowhere/1/{ann.id}", 404, "unknown-replay"),
    ]:
        r = await api.call("GET", bad)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), bad
    for racer in (ann, bob):
        await racer.client.close()
    assert tokens


async def test_a_past_days_share_is_the_leaderboards_row(
    server: ServerProcess, api: Api, database: str
) -> None:
    past = day(4)
    players = [await api.new_player(n) for n in ("Cy", NAME, "Di")]
    games = [(pid, 50.0 + i, i, [["give-up", 50.0 + i]]) for i, (pid, _) in enumerate(players)]
    await past_daily_results(database, past, DEAL, games)
    ann_id = players[1][0]
    share = (await api.call("GET", f"/api/share/daily/{past}/{ann_id}")).json()
    assert share["text"].split("\n")[:4] == [
        f"Scorpion Race · Daily {past}",
        "2nd of 3 · gave up at 0:51",
        "0/4 runs · score 0",
        "⬜" * 10,
    ]
    assert share["url"].endswith(f"/replay/daily/{past}/{ann_id}")
    tags = await check_shared(api, share, NAME)
    assert tags["og:title"] == f"Scorpion Race · Daily {past}"
    replay = await api.call("GET", local(share["url"]).replace("/replay/", "/api/replays/"))
    assert replay.status_code == 200 and replay.json()["racers"][0]["player"] == ann_id
    r = await api.call("GET", f"/api/share/daily/{past}/p_nobody")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "no-result")
    r = await api.call("GET", f"/api/share/daily/{day(-1)}/{ann_id}")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown-day")


async def test_todays_share_shows_no_more_than_the_leaderboard(
    server: ServerProcess, api: Api
) -> None:
    today = day(0)
    ann_id, ann_token = await api.new_player("Ann")
    client = await Client.connect(server.ws_url, "ann")
    assert (await client.hello(ann_token, daily=today))["type"] == "welcome"
    assert (await client.call("start"))["ranked"] is True
    path = f"/api/share/daily/{today}/{ann_id}"
    r = await api.call("GET", path)  # still playing: not on the leaderboard yet
    assert (r.status_code, r.json()["error"]["code"]) == (404, "no-result")
    assert (await client.call("give-up"))["type"] == "applied"
    share = (await api.call("GET", path)).json()
    board = (await api.call("GET", f"/api/daily/{today}/leaderboard")).json()
    row = next(r for r in board["rows"] if r["player"] == ann_id)
    # Other tests on this server may have played today's daily too: as the board says.
    assert share["rank"] == row["rank"] and share["racers"] == board["size"]
    assert f"{row['runs']}/4 runs · score {row['score']}" in share["text"]
    await check_shared(api, share, "Ann")
    # The link it ends with is the replay, which waits for the day to close.
    replay = await api.call("GET", local(share["url"]).replace("/replay/", "/api/replays/"))
    assert replay.json()["error"]["code"] == "day-not-closed"
    await client.close()
