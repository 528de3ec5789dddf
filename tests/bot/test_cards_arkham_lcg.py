"""The card game's card book (`/card`, `/lcg card`): every shipped card can be read, hidden faces stay hidden
until the asker's game shows them (a location's revealed side: rules reference "Locations", revealed when an
investigator enters; an act's story when it advances), and `where` reads only what is public."""

from __future__ import annotations

from bot.games.arkham_lcg.cards import CARDS, entries, shipped, text, where
from bot.lookup.cards import resolve
from engine import api
from engine.arkham_lcg import board
from engine.arkham_lcg.state import LcgState
from engine.core.game import SeatSpec
from engine.core.prompt import Action


def game(seed: int = 4) -> LcgState:
    seats = [SeatSpec(seat=0, name="Alice", character="inv.augustin-ferreira"),
             SeatSpec(seat=1, name="Bob", character="inv.hamid-farouk")]
    state, _ = api.new_game("arkham-lcg", seats, {"play": "low_water", "difficulty": "easy"}, seed)
    assert isinstance(state, LcgState)
    for _ in range(20):  # to the first turn: the mulligans kept
        prompt = api.prompts(state)[0]
        if prompt.title.startswith("Your turn"):
            break
        choice = list(prompt.default) if prompt.default is not None else [prompt.options[0].id]
        api.apply(state, Action(seat=prompt.seats[0], prompt=prompt.seq, choice=choice), in_place=True)
    return state


def test_every_shipped_card_has_an_entry_and_a_text() -> None:
    c = shipped()
    ids = {e.id for e in entries()}
    every = {*c.investigators, *c.player, *c.enemies, *c.treacheries, *c.locations, *c.acts, *c.agendas,
             *c.scenarios}
    assert ids == every
    for e in entries():
        body = text(e.id, None, None)
        assert body.startswith(f"**{e.name}**") and len(body.splitlines()) >= 2 and len(body) <= 1800, e.id


def test_names_shared_by_two_cards_are_told_apart_by_kind_or_level() -> None:
    seen: dict[tuple[str, str], str] = {}
    for e in entries():
        assert (e.name, e.kind) not in seen, (e.id, seen.get((e.name, e.kind)))
        seen[(e.name, e.kind)] = e.id


def test_a_locations_other_side_is_hidden_until_revealed_in_your_game() -> None:
    state = game()
    scenario = state.scenario
    assert scenario is not None
    hidden = next(code for code, loc in scenario.locations.items() if not loc.revealed)
    start = next(code for code, loc in scenario.locations.items() if loc.revealed)
    card = board.content(state).locations[hidden]
    unseen = text(hidden, state, 0)
    assert "hidden until it is revealed" in unseen and f"Shroud {card.shroud}" not in unseen
    assert "hidden until" not in text(start, state, 0)
    assert f"Shroud {board.content(state).locations[start].shroud}" in text(start, state, 0)
    scenario.locations[hidden].revealed = True
    assert f"Shroud {card.shroud}" in text(hidden, state, 0)
    assert "hidden until" in text(hidden, None, None)  # no game: the unrevealed side


def test_an_acts_story_is_read_only_once_it_has_advanced() -> None:
    state = game()
    assert state.scenario is not None
    act = state.scenario.act_deck[0]
    story = shipped().acts[act].story
    assert story and story not in text(act, state, 0) and "read when it does" in text(act, state, 0)
    state.scenario.act_deck = state.scenario.act_deck[1:]
    assert story in text(act, state, 0)


def test_where_tells_only_public_places() -> None:
    state = game()
    view = api.view(state, None)
    start = next(loc for loc in view.locations if loc.revealed)
    assert where(start.code, view) is not None and "revealed on the table" in (where(start.code, view) or "")
    assert where("inv.augustin-ferreira", view) == "played by Alice"
    in_hand = {state.cards[uid].code for i in state.invs for uid in i.hand}
    public = {c.code for i in view.investigators for c in [*i.play, *i.discard, *i.threat]}
    for code in in_hand - public:
        assert where(code, view) is None, code
    assert where("no.such.card", view) is None and where("inv.augustin-ferreira", None) is None


def test_a_name_typed_in_free_text_finds_the_card() -> None:
    entry = resolve("arkham-lcg", "augustin ferreira")
    assert entry.id == "inv.augustin-ferreira" and CARDS.text(entry.id, None, None).startswith("**Augustin")
