"""HTTP: players, their names, statistics and game records (docs/http-api.md)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from scorpion.race import statistics
from scorpion.race.disclosure import deal_shown
from scorpion.race.protocol import shard_of
from scorpion.store import Account, SavedGame

from .auth import BadName, clean_name, new_id, new_token, token_hash
from .devices import BadDeviceId, agent_family, device_hash, device_id
from .http_common import api, me, page_params, services
from .limits import address_key
from .responses import ApiError, json_body, ok, require_json
from .services import Services

MAX_GAMES_PAGE = 100


def player_json(player: Account, shards: int = 1) -> dict[str, Any]:
    """The player as the API shows it; ``daily_shard``: the shard of a day's daily holding
    their attempts (of ``shards``), which the client names in its socket's routing hint."""
    return {
        "id": player.id,
        "name": player.name,
        "created": player.created,
        "daily_shard": shard_of(player.id, shards),
    }


def name_from(body: dict[str, Any], default: str | None = None) -> str:
    if "name" not in body and default is not None:
        return default
    try:
        return clean_name(body.get("name"))
    except BadName as exc:
        raise ApiError(400, "bad-name", str(exc)) from None


def device_from(body: dict[str, Any]) -> str | None:
    """The body's device id (None: not sent), or a 400 ``bad-device-id``."""
    try:
        return device_id(body)
    except BadDeviceId as exc:
        raise ApiError(400, "bad-device-id", str(exc)) from None


async def remember_device(svc: Services, player_id: str, device: str | None) -> None:
    """Keep that the player is on this device (its HMAC only): it links players."""
    if device is not None:
        secret = svc.settings.secret.encode()
        await svc.store.add_player_device(player_id, device_hash(secret, device))


def client_key(request: Request) -> str:
    """The key of the request's address in the per-address limits (an IPv6 /64)."""
    return address_key(request.client.host) if request.client else "?"


@api
async def create_player(request: Request) -> Response:
    """POST /api/players {name?, device_id?} -> 201 {player, token}"""
    svc = services(request)
    require_json(request)  # before the address's budget is spent
    if not svc.new_players.take(client_key(request)):
        raise ApiError(429, "rate-limited", "too many new players from this address: wait")
    body = await json_body(request, svc.settings.limits, required=False)
    player_id = new_id("p_")
    name = name_from(body, default=f"Player {player_id[2:6]}")
    device = device_from(body)
    token = new_token()
    agent = agent_family(request.headers.get("user-agent"))
    player = await svc.store.create_player(player_id, token_hash(token), name, agent)
    await remember_device(svc, player.id, device)
    svc.tokens.remember(token, player)
    return ok(
        {"player": player_json(player, svc.referee.config.daily_shards), "token": token}, status=201
    )


@api
async def get_me(request: Request) -> Response:
    """GET /api/me -> {player}"""
    svc = services(request)
    player, _ = await me(request)
    return ok({"player": player_json(player, svc.referee.config.daily_shards)})


@api
async def patch_me(request: Request) -> Response:
    """PATCH /api/me {name} -> {player}"""
    svc = services(request)
    player, token = await me(request)
    body = await json_body(request, svc.settings.limits)
    if "name" not in body:
        raise ApiError(400, "missing-field", 'send {"name": ...}')
    updated = await svc.store.rename_player(player.id, name_from(body))
    svc.player_changed(player.id)
    svc.tokens.remember(token, updated)
    return ok({"player": player_json(updated, svc.referee.config.daily_shards)})


@api
async def delete_me(request: Request) -> Response:
    """DELETE /api/me -> {deleted: true}: the player, their games and daily attempts."""
    svc = services(request)
    player, _ = await me(request)
    await svc.store.delete_player(player.id)
    svc.player_changed(player.id, deleted=True)
    await svc.bridge.run([])  # the dailies' next ``playing`` event is due: wake the timers
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


def game_json(
    game: SavedGame, now: float, live: Mapping[str, object] | None = None
) -> dict[str, Any]:
    """A game record for its owner. The deal number stays hidden while it could help
    someone still playing: a race before its results, a daily before its day closes. A
    game still being played (``live``: Referee.live_game) shows its live numbers and log, not the
    stored start; ``clean``: no hint, no Auto."""
    shown = deal_shown(revealed=game.revealed, daily=game.daily, now=now)
    numbers: dict[str, Any] = {
        "status": game.result or "playing",
        "elapsed": game.elapsed,
        "score": game.score,
        "runs": game.runs,
        "moves": game.moves,
        "turned": game.turned,
        "hints": game.hints,
        "autos": game.autos,
        "actions": [[a, e] for a, e in game.actions],
    }
    if game.result is None and live is not None:
        numbers.update(live)
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
        **numbers,
        "clean": not (numbers["hints"] or numbers["autos"]),  # no hint, no Auto
    }


@api
async def my_games(request: Request) -> Response:
    """GET /api/me/games?limit=&before= -> {games: [...], next: before-value or null}"""
    svc = services(request)
    player, _ = await me(request)
    limit, before = page_params(request, 50, MAX_GAMES_PAGE)
    games = await svc.store.player_games(player.id, limit=limit, before=before)
    now = time.time()
    more = len(games) == limit
    return ok(
        {
            "games": [game_json(g, now, svc.referee.live_game(g.id)) for g in games],
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
    return ok({"game": game_json(game, time.time(), svc.referee.live_game(game.id))})
