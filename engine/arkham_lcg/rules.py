"""Arkham Horror: The Card Game, 1-4 investigators: a whole campaign (or one scenario of it) as one game.

Options: the difficulty (the chaos bag: easy, standard, hard, expert) and what to play (the whole campaign, or
one scenario standalone). Each seat plays one investigator with its starter deck, its signature cards and
weakness, and one random basic weakness from the campaign's shared pool (FAQ Q: the pool is shared).
"""

from __future__ import annotations

from typing import Any

from engine.arkham_lcg import (  # noqa: F401  (registers the ops)
    board,
    cards,
    effects,
    enemies,
    harm,
    locations,
    phases,
    scenario,
    skilltest,
    triggers,
    turns,
)
from engine.arkham_lcg.campaign import CampaignMixin, new_record
from engine.arkham_lcg.content import content_of, default_content
from engine.arkham_lcg.ops import FLOW, Events, push, say
from engine.arkham_lcg.state import CampaignState, LcgState
from engine.arkham_lcg.view import LcgView, build_view
from engine.core.errors import IllegalAction
from engine.core.flow import Frame
from engine.core.game import FlowRules, GameState, OptionSpec, SeatSpec, Summary
from engine.core.prompt import Option
from engine.core.rng import Rng

#: Kept in the view; players read them in `/help game:arkham-lcg` (docs/howto/arkham_lcg.md, "This edition"), to
#: which setup points; listed in docs/arkham_lcg.md ("Not implemented").
NOTICES = (
    "Not in this edition: the taboo list, customizable cards, bonded cards, exile, sealing chaos tokens, "
    "parley abilities beyond those printed here, and the frost token.",
    "Clues spent on the act come first from the investigator whose turn it is, then from the others in order.",
)

#: questions that belong to an investigator in the scenario: dropped if they leave before answering
SCENARIO_OPS = frozenset({"turn", "assign", "heal_pick", "free_slot_pick", "hand_discard", "discard_from_hand",
                          "search_deck", "may", "pay_ask", "pick"})


def lapse(state: LcgState, frame: Frame) -> bool:
    if frame.op in ("upgrade", "upgrade_swap"):
        return scenario.upgrade_lapse(state, frame)
    in_scenario = state.scenario is not None and state.phase not in ("between", "over")
    if frame.op in SCENARIO_OPS and frame.seat is not None and in_scenario:
        if not board.playing(state, frame.seat):
            return True
        if frame.op == "turn":
            return turns.skip_turn_if_idle(state, frame)
    if frame.op == "search_deck":
        return not effects._search_matches(state, frame)
    return False


FLOW.lapse = lapse


class LcgRules(CampaignMixin, FlowRules):
    id = "arkham-lcg"
    name = "Arkham Horror: The Card Game"
    min_players = 1
    max_players = 4
    state_type = LcgState
    flow = FLOW

    def option_specs(self) -> list[OptionSpec]:
        c = default_content()
        diff = [Option(id=d, label=d.capitalize()) for d in ("easy", "standard", "hard", "expert")]
        play = [Option(id="campaign", label=f"The whole campaign: {c.campaign.name}")]
        play += [Option(id=sid, label=f"Scenario {c.scenarios[sid].number} alone: {c.scenarios[sid].name}")
                 for sid in c.campaign.scenarios]
        return [OptionSpec(id="difficulty", label="Difficulty", kind="choice", choices=diff, default="standard"),
                OptionSpec(id="play", label="Play", kind="choice", choices=play, default="campaign")]

    def characters(self) -> list[Option]:
        c = default_content()
        return [Option(id=i.id.removeprefix("inv."), label=f"{i.name} ({i.cls})",
                       detail=f"willpower {i.willpower}, intellect {i.intellect}, combat {i.combat}, agility "
                              f"{i.agility}; health {i.health}, sanity {i.sanity}. {i.text}")
                for i in c.investigators.values()]

    def _investigator_id(self, character: str) -> str:
        cid = character if character.startswith("inv.") else f"inv.{character}"
        if cid not in default_content().investigators:
            raise IllegalAction(f"There is no investigator called '{character}'.")
        return cid

    def new_game(self, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> tuple[GameState, Events]:
        rng = Rng.from_seed(seed)
        camp = self.build_campaign(seats, options, rng)
        play = options.get("play", "campaign")
        if play != "campaign":
            camp.scenario_index = camp.stop_after = default_content().campaign.scenarios.index(play)
        return self.start(camp, seats, options, seed, rng)

    def build_campaign(self, seats: list[SeatSpec], options: dict[str, Any], rng: Rng) -> CampaignState:
        """A new campaign: each seat's investigator (chosen, or dealt at random from the others), a starter deck
        with its signatures, signature weakness and one random basic weakness from the shared pool."""
        c = default_content()
        chosen = [self._investigator_id(s.character) for s in seats if s.character]
        if len(set(chosen)) != len(chosen):
            raise IllegalAction("Two seats chose the same investigator; each investigator can be played once.")
        free = sorted(set(c.investigators) - set(chosen))
        rng.shuffle(free)
        difficulty = options.get("difficulty", "standard")
        camp = CampaignState(id=c.campaign.id, content_version=c.version, difficulty=difficulty,
                             bag=list(c.campaign.chaos_bag[difficulty]), weakness_pool=c.basic_weaknesses())
        for s in seats:
            code = self._investigator_id(s.character) if s.character else free.pop()
            camp.investigators.append(new_record(c, camp, s.seat, code, rng))
        return camp

    def start(self, camp: CampaignState, seats: list[SeatSpec], options: dict[str, Any], seed: int,
              rng: Rng) -> tuple[GameState, Events]:
        c = content_of(camp.content_version) if camp.content_version else default_content()
        state = LcgState(game=self.id, content_version=c.version, seed=seed, options=options, seats=seats, rng=rng,
                         campaign=camp, notices=list(NOTICES))
        events: Events = []
        say(events, f"Campaign: {c.campaign.name} ({camp.difficulty}). {c.campaign.intro}", "campaign.start", None,
            "campaign")
        for rec in camp.investigators:
            if rec.status == "active":
                inv = c.investigators[rec.code]
                say(events, f"{state.seat_name(rec.seat)} plays {inv.name} ({inv.cls}).", "setup.investigator",
                    rec.seat, inv.id)
        push(state, "start_scenario", None, "campaign")
        FLOW.run(state, events)
        return state, events

    def view(self, state: GameState, seat: int | None) -> LcgView:
        assert isinstance(state, LcgState)
        return build_view(state, seat)

    def summary(self, state: GameState) -> Summary:
        assert isinstance(state, LcgState)
        waiting = [] if state.over else sorted({s for p in self.prompts(state) for s in p.seats})
        c = board.content(state)
        facts: list[str] = []
        if state.scenario is None or state.phase == "between":
            head = f"{c.campaign.name}: between scenarios ({len(state.campaign.results)} played)"
        else:
            sc = c.scenarios[state.scenario.id]
            a, g = board.act(state), board.agenda(state)
            head = (f"{sc.name} · round {state.round} · act {a.number if a else '-'} · agenda "
                    f"{g.number if g else '-'} ({board.doom_in_play(state)}/{g.doom if g else '-'} doom)")
            if state.turn is not None and not state.over:
                facts.append(f"{state.seat_name(state.turn)}'s turn")
            if g is not None:
                facts.append(f"Doom {board.doom_in_play(state)}/{g.doom}")
            if a is not None:
                facts.append(f"Act {a.number}")
        return Summary(phase="over" if state.over else state.phase, round=state.round, waiting_for=waiting,
                       headline=head, over=state.over, result=state.result, facts=facts)


RULES = LcgRules()
