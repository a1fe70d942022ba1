"""The HTTP API's routes (docs/http-api.md), health and metrics.

Every answer is JSON (orjson). The token travels in ``Authorization: Bearer``.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .http_analysis import game_analysis
from .http_common import api, services
from .http_devices import (
    claim_device_code,
    make_device_code,
    make_recovery_code,
    my_devices,
    recover,
    sign_out_device,
    sign_out_others,
)
from .http_ghosts import daily_ghost
from .http_history import my_history, my_records
from .http_league import league_tables
from .http_players import (
    create_player,
    delete_me,
    get_me,
    my_game,
    my_games,
    patch_me,
    player_stats,
)
from .http_presets import list_presets
from .http_quick import quick_join, quick_leave, quick_status
from .http_ratings import player_ratings, rating_board
from .http_replays import daily_replay, round_replay
from .http_rooms import (
    create_room,
    daily_day,
    daily_leaderboard,
    daily_today,
    open_rooms,
    room_summary,
)
from .http_share import daily_share, daily_share_svg, room_share, room_share_svg
from .responses import ApiError, error, ok


async def healthz(request: Request) -> Response:
    return ok({"ok": True})


async def readyz(request: Request) -> Response:
    svc = services(request)
    if svc.ready and not svc.closing and await svc.store.ping():
        degraded = svc.degraded()  # serving, but not everything (docs/scaling.md)
        return ok({"ready": True, "degraded": degraded} if degraded else {"ready": True})
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
        Route("/api/me/history", my_history, methods=["GET"]),
        Route("/api/me/records", my_records, methods=["GET"]),
        Route("/api/me/device-code", make_device_code, methods=["POST"]),
        Route("/api/me/recovery-code", make_recovery_code, methods=["POST"]),
        Route("/api/me/devices", my_devices, methods=["GET"]),
        Route("/api/me/devices/sign-out-others", sign_out_others, methods=["POST"]),
        Route("/api/me/devices/{device_id}", sign_out_device, methods=["DELETE"]),
        Route("/api/devices/claim", claim_device_code, methods=["POST"]),
        Route("/api/recover", recover, methods=["POST"]),
        Route("/api/players/{player_id}/stats", player_stats, methods=["GET"]),
        Route("/api/players/{player_id}/ratings", player_ratings, methods=["GET"]),
        Route("/api/ratings/{preset}", rating_board, methods=["GET"]),
        Route("/api/games/{game_id}/analysis", game_analysis, methods=["GET"]),
        Route("/api/presets", list_presets, methods=["GET"]),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms", open_rooms, methods=["GET"]),
        Route("/api/quick", quick_join, methods=["POST"]),
        Route("/api/quick", quick_status, methods=["GET"]),
        Route("/api/quick", quick_leave, methods=["DELETE"]),
        Route("/api/rooms/{room_id}", room_summary, methods=["GET"]),
        Route("/api/rooms/{room_id}/league", league_tables, methods=["GET"]),
        Route("/api/daily", daily_today, methods=["GET"]),
        Route("/api/daily/{day}", daily_day, methods=["GET"]),
        Route("/api/daily/{day}/leaderboard", daily_leaderboard, methods=["GET"]),
        Route("/api/replays/room/{room_id}/{round}", round_replay, methods=["GET"]),
        Route("/api/replays/daily/{day}/{player_id}", daily_replay, methods=["GET"]),
        Route("/api/replays/daily/{day}/{player_id}/{attempt}", daily_replay, methods=["GET"]),
        Route("/api/share/daily/{day}/{player_id}", daily_share, methods=["GET"]),
        Route("/api/share/room/{room_id}/{round}/{player_id}", room_share, methods=["GET"]),
        Route("/share/daily/{day}/{player_id}.svg", daily_share_svg, methods=["GET"]),
        Route("/share/room/{room_id}/{round}/{player_id}.svg", room_share_svg, methods=["GET"]),
        Route("/api/ghosts/daily/{day}/{player_id}", daily_ghost, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/api/{rest:path}", not_found, methods=["GET", "POST", "PATCH", "DELETE", "PUT"]),
    ]
