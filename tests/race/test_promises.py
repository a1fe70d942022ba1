"""Protocol promises at the race layer: ping seqs, move text case."""

from __future__ import annotations

from scorpion.race import Player
from scorpion.race.daily import utc_date
from scorpion.race.seqs import DEFAULT_KEEP, KEEP_AWAY

from .harness import T0, Harness, solo


def test_a_ping_with_a_forgotten_seq_is_old_like_any_command() -> None:
    h, a = solo()
    for _ in range(DEFAULT_KEEP + 5):
        a.command("ready")  # refused (already-started), remembered like any answer
    assert a.raw({"type": "ping", "seq": 1})["code"] == "old-seq"
    remembered = a.raw({"type": "ping", "seq": a.seq})
    assert remembered == next(m for m in a.inbox if m.get("seq") == a.seq)  # the stored answer
    assert a.command("ping") == {"type": "applied", "seq": a.seq, "command": "ping", "now": h.now}
    assert a.command("ping")["type"] == "applied"  # pings are not remembered: seqs go on
    d = Harness().connect(Player("a", "Ada"), daily=utc_date(T0))
    for _ in range(DEFAULT_KEEP + 1):
        d.command("hint")
    assert d.raw({"type": "ping", "seq": 1})["code"] == "old-seq"
    assert d.command("ping")["command"] == "ping"


def test_a_daily_keeps_answers_for_a_reconnect_then_drops_those_of_players_gone() -> None:
    h = Harness()
    day = utc_date(T0)
    ada = h.connect(Player("a", "Ada"), daily=day)
    answer = ada.command("start")
    assert answer["type"] == "applied"
    ada.disconnect()
    h.now += KEEP_AWAY - 1  # back in time: the resend gets the stored answer
    again = h.connect(Player("a", "Ada"), daily=day)
    assert again.raw({"type": "start", "seq": 1}) == answer
    again.disconnect()
    bea = h.connect(Player("b", "Bea"), daily=day)
    h.now += KEEP_AWAY
    assert bea.command("ping")["type"] == "applied"  # the daily acts: Ada's answers go
    late = h.connect(Player("a", "Ada"), daily=day)
    assert late.raw({"type": "start", "seq": 1})["code"] == "old-seq"  # never applied twice
    late.seq = 1
    assert late.command("ping")["type"] == "applied"  # the sequence goes on


def test_a_room_with_a_long_grace_drops_the_answers_before_the_member() -> None:
    h = Harness(grace=600.0)
    room = h.room(Player("a", "Ada"))
    ada = h.connect(Player("a", "Ada"), room=room)
    watcher = h.connect(Player("w", "Wes"), room=room)
    assert watcher.command("join", **{"as": "spectator"})["type"] == "applied"
    watcher.disconnect()
    h.now += KEEP_AWAY
    assert ada.command("ping")["type"] == "applied"
    back = h.connect(Player("w", "Wes"), room=room)
    assert back.inbox[-1]["last_seq"] == 1  # still a member: the sequence goes on
    assert back.raw({"type": "join", "as": "spectator", "seq": 1})["code"] == "old-seq"


def test_move_text_is_read_in_any_case_and_answered_in_upper_case() -> None:
    _, a = solo(deal=7)
    answer = a.command("move", move="tc>2")
    assert (answer["type"], answer["move"]) == ("applied", "TC>2")
