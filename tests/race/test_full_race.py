"""A whole race driven through the Referee: 3 players, 2 spectators, a fake clock."""

from __future__ import annotations

from scorpion.engine import Game
from scorpion.race import Player
from scorpion.race.masking import face_down, mask_view
from scorpion.race.observed import shown_ordered

from .harness import Harness, fair_view
from .winning import winning_line

ADA, BO, CY = Player("a", "Ada"), Player("b", "Bo"), Player("c", "Cy")
DI, EVE = Player("d", "Di"), Player("e", "Eve")
DEAL = 21  # a Wasp deal the small search in winning.py wins


def lobby(h: Harness, **settings: object) -> dict[str, object]:
    h.room(ADA, **settings)
    clients = {p.id: h.connect(p, room="room1") for p in (ADA, BO, CY, DI, EVE)}
    for pid in "abc":
        assert clients[pid].command("join", **{"as": "player"})["type"] == "applied"
        assert clients[pid].command("ready")["type"] == "applied"
    return clients  # type: ignore[return-value]


def test_full_race_three_players_two_spectators() -> None:
    h = Harness()
    c = lobby(h, preset="wasp", deal=DEAL, time_limit=300)
    a, b, cy, d, e = (c[x] for x in "abcde")
    line = winning_line(Game.new(DEAL, "wasp"))
    assert line is not None

    # Before the start: moves are refused and change nothing.
    assert a.command("move", move=line[0])["code"] == "not-started"
    assert b.command("start")["code"] == "not-creator"
    assert a.command("start") == {"type": "applied", "seq": 4, "command": "start", "round": 1}
    countdown = a.events("countdown")[-1]
    assert countdown["players"] == ["a", "b", "c"]
    assert countdown["starts_at"] == h.now + 3
    assert a.command("move", move=line[0])["code"] == "not-started"
    assert d.command("join", **{"as": "player"})["code"] == "already-started"

    h.advance(3)
    start = e.events("start")[-1]
    assert start["started_at"] == h.now and start["ends_at"] == h.now + 300
    # Each racer gets their own opening board, the same for all (same deal).
    opening = [cl.last("view") for cl in (a, b, cy)]
    assert [v["player"] for v in opening] == ["a", "b", "c"]
    assert opening[0]["view"] == opening[1]["view"] == Game.new(DEAL, "wasp").view()

    # Spectators watch: Di follows Ada and sees exactly Ada's view after each move.
    assert d.command("move", move=line[0])["code"] == "spectator"
    followed = d.command("follow", player="a")
    assert followed["view"] == mask_view(Game.new(DEAL, "wasp").view(), set())
    assert a.command("follow", player="b")["code"] == "not-allowed"

    h.advance(10)
    # Bo plays until he has scored, then gives up.
    for text in line:
        if b.command("move", move=text)["view"]["score"] > 0:
            break
    h.advance(5)
    answer = b.command("give-up")
    assert answer["status"] == "gave-up" and answer["elapsed"] == 15.0
    bo_moves = answer["view"]["moves"]
    assert b.command("move", move="deal")["code"] == "finished"

    shadow, cy_board = Game.new(DEAL, "wasp"), Game.new(DEAL, "wasp")
    fewer = False  # a masked card kept one of Ada's cards in order out of Di's count
    for i, text in enumerate(line):
        h.advance(0.5)
        answer = a.command("move", move=text)
        assert answer["type"] == "applied", (i, answer)
        shadow.play(text)
        assert answer["view"] == fair_view(shadow)  # fair undo: the room's default
        # Cy has not moved: what is face down on his board is masked for Di, and Ada's cards
        # in order are counted on the masked board (issue 21: numbers add nothing to it).
        hidden = face_down(cy_board)
        seen = d.last("view")["view"]
        assert seen == {
            **mask_view(shadow.view(), hidden),
            "ordered": shown_ordered(shadow, hidden),
        }
        fewer |= seen["ordered"] < shadow.view()["ordered"]  # type: ignore[operator]
    assert answer["status"] == "won" and fewer
    won_at = answer["elapsed"]
    progress = e.progress()[-1]
    assert progress["player"] == "a" and progress["status"] == "won" and progress["runs"] == 4

    # Cy never moves: the time limit ends the race.
    assert not e.events("results")
    h.advance(300)
    results = e.events("results")[-1]
    assert results["deal"] == str(DEAL)
    ranking = results["ranking"]
    assert [(r["rank"], r["player"], r["status"]) for r in ranking] == [
        (1, "a", "won"),
        (2, "b", "gave-up"),  # no runs either, but a higher score than Cy
        (3, "c", "timed-out"),
    ]
    assert ranking[0]["elapsed"] == won_at
    assert ranking[2]["elapsed"] == 300.0
    assert results["timeline"]["a"][-1][1] == 4
    kinds = [r.kind for r in h.records]
    assert kinds.count("game-result") == 3 and kinds.count("round-finished") == 1
    assert kinds.count("action") == len(line) + bo_moves + 1

    # Every connection saw the same events in the same order, versions without gaps.
    versions = [m["v"] for m in e.events()]
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    assert [m["v"] for m in d.events()][-len(versions) :] == versions[-len(d.events()) :]

    # Rematch: same room, new deal, back in the lobby; a second rematch is the same one.
    assert a.command("rematch", round=1)["round"] == 2
    assert b.command("rematch", round=1) == {
        "type": "applied", "seq": b.seq, "command": "rematch", "round": 2,
    }  # fmt: skip
    assert len(e.events("rematch")) == 1
    assert d.command("join", **{"as": "player"})["type"] == "applied"
    for cl in (a, d):
        cl.command("ready")
    a.command("start")
    countdown = e.events("countdown")[-1]
    assert countdown["round"] == 2 and countdown["players"] == ["a", "d"]
    assert [m["player"] for m in e.events("left")][-2:] == ["b", "c"]  # not ready: watching
    h.advance(3)
    started = [r for r in h.records if r.kind == "round-started"]
    assert started[-1].deal != DEAL  # a new deal, not the chosen number again
    assert a.last("view")["view"] == Game.new(started[-1].deal, "wasp").view()


def test_results_order_runs_then_score() -> None:
    h = Harness()
    c = lobby(h, preset="wasp", deal=DEAL, time_limit=60)
    a, b, cy = c["a"], c["b"], c["c"]
    line = winning_line(Game.new(DEAL, "wasp"))
    assert line is not None
    a.command("start")
    h.advance(3)
    # Bo plays until the first run leaves; Cy plays a few moves only.
    game = Game.new(DEAL, "wasp")
    for text in line:
        game.play(text)
        assert b.command("move", move=text)["type"] == "applied"
        if game.runs:
            break
    for text in line:
        if cy.command("move", move=text)["view"]["score"] > 0:
            break
    a.command("give-up")
    h.advance(60)
    ranking = c["e"].events("results")[-1]["ranking"]
    assert [r["player"] for r in ranking] == ["b", "c", "a"]
    assert ranking[0]["runs"] == 1
    scores = [(r["runs"], r["score"]) for r in ranking]
    assert scores == sorted(scores, reverse=True)
