"""HTTP: your player on another device, with a one-time code or a recovery code; the
devices signed in as your player, and signing them out.

The codes travel in JSON bodies, never in a URL; so does the new device's token. A device
is named by a short id made from its token's hash, never by the token.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from scorpion.store import DeviceToken

from .auth import new_token, token_hash
from .devices import (
    CODE_LENGTH,
    CODE_SECONDS,
    MAX_CODE,
    RECOVERY_LENGTH,
    agent_family,
    code_hash,
    new_code,
)
from .http_common import api, me, services
from .http_players import client_key, device_from, player_json, remember_device
from .responses import ApiError, json_body, ok, require_json


def _made(request: Request, player_id: str) -> None:
    if not services(request).devices.made.take(player_id):
        raise ApiError(429, "rate-limited", "too many codes made: wait a few minutes")


async def _typed_code(request: Request) -> tuple[str, str | None]:
    """The code typed and the device id sent (checked before the code is used)."""
    svc = services(request)
    require_json(request)  # before the address's budget is spent
    if not svc.devices.tries.take(client_key(request)):
        raise ApiError(429, "rate-limited", "too many codes tried from this address: wait")
    body = await json_body(request, svc.settings.limits)
    code = body.get("code")
    if not isinstance(code, str) or not code.strip() or len(code) > MAX_CODE:
        raise ApiError(400, "bad-field", 'send {"code": "..."} as typed')
    return code, device_from(body)


@api
async def make_device_code(request: Request) -> Response:
    """POST /api/me/device-code -> 201 {code, expires_at, seconds}"""
    svc = services(request)
    player, _ = await me(request)
    _made(request, player.id)
    code = new_code(CODE_LENGTH)
    expires = time.time() + CODE_SECONDS
    await svc.store.add_device_code(code_hash(code), player.id, expires)
    return ok({"code": code, "expires_at": expires, "seconds": CODE_SECONDS}, status=201)


@api
async def claim_device_code(request: Request) -> Response:
    """POST /api/devices/claim {code, device_id?} -> {player, token}: this device's own
    token"""
    svc = services(request)
    code, device = await _typed_code(request)
    token = new_token()
    agent = agent_family(request.headers.get("user-agent"))
    player = await svc.store.claim_device_code(
        code_hash(code), token_hash(token), time.time(), agent
    )
    if player is None:
        raise ApiError(400, "bad-code", "this code is unknown, used or expired: make a new one")
    await remember_device(svc, player.id, device)
    svc.tokens.remember(token, player)
    return ok({"player": player_json(player, svc.referee.config.daily_shards), "token": token})


@api
async def make_recovery_code(request: Request) -> Response:
    """POST /api/me/recovery-code -> 201 {recovery_code, signed_out}: shown once; replaces
    the old one, and signs out the devices the old one brought the player to"""
    svc = services(request)
    player, _ = await me(request)
    _made(request, player.id)
    code = new_code(RECOVERY_LENGTH)
    revoked = await svc.store.set_recovery_code(player.id, code_hash(code))
    if revoked:
        svc.player_changed(player.id, revoked=revoked)
    return ok({"recovery_code": code, "signed_out": len(revoked)}, status=201)


@api
async def recover(request: Request) -> Response:
    """POST /api/recover {code, device_id?} -> {player, token}: this device's own token"""
    svc = services(request)
    code, device = await _typed_code(request)
    token = new_token()
    agent = agent_family(request.headers.get("user-agent"))
    player = await svc.store.recover_player(code_hash(code), token_hash(token), agent)
    if player is None:
        raise ApiError(400, "bad-code", "this recovery code is unknown (or was replaced)")
    await remember_device(svc, player.id, device)
    svc.tokens.remember(token, player)
    return ok({"player": player_json(player, svc.referee.config.daily_shards), "token": token})


def device_id_of(token: DeviceToken) -> str:
    """A device's public id: the first 8 bytes of its token's hash, in hex (the hash
    itself is never sent: it is what the store looks tokens up by)."""
    return token.token_hash[:8].hex()


def device_json(token: DeviceToken, mine: bytes) -> dict[str, Any]:
    return {
        "id": device_id_of(token),
        "agent": token.agent,
        "made": token.how,
        "created": token.created,
        "last_seen": token.last_seen,
        "this_device": token.token_hash == mine,
    }


@api
async def my_devices(request: Request) -> Response:
    """GET /api/me/devices -> {devices: [...]}: the devices signed in as you, the first
    made first"""
    svc = services(request)
    player, token = await me(request)
    tokens = await svc.store.device_tokens(player.id)
    return ok({"devices": [device_json(t, token_hash(token)) for t in tokens]})


@api
async def sign_out_device(request: Request) -> Response:
    """DELETE /api/me/devices/{device_id} -> {signed_out: 1, this_device}: its token stops
    working at once (its open sockets are closed, 4001)"""
    svc = services(request)
    player, token = await me(request)
    wanted = request.path_params["device_id"]
    tokens = await svc.store.device_tokens(player.id)
    found = [t.token_hash for t in tokens if device_id_of(t) == wanted]
    revoked = await svc.store.revoke_tokens(player.id, found)
    if not revoked:
        raise ApiError(404, "unknown-device", "no such device signed in as you")
    svc.player_changed(player.id, revoked=revoked)
    return ok({"signed_out": len(revoked), "this_device": token_hash(token) in revoked})


@api
async def sign_out_others(request: Request) -> Response:
    """POST /api/me/devices/sign-out-others -> {signed_out: n}: every device but this one"""
    svc = services(request)
    player, token = await me(request)
    mine = token_hash(token)
    tokens = await svc.store.device_tokens(player.id)
    others = [t.token_hash for t in tokens if t.token_hash != mine]
    revoked = await svc.store.revoke_tokens(player.id, others)
    if revoked:
        svc.player_changed(player.id, revoked=revoked)
    return ok({"signed_out": len(revoked)})
