"""Room codes: no look-alike characters, so a code read from a friend's screen types right."""

from __future__ import annotations

from scorpion.web.auth import ROOM_ALPHABET, new_room_id
from scorpion_dev.server import Api


def test_room_codes_have_no_look_alikes() -> None:
    codes = {new_room_id() for _ in range(2000)}
    assert len(codes) == 2000  # random enough not to repeat
    used = set().union(*codes)
    assert not used & set("01lIoOi")
    assert used == set(ROOM_ALPHABET)  # every allowed character turns up in 20,000 draws


async def test_created_rooms_use_the_alphabet(api: Api) -> None:
    _, token = await api.new_player("Ro")
    for _ in range(3):
        r = await api.call("POST", "/api/rooms", token, {"preset": "classic"})
        assert r.status_code == 201, r.text
        room = r.json()["room"]
        assert len(room) == 10 and set(room) <= set(ROOM_ALPHABET), room
        assert r.json()["link"] == f"/r/{room}"
