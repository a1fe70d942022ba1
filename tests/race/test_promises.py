"""Protocol promises at the race layer: ping seqs, move text case."""

from __future__ import annotations

from scorpion.race import Player
from scorpion.race.daily import utc_date
from scorpion.race.seqs import DEFAULT_KEEP

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


def test_move_text_is_read_in_any_case_and_answered_in_upper_case() -> None:
    _, a = solo(deal=7)
    answer = a.command("move", move="tc>2")
    assert (answer["type"], answer["move"]) == ("applied", "TC>2")
