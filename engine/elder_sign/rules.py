"""Elder Sign (revised printing) for 1-8 players: setup, the step driver, views and the summary.

Setup follows the rules digest section 2 step by step. The turn itself lives in turn.py, effects in
effects.py, items and abilities in items.py.
"""

from __future__ import annotations

from typing import Any

from engine.core.deck import Deck
from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.flow import Frame
from engine.core.game import FlowRules, GameState, OptionSpec, SeatSpec, Summary
from engine.core.prompt import Option
from engine.core.rng import Rng
from engine.core.text import table_notes
from engine.elder_sign import board, turn
from engine.elder_sign.content import default_content
from engine.elder_sign.dice import DIE_IDS
from engine.elder_sign.effects import clock_label
from engine.elder_sign.ops import FLOW, push
from engine.elder_sign.state import Die, ElderSignState, Seat
from engine.elder_sign.view import ElderSignView, build_view

#: What this table does differently from a physical one (docs/elder_sign.md, "Not implemented"); players read it in
#: `/help game:elder-sign` (docs/howto/elder_sign.md, "This edition"), to which setup points.
NOTICES = (
    "House rules such as automatic assistance or turn timers are not offered; a moderator can "
    "/gm skip an idle player with the prompt's default answer.",
)


def lapse(state: ElderSignState, frame: Frame) -> bool:
    """A question whose investigator was devoured before answering lapses (digest 7.3), except a monster
    already drawn: it still appears, placed by the next living investigator. True = drop the frame."""
    f = frame.__dict__  # plain reads: asked of every question the game reaches
    seat = f["seat"]
    if seat is None or state.table[seat].investigator is not None or f["op"] == "new_investigator":
        return False
    living = board.living_seats(state)
    if frame.op == "place_monster" and living:
        frame.seat = state.current if state.current in living else living[0]
        return False
    if frame.op == "place_monster":
        state.cup.append(frame.args["monster"])
    return True


FLOW.lapse = lapse


def run(state: ElderSignState, events: list[Event]) -> None:
    """Run automatic frames until one waits for a player or the game ends (the kernel's driver)."""
    FLOW.run(state, events)


class ElderSignRules(FlowRules):
    id = "elder-sign"
    name = "Elder Sign"
    min_players = 1
    max_players = 8
    state_type = ElderSignState
    flow = FLOW

    def option_specs(self) -> list[OptionSpec]:
        c = default_content()
        choices = [Option(id="random", label="Random (the rulebook's default)")]
        choices += [Option(id=ao.id.removeprefix("es.ao."), label=ao.name) for ao in c.ancient_ones.values()]
        return [OptionSpec(id="ancient_one", label="Ancient One", kind="choice", choices=choices,
                           default="random")]

    def characters(self) -> list[Option]:
        c = default_content()
        return [Option(id=i.id.removeprefix("es.inv."),
                       label=f"{i.name}, {i.occupation} ({i.max_stamina} stamina, {i.max_sanity} sanity)",
                       detail=i.ability_text) for i in c.investigators.values()]

    def new_game(self, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> tuple[GameState, list[Event]]:
        c = default_content()
        rng = Rng.from_seed(seed)
        chosen = [self._investigator_id(s.character) for s in seats if s.character]
        if len(set(chosen)) != len(chosen):
            raise IllegalAction("Two seats chose the same investigator; each investigator can be played once.")
        ao_opt = options.get("ancient_one", "random")
        ao = rng.choice(sorted(c.ancient_ones)) if ao_opt == "random" else f"es.ao.{ao_opt}"
        state = ElderSignState(game=self.id, content_version=c.version, seed=seed, options=options,
                               seats=seats, rng=rng, ao=ao)
        events: list[Event] = []
        state.dice = {d: Die() for d in DIE_IDS}
        ao_card = c.ancient_ones[ao]
        events.append(Event(kind="setup.ao", text=f"The Ancient One stirring beneath the museum: {ao_card.name}. "
                            f"Seal it with {ao_card.elder_signs} Elder Signs before its doom track fills "
                            f"({len(ao_card.doom_track)} spaces).", cause=ao))
        state.cup = [m.id for m in c.monsters.values() if not m.mask or ao_card.masks]
        state.decks["adventure"] = Deck.shuffled("adventure", sorted(c.adventures), rng)
        state.decks["other_world"] = Deck.shuffled("other_world", sorted(c.other_worlds), rng)
        state.slots = [None] * 6
        for kind in ("common", "unique", "spell", "ally"):
            state.decks[kind] = Deck.shuffled(kind, sorted(c.deck_ids(kind)), rng)
        for slot in range(6):
            turn.deal_adventure(state, slot, events)
        state.decks["mythos"] = Deck.shuffled("mythos", sorted(c.mythos), rng)
        # the stack runs last-pushed first: investigators' setup effects, then the first Mythos, then turn 1
        push(state, "turn_start", None)
        push(state, "draw_mythos", None)
        # investigators: chosen ones first, then random for the rest (setup step 7)
        state.table = [Seat() for _ in seats]
        state.unused_investigators = sorted(c.investigators)
        for s in seats:
            if s.character:
                turn.start_investigator(state, s.seat, self._investigator_id(s.character), events)
        for s in seats:
            if not s.character:
                pick = rng.choice(state.unused_investigators)
                turn.start_investigator(state, s.seat, pick, events)
        state.first_player = state.current = rng.below(len(seats))
        events.append(Event(kind="setup.first", text=f"{board.name(state, state.current)} goes first."))
        state.notices = list(NOTICES)
        events.append(Event(kind="setup.notice", text=table_notes(state.game)))
        events.append(Event(kind="setup.done", text="The museum doors close behind you.", render=True))
        run(state, events)
        return state, events

    def _investigator_id(self, character: str) -> str:
        c = default_content()
        cid = character if character.startswith("es.inv.") else f"es.inv.{character}"
        if cid not in c.investigators:
            raise IllegalAction(f"There is no investigator called '{character}'.")
        return cid

    def view(self, state: GameState, seat: int | None) -> ElderSignView:
        assert isinstance(state, ElderSignState)
        return build_view(state, seat)

    def summary(self, state: GameState) -> Summary:
        assert isinstance(state, ElderSignState)
        c = default_content()
        ao = c.ancient_ones[state.ao]
        waiting = [] if state.over else sorted({s for p in self.prompts(state) for s in p.seats})
        head = (f"{ao.name} · doom {state.doom}/{len(ao.doom_track)} · Elder Signs "
                f"{state.elder_signs}/{ao.elder_signs} · {clock_label(state.clock)} o'clock, day {state.day}")
        phase = "final battle" if state.phase == "battle" else "investigation"
        if state.over:
            phase = "over"
        facts = [] if state.over or state.phase == "battle" else [f"{state.seat_name(state.current)}'s turn"]
        facts += [f"{clock_label(state.clock)} o'clock", f"Doom {state.doom}/{len(ao.doom_track)}",
                  f"Elder Signs {state.elder_signs}/{ao.elder_signs}"]
        return Summary(phase=phase, round=state.day, waiting_for=waiting, headline=head, over=state.over,
                       result=state.result, facts=facts)


RULES = ElderSignRules()
