"""Settings, records, ranking, statistics, event log and seq window on their own."""

from __future__ import annotations

import json
import random
from dataclasses import fields
from types import MappingProxyType

import pytest

from scorpion.race import (
    ActionRecord,
    DailyStarted,
    GameResult,
    RaceError,
    Rematched,
    RoomClosed,
    RoomOpened,
    RoomSettings,
    RoundFinished,
    RoundStarted,
    SettingsError,
    daily_streak,
    rank_entries,
    record_from_dict,
    statistics,
)
from scorpion.race.commands import (
    Auto,
    Deal,
    Follow,
    GiveUp,
    Join,
    Ready,
    Rematch,
    Undo,
    parse_command,
)
from scorpion.race.events import EventLog
from scorpion.race.observed import shown_ranks
from scorpion.race.ranking import live_ranks
from scorpion.race.seqs import SeqWindow

RECORDS = [
    RoomOpened("r", "a", "Ada", RoomSettings(deal=5).to_dict(), 1.5),
    RoundStarted("r", 1, 2**64 - 1, 10.0, 600.0, (("a", "Ada"), ("b", "Bo"))),
    ActionRecord("r", 1, "a", 3, "4H>7", 12.25),
    GameResult("r", 1, "a", "Ada", "classic", 7, "won", 4, 500, 120, 12, 300.5, 0, False,
               (("deal", 1.0), ("undo", 2.0)), 400.0),
    RoundFinished("r", 1, 7, ({"rank": 1, "player": "a"},), 401.0),
    Rematched("r", 1, "b", 402.0),
    RoomClosed("r", 5000.0),
    DailyStarted("2026-11-29", "a", "Ada", 1, 99, "classic", True, 77.0),
]  # fmt: skip


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.kind)
def test_records_survive_json(record: object) -> None:
    data = record.to_dict()  # type: ignore[attr-defined]
    assert data["kind"] == record.kind  # type: ignore[attr-defined]
    assert record_from_dict(json.loads(json.dumps(data))) == record
    # A record that writes its own (the move's, for speed) writes what every record does.
    generic = {"kind": record.kind, **{f.name: getattr(record, f.name) for f in fields(record)}}  # type: ignore[attr-defined, arg-type]
    assert list(data.items()) == list(generic.items())


def test_unknown_or_damaged_records() -> None:
    with pytest.raises(ValueError, match="unknown record kind"):
        record_from_dict({"kind": "nope"})
    with pytest.raises(ValueError, match="needs 'seq'"):
        record_from_dict({"kind": "action", "room": "r", "round": 1, "player": "a"})
    data = RECORDS[1].to_dict()
    data["players"] = "everyone"
    with pytest.raises(ValueError, match="must be a list"):
        record_from_dict(data)
    # A field added later (verified) has a default: older records still load.
    older = RECORDS[1].to_dict()
    del older["verified"]
    assert record_from_dict(older) == RECORDS[1]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"preset": "chess"}, "unknown preset"),
        ({"deal": -1}, "deal must be"),
        ({"deal": "lucky"}, "deal must be"),
        ({"deal": 2**64}, "deal must be"),
        ({"deal": True}, "deal must be"),
        ({"max_players": 0}, "max_players"),
        ({"max_players": 11}, "max_players"),
        ({"time_limit": -5}, "time_limit"),
        ({"time_limit": 1.5}, "time_limit"),
        ({"undo": "yes"}, "undo must be 'fair', 'full' or 'off', not 'yes'"),
        ({"undo": 1}, "undo must be 'fair', 'full' or 'off', not 1"),
        ({"undo": None}, "undo must be"),
        ({"hints": 1}, "hints must be"),
        ({"auto": "on"}, "auto must be true or false, not 'on'"),
        ({"colour": "red"}, "unknown room settings"),
    ],
)
def test_bad_settings(data: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        RoomSettings.from_dict(data)


def test_settings_rules_and_public_view() -> None:
    s = RoomSettings.from_dict({"preset": "hard", "deal": "123", "undo": False, "hints": True})
    assert s.deal == 123 and s.rules().undo == 0 and s.rules().runs == "any"
    assert s.public()["deal"] == "number" and s.to_dict()["deal"] == 123
    assert RoomSettings.from_dict({}).rules() == RoomSettings().rules()
    assert RoomSettings.from_dict(s.to_dict()) == s
    assert s.public()["undo"] == "off" and s.public()["auto"] is False


def test_undo_and_auto_settings_and_old_booleans() -> None:
    default = RoomSettings.from_dict({})
    assert (default.undo, default.hints, default.auto) == ("fair", False, False)
    assert default.public()["undo"] == "fair" and default.rules().undo == 100
    full = RoomSettings.from_dict({"undo": "full", "hints": True, "auto": True})
    assert (full.public()["undo"], full.public()["hints"], full.public()["auto"]) == (
        "full", True, True)  # fmt: skip
    assert RoomSettings.from_dict(full.to_dict()) == full
    # Rooms stored before fair undo said true (undo on) or false: they still restore.
    assert RoomSettings.from_dict({"undo": True}).undo == "fair"
    assert RoomSettings.from_dict({"undo": False}).undo == "off"
    # What racers get, as the client shows it: a preset's own undo counts too.
    assert RoomSettings(undo="off").rules().undo == 0
    assert RoomSettings(undo="fair").undo_policy == "fair"
    with pytest.raises(SettingsError, match="undo must be"):
        RoomSettings(undo="peek")


def test_ranking_rules() -> None:
    entries = [
        {"player": "slow-win", "status": "won", "elapsed": 500.0, "runs": 4, "score": 900},
        {"player": "fast-win", "status": "won", "elapsed": 200.0, "runs": 4, "score": 400},
        {"player": "two-runs", "status": "timed-out", "elapsed": 600.0, "runs": 2, "score": 10},
        {"player": "rich", "status": "gave-up", "elapsed": 100.0, "runs": 1, "score": 700},
        {"player": "tie-1", "status": "left", "elapsed": 50.0, "runs": 0, "score": 5, "moves": 3},
        {"player": "tie-2", "status": "lost", "elapsed": 70.0, "runs": 0, "score": 5, "moves": 3},
        # Assisted results come after every clean one, in the same order among themselves.
        {"player": "auto-win", "status": "won", "elapsed": 12.0, "runs": 4, "autos": 46},
        {"player": "hint-win", "status": "won", "elapsed": 90.0, "runs": 4, "hints": 1},
        {"player": "hint-loss", "status": "lost", "elapsed": 9.0, "runs": 3, "hints": 2},
    ]
    ranked = rank_entries(entries)
    assert [(e["rank"], e["player"]) for e in ranked] == [
        (1, "fast-win"), (2, "slow-win"), (3, "two-runs"), (4, "rich"), (5, "tie-1"), (5, "tie-2"),
        (7, "auto-win"), (8, "hint-win"), (9, "hint-loss"),
    ]  # fmt: skip


def test_live_ranks_and_shown_ranks_rank_as_the_results_do() -> None:
    """The ranks of every progress announcement (keys sorted once, no copies) are the
    results' ranking's, ties, help and withheld scores (cards in order instead) included."""
    rng = random.Random(7)
    statuses = ("playing", "won", "lost", "gave-up", "timed-out", "left")
    for _ in range(300):
        entries: list[dict[str, object]] = [
            {
                "player": f"p{i}",
                "status": rng.choice(statuses),
                "elapsed": float(rng.choice((12, 40, 40, 90))),
                "runs": rng.randrange(3),
                "score": rng.choice((None, 5, 5, 80)),
                "ordered": rng.choice((5, 9, 80)),
                "moves": rng.choice((3, 3, 10)),
                "hints": rng.choice((0, 0, 1)),
            }
            for i in range(rng.randrange(1, 7))
        ]
        exact = [{**e, "score": e["score"] if e["score"] is not None else 0} for e in entries]
        expected = {str(e["player"]): e["rank"] for e in rank_entries(exact)}
        assert live_ranks(exact) == expected
        standing_in = [{**e, "score": e["ordered"] if e["score"] is None else e["score"]}
                       for e in entries]  # fmt: skip
        expected = {str(e["player"]): e["rank"] for e in rank_entries(standing_in)}
        assert shown_ranks(entries) == expected


def test_statistics_per_preset() -> None:
    games = [("classic", "won"), ("classic", "lost"), ("classic", "won"), ("classic", "won"),
             ("classic", "won"), ("classic", "timed-out"), ("classic", "won"),
             ("wasp", "won"), ("wasp", "playing")]  # fmt: skip
    clean = statistics([(preset, status, False) for preset, status in games])
    classic = clean["classic"].to_dict()
    assert classic == {
        "preset": "classic",
        "started": 7,
        "won": 5,
        "lost": 2,
        "win_rate": round(5 / 7, 4),
        "current_streak": 1,
        "best_streak": 3,
        "assisted_started": 0,
        "assisted_won": 0,
    }
    assert clean["wasp"].started == 2 and clean["wasp"].win_rate == 1.0
    # A game played by Auto is no win of yours: counted apart, and it ends the streak.
    stats = statistics([(p, s, False) for p, s in games] + [("classic", "won", True)] * 3)
    c = stats["classic"]
    assert (c.started, c.won, c.lost, c.current_streak, c.best_streak) == (7, 5, 2, 0, 3)
    assert (c.assisted_started, c.assisted_won) == (3, 3)
    practice_by_auto = statistics([("wasp", "won", True)])["wasp"]
    assert (practice_by_auto.won, practice_by_auto.best_streak, practice_by_auto.win_rate) == (
        0,
        0,
        0.0,
    )
    assert statistics([]) == {}


def test_daily_streak() -> None:
    assert daily_streak([], "2026-11-29") == (0, 0)
    assert daily_streak(["2026-11-29"], "2026-11-29") == (1, 1)
    assert daily_streak(["2026-12-31", "2027-01-01"], "2027-01-02") == (2, 2)
    assert daily_streak(["2026-11-26", "2026-11-28", "2026-11-29"], "2026-11-29") == (2, 2)


def test_event_log_versions_only_grow() -> None:
    log = EventLog(keep=3, base=100)
    assert log.since(100) == []
    for i in range(5):
        assert log.append({"event": "x", "i": i})["v"] == 101 + i
    assert log.since(105) == [] and log.since(104) == [log.since(104)[0]]
    assert [e["v"] for e in log.since(102) or []] == [103, 104, 105]
    assert log.since(101) is None and log.since(99) is None and log.since(106) is None


def test_commands_are_typed_values_with_only_their_fields() -> None:
    assert parse_command({"type": "deal", "seq": 2, "move": "ignored"}) == Deal(2, None)
    assert parse_command({"type": "follow", "seq": 2, "player": None}) == Follow(2, None)
    assert parse_command({"type": "ready", "seq": 2, "ready": False}) == Ready(2, False)
    assert parse_command({"type": "rematch", "seq": 2}) == Rematch(2, None)
    assert parse_command({"type": "join", "seq": 3, "as": "spectator"}) == Join(3, "spectator")
    assert parse_command({"type": "auto", "seq": 4, "player": "p1"}) == Auto(4, "p1")
    assert parse_command({"type": "move", "seq": 5, "move": "4H"}).action == "4H"  # type: ignore[union-attr]
    assert Undo(6, None).action == "undo" and GiveUp(7, None).action == "give-up"
    # Any mapping is a JSON object (read as a dict); anything else is refused.
    move = MappingProxyType({"type": "move", "seq": 8, "move": "4H>7", "player": "p1"})
    assert parse_command(move) == parse_command(dict(move))
    with pytest.raises(RaceError) as refused:
        parse_command([("type", "move")])
    assert refused.value.code == "bad-json"


def test_a_ranking_entry_leaves_the_cached_progress_alone() -> None:
    from scorpion.engine import Game
    from scorpion.race import Player
    from scorpion.race.racer import Racer

    racer = Racer(Player("a", "Ada"), Game.new(7, "classic"), 0.0, place="r1", round=1)
    entry = racer.entry()
    entry["rank"] = 1
    assert "name" not in racer.progress() and "rank" not in racer.progress()
    assert entry["name"] == "Ada"


def test_a_seq_window_holds_nothing_until_used() -> None:
    window = SeqWindow(keep=2)
    assert window._answers is None and window._pending is None and not window.pending
    assert window.check(1) is None
    window.hold(1)
    assert 1 in window.pending and window._pending is not None
    window.release(1)
    assert window._pending is None and 1 not in window.pending
    window.remember(1, {"seq": 1})
    assert window.check(1) == {"seq": 1} and window._answers is not None
