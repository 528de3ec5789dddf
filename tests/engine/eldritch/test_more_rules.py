"""More Eldritch Horror rules by digest section: Acquire with the bank loan, Trade, rumors counting down,
ambushes, prevention, Travel routes."""

from __future__ import annotations

from engine.eldritch.board import board_of
from engine.eldritch.content import EldritchContent
from engine.eldritch.mythos import countdown
from engine.eldritch.ops import push
from engine.eldritch.state import Ongoing
from tests.engine.eldritch.helpers import at_moment, choose, dice, new, prompt, run, variant

SUN = "eh.investigator.sun-yuexin"


def _plain(c: EldritchContent) -> None:
    for i in c.investigators.values():
        i.passive.kind = "gate_clue"


def _setup(players: int = 1):  # type: ignore[no-untyped-def]
    state = at_moment(new(players), variant(_plain))
    for inv in state.investigators:
        inv.assets, inv.spells, inv.conditions, inv.artifacts, inv.clues = [], [], [], [], 0
    state.monsters.clear()
    return state


def test_acquire_with_the_bank_loan() -> None:
    """Digest 3.1 Acquire Assets: Influence test; a Debt for +2 successes once; buy up to the successes;
    the reserve refills after the action."""
    state = _setup()
    inv = state.investigators[0]
    inv.space = "arkham"
    state.reserve = ["eh.asset.army-revolver", "eh.asset.drovers-lash", "eh.asset.vest-pocket-pistol",
                     "eh.asset.can-of-lamp-oil"]
    push(state, "turn", 0)
    run(state)
    dice(state, *([1] * 6))  # no success
    choose(state, "acquire")
    assert prompt(state).title == "Acquire assets: 0 successes to spend"
    choose(state, "loan")
    assert prompt(state).title == "Acquire assets: 2 successes to spend"
    assert "loan" not in {o.id for o in prompt(state).options}  # once per action
    choose(state, "eh.asset.army-revolver")
    choose(state, "eh.asset.drovers-lash")
    assert inv.assets == ["eh.asset.army-revolver", "eh.asset.drovers-lash"]
    assert any(c.startswith("eh.condition.debt") for c in inv.conditions)
    choose(state, "done")
    assert len(state.reserve) == 4


def test_trade_needs_both_investigators() -> None:
    """Digest 3.1 Trade: possessions, Clues and tickets change hands only if the other investigator agrees."""
    state = _setup(2)
    a, b = state.investigators
    a.space = b.space = "rome"
    a.assets, a.clues, b.clues = ["eh.asset.army-revolver"], 1, 0
    push(state, "turn", 0)
    run(state)
    choose(state, label="Trade with")
    p = prompt(state)
    from engine import api
    from engine.core.prompt import Action

    give = [o.id for o in p.options if o.id.startswith("give:")]
    api.apply(state, Action(seat=0, prompt=p.seq, choice=give), in_place=True, prompt=p)
    assert prompt(state).seats == [1]
    choose(state, "no")
    assert a.assets == ["eh.asset.army-revolver"] and b.assets == []
    state.flow.stack.clear()
    a.actions_used = []
    push(state, "turn", 0)
    run(state)
    choose(state, label="Trade with")
    p = prompt(state)
    api.apply(state, Action(seat=0, prompt=p.seq, choice=give), in_place=True, prompt=p)
    said = [e.text for e in choose(state, "yes") if e.kind == "trade.done"]
    assert a.assets == [] and b.assets == ["eh.asset.army-revolver"] and (a.clues, b.clues) == (0, 1)
    # issue 30 item 12: the narration says what changed hands, not only that a trade happened
    assert len(said) == 1 and said[0].endswith("Army Revolver and 1 Clue."), said
    assert " gives " in said[0]


def test_a_trade_both_ways_says_both_sides() -> None:
    from engine.eldritch.actions import _trade_text

    assert _trade_text("Ann", "Bo", ["1 Clue"], ["2 train tickets"]) == \
        "Ann gives Bo 1 Clue and receives 2 train tickets."
    assert _trade_text("Ann", "Bo", [], ["Lantern"]) == "Ann receives Lantern from Bo."


def test_a_rumor_counts_down_at_each_reckoning_and_expires() -> None:
    """Digest 1.8 and 8 "Rumors": a countdown rumor loses a token per reckoning; at none its effect resolves
    and it leaves play."""
    state = _setup()
    card = "eh.mythos.whispers-in-the-bazaar"
    state.ongoing = [Ongoing(card=card, tokens=1)]
    state.rumors = {card: "istanbul"}
    state.doom = 10
    events: list = []
    from engine.core.flow import Frame

    countdown(state, Frame(id=0, op="countdown", args={"card": card}), events)
    run(state)
    assert state.doom == 8 and not state.ongoing and card not in state.rumors
    assert card in state.decks["mythos"].discard_pile


def test_an_ambush_returns_the_monster_to_the_cup() -> None:
    """Digest 5 Ambush: fight a Monster from the cup; afterwards it goes back, even undefeated."""
    state = _setup()
    inv = state.investigators[0]
    inv.card, inv.space, inv.health, inv.sanity = SUN, "space-4", 6, 6
    cup = sorted(state.cup)
    from engine.eldritch.effects import resolve

    resolve(state, 0, [{"ambush": True}], "test")
    dice(state, *([1] * 30))
    run(state)
    while api_prompts(state):
        choose(state, prompt(state).options[0].id)
    assert sorted(state.cup) == cup and not [m for m in state.monsters if not m.space]


def api_prompts(state):  # type: ignore[no-untyped-def]
    from engine import api

    return api.prompts(state)


def test_prevention_is_asked_before_a_loss() -> None:
    """Digest 8 "Choice words": a chosen loss can still be prevented by a card (a Whiskey-like asset)."""
    state = _setup()
    inv = state.investigators[0]
    inv.card, inv.space, inv.health, inv.sanity = SUN, "space-4", 6, 6
    inv.assets = ["eh.asset.hip-flask-of-rye"]
    from engine.eldritch.effects import resolve

    resolve(state, 0, [{"sanity": -2}], "test")
    run(state)
    choose(state, "use")
    assert inv.sanity == 6 and "eh.asset.hip-flask-of-rye" not in inv.assets


def test_travel_routes_use_tickets_along_their_own_paths() -> None:
    """Digest 3.1 Travel: one step along any path, then one more per ticket along a path of its kind."""
    board = board_of(new(1).content_version)
    none = board.routes("san-francisco", 0, 0)
    assert set(none) == set(board.adjacent("san-francisco"))
    one_train = board.routes("san-francisco", 1, 0)
    assert one_train["arkham"].train == 1 and "london" not in one_train
    ships = board.routes("arkham", 0, 1)
    assert ships["rome"].ship == 1  # Arkham - London by ship, then London - Rome needs a ship path
