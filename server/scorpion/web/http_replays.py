"""HTTP: replays of finished race rounds and daily attempts (docs/http-api.md, "Replays").

Built from the store's game rows (a room's log is gone once it closes; the rows stay), so
a replay works after a restart and on any process. Who may watch what, and when, is
:mod:`scorpion.race.replay_access`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gzip
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from scorpion.race.daily import utc_date
from scorpion.race.daily_feed import TOP_ROWS
from scorpion.race.leaderboard import Leaderboard
from scorpion.race.protocol import daily_key, game_id
from scorpion.race.replay import ReplayError, ReplayGame, build_replay, rules_of
from scorpion.race.replay_access import (
    ReplayRefused,
    check_daily_replay,
    check_round_replay,
    public_players,
)
from scorpion.store import SavedGame

from .auth import bearer
from .http_common import api, me, services
from .responses import ApiError
from .services import Services

PAST_ENTRIES = 1_000_000  # a day's leaderboard is ranked whole from the store
CACHED = 64  # replays kept built (a finished game never changes; a popular one is asked often)
# (the games' ids and ends, the names) -> (JSON, gzipped JSON)
_built: OrderedDict[tuple[object, ...], tuple[bytes, bytes]] = OrderedDict()


def replay_game(row: SavedGame, name: str) -> ReplayGame:
    """A stored game as the replay reads it."""
    return ReplayGame(
        player=row.player_id,
        name=name,
        deal=row.deal,
        rules=rules_of(row.rules),
        actions=row.actions,
        status=row.result or "playing",
        elapsed=row.elapsed or 0.0,
        hints=row.hints,
        autos=row.autos,
    )


def replay_json(rows: Sequence[SavedGame], names: dict[str, str]) -> dict[str, Any]:
    """The replay of ``rows`` (one round's, or one attempt) with its deal and rules: the
    deal is public once a replay is open."""
    games = [replay_game(r, names.get(r.player_id, "?")) for r in rows]
    try:
        replay = build_replay(games)
    except ReplayError as exc:
        raise ApiError(500, "bad-replay", f"this game's log cannot be replayed: {exc}") from None
    first = rows[0]
    return {
        "preset": first.preset,
        "rules": games[0].rules.to_dict(),
        "deal": str(first.deal),
        **replay,
    }


def encoded(
    head: dict[str, Any], rows: Sequence[SavedGame], names: dict[str, str]
) -> tuple[bytes, bytes]:
    """``head`` and the replay as JSON, plain and gzipped (what a browser takes)."""
    body = orjson.dumps({**head, **replay_json(rows, names)})
    return body, gzip.compress(body, 6)


async def replay_response(
    request: Request, head: dict[str, Any], rows: Sequence[SavedGame], names: dict[str, str]
) -> Response:
    """The replay, built once (in a thread: a long round takes tens of milliseconds, which
    the event loop then shares) and kept while it is asked for."""
    key = (tuple(head.items()), tuple((r.id, r.finished, r.result) for r in rows),
           tuple(sorted(names.items())))  # fmt: skip
    found = _built.get(key)
    if found is None:
        found = await asyncio.to_thread(encoded, head, rows, names)
        _built[key] = found
        while len(_built) > CACHED:
            _built.popitem(last=False)
    _built.move_to_end(key)
    headers = {"Cache-Control": "no-store", "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(found[1], headers=headers, media_type="application/json")
    return Response(found[0], headers=headers, media_type="application/json")


async def names_of(svc: Services, rows: Sequence[SavedGame]) -> dict[str, str]:
    names: dict[str, str] = {}
    for row in rows:
        player = await svc.store.player(row.player_id)
        names[row.player_id] = player.name if player is not None else "?"
    return names


def refused(exc: ReplayRefused) -> ApiError:
    status = 409 if exc.code == "still-playing" else 403
    extra = {"opens_at": exc.opens_at} if exc.opens_at is not None else None
    return ApiError(status, exc.code, exc.message, extra)


@api
async def round_replay(request: Request) -> Response:
    """GET /api/replays/room/{room_id}/{round} -> the round's replay, once it has results"""
    svc = services(request)
    room_id = request.path_params["room_id"]
    text = request.path_params["round"]
    if not text.isdigit() or len(text) > 9:
        raise ApiError(400, "bad-field", "the round is a whole number (1 for the first)")
    rows = await svc.store.round_games(room_id, int(text))
    if not rows:
        raise ApiError(404, "unknown-replay", "no such round (or its games were deleted)")
    try:
        check_round_replay(any(r.revealed for r in rows))  # revealed with the results
    except ReplayRefused as exc:
        raise refused(exc) from None
    ended = [r for r in rows if r.result is not None]
    head = {"kind": "room", "room": room_id, "round": int(text)}
    return await replay_response(request, head, ended, await names_of(svc, ended))


def check_day_text(text: str) -> str:
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise ApiError(404, "unknown-day", f"no daily {text[:20]!r}: use YYYY-MM-DD") from None
    if len(text) != 10 or day.isoformat() > utc_date(time.time()):
        raise ApiError(404, "unknown-day", f"no daily for {text!r} yet")
    return text


@api
async def daily_replay(request: Request) -> Response:
    """GET /api/replays/daily/{day}/{player_id}[/{attempt}] -> one attempt's replay: the
    player's ranked attempt, or the numbered one; after the day closes only."""
    svc = services(request)
    day = check_day_text(request.path_params["day"])
    player_id = request.path_params["player_id"]
    now = time.time()
    try:  # before anything is read: until the day closes, nothing about it is told
        check_daily_replay(day, now, public=True, own=True, ended=True)
    except ReplayRefused as exc:
        raise refused(exc) from None
    attempt = request.path_params.get("attempt")
    if attempt is not None:
        if not attempt.isdigit() or len(attempt) > 18:
            raise ApiError(400, "bad-field", "the attempt is a whole number")
        gid: str | None = game_id(daily_key(day), int(attempt), player_id)
    else:
        gid = await svc.store.daily_attempt(day, player_id)
    row = await svc.store.game(gid) if gid is not None else None
    if row is None or row.daily != day or row.player_id != player_id:
        raise ApiError(404, "unknown-replay", "no such attempt of that day's daily")
    own = False
    if bearer(request.headers) is not None:
        own = (await me(request))[0].id == player_id
    public = False
    if row.ranked and not own:
        board = Leaderboard(await svc.store.daily_entries(day, PAST_ENTRIES))
        public = player_id in public_players(board.page(0, TOP_ROWS))
    try:
        check_daily_replay(day, now, public=public, own=own, ended=row.result is not None)
    except ReplayRefused as exc:
        raise refused(exc) from None
    attempt_number = int(row.id.rsplit(":", 2)[1])
    head = {"kind": "daily", "date": day, "attempt": attempt_number, "ranked": row.ranked,
            "player": player_id}  # fmt: skip
    return await replay_response(request, head, [row], await names_of(svc, [row]))
