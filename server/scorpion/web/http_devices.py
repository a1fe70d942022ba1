"""HTTP: your player on another device, with a one-time code or a recovery code.

The codes travel in JSON bodies, never in a URL; so does the new device's token.
"""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import Response

from .auth import new_token, token_hash
from .devices import CODE_LENGTH, CODE_SECONDS, MAX_CODE, RECOVERY_LENGTH, code_hash, new_code
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
    player = await svc.store.claim_device_code(code_hash(code), token_hash(token), time.time())
    if player is None:
        raise ApiError(400, "bad-code", "this code is unknown, used or expired: make a new one")
    await remember_device(svc, player.id, device)
    svc.tokens.remember(token, player)
    return ok({"player": player_json(player), "token": token})


@api
async def make_recovery_code(request: Request) -> Response:
    """POST /api/me/recovery-code -> 201 {recovery_code}: shown once; replaces the old one"""
    svc = services(request)
    player, _ = await me(request)
    _made(request, player.id)
    code = new_code(RECOVERY_LENGTH)
    await svc.store.set_recovery_code(player.id, code_hash(code))
    return ok({"recovery_code": code}, status=201)


@api
async def recover(request: Request) -> Response:
    """POST /api/recover {code, device_id?} -> {player, token}: this device's own token"""
    svc = services(request)
    code, device = await _typed_code(request)
    token = new_token()
    player = await svc.store.recover_player(code_hash(code), token_hash(token))
    if player is None:
        raise ApiError(400, "bad-code", "this recovery code is unknown (or was replaced)")
    await remember_device(svc, player.id, device)
    svc.tokens.remember(token, player)
    return ok({"player": player_json(player), "token": token})
