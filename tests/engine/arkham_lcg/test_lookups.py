"""The card game's quick reads (issue 29, the card game's cost per action): a card's definition from one table,
the timing windows some card answers known in advance, the modifiers in force on a seat worked out once while a
question is built, and whether any purchase is open read without copying the list. Each gives exactly what the
slower read it replaced gave."""

from __future__ import annotations

import pytest

from engine.arkham_lcg import board, deckbuilding, ops
from engine.arkham_lcg.content import Content, default_content, load_content, lookup
from engine.arkham_lcg.deckbuilding import can_upgrade, legal_upgrades, starting_deck
from engine.arkham_lcg.state import InvestigatorRecord
from engine.core.events import Event
from engine.core.flow import Step
from engine.core.prompt import Option
from tests.engine.arkham_lcg.conftest import PACK
from tests.engine.arkham_lcg.helpers import prompt
from tests.engine.arkham_lcg.test_faq_framework import _ids, _start


def _contents() -> list[Content]:
    return [default_content(), load_content(PACK)]


def _tables(c: Content) -> list[dict[str, object]]:
    # the order a card id is looked up in: a player card first, an investigator last
    return [c.player, c.enemies, c.treacheries, c.locations, c.acts, c.agendas, c.investigators]


@pytest.mark.parametrize("content", _contents(), ids=["shipped", "test pack"])
def test_a_card_is_read_from_the_first_table_that_holds_its_id(content: Content) -> None:
    for table in _tables(content):
        for cid in table:
            first = next(t[cid] for t in _tables(content) if cid in t)
            assert content.card(cid) is first and content.has(cid)
    assert not content.has("no such card")
    with pytest.raises(KeyError):
        content.card("no such card")


@pytest.mark.parametrize("content", _contents(), ids=["shipped", "test pack"])
def test_the_window_index_names_every_card_with_a_reaction_or_forced_ability_there(content: Content) -> None:
    """A window nobody's card answers is skipped without going through the cards in play: the index must hold
    every card that answers each window, and the windows a fast card in hand is played in."""
    known = lookup(content)
    windows: dict[str, set[str]] = {}
    for table in _tables(content):
        for cid in table:
            for ab in content.card(cid).abilities:
                if ab.kind in ("reaction", "forced"):
                    windows.setdefault(str(ab.window), set()).add(cid)
    assert {name: set(ids) for name, ids in known.answering.items()} == windows
    assert known.play_windows == {c.play_window for c in content.player.values() if c.play_window}


@pytest.mark.usefixtures("lcg_pack")
def test_a_turn_works_out_the_modifiers_once_and_a_change_after_it_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building the turn's menu asks for every basic action whether a "cannot" forbids it (Rules Reference,
    Can and Cannot): the modifiers in force are worked out once for the whole question, and the next question
    reads them afresh (a "cannot" that came into force since is obeyed)."""
    state = _start()
    worked_out: list[int] = []
    real = board._mods_now

    def counting(state_: object, seat: int) -> list[dict[str, object]]:
        worked_out.append(seat)
        return real(state_, seat)  # type: ignore[arg-type]

    monkeypatch.setattr(board, "_mods_now", counting)
    ids = _ids(state)
    assert any(x.startswith("move:") for x in ids) and "draw" in ids
    assert worked_out == [0]
    state.invs[0].lasting.append({"cannot": "move"})
    state.invs[0].lasting.append({"cannot": "draw"})
    ids = _ids(state)
    assert not any(x.startswith("move:") for x in ids) and "draw" not in ids and "investigate" in ids
    assert worked_out == [0, 0]
    assert board.forbidden(state, 0, "move")  # outside a question: read as it is now
    assert prompt(state).title.startswith("Your turn")


def test_whether_any_purchase_is_open_is_what_the_list_says() -> None:
    """The upgrade question is skipped when no purchase is affordable (a refill or a further myriad copy may
    cost 0 XP): the quick test must agree with the list at every amount of experience, and an investigator who
    left the campaign buys nothing."""
    content = default_content()
    weakness = next(cid for cid in sorted(content.player) if content.player[cid].weakness == "basic")
    for code in sorted(content.investigators):
        deck = starting_deck(content, code, weakness)
        short = dict(deck)
        out = next(cid for cid in sorted(short) if deckbuilding._removable(
            content.investigators[code], cid, content.player[cid]) is None)
        short[out] -= 1  # a deck below its size: free refills
        for held in (deck, short):
            for xp in (0, 1, 2, 5):
                record = InvestigatorRecord(seat=0, code=code, deck=dict(held), xp=xp, xp_earned=xp)
                assert can_upgrade(content, record) == bool(legal_upgrades(content, record)), (code, xp)
        gone = InvestigatorRecord(seat=0, code=code, deck=dict(deck), xp=5, xp_earned=5, status="killed")
        assert not can_upgrade(content, gone) and legal_upgrades(content, gone) == []


def test_the_quick_constructors_make_what_the_models_make() -> None:
    """Narration, menu options and steps are built without validating the engine's own values again: each is
    the model its class makes from the same values, defaults included."""
    events: list[Event] = []
    ops.say(events, "P1 draws 1 card.", "draw", 0, "upkeep", render=True, private_to=0, n=1)
    ops.say(events, "The mythos phase ends.")
    assert events == [Event(kind="draw", text="P1 draws 1 card.", seat=0, cause="upkeep", render=True,
                            private_to=0, data={"n": 1}),
                      Event(kind="note", text="The mythos phase ends.")]
    moved = ops.step(op="move_inv", seat=0, source="move", args={"to": "l.hall"})
    assert moved == Step(op="move_inv", seat=0, source="move", args={"to": "l.hall"})
    assert ops.step(op="round", source="rules") == Step(op="round", source="rules")
    assert ops.option(oid="move:l.hall", label="Move to Hall", data={"steps": [moved]}, detail="d", private=True) \
        == Option(id="move:l.hall", label="Move to Hall", data={"steps": [moved]}, detail="d", private=True)
    assert ops.option(oid="end", label="End your turn", role="pass") == Option(id="end", label="End your turn",
                                                                               role="pass")
    for made in (events[1], moved, ops.option(oid="x", label="X")):
        assert made.model_dump_json() == type(made).model_validate(made.model_dump()).model_dump_json()
        assert list(made.__dict__) == list(type(made).model_fields)  # fields in the model's order
