"""HTTP: your history (docs/http-api.md, "History"): your games with their replays, your
records per preset and your daily calendar. The numbers come from the same functions as
``GET /api/players/{id}/stats`` and the daily's streak, so the pages agree."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from scorpion.race import daily_streak
from scorpion.race.history import STREAK_COUNTS, clean, daily_days, preset_records, replay_link
from scorpion.race.leaderboard import Leaderboard
from scorpion.race.protocol import date_of
from scorpion.store import SavedGame

from .http_common import api, me, page_params, services, today
from .http_replays import PAST_ENTRIES
from .responses import ApiError, ok

MAX_PAGE = 100


def kind_of(game: SavedGame) -> str:
    place = game.id.rsplit(":", 2)[0]
    if game.daily is not None or date_of(place) is not None:
        return "daily"
    return "practice" if place.startswith("practice:") else "race"


def history_json(game: SavedGame, now: float) -> dict[str, Any]:
    """One game of the history list: what it was, how it ended, and its replay (the page's
    path, or when it opens). No deal number and no actions (``GET /api/me/games`` has them)."""
    replay, opens_at = replay_link(game, game.player_id, now)
    number = int(game.id.rsplit(":", 2)[1])  # records.game_id: a round or an attempt
    kind = kind_of(game)
    return {
        "id": game.id,
        "kind": kind,
        "room": game.room_id,
        "round": number if kind == "race" else None,
        "daily": game.daily,
        "attempt": number if kind == "daily" else None,
        "ranked": game.ranked,
        "preset": game.preset,
        "status": game.result or "playing",
        "elapsed": game.elapsed,
        "runs": game.runs,
        "score": game.score,
        "moves": game.moves,
        "hints": game.hints,
        "autos": game.autos,
        "clean": clean(game),
        "started": game.started,
        "finished": game.finished,
        "replay": replay,
        "replay_opens_at": opens_at,
    }


@api
async def my_history(request: Request) -> Response:
    """GET /api/me/history?limit=&before= -> {games: [...] newest first, next}"""
    svc = services(request)
    player, _ = await me(request)
    limit, before = page_params(request, 20, MAX_PAGE)
    games = await svc.store.player_games(player.id, limit=limit, before=before)
    now = time.time()
    more = len(games) == limit
    return ok(
        {
            "games": [history_json(g, now) for g in games],
            "next": games[-1].started if more and games else None,
        }
    )


def month_param(request: Request) -> str:
    text = request.query_params.get("month", today()[:7])
    try:
        dt.date.fromisoformat(text + "-01")
    except ValueError:
        raise ApiError(400, "bad-field", f"month is YYYY-MM, not {text[:20]!r}") from None
    if len(text) != 7:
        raise ApiError(400, "bad-field", f"month is YYYY-MM, not {text[:20]!r}")
    return text


@api
async def my_records(request: Request) -> Response:
    """GET /api/me/records?month=YYYY-MM -> {presets: [...], daily: {streak, month, days}}"""
    svc = services(request)
    player, _ = await me(request)
    month = month_param(request)
    games = await svc.store.player_summaries(player.id)
    ranks: dict[str, tuple[int | None, int]] = {}
    for game in games:
        if game.ranked and game.daily is not None and game.daily.startswith(month + "-"):
            board = Leaderboard(await svc.store.daily_entries(game.daily, PAST_ENTRIES))
            ranks[game.daily] = (board.rank_of(player.id), len(board))
    current, best = daily_streak(await svc.store.daily_wins(player.id), today())
    return ok(
        {
            "player": {"id": player.id, "name": player.name},
            "presets": preset_records(games),
            "daily": {
                "streak": {"current": current, "best": best, "counts": STREAK_COUNTS},
                "month": month,
                "days": daily_days(games, ranks, month),
            },
        }
    )
