"""The card game as a campaign of separate games (engine/core/campaign.py; issue: campaigns that live in a
channel): each scenario is its own game, the record carries experience, trauma, decks, the log and the chaos
bag between them, and the group may change between scenarios."""

from __future__ import annotations

import pytest

from engine import api
from engine.arkham_lcg.agent import SmartAgent
from engine.arkham_lcg.rules import RULES
from engine.arkham_lcg.state import LcgState
from engine.core.campaign import campaign_rules
from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.game import SeatSpec
from engine.games import manifest

pytestmark = pytest.mark.usefixtures("lcg_pack")


def _seats(*names: str) -> list[SeatSpec]:
    return [SeatSpec(seat=n, name=name) for n, name in enumerate(names)]


def _play(state: LcgState, seed: int) -> LcgState:
    agent = SmartAgent(seed)
    for _ in range(5000):
        if state.over:
            return state
        state, _ = api.apply(state, agent.act(state), in_place=True)  # type: ignore[assignment]
    raise AssertionError("the scenario did not end")


def test_the_manifest_declares_campaigns() -> None:
    assert manifest("arkham-lcg").campaigns and campaign_rules(RULES) is RULES
    assert manifest("arkham3").campaigns is False


def test_a_campaign_is_played_one_scenario_game_at_a_time() -> None:
    record = RULES.new_campaign([SeatSpec(seat=0, name="A", character="warden"),
                                 SeatSpec(seat=1, name="B", character="scholar")], {"difficulty": "easy"}, 5)
    status = RULES.campaign_status(record)
    assert not status.over and status.played == 0 and status.total == 2 and status.next == "Test Scenario One"
    state, events = RULES.campaign_game(record, _seats("A", "B"), 11)
    assert isinstance(state, LcgState) and any("Test Scenario One" in e.text for e in events)
    state = _play(state, 11)
    record = RULES.campaign_after(record, state)
    status = RULES.campaign_status(record)
    assert status.played == 1 and not status.over and status.next == "Test Scenario Two"
    assert any(line.startswith("Test Scenario One:") for line in status.lines)
    # the second scenario reads the log the first one wrote, with the same decks and experience
    state2, _ = RULES.campaign_game(record, _seats("A", "B"), 12)
    assert isinstance(state2, LcgState)
    assert state2.campaign.log == record["log"]
    assert [r.xp for r in state2.campaign.investigators] == [r["xp"] for r in record["investigators"]]
    state2 = _play(state2, 12)
    record = RULES.campaign_after(record, state2)
    final = RULES.campaign_status(record)
    assert final.over and final.result in ("win", "loss") and final.played == 2
    with pytest.raises(IllegalAction):
        RULES.campaign_game(record, _seats("A", "B"), 13)


def test_every_investigator_needs_a_player() -> None:
    record = RULES.new_campaign(_seats("A", "B"), {"difficulty": "standard"}, 1)
    with pytest.raises(IllegalAction, match="needs a player"):
        RULES.campaign_game(record, _seats("A"), 2)


def test_upgrades_spend_experience_between_scenarios() -> None:
    record = RULES.new_campaign([SeatSpec(seat=0, name="A", character="scholar")], {"difficulty": "easy"}, 3)
    record["investigators"][0]["xp"] = 4
    options = RULES.campaign_upgrades(record, 0)
    lens = [o for o in options if o.id.startswith("p.lens-2>p.lens")]
    assert lens and "2 XP" in lens[0].label
    after = RULES.campaign_upgrade(record, 0, lens[0].id)
    rec = after["investigators"][0]
    assert rec["xp"] == 2 and rec["deck"]["p.lens-2"] == 1 and rec["deck"]["p.lens"] == 1
    with pytest.raises(IllegalAction):
        RULES.campaign_upgrade(record, 0, "p.nothing>")


def test_a_new_player_joins_and_one_leaves_between_scenarios() -> None:
    record = RULES.new_campaign([SeatSpec(seat=0, name="A", character="warden")], {"difficulty": "easy"}, 4)
    record["investigators"][0]["xp_earned"] = 3
    joined = RULES.campaign_seat(record, 1, "scholar")
    assert [r["code"] for r in joined["investigators"] if r["status"] == "active"] == ["inv.warden", "inv.scholar"]
    newcomer = next(r for r in joined["investigators"] if r["seat"] == 1)
    assert newcomer["xp"] == 3  # as much as the group's most experienced investigator has earned
    with pytest.raises(IllegalAction, match="already in this campaign"):
        RULES.campaign_seat(joined, 2, "warden")
    left = RULES.campaign_leave(joined, 0)
    state, _ = RULES.campaign_game(left, [SeatSpec(seat=1, name="B")], 9)
    assert isinstance(state, LcgState) and [i.code for i in state.invs] == ["inv.scholar"]


def test_deck_codes_export_and_import_before_the_first_scenario() -> None:
    record = RULES.new_campaign([SeatSpec(seat=0, name="A", character="warden")], {"difficulty": "easy"}, 6)
    code = RULES.campaign_deck_code(record, 0)
    assert code.startswith("L1.")
    again = RULES.campaign_import_deck(record, 0, code)
    assert again["investigators"][0]["deck"] == record["investigators"][0]["deck"]
    with pytest.raises(IllegalAction):
        RULES.campaign_import_deck(record, 0, "L1.garbage")
    played = dict(record, results=["one:R1:win"])
    with pytest.raises(IllegalAction, match="before the campaign's first scenario"):
        RULES.campaign_import_deck(played, 0, code)


def _texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]


def test_only_the_last_scenario_ends_the_campaign() -> None:
    """A campaign played one scenario game at a time: the first game's end names the next scenario (after the
    interlude between them, whose record the next game reads) and does not say the campaign ended, whatever
    that scenario's outcome; the campaign ends with the last scenario (issue: every scenario's end used to
    print "The campaign ends. The campaign is lost.")."""
    record = RULES.new_campaign([SeatSpec(seat=0, name="A", character="warden")], {"difficulty": "easy"}, 5)
    state, _ = RULES.campaign_game(record, _seats("A"), 11)
    assert isinstance(state, LcgState)
    events = _play_events(state, 11)
    texts = _texts(events)
    assert not any(t.startswith("The campaign ends") for t in texts)
    assert any(t.startswith("Interlude: Between the Tests.") for t in texts)
    assert texts[-1].startswith("The scenario is ") and texts[-1].endswith(
        "The campaign goes on: next, Test Scenario Two.")
    assert state.result == ("win" if state.campaign.results[-1].endswith(":win") else "loss")
    assert not api.view(state, 0).campaign_over
    record = RULES.campaign_after(record, state)
    assert "the test interlude was read" in record["log"]
    state2, _ = RULES.campaign_game(record, _seats("A"), 12)
    assert isinstance(state2, LcgState)
    texts2 = _texts(_play_events(state2, 12))
    assert texts2[-1].startswith("The campaign ends.") and api.view(state2, 0).campaign_over


def _play_events(state: LcgState, seed: int) -> list[Event]:
    agent = SmartAgent(seed)
    out: list[Event] = []
    for _ in range(5000):
        if state.over:
            return out
        _, events = api.apply(state, agent.act(state), in_place=True)
        out += events
    raise AssertionError("the scenario did not end")


def test_a_deck_reads_as_cards_by_kind_with_their_copies() -> None:
    """Issue 30 item 11 (`/campaign deck`): every card of the deck once, under its kind, with its copies; the
    deck's size first (weaknesses counted: they are shuffled in, Rules Reference "Deckbuilding"); the experience
    to spend is the campaign status's, per seat."""
    record = RULES.new_campaign([SeatSpec(seat=0, name="A", character="warden")], {"difficulty": "easy"}, 5)
    deck: dict[str, int] = record["investigators"][0]["deck"]
    lines = RULES.campaign_deck_lines(record, 0)
    total = sum(deck.values())
    assert lines[0] == f"{total} cards:"
    listed = [entry for line in lines[1:] for entry in line.split(": ", 1)[1].split(", ")]
    assert sum(int(entry.split("× ", 1)[0]) for entry in listed) == total
    kinds = [line.split(" (", 1)[0] for line in lines[1:]]
    assert kinds == [k for k in ("Assets", "Events", "Skills", "Weaknesses") if k in kinds]  # in this order
    record["investigators"][0]["xp"] = 3
    assert RULES.campaign_status(record).experience == {0: 3}
    with pytest.raises(IllegalAction):
        RULES.campaign_deck_lines(record, 4)
