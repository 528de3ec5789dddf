"""Shared test configuration: the hypothesis "ci" profile (no deadline, a modest number of examples), and the
long suites kept out of the README's run.

The profile is loaded by default; set HYPOTHESIS_PROFILE=<name> to pick another registered profile
(e.g. "thorough" for a long local run).

`SLOW` lists the tests marked `slow`: each is a longer or repeated variant of something the default run
already checks, so the README's `pytest` stays within about fifteen minutes on two cores. `pytest -m slow`
runs them (`pytest -m "slow or not slow"`: everything).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=500,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: test node id -> what the default run keeps that covers it
SLOW: dict[str, str] = {
    "tests/e2e/test_fault_injection.py::test_random_kills_lose_no_acknowledged_action":
        "the crash suite's kill-and-restart at every step of a click (tests/e2e/test_crash.py)",
    "tests/e2e/test_arkham_lcg.py::test_the_shipped_campaign_in_a_channel":
        "the test pack's two-scenario campaign through the channel (tests/e2e/test_campaign.py)",
    "tests/e2e/test_crash.py::test_sigkill_and_restart[2shards]": "the same with one shard",
    "tests/e2e/test_elder_sign.py::test_elder_sign_two_players_to_the_end[2shards]": "the same with one shard",
    "tests/e2e/test_eldritch.py::test_eldritch_two_players_to_the_end[2shards]": "the same with one shard",
    "tests/e2e/test_arkham3.py::test_arkham3_two_players_to_the_end[2shards]": "the same with one shard",
    "tests/bot/test_ai_seats.py::test_one_person_and_ai_teammates_play_a_whole_game[eldritch]":
        "the same game with AI teammates through the channel (tests/e2e/test_ai_teammates.py)",
    "tests/bot/test_ai_seats.py::test_one_person_and_ai_teammates_play_a_whole_game[arkham3]":
        "the same game with AI teammates through the channel (tests/e2e/test_ai_teammates.py)",
    "tests/bot/test_ai_seats.py::test_one_person_and_ai_teammates_play_a_whole_game[arkham-lcg]":
        "the same game with AI teammates through the channel (tests/e2e/test_ai_teammates.py)",
    "tests/bot/test_examples.py::test_example_plays_to_the_end_of_a_game[arkham3_low_tide.txt]":
        "Arkham 3e's witch-light example and its game with AI teammates",
    "tests/bot/test_examples.py::test_example_plays_to_the_end_of_a_game[arkham3_sentinel_stones.txt]":
        "Arkham 3e's witch-light example and its game with AI teammates",
    "tests/bot/test_examples.py::test_example_plays_to_the_end_of_a_game[arkham3_innsmouth_road.txt]":
        "Arkham 3e's witch-light example and its game with AI teammates",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid in SLOW:
            item.add_marker(pytest.mark.slow)
