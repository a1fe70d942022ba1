"""Searches as effects: a hint or an Auto is an output, its answer an input (never on the
referee's own time), and replaying a log never searches."""

from __future__ import annotations

import json

from scorpion.race import (
    AutoFound,
    AutoSearch,
    DealFound,
    DealSearch,
    HintSearch,
    HintsFound,
    Player,
    Referee,
    SearchFailed,
    SearchTicket,
    record_from_dict,
)
from scorpion.web.search_worker import run_search

from .harness import Client, Harness, solo

ADA = Player("a", "Ada")
BO = Player("b", "Bo")


def asked(h: Harness, seq: int, kind: str) -> None:
    """Send a hint or auto with ``seq``; check it produced no answer (yet)."""
    client = next(iter(h.clients.values()))
    before = len(client.inbox)
    h.feed(h.referee.receive(client.conn, {"type": kind, "seq": seq}, h.now))
    assert [m for m in client.inbox[before:] if m["type"] in ("applied", "refused")] == []


def held(**settings: object) -> tuple[Harness, Client]:
    h, a = solo(hints=True, auto=True, **settings)
    h.hold_searches = True
    return h, a


def test_a_hint_is_answered_when_its_search_ends() -> None:
    h, a = held(deal=6)
    a.seq += 1
    asked(h, a.seq, "hint")
    (search,) = h.searches
    assert isinstance(search, HintSearch) and search.ticket.seq == a.seq
    assert h.referee.search_wanted(search.ticket)
    # The search sees a copy: the live game cannot change under it.
    assert search.game is not h.referee.rooms["room1"].racers["a"].game
    h.answer_search()
    answer = a.last("applied")
    assert answer["command"] == "hint" and answer["hints"]
    assert {"move", "winnable"} <= set(answer["hints"][0])  # type: ignore[index]
    assert h.records[-1].action == "hint"  # type: ignore[union-attr]


def test_one_search_at_a_time_per_player() -> None:
    h, a = held(deal=6)
    a.seq += 1
    asked(h, a.seq, "auto")
    assert a.command("hint")["code"] == "busy"
    assert a.command("auto")["code"] == "busy"
    assert len(h.searches) == 1


def test_a_move_makes_a_running_search_stale_and_its_answer_is_dropped() -> None:
    h, a = held(deal=6)
    a.seq += 1
    auto_seq = a.seq
    asked(h, auto_seq, "auto")
    (search,) = h.searches
    racer = h.referee.rooms["room1"].racers["a"]
    move = str(racer.game.legal_moves()[0])
    moved = a.command("move", move=move)
    assert moved["type"] == "applied"
    stale = [m for m in a.inbox if m.get("seq") == auto_seq]
    assert [(m["type"], m["code"]) for m in stale] == [("refused", "stale")]
    assert not h.referee.search_wanted(search.ticket)  # the worker may skip it
    h.answer_search()  # it ran anyway: its answer changes nothing and answers nothing
    assert [m for m in a.inbox if m.get("seq") == auto_seq] == stale
    assert racer.game.moves_made == 1
    # A resend of the stale seq gets the same answer again.
    assert a.raw({"type": "auto", "seq": auto_seq}) == stale[0]


def test_a_pending_seq_resent_is_answered_once_when_the_search_ends() -> None:
    h, a = held(deal=6)
    a.seq += 1
    asked(h, a.seq, "auto")
    asked(h, a.seq, "auto")  # resent: no second search, no answer
    assert len(h.searches) == 1
    h.answer_search()
    answers = [m for m in a.inbox if m.get("seq") == a.seq]
    assert len(answers) == 1 and answers[0]["type"] == "applied"
    assert answers[0]["auto"] == answers[0]["move"]


def test_a_search_that_could_not_run_is_refused_busy_and_changes_nothing() -> None:
    h, a = held(deal=6)
    a.seq += 1
    asked(h, a.seq, "auto")
    (search,) = h.searches
    h.searches.clear()
    h.feed(h.referee.searched(SearchFailed(search.ticket, "busy"), h.now))
    assert a.last("refused")["code"] == "busy"
    assert h.referee.rooms["room1"].racers["a"].game.moves_made == 0
    h.hold_searches = False
    assert a.command("hint")["type"] == "applied"  # free again


def test_an_answer_after_the_time_limit_is_refused_finished() -> None:
    h, a = held(deal=6, time_limit=30)
    a.seq += 1
    asked(h, a.seq, "auto")
    (search,) = h.searches
    h.searches.clear()
    h.advance(31)
    answer = run_search(search)
    assert isinstance(answer, AutoFound) and answer.verdict == "won"
    h.feed(h.referee.searched(answer, h.now))
    refusals = [m for m in a.inbox if m.get("seq") == a.seq]
    assert [m["code"] for m in refusals] == ["finished"]


def test_the_search_answers_are_the_same_on_every_run() -> None:
    # Budgets are node counts, so the answer depends on the position only.
    h, _a = held(deal=6)
    room = h.referee.rooms["room1"]
    game = room.racers["a"].game
    hint = HintSearch(SearchTicket("room1", 1, "a", 1, "hint"), game.copy())
    first, second = run_search(hint), run_search(hint)
    assert isinstance(first, HintsFound) and first == second
    auto = AutoSearch(hint.ticket, game.copy())
    assert run_search(auto) == run_search(auto)


def test_replaying_a_log_never_searches_and_counts_hints() -> None:
    h, a = solo(deal=6, hints=True, auto=True)
    a.command("hint")
    a.command("auto")
    a.command("hint")
    records = [record_from_dict(json.loads(json.dumps(r.to_dict()))) for r in h.records]
    restarted = Referee(secret=b"test-secret")
    outputs = restarted.restore(records, h.now)
    assert not [o for o in outputs if isinstance(o, HintSearch | AutoSearch)]
    racer, again = h.referee.rooms["room1"].racers["a"], restarted.rooms["room1"].racers["a"]
    assert again.hints == racer.hints == 2
    assert again.game.log == racer.game.log


def winnable_room_starting(**settings: object) -> tuple[Harness, Client, Client]:
    """A winnable-only room: Ada (the host) started it, Bo ready too; the deal search held."""
    h = Harness()
    h.hold_searches = True
    h.room(ADA, deal="winnable", **settings)
    a = h.connect(ADA, room="room1")
    b = h.connect(BO, room="room1")
    for client in (a, b):
        client.command("join", **{"as": "player"})
        client.command("ready")
    a.seq += 1
    asked(h, a.seq, "start")
    return h, a, b


def test_a_winnable_room_is_told_its_deal_is_being_searched_then_dealt_verified() -> None:
    h, _a, b = winnable_room_starting()
    (dealing,) = b.events("dealing")  # everyone in the room sees the search
    assert dealing["round"] == 1 and dealing["until"] == h.now + 20.0
    assert h.referee.room_summary("room1", h.now)["dealing_until"] == h.now + 20.0  # type: ignore[index]
    (search,) = h.searches
    h.feed(h.referee.searched(DealFound(search.ticket, 555, True), h.now))
    (countdown,) = b.events("countdown")
    assert countdown["verified"] is True and countdown["unverified"] is None
    assert h.referee.room_summary("room1", h.now)["dealing_until"] is None  # type: ignore[index]


def test_a_winnable_rooms_search_goes_on_past_a_run_of_unproved_deals() -> None:
    # Classic deals 36-55: none proved winnable within the per-deal budget. A room whose
    # search starts there still gets a proved deal (it searched 20 and gave up, before).
    search = DealSearch(SearchTicket("room1", 1, "a", 3, "deal"), "classic", 36)
    found = run_search(search)
    assert isinstance(found, DealFound)
    assert found.verified is True and found.deal > 55


def test_a_winnable_room_says_why_its_deal_is_unverified() -> None:
    # The solver proved none within its budget: the deal it tried first, said so.
    h, _a, b = winnable_room_starting()
    (search,) = h.searches
    h.feed(h.referee.searched(DealFound(search.ticket, 777, False), h.now))
    (countdown,) = b.events("countdown")
    assert countdown["verified"] is False and "budget" in str(countdown["unverified"])
    # The search could not run (the server was busy): an unverified deal, said so.
    h, a, b = winnable_room_starting()
    (search,) = h.searches
    h.feed(h.referee.searched(SearchFailed(search.ticket, "busy: full"), h.now))
    (countdown,) = b.events("countdown")
    assert countdown["verified"] is False and "too busy" in str(countdown["unverified"])
    assert a.last("applied")["round"] == 1


def test_a_winnable_room_whose_search_takes_too_long_deals_unverified_and_says_so() -> None:
    h, a, b = winnable_room_starting()
    (search,) = h.searches
    h.advance(19.9)
    assert b.events("countdown") == []  # still waiting for the search
    h.advance(0.1)
    (countdown,) = b.events("countdown")
    assert countdown["unverified"] == "No proof found in time: this deal is unverified"
    assert a.last("applied")["seq"] == search.ticket.seq
    room = h.referee.rooms["room1"]
    assert (room.phase, room.verified) == ("countdown", False)
    dealt = room.deal
    # The search's answer, when it comes at last, changes nothing.
    h.feed(h.referee.searched(DealFound(search.ticket, 555, True), h.now))
    assert room.deal == dealt != 555 and len(b.events("countdown")) == 1


def test_a_deal_search_nobody_can_use_any_more_frees_the_room_and_says_so() -> None:
    h, a, b = winnable_room_starting()
    (search,) = h.searches
    a.command("ready", ready=False)
    b.command("ready", ready=False)
    h.feed(h.referee.searched(DealFound(search.ticket, 555, True), h.now))
    assert a.last("refused")["code"] == "nobody-ready"
    assert [e["until"] for e in b.events("dealing")] == [h.now + 20.0, None]
    assert h.referee.rooms["room1"].phase == "lobby"
    assert a.command("ready")["type"] == "applied"
    a.seq += 1
    asked(h, a.seq, "start")  # the room may start again: a new search
    assert b.events("dealing")[-1]["until"] == h.now + 20.0 and len(h.searches) == 2
