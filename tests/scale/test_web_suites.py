"""The race, reconnect, daily (linked players too: the links go with a forwarded hello),
practice and hidden-card tests of one server, against three processes behind nginx
(tests/scale/conftest.py: ``server`` is the cluster's nginx; its kill -9 and start crash and
restart all three)."""

from __future__ import annotations

from web.test_daily import test_daily_attempt_leaderboard_records_and_restart
from web.test_daily_links import test_two_players_of_one_device_get_one_ranked_attempt
from web.test_practice import test_practice_survives_kill_9_and_counts_in_statistics
from web.test_race import test_uneven_race_followers_learn_no_card_a_playing_racer_has_not_turned
from web.test_recovery import (
    test_kill_9_mid_race_loses_no_acknowledged_move,
    test_reconnect_mid_race_resumes_exactly,
)

__all__ = [
    "test_daily_attempt_leaderboard_records_and_restart",
    "test_kill_9_mid_race_loses_no_acknowledged_move",
    "test_practice_survives_kill_9_and_counts_in_statistics",
    "test_reconnect_mid_race_resumes_exactly",
    "test_two_players_of_one_device_get_one_ranked_attempt",
    "test_uneven_race_followers_learn_no_card_a_playing_racer_has_not_turned",
]
