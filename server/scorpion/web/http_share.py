"""HTTP: a result to share (docs/http-api.md, "Share"): its text as JSON, its image as SVG,
and the Open Graph tags of the replay link the text ends with.

A daily result is the player's ranked attempt as the day's leaderboard shows it (place,
time, runs, score: public from the moment it ends) with the strip of runs held over time
(the live "playing now" list shows runs as they come); so it may be shared before the day
closes, and nothing in it is about the deal. A round's result opens with the round's
results, like its replay.
"""

from __future__ import annotations

import asyncio
import re
import urllib.parse
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from starlette.requests import Request
from starlette.responses import Response

from scorpion.race.leaderboard import Leaderboard
from scorpion.race.replay import ReplayError, build_replay
from scorpion.race.replay_access import ReplayRefused, check_round_replay
from scorpion.race.share import ShareCard, og_tags, share_svg, share_text, strip
from scorpion.store import SavedGame

from .http_common import api, services
from .http_replays import PAST_ENTRIES, check_day_text, names_of, refused, replay_game
from .responses import ApiError, ok
from .services import Services

NO_RESULT = "no ended ranked result of that player on that day"
KEPT = 256  # progress summaries kept (small: results and timelines, no boards)
_kept: OrderedDict[tuple[object, ...], dict[str, object]] = OrderedDict()


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def quoted(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def _progress(rows: list[SavedGame], names: dict[str, str]) -> dict[str, object]:
    """The rows' racers (ranked as their results were) and timeline, from their replay."""
    try:
        replay = build_replay([replay_game(r, names.get(r.player_id, "?")) for r in rows])
    except ReplayError as exc:
        raise ApiError(500, "bad-replay", f"this game's log cannot be replayed: {exc}") from None
    return {"racers": replay["racers"], "timeline": replay["timeline"], "start": replay["start"]}


async def timeline_of(rows: list[SavedGame], names: dict[str, str]) -> dict[str, object]:
    """:func:`_progress`, built in a thread (a long round takes tens of milliseconds) and
    kept: a shared link asks for its text, its image and its page's tags."""
    key = (tuple((r.id, r.finished, r.result) for r in rows), tuple(sorted(names.items())))
    found = _kept.get(key)
    if found is None:
        found = await asyncio.to_thread(_progress, rows, names)
        _kept[key] = found
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    _kept.move_to_end(key)
    return found


async def daily_card(request: Request, day: str, player_id: str) -> ShareCard:
    """The player's ranked result of ``day``, as the leaderboard shows it."""
    svc = services(request)
    day = check_day_text(day)
    gid = await svc.store.daily_attempt(day, player_id)
    row = await svc.store.game(gid) if gid is not None else None
    if row is None or not row.ranked or row.result is None or row.player_id != player_id:
        raise ApiError(404, "no-result", NO_RESULT)
    board = Leaderboard(await svc.store.daily_entries(day, PAST_ENTRIES))
    entry = board.row(player_id)
    if entry is None:
        raise ApiError(404, "no-result", NO_RESULT)
    names = await names_of(svc, [row])
    replay = await timeline_of([row], names)
    timeline = replay["timeline"][player_id]  # type: ignore[index]
    url = f"{base_url(request)}/replay/daily/{day}/{quoted(player_id)}"
    return card(f"Daily {day}", names[player_id], entry, len(board), timeline, url)


async def room_card(request: Request, room_id: str, round_text: str, player_id: str) -> ShareCard:
    """The player's result of a round, once the round's results are out."""
    svc: Services = services(request)
    if not round_text.isdigit() or len(round_text) > 9:
        raise ApiError(400, "bad-field", "the round is a whole number (1 for the first)")
    rows = await svc.store.round_games(room_id, int(round_text))
    if not rows:
        raise ApiError(404, "unknown-replay", "no such round (or its games were deleted)")
    try:
        check_round_replay(any(r.revealed for r in rows))
    except ReplayRefused as exc:
        raise refused(exc) from None
    ended = [r for r in rows if r.result is not None]
    if not any(r.player_id == player_id for r in ended):
        raise ApiError(404, "no-result", "that player has no result in that round")
    names = await names_of(svc, ended)
    replay = await timeline_of(ended, names)
    racers: list[dict[str, object]] = replay["racers"]  # type: ignore[assignment]
    mine = next(r for r in racers if r["player"] == player_id)
    round_ = int(round_text)
    url = f"{base_url(request)}/replay/room/{quoted(room_id)}/{round_}?by={quoted(player_id)}"
    timeline = replay["timeline"][player_id]  # type: ignore[index]
    return card(
        f"room {room_id} · round {round_}", names[player_id], mine, len(racers), timeline, url
    )


def card(
    title: str,
    name: str,
    entry: Mapping[str, object],
    racers: int,
    timeline: Sequence[Sequence[float]],
    url: str,
) -> ShareCard:
    """A share card from a ranked entry (a leaderboard row or a round's result)."""
    elapsed = float(entry["elapsed"])  # type: ignore[arg-type]
    return ShareCard(
        title=title,
        name=name,
        rank=int(entry["rank"]),  # type: ignore[call-overload]
        racers=racers,
        status=str(entry["status"]),
        elapsed=elapsed,
        runs=int(entry["runs"]),  # type: ignore[call-overload]
        score=int(entry["score"]),  # type: ignore[call-overload]
        strip=strip(timeline, elapsed),
        url=url,
    )


def image_url(request: Request, card_path: str) -> str:
    return f"{base_url(request)}/share/{card_path}.svg"


def share_json(request: Request, card: ShareCard, card_path: str) -> Response:
    return ok(
        {
            "text": share_text(card),
            "url": card.url,
            "image": image_url(request, card_path),
            "strip": card.strip,
            "rank": card.rank,
            "racers": card.racers,
        }
    )


def svg_response(card: ShareCard) -> Response:
    return Response(
        share_svg(card).encode(),
        media_type="image/svg+xml; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


def daily_path(request: Request) -> tuple[str, str, str]:
    day, player = request.path_params["day"], request.path_params["player_id"]
    return day, player, f"daily/{day}/{quoted(player)}"


def room_path(request: Request) -> tuple[str, str, str, str]:
    p = request.path_params
    room, round_text, player = p["room_id"], p["round"], p["player_id"]
    return room, round_text, player, f"room/{quoted(room)}/{round_text}/{quoted(player)}"


@api
async def daily_share(request: Request) -> Response:
    """GET /api/share/daily/{day}/{player_id} -> the text of the player's ranked result"""
    day, player, path = daily_path(request)
    return share_json(request, await daily_card(request, day, player), path)


@api
async def room_share(request: Request) -> Response:
    """GET /api/share/room/{room_id}/{round}/{player_id} -> the text of a round's result"""
    room, round_text, player, path = room_path(request)
    return share_json(request, await room_card(request, room, round_text, player), path)


@api
async def daily_share_svg(request: Request) -> Response:
    """GET /share/daily/{day}/{player_id}.svg -> the result as an image"""
    day, player, _ = daily_path(request)
    return svg_response(await daily_card(request, day, player))


@api
async def room_share_svg(request: Request) -> Response:
    """GET /share/room/{room_id}/{round}/{player_id}.svg -> the result as an image"""
    room, round_text, player, _ = room_path(request)
    return svg_response(await room_card(request, room, round_text, player))


DAILY_REPLAY = re.compile(r"^/replay/daily/([^/]+)/([^/]+)/?$")
ROOM_REPLAY = re.compile(r"^/replay/room/([^/]+)/([^/]+)/?$")


async def replay_head(request: Request) -> str:
    """The Open Graph tags of a shared replay link (``/replay/daily/{day}/{player}``, or a
    round's ``/replay/room/{room}/{round}?by={player}``); "" when there is no result to show
    (then the page is the plain one)."""
    path = request.url.path
    try:
        if match := DAILY_REPLAY.match(path):
            day, player = (urllib.parse.unquote(g) for g in match.groups())
            card = await daily_card(request, day, player)
            return og_tags(card, image_url(request, f"daily/{day}/{quoted(player)}"))
        by = request.query_params.get("by")
        if (match := ROOM_REPLAY.match(path)) and by:
            room, round_text = (urllib.parse.unquote(g) for g in match.groups())
            card = await room_card(request, room, round_text, by)
            path = f"room/{quoted(room)}/{round_text}/{quoted(by)}"
            return og_tags(card, image_url(request, path))
    except ApiError:
        return ""
    return ""
