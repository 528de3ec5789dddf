"""The procedures the rules summary spells out step by step, replayed with fixed dice (issue 12, done-when).
Each test cites a section of our rules summary ("digest §", its rulings written out in docs/arkham3.md) or
the publisher's rules summary by heading ("summary: <section>")."""

from __future__ import annotations

from engine.arkham3 import board
from engine.arkham3.effects import remove_doom
from tests.engine.arkham3.support import add_monster, answer, dice, ids, new_game, op, run, texts

HIROSHI = "hiroshi-tanabe"  # Observation 4 (+1 Slide Rule), Strength 1, health 5, a free Observation reroll


def test_gate_burst() -> None:
    """summary: Mythos, Gate burst; digest §4.4: the top event card's neighborhood gets 1 doom in each of its
    spaces, then that card and the whole event discard are shuffled together to the bottom of the event deck,
    which empties the discard, so the unstable space falls back to the starting space (digest §2.1)."""
    state = new_game()
    pack = board.scenario(state)
    wharf = next(e for e in pack.events.values() if e.neighborhood == "wharves").id
    state.event_deck.remove(wharf)
    state.event_deck.append(wharf)  # the top
    discard = list(state.event_discard)
    assert discard, "setup's starting doom left one card in the event discard"
    deck_before = len(state.event_deck)
    state.doom = {}
    state.anomalies = []
    run(state, "gate_burst")
    spaces = board.graph(state).spaces_of("wharves")
    assert {s: state.doom.get(s) for s in spaces} == {s: 1 for s in spaces}
    assert sum(state.doom.values()) == 3
    assert state.event_discard == []
    assert len(state.event_deck) == deck_before + len(discard)
    assert set(state.event_deck[:len(discard) + 1]) == {wharf, *discard}  # at the bottom
    assert board.unstable(state) == [pack.sheet.start]


def test_anomaly_appears_and_redirects_doom() -> None:
    """digest §8 and summary: Anomalies: 3 doom on a space opens an anomaly in its neighborhood (one at most);
    doom then aimed at any of its spaces goes to the scenario sheet, whatever doom is still there (§12.14);
    removing all doom from the neighborhood closes it."""
    state = new_game()
    state.doom = {"french-hill.witch-house": 2}
    state.anomalies = []
    sheet = state.sheet_doom
    events = run(state, "place_doom", space="french-hill.witch-house")
    assert state.doom["french-hill.witch-house"] == 3
    assert state.anomalies == ["french-hill"]
    assert "anomaly opens" in texts(events)
    run(state, "place_doom", space="french-hill.st-stanislaus")
    run(state, "place_doom", space="french-hill.witch-house")
    assert state.sheet_doom == sheet + 2
    assert board.tile_doom(state, "french-hill") == 3
    assert state.anomalies == ["french-hill"]  # never two in one neighborhood
    remove_doom(state, "french-hill.witch-house", 3, [])
    assert state.anomalies == []


def test_five_doom_in_a_neighborhood_opens_an_anomaly() -> None:
    """digest §8: 5 doom in one neighborhood, even spread over its spaces, opens an anomaly."""
    state = new_game()
    state.doom = {"university.library": 2, "university.science-hall": 2}
    state.anomalies = []
    run(state, "place_doom", space="university.faculty-row")
    assert state.anomalies == ["university"]


def test_doom_never_rests_on_a_street() -> None:
    """digest §2.1, §12.5: doom aimed at a street goes to an adjacent neighborhood space; [GAP] with several,
    the leader chooses."""
    state = new_game()
    state.doom, state.anomalies = {}, []
    run(state, "place_doom", space="street.armitage-green")
    assert op(state) == "pick"
    assert set(ids(state)) == {"university.library", "french-hill.st-stanislaus", "meadow-hill.cemetery",
                               "wharves.docks"}
    answer(state, "meadow-hill.cemetery")
    assert state.doom == {"meadow-hill.cemetery": 1}


def test_massive_monster_evade_and_the_bonus_action() -> None:
    """digest §7 Massive, §4.1 Evade, §12.16: evading every engaged monster gives one more action; a massive
    monster is not exhausted and engages you again after that action if you did not leave its space."""
    state = new_game(characters=[HIROSHI])
    here = board.inv(state, 0).space
    gug = add_monster(state, "a3.monster.gug", here, "engaged", engaged=[0])
    assert op(state) == "action" and "move" not in ids(state)  # engaged: attack, evade or focus only
    dice(state, 6, 1, 1, 1, 1)
    answer(state, "evade")
    answer(state, "keep")  # the free reroll is offered; one success is enough
    assert gug.engaged == [] and gug.status == "ready" and gug.space == here  # not exhausted, still there
    assert state.actions_left == 2  # 1 left + the bonus action
    assert "move" in ids(state)
    answer(state, "gather")
    assert gug.engaged == [0]  # re-engaged: still in its space after the bonus action


def test_massive_monster_evaded_and_left_behind() -> None:
    """digest §7 Massive: leaving the space with the bonus action escapes it."""
    state = new_game(characters=[HIROSHI])
    here = board.inv(state, 0).space
    gug = add_monster(state, "a3.monster.gug", here, "engaged", engaged=[0])
    dice(state, 6, 1, 1, 1, 1)
    answer(state, "evade")
    answer(state, "keep")
    answer(state, "move")
    answer(state, "street.armitage-green")
    assert board.inv(state, 0).space == "street.armitage-green"
    assert gug.engaged == [] and 0 not in gug.engaged


def test_defeat_during_the_attack_step() -> None:
    """digest §6.4, §12.7 and summary: Defeated: an investigator defeated in the monster attack step leaves the
    board, 1 doom goes on the scenario sheet, and every monster engaged with them is disengaged and exhausted
    in the space where they were; a new investigator joins at the next action phase."""
    state = new_game(players=2, characters=[HIROSHI, None])
    inv = board.inv(state, 0)
    here = inv.space
    inv.damage = 4  # health 5
    ghoul = add_monster(state, "a3.monster.ghoul", None, "engaged", engaged=[0])
    witch = add_monster(state, "a3.monster.hill-witch", None, "engaged", engaged=[0])
    sheet = state.sheet_doom
    run(state, "attack_step")
    assert op(state) == "pick"  # the attacked investigator orders their monsters' attacks ([GAP] §12.4)
    answer(state, f"m{ghoul.uid}")
    assert state.table[0].inv is None and state.table[0].status == "joining"
    assert state.sheet_doom == sheet + 1
    for m in (ghoul, witch):
        assert m.engaged == [] and m.status == "exhausted" and m.space == here
    assert state.table[0].lost == ["defeated"]


def test_empty_event_deck() -> None:
    """digest §12.1 and summary: Event deck: an effect that needs a card from an empty event deck is cancelled
    entirely; 1 doom goes on the scenario sheet and the event discard becomes the new event deck."""
    state = new_game()
    state.event_discard = state.event_deck[:3]
    state.event_deck = []
    state.doom, state.anomalies = {}, []
    sheet = state.sheet_doom
    old = set(state.event_discard)
    events = run(state, "spread_doom")
    assert state.sheet_doom == sheet + 1
    assert state.doom == {}  # the spread itself was cancelled
    assert set(state.event_deck) == old and state.event_discard == []
    assert "event deck is empty" in texts(events)
