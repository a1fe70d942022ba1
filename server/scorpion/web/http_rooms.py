"""HTTP: rooms and the daily challenge (docs/http-api.md)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from scorpion.race import RaceError, RoomSettings, SettingsError, daily_streak
from scorpion.race.daily import check_date
from scorpion.race.disclosure import daily_public
from scorpion.race.leaderboard import Leaderboard
from scorpion.race.protocol import daily_key

from .auth import bearer, new_room_id
from .forwarding import Unreachable
from .http_common import api, me, services, today
from .responses import ApiError, json_body, ok
from .services import Services


@api
async def create_room(request: Request) -> Response:
    """POST /api/rooms {preset, deal, max_players, time_limit, undo, hints} -> 201 {room, state}"""
    svc = services(request)
    player, _ = await me(request)
    body = await json_body(request, svc.settings.limits, required=False)
    try:
        settings = RoomSettings.from_dict(body)
        settings.check_stakes()
    except SettingsError as exc:
        raise ApiError(400, "bad-settings", str(exc)) from None
    if not svc.new_rooms.take(player.id):
        raise ApiError(429, "rate-limited", "too many rooms created: wait a little")
    if svc.closing:
        raise ApiError(503, "shutting-down", "the server is restarting: try again shortly")
    room_id = new_room_id()
    if svc.cluster is not None:
        await svc.cluster.claim(room_id)  # this process owns the new room
    now = time.time()
    await svc.bridge.run(svc.referee.create_room(room_id, svc.race_player(player), settings, now))
    state = svc.referee.room_summary(room_id, time.time())
    if svc.cluster is not None:  # its first request through the proxy takes it where it lands
        await svc.cluster.hand_over(room_id)
    return ok({"room": room_id, "link": f"/r/{room_id}", "state": state}, status=201)


OPEN_ROOMS = 20  # the home page lists at most this many, the latest listed first


@api
async def open_rooms(request: Request) -> Response:
    """GET /api/rooms -> the rooms their hosts listed: rule set, racers, state"""
    svc = services(request)
    ids = await svc.store.listed_rooms(OPEN_ROOMS)
    found = await asyncio.gather(*(open_summary(svc, room) for room in ids))
    return ok({"rooms": [row for row in found if row is not None]})


async def open_summary(svc: Services, room: str) -> dict[str, Any] | None:
    """One open room's line: numbers and names only (its snapshot's public part)."""
    try:
        found = await svc.summary(room)
    except Unreachable:
        return None  # its owner cannot be asked now: left out of this list
    state: dict[str, Any] | None = found  # JSON from the owner
    if state is None or not state.get("listed"):
        return None
    settings = state["settings"]
    host = next((p["name"] for p in state["players"] if p["id"] == state["host"]), None)
    return {
        "room": room,
        "link": f"/r/{room}",
        "preset": settings["preset"],
        "phase": state["phase"],
        "racers": len(state["players"]),
        "max_players": settings["max_players"],
        "locked": state["locked"],
        "rated": bool(settings.get("rated")),  # racing there moves one's rating
        "league": bool(settings.get("league")),
        "host": host,
        "spectators": state["spectators"],
    }


@api
async def room_summary(request: Request) -> Response:
    """GET /api/rooms/{room_id} -> the room's public snapshot (docs/protocol.md section 5)"""
    svc = services(request)
    state = await summary(svc, request.path_params["room_id"])
    if state is None:
        raise ApiError(404, "unknown-room", "no such room (or it was closed)")
    return ok(state)


async def summary(svc: Services, place: str) -> dict[str, Any] | None:
    """The summary of a room or daily from its owner (another process, with several)."""
    try:
        return await svc.summary(place)
    except Unreachable:
        raise ApiError(503, "unavailable", "the room cannot be reached now: retry") from None


# -------------------------------------------------------------------- daily
def check_day(text: str) -> str:
    """The websocket's rule (race.daily.check_date): a real day, not after today, not older
    than the dailies that can be played."""
    try:
        return check_date(text, time.time())
    except RaceError as exc:
        raise ApiError(404, "unknown-day", exc.message) from None


PAST_ENTRIES = 1_000_000  # a past day's leaderboard is read whole from the store
PAGE_ROWS, MAX_PAGE_ROWS = 20, 100


async def day_board(svc: Services, day: str) -> Leaderboard:
    """Today's leaderboard as the referee keeps it (in order as results come, restored from
    today's log after a restart; with several processes, on the daily's owner only);
    another day's, or today's elsewhere, ranked from the store, which outlives the logs
    (past days are rarely asked for, and change only with a late finish)."""
    daily = svc.referee.dailies.get(day)
    # With several processes only the daily's owner keeps its board; others read the store.
    # A split daily's board is the store's: a shard's owner keeps a copy for its sockets'
    # ranks, refreshed every few seconds (Cluster._day_shards), too old for a request that
    # follows a finish on another shard (each result is committed before it is announced).
    owned = svc.cluster is None or daily_key(day) in svc.cluster.held
    if daily is not None and day == today() and owned:
        return daily.feed.board
    return Leaderboard(await svc.store.daily_entries(day, PAST_ENTRIES))


async def daily_json(svc: Services, day: str) -> dict[str, Any]:
    """The referee's summary (preset, verified, who is playing now) once the day's deal is
    known, the top of the leaderboard. A request never waits for, nor starts, a deal
    search: until the deal is ready ``preparing`` is true."""
    ready = day in svc.referee.dailies or await svc.store.daily_deal(day) is not None
    found = None
    if ready:
        await svc.dailies.ensure(day)
        found = await summary(svc, daily_key(day))
    return daily_public(day, today(), found, await day_board(svc, day), ready=ready)


async def with_you(request: Request, data: dict[str, Any]) -> dict[str, Any]:
    """With a bearer token: the player's daily streak and their ranked attempt of the day."""
    if bearer(request.headers) is None:
        return data
    player, _ = await me(request)
    svc = services(request)
    current, best = daily_streak(await svc.store.daily_wins(player.id), today())
    game_id = await svc.store.daily_attempt(data["date"], player.id)
    game = await svc.store.game(game_id) if game_id else None
    data["you"] = {
        "streak": {"current": current, "best": best},
        "ranked": None
        if game is None
        else {
            "status": game.result or "playing",
            "elapsed": game.elapsed,
            "runs": game.runs,
            "score": game.score,
            "moves": game.moves,
        },
    }
    return data


@api
async def daily_today(request: Request) -> Response:
    """GET /api/daily -> today's daily: info and leaderboard (and "you" with a token)"""
    return ok(await with_you(request, await daily_json(services(request), today())))


@api
async def daily_day(request: Request) -> Response:
    """GET /api/daily/{day} -> that day's daily (today or earlier)"""
    day = check_day(request.path_params["day"])
    return ok(await with_you(request, await daily_json(services(request), day)))


def count_param(request: Request, name: str, default: int, highest: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ApiError(400, "bad-field", f"{name} is a whole number, not {text[:20]!r}") from None
    if not 0 <= value <= highest:
        raise ApiError(400, "bad-field", f"{name} is between 0 and {highest}")
    return value


@api
async def daily_leaderboard(request: Request) -> Response:
    """GET /api/daily/{day}/leaderboard?offset=&limit= or ?around=me -> one page of rows"""
    svc = services(request)
    day = check_day(request.path_params["day"])
    limit = count_param(request, "limit", PAGE_ROWS, MAX_PAGE_ROWS)
    around = request.query_params.get("around")
    if around is not None and around != "me":
        raise ApiError(400, "bad-field", "around=me is the only around")
    player = (await me(request))[0] if around is not None else None
    board = await day_board(svc, day)
    if player is not None:
        offset, rows = board.around(player.id, limit)
    else:
        offset = count_param(request, "offset", 0, 10**9)
        rows = board.page(offset, limit)
    page: dict[str, Any] = {"date": day, "size": len(board), "offset": offset, "rows": rows}
    if player is not None:
        page["you"] = board.row(player.id)
    return ok(page)
