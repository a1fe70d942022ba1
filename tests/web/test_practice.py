"""Practice over a real server: dealt on demand, a hint from a search worker, never ranked but in
the statistics, and the game in hand back after kill -9 and a restart (on SQLite and on
PostgreSQL)."""

from __future__ import annotations

import pytest

from scorpion.engine import Game
from scorpion_dev.server import Api, Client, ServerProcess

pytestmark = pytest.mark.backends  # the store under the server: SQLite and PostgreSQL


async def test_practice_survives_kill_9_and_counts_in_statistics(
    server: ServerProcess, api: Api
) -> None:
    pid, token = await api.new_player("Pia")
    ws = await Client.connect(server.ws_url, "pia")
    welcome = await ws.hello(token, practice=True)
    assert welcome["type"] == "welcome" and welcome["state"]["game"] is None
    dealt = await ws.call("new-deal", preset="normal")
    assert dealt["type"] == "applied" and dealt["preset"] == "normal", dealt
    game = Game.new(int(dealt["deal"]), "normal")
    assert dealt["view"] == game.view()
    for _ in range(3):
        move = game.legal_moves()[0]
        assert (await ws.call("move", move=str(move)))["type"] == "applied"
        game.play(move)
    hint = await ws.call("hint", timeout=60)
    assert hint["type"] == "applied" and hint["hints"], hint
    last_seq = ws.seq
    server.kill()
    server.start()

    back = await Client.connect(server.ws_url, "pia")
    welcome = await back.hello(token, practice=True)
    assert welcome["view"] == game.view() and welcome["last_seq"] == last_seq
    assert welcome["state"]["game"]["hints"] == 1
    back.seq = last_seq
    assert (await back.call("give-up"))["status"] == "gave-up"
    await back.close()

    # The hint made it an assisted game: counted apart from the clean ones.
    stats = (await api.call("GET", f"/api/players/{pid}/stats")).json()["stats"]
    assert [(s["preset"], s["started"], s["lost"], s["assisted_started"]) for s in stats] == [
        ("normal", 0, 0, 1)
    ]
    games = (await api.call("GET", "/api/me/games", token)).json()["games"]
    assert [(g["room"], g["daily"], g["ranked"], g["status"]) for g in games] == [
        (None, None, False, "gave-up")
    ]
    assert (games[0]["hints"], games[0]["autos"], games[0]["clean"]) == (1, 0, False)
    assert games[0]["deal"] == dealt["deal"]
