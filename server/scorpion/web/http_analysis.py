"""GET /api/games/{game_id}/analysis: where the win slipped away (docs/http-api.md).

Shown on the same terms as the game's deal (scorpion.race.disclosure.deal_shown): a
race's once its round's results are out, a daily's once its day closes, a practice
game's at once. Analyses are read from the store, so any server process serves them;
a missing one is queued (the player's own game first) and answered ``pending``.
"""

from __future__ import annotations

import time
from typing import Final

from starlette.requests import Request
from starlette.responses import Response

from scorpion.race.disclosure import deal_shown

from .auth import bearer
from .http_common import api, me, services
from .responses import ApiError, ok

RETRY_AFTER: Final = 2  # seconds a client waits before asking again for a pending analysis


@api
async def game_analysis(request: Request) -> Response:
    """GET /api/games/{game_id}/analysis -> {game, status: done|pending|failed, analysis}"""
    svc = services(request)
    game_id = request.path_params["game_id"]
    game = await svc.store.game(game_id)
    if game is None:
        raise ApiError(404, "unknown-game", "no such game")
    if not deal_shown(revealed=game.revealed, daily=game.daily, now=time.time()):
        if game.daily is not None:
            message = "a daily's analysis is shown once its day closes (01:00 UTC the next day)"
        else:
            message = "a race's analysis is shown once its round's results are out"
        raise ApiError(403, "analysis-not-yet", message)
    if game.result is None:
        raise ApiError(409, "game-not-finished", "the game is still being played")
    stored = await svc.store.analysis(game_id)
    if stored is not None:
        return ok({"game": game_id, "status": "done", "analysis": stored})
    own = bearer(request.headers) is not None and (await me(request))[0].id == game.player_id
    if not svc.analyses.ask(game_id, urgent=own):
        raise ApiError(503, "analysis-busy", "too many games wait for analysis: ask again later")
    status = "failed" if svc.analyses.status(game_id) == "failed" else "pending"
    return ok({"game": game_id, "status": status, "retry_after": RETRY_AFTER})
