"""HTTP: a league among friends' tables (docs/http-api.md, "Leagues"): the week's (ISO week,
UTC; this week unless ``week`` says which) and all time's, from the points the store kept."""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import Response

from scorpion.race import RaceError
from scorpion.race.league import LATER, POINTS, WEEK, iso_week, standings

from .forwarding import Unreachable
from .http_common import api, services
from .responses import ApiError, ok


@api
async def league_tables(request: Request) -> Response:
    """GET /api/rooms/{room_id}/league?week=YYYY-Www -> the week's table and all time's"""
    svc = services(request)
    room = request.path_params["room_id"]
    week = request.query_params.get("week") or iso_week(time.time())
    if not WEEK.match(week):
        raise ApiError(400, "bad-week", f"week must be an ISO week such as 2026-W49, not {week!r}")
    all_time = standings(await svc.store.league_table(room, None))
    this_week = standings(await svc.store.league_table(room, week))
    league = False
    try:
        state = await svc.summary(room)
    except (Unreachable, RaceError):
        state = None
    if state is not None:
        settings = state.get("settings")
        league = isinstance(settings, dict) and bool(settings.get("league"))
    elif not all_time:
        raise ApiError(404, "unknown-room", "no such room")
    return ok(
        {
            "room": room,
            "league": league,  # the room is a league now (its tables stay either way)
            "week": week,
            "points": [*POINTS, LATER],  # by place; every later place scores the last
            "week_table": this_week,
            "all_time": all_time,
        }
    )
