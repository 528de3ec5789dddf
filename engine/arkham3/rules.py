"""Arkham Horror 3rd Edition, 1-6 investigators: setup in the summary's order (digest 3), the rules object,
the summary line and the notices the table is told at setup (what this engine does not implement).
"""

from __future__ import annotations

from typing import Any

from engine.arkham3 import board, effects, phases, skills  # noqa: F401  (registers the ops)
from engine.arkham3.board import content
from engine.arkham3.content import default_content
from engine.arkham3.ops import FLOW, Events, auto, push, say, seq
from engine.arkham3.state import ArkhamState, Monster, SeatRow
from engine.arkham3.view import ArkhamView, build_view
from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.flow import Frame
from engine.core.game import FlowRules, GameState, OptionSpec, SeatSpec, Summary
from engine.core.prompt import Option
from engine.core.rng import Rng
from engine.core.text import plural, table_notes

#: Kept in the view; players read them in `/help game:arkham3` (docs/howto/arkham3.md, "This edition"), to which
#: setup points; listed in docs/arkham3.md ("Not implemented").
NOTICES = (
    "Not in this edition: the expansions' rules and tiles (mysteries, thresholds, hazardous borders, "
    "retaliate, shrouded, terror, talents, driven/fatigued).",
    "The first seat holds the leader token for the whole game and answers the group's decisions (monster "
    "order, ties); any player may claim the next turn or encounter.",
    "Cards that simply add dice are used for you in each test, the best ones within 2 hand icons; rerolls, "
    "spells and other costs are always your choice.",
    "No card in this pack adds or removes dice after a roll, halves a price, flips a card to another type or "
    "removes a map tile, so those rules never come up.",
)

#: ops that act for an investigator: dropped if that investigator left the board before answering
INVESTIGATOR_OPS = frozenset({"action", "move", "trade", "trade_with", "cast_cost", "place_clues", "ward_remove",
                              "evade_pick", "test_reroll", "assign", "shop", "shop_discard", "pay_ask",
                              "choose_ask"})


def lapse(state: ArkhamState, frame: Frame) -> bool:
    if frame.op in INVESTIGATOR_OPS and not board.has_inv(state, frame.seat):
        if frame.op == "test_reroll" and state.rolls and state.rolls[-1].seat == frame.seat:
            state.rolls.pop()
        return True
    return False


FLOW.lapse = lapse


@auto("setup_done")
def run_setup_done(state: ArkhamState, frame: Frame, events: Events) -> None:
    for m in state.monsters:
        push(state, "engage_here", None, "setup", uid=m.uid)
    say(events, table_notes(ArkhamRules.id), "setup.notice")
    say(events, "Setup is complete. " + board.scenario(state).sheet.goal, "setup.done", render=True)


class ArkhamRules(FlowRules):
    id = "arkham3"
    name = "Arkham Horror (3rd edition)"
    min_players = 1
    max_players = 6
    state_type = ArkhamState
    flow = FLOW

    def option_specs(self) -> list[OptionSpec]:
        c = default_content()
        choices = [Option(id="random", label="Random")]
        choices += [Option(id=s, label=p.sheet.name) for s, p in sorted(c.scenarios.items())]
        return [OptionSpec(id="scenario", label="Scenario", kind="choice", choices=choices, default="random")]

    def characters(self) -> list[Option]:
        c = default_content()
        return [Option(id=i.id.removeprefix("a3.inv."), label=f"{i.name}, {i.occupation}", detail=i.ability_text)
                for i in c.investigators.values()]

    def _investigator_id(self, character: str) -> str:
        cid = character if character.startswith("a3.inv.") else f"a3.inv.{character}"
        if cid not in default_content().investigators:
            raise IllegalAction(f"There is no investigator called '{character}'.")
        return cid

    def new_game(self, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> tuple[GameState, list[Event]]:
        c = default_content()
        rng = Rng.from_seed(seed)
        chosen = [self._investigator_id(s.character) for s in seats if s.character]
        if len(set(chosen)) != len(chosen):
            raise IllegalAction("Two seats chose the same investigator; each investigator can be played once.")
        opt = options.get("scenario", "random")
        scen = rng.choice(sorted(c.scenarios)) if opt == "random" else opt
        pack = c.scenarios[scen]
        sheet = pack.sheet
        state = ArkhamState(game=self.id, content_version=c.version, seed=seed, options=options, seats=seats,
                            rng=rng, scenario=scen)
        events: Events = []
        say(events, f"Scenario: {sheet.name}. {sheet.text}", "setup.scenario", cause=scen)
        # 1. the map, starting doom and monsters from the setup map
        state.tiles = list(sheet.neighborhoods)
        state.doom = dict(sheet.doom)
        for p in sheet.monsters:
            state.monsters.append(Monster(uid=state.next_uid, card=p.monster, space=p.space, status="ready"))
            state.next_uid += 1
        # 2-3. street and neighborhood decks, the event deck, the monster deck
        state.decks["street"] = self._shuffled(rng, c.streets)
        for t in state.tiles:
            state.decks[f"enc:{t}"] = self._shuffled(rng, c.encounters[t])
        state.decks["anomaly"] = self._shuffled(rng, c.anomalies) if sheet.anomalies else []
        state.event_deck = self._shuffled(rng, pack.events)
        state.decks["monster"] = list(sheet.monster_deck)
        rng.shuffle(state.decks["monster"])
        # 4. the mythos cup
        state.cup = [k for k, n in sorted(sheet.cup.items()) for _ in range(n)]
        # 5. 13 random headlines
        state.decks["headline"] = rng.sample(sorted(c.headlines), 13)
        # 6. asset decks and the display
        for kind in ("item", "ally", "spell"):
            state.decks[kind] = self._shuffled(rng, c.deck_ids(kind))
        effects.refill_display(state)
        # 7. conditions and special cards
        state.conditions_pile = sorted(c.conditions)
        state.special_pile = sorted(c.deck_ids("special"))
        # 8-10. investigators, leader, money and starting cards, on the starting space
        state.table = [SeatRow() for _ in seats]
        state.unplayed = sorted(c.investigators)
        state.started_with = len(seats)
        for s in seats:
            if s.character:
                phases.start_investigator(state, s.seat, self._investigator_id(s.character), events)
        for s in seats:
            if not s.character:
                phases.start_investigator(state, s.seat, rng.choice(state.unplayed), events)
        state.leader = 0
        say(events, f"{state.seat_name(0)} takes the leader token.", "setup.leader", 0)
        state.notices = list(NOTICES)
        # 11. starting clues (3 from the top), 12. starting doom (from the bottom), 13. finalize setup
        steps: list[tuple[str, int | None, dict[str, Any]]] = [("spawn_clue", None, {}) for _ in range(3)]
        steps.append(("spread_doom", None, {}))
        steps += [("add_archive", None, {"number": n}) for n in sheet.finalize]
        steps += [("setup_done", None, {}), ("round", None, {})]
        seq(state, steps, "setup")
        FLOW.run(state, events)
        return state, events

    @staticmethod
    def _shuffled(rng: Rng, ids: Any) -> list[str]:
        out = sorted(ids)
        rng.shuffle(out)
        return out

    def view(self, state: GameState, seat: int | None) -> ArkhamView:
        assert isinstance(state, ArkhamState)
        return build_view(state, seat)

    def summary(self, state: GameState) -> Summary:
        assert isinstance(state, ArkhamState)
        pack = content(state).scenarios[state.scenario]
        waiting = [] if state.over else sorted({s for p in self.prompts(state) for s in p.seats})
        head = (f"{pack.sheet.name} · round {state.round} · sheet: {plural(state.sheet_clues, 'clue')}, "
                f"{state.sheet_doom} doom · board doom {board.board_doom(state)} · anomalies {len(state.anomalies)}")
        facts = [f"{state.seat_name(state.turn)}'s turn"] if state.turn is not None and not state.over else []
        facts += [f"Doom {state.sheet_doom} on the sheet, {board.board_doom(state)} in town",
                  f"Clues {state.sheet_clues} on the sheet"]
        return Summary(phase="over" if state.over else state.phase, round=state.round, waiting_for=waiting,
                       headline=head, over=state.over, result=state.result, facts=facts)


RULES = ArkhamRules()
