"""The race, reconnect and hidden-card tests of one server, against three processes
behind nginx (tests/scale/conftest.py: ``server`` is the cluster's nginx)."""

from __future__ import annotations

from web.test_race import test_uneven_race_followers_learn_no_card_a_playing_racer_has_not_turned
from web.test_recovery import test_reconnect_mid_race_resumes_exactly

__all__ = [
    "test_reconnect_mid_race_resumes_exactly",
    "test_uneven_race_followers_learn_no_card_a_playing_racer_has_not_turned",
]
