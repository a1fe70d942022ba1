"""The HTTP API (docs/http-api.md): players, rooms, the daily, statistics, records, health.

Every answer is JSON (orjson). The token travels in ``Authorization: Bearer``.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from scorpion.race import RoomSettings, SettingsError, daily_streak, rank_entries, statistics
from scorpion.store import GameRecord, Player

from .auth import BadName, bearer, clean_name, new_id, new_token, token_hash
from .responses import ApiError, error, json_body, ok
from .services import Services

Handler = Callable[[Request], Awaitable[Response]]
MAX_GAMES_PAGE = 100


def services(request: Request) -> Services:
    svc: Services = request.app.state.services
    return svc


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


def api(handler: Handler) -> Handler:
    """Turn ApiError (and stray ValueErrors of bad input) into JSON errors."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except ApiError as exc:
            services(request).metrics.http_errors.labels(str(exc.status)).inc()
            return error(exc.status, exc.code, exc.message)

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped


async def me(request: Request) -> tuple[Player, str]:
    token = bearer(request.headers)
    if token is None:
        raise ApiError(401, "not-authenticated", "send 'Authorization: Bearer <token>'")
    player = await services(request).player_for(token)
    if player is None:
        raise ApiError(401, "bad-token", "unknown token: create a player with POST /api/players")
    return player, token


def player_json(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "created": player.created}


def name_from(body: dict[str, Any], default: str | None = None) -> str:
    if "name" not in body and default is not None:
        return default
    try:
        return clean_name(body.get("name"))
    except BadName as exc:
        raise ApiError(400, "bad-name", str(exc)) from None


def client_key(request: Request) -> str:
    return request.client.host if request.client else "?"


# ------------------------------------------------------------------ players
@api
async def create_player(request: Request) -> Response:
    """POST /api/players {name?} -> 201 {player, token}"""
    svc = services(request)
    if not svc.new_players.take(client_key(request)):
        raise ApiError(429, "rate-limited", "too many new players from this address: wait")
    body = await json_body(request, svc.settings.limits, required=False)
    player_id = new_id("p_")
    name = name_from(body, default=f"Player {player_id[2:6]}")
    token = new_token()
    player = await svc.store.create_player(player_id, token_hash(token), name)
    svc.remember(token, player)
    return ok({"player": player_json(player), "token": token}, status=201)


@api
async def get_me(request: Request) -> Response:
    """GET /api/me -> {player}"""
    player, _ = await me(request)
    return ok({"player": player_json(player)})


@api
async def patch_me(request: Request) -> Response:
    """PATCH /api/me {name} -> {player}"""
    svc = services(request)
    player, token = await me(request)
    body = await json_body(request, svc.settings.limits)
    if "name" not in body:
        raise ApiError(400, "missing-field", 'send {"name": ...}')
    updated = await svc.store.rename_player(player.id, name_from(body))
    svc.remember(token, updated)
    return ok({"player": player_json(updated)})


@api
async def delete_me(request: Request) -> Response:
    """DELETE /api/me -> {deleted: true}: the player, their games and daily attempts."""
    svc = services(request)
    player, _ = await me(request)
    await svc.store.delete_player(player.id)
    svc.forget_player(player.id)
    for conn in list(svc.connections.values()):
        if conn.player == player.id:
            conn.close(4001, "player deleted")
    return ok({"deleted": True, "player": player.id})


@api
async def player_stats(request: Request) -> Response:
    """GET /api/players/{id}/stats -> {player, stats: [per preset]}"""
    svc = services(request)
    player = await svc.store.player(request.path_params["player_id"])
    if player is None:
        raise ApiError(404, "unknown-player", "no such player")
    results = await svc.store.results(player.id)
    stats = statistics(results)
    return ok(
        {
            "player": {"id": player.id, "name": player.name},
            "stats": [stats[p].to_dict() for p in sorted(stats)],
        }
    )


def game_json(game: GameRecord, day: str) -> dict[str, Any]:
    """A game record for its owner. The deal number stays hidden while it could help
    someone still playing: a race before its results, today's daily."""
    shown = game.revealed if game.daily is None else game.daily < day
    return {
        "id": game.id,
        "room": game.room_id,
        "daily": game.daily,
        "ranked": game.ranked,
        "preset": game.preset,
        "rules": game.rules,
        "deal": str(game.deal) if shown else None,
        "started": game.started,
        "finished": game.finished,
        "status": game.result or "playing",
        "elapsed": game.elapsed,
        "score": game.score,
        "runs": game.runs,
        "moves": game.moves,
        "turned": game.turned,
        "actions": [[a, e] for a, e in game.actions],
    }


@api
async def my_games(request: Request) -> Response:
    """GET /api/me/games?limit=&before= -> {games: [...], next: before-value or null}"""
    svc = services(request)
    player, _ = await me(request)
    try:
        limit = int(request.query_params.get("limit", "50"))
        before_text = request.query_params.get("before")
        before = float(before_text) if before_text is not None else None
    except ValueError:
        raise ApiError(400, "bad-field", "limit is an integer, before a time") from None
    limit = max(1, min(limit, MAX_GAMES_PAGE))
    games = await svc.store.player_games(player.id, limit=limit, before=before)
    day = today()
    more = len(games) == limit
    return ok(
        {
            "games": [game_json(g, day) for g in games],
            "next": games[-1].started if more and games else None,
        }
    )


@api
async def my_game(request: Request) -> Response:
    """GET /api/me/games/{game_id} -> {game}"""
    svc = services(request)
    player, _ = await me(request)
    game = await svc.store.game(request.path_params["game_id"])
    if game is None or game.player_id != player.id:
        raise ApiError(404, "unknown-game", "no such game of yours")
    return ok({"game": game_json(game, today())})


# -------------------------------------------------------------------- rooms
@api
async def create_room(request: Request) -> Response:
    """POST /api/rooms {preset, deal, max_players, time_limit, undo, hints} -> 201 {room, state}"""
    svc = services(request)
    player, _ = await me(request)
    body = await json_body(request, svc.settings.limits, required=False)
    try:
        settings = RoomSettings.from_dict(body)
    except SettingsError as exc:
        raise ApiError(400, "bad-settings", str(exc)) from None
    if not svc.new_rooms.take(player.id):
        raise ApiError(429, "rate-limited", "too many rooms created: wait a little")
    if svc.closing:
        raise ApiError(503, "shutting-down", "the server is restarting: try again shortly")
    room_id = new_id("", 6)
    now = time.time()
    await svc.bridge.run(svc.referee.create_room(room_id, svc.race_player(player), settings, now))
    state = svc.referee.room_summary(room_id, time.time())
    return ok({"room": room_id, "link": f"/r/{room_id}", "state": state}, status=201)


@api
async def room_summary(request: Request) -> Response:
    """GET /api/rooms/{room_id} -> the room's public snapshot (docs/protocol.md section 5)"""
    svc = services(request)
    state = svc.referee.room_summary(request.path_params["room_id"], time.time())
    if state is None:
        raise ApiError(404, "unknown-room", "no such room (or it was closed)")
    return ok(state)


# -------------------------------------------------------------------- daily
def check_day(text: str) -> str:
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise ApiError(404, "unknown-day", "a day is a date like 2026-11-29") from None
    if day.isoformat() != text:
        raise ApiError(404, "unknown-day", "a day is a date like 2026-11-29")
    if text > today():
        raise ApiError(404, "unknown-day", "future dailies are secret")
    return text


async def daily_json(svc: Services, day: str) -> dict[str, Any]:
    """The referee's summary (preset, verified, who is playing now) once the day's deal is
    known; the leaderboard always from the store (it outlives the logs). A request never
    waits for, nor starts, a deal search: until the deal is ready ``preparing`` is true."""
    ready = day in svc.referee.dailies or await svc.store.daily_deal(day) is not None
    summary = None
    if ready:
        await svc.dailies.ensure(day)
        summary = svc.referee.daily_summary(day, time.time())
    data: dict[str, Any] = (
        dict(summary)
        if summary
        else {"date": day, "preset": "classic", "verified": None, "playing": []}
    )
    data["leaderboard"] = rank_entries(await svc.store.daily_entries(day))
    data["today"] = day == today()
    data["preparing"] = not ready and day == today()
    data.pop("deal", None)  # never, whatever the summary holds
    return data


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


# ------------------------------------------------------------------- health
async def healthz(request: Request) -> Response:
    return ok({"ok": True})


async def readyz(request: Request) -> Response:
    svc = services(request)
    if svc.ready and not svc.closing and await svc.store.ping():
        return ok({"ready": True})
    return error(503, "not-ready", "starting, stopping or the store is unavailable")


async def metrics(request: Request) -> Response:
    svc = services(request)
    return Response(svc.metrics.render(), media_type=svc.metrics.content_type)


@api
async def not_found(request: Request) -> Response:
    raise ApiError(404, "not-found", f"no API at {request.url.path}")


def routes() -> list[Route]:
    return [
        Route("/api/players", create_player, methods=["POST"]),
        Route("/api/me", get_me, methods=["GET"]),
        Route("/api/me", patch_me, methods=["PATCH"]),
        Route("/api/me", delete_me, methods=["DELETE"]),
        Route("/api/me/games", my_games, methods=["GET"]),
        Route("/api/me/games/{game_id}", my_game, methods=["GET"]),
        Route("/api/players/{player_id}/stats", player_stats, methods=["GET"]),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room_id}", room_summary, methods=["GET"]),
        Route("/api/daily", daily_today, methods=["GET"]),
        Route("/api/daily/{day}", daily_day, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/api/{rest:path}", not_found, methods=["GET", "POST", "PATCH", "DELETE", "PUT"]),
    ]
