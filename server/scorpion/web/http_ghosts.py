"""HTTP: ghosts, a daily result's progress over time to race against (docs/http-api.md,
"Ghosts"; docs/client.md says why the client plays it).

A ghost is numbers only: a ranked result of the day's leaderboard with its runs and score
over the race clock, the results chart's timeline. No board, no move, no card. Still, until
the day closes, ghosts are for those whose own ranked attempt of that day has ended (their
next attempts are unranked: a ghost race never counts): before that, a ghost would be help.
"""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import Response

from scorpion.race.daily import closes_at, day_closed
from scorpion.race.leaderboard import Leaderboard

from .http_common import api, me, services
from .http_replays import PAST_ENTRIES, check_day_text, names_of
from .http_share import timeline_of
from .responses import ApiError, ok


async def ranked_row_ended(request: Request, day: str, player_id: str) -> bool:
    svc = services(request)
    gid = await svc.store.daily_attempt(day, player_id)
    row = await svc.store.game(gid) if gid is not None else None
    return row is not None and row.ranked and row.result is not None


@api
async def daily_ghost(request: Request) -> Response:
    """GET /api/ghosts/daily/{day}/{player_id} -> the player's ranked result of that day with
    its timeline; before the day closes, only to a player whose ranked attempt has ended."""
    svc = services(request)
    day = check_day_text(request.path_params["day"])
    player_id = request.path_params["player_id"]
    if not day_closed(day, time.time()):
        viewer = (await me(request))[0]
        if not await ranked_row_ended(request, day, viewer.id):
            raise ApiError(
                403,
                "ghosts-after-your-attempt",
                "Ghosts of today's daily race with you once your ranked attempt has ended",
                {"opens_at": closes_at(day)},
            )
    board = Leaderboard(await svc.store.daily_entries(day, PAST_ENTRIES))
    entry = board.row(player_id)
    gid = await svc.store.daily_attempt(day, player_id)
    row = await svc.store.game(gid) if gid is not None and entry is not None else None
    if entry is None or row is None or row.result is None:
        raise ApiError(404, "no-result", "no ranked result of that player on that day")
    names = await names_of(svc, [row])
    replay = await timeline_of([row], names)
    # From the start of the race clock: at 0:00 no run yet, and the preset's first score.
    start = [0.0, 0, replay["start"][0]["score"]]  # type: ignore[index]
    timeline = [start, *replay["timeline"][player_id]]  # type: ignore[index]
    return ok(
        {
            "date": day,
            "player": player_id,
            "name": names[player_id],
            "rank": entry["rank"],
            "status": entry["status"],
            "elapsed": entry["elapsed"],
            "runs": entry["runs"],
            "score": entry["score"],
            "timeline": timeline,
        }
    )
