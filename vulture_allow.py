# Names vulture (make check) takes for dead code, each used from outside our code: read
# only by vulture, never imported. Keep it short: delete dead code rather than list it here.
# ruff: noqa

# pytest finds these by name.
pytestmark
pytest_plugins
pytest_addoption
pytest_configure
pytest_generate_tests
pytest_ignore_collect
pytest_collection_modifyitems

_.model_config  # pydantic-settings reads it (web/config.py)
_.data_received  # asyncio calls it on a Protocol (web/http_protocol.py)
_.row_factory  # sqlite3 reads it (store/worker.py)
_.__getitem__  # a Protocol's method, for mypy (store/rows.py: Row)
_.reporter_id  # a field of SaveReport, written by astuple (store/*_devices.py)
_.should_exit  # uvicorn's Server reads it (tests/web/test_shortcuts.py stops a server)
_.parser_exc  # websockets reads it (web/ws_protocol.py drops it when the connection ends)
collector_off  # a fixture used by name (tests/web/test_ws_protocol.py)
# Keys of race/messages.py's and race/room_events.py's TypedDicts written only in dict
# literals (the wire reads them).
_.reported
_.grace_until
_.starts_at
_.recovered
