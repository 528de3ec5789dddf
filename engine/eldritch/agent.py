"""A reasonable Eldritch Horror agent: it heads for what advances the Mystery (the Mystery's own encounter,
then Gates to close and Clues to research), rests when hurt, buys the best Asset it can, rerolls failing
tests with free rerolls and spare Clues, and scores every effect choice by a simple table of values.
Everything it reads comes from the prompt's options and the state's public parts.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.game import GameState
from engine.core.prompt import Action, Option, Prompt, PromptKind
from engine.eldritch.board import board_of
from engine.eldritch.content import default_content
from engine.eldritch.encounters import matches
from engine.eldritch.state import EldritchState
from engine.eldritch.world import monsters_at

GOOD = {"health": 0.8, "sanity": 0.8, "clues": 1.0, "improve": 1.5, "gain_asset": 1.2, "gain_artifact": 2.0,
        "gain_spell": 1.2, "ticket": 0.4, "retreat_doom": 3.0, "mystery": 4.0, "close_gate": 3.0, "take_clue": 1.0,
        "solve": 4.0, "combat_bonus": 0.8, "monster_damage": 1.0}
BAD = {"advance_doom": 3.0, "delayed": 0.8, "devoured": 20.0, "lose_possession": 1.2, "spawn_monster": 1.0,
       "spawn_gate": 2.0, "ambush": 1.0, "condition": 1.0}
GOOD_CONDITIONS = {"blessed"}
ENCOUNTER_ORDER = ("final", "mystery", "other_world", "rumor", "research", "expedition", "defeated", "location")


def score(effects: list[dict[str, Any]]) -> float:
    total = 0.0
    for eff in effects:
        (verb, arg), = eff.items()
        if verb in ("health", "sanity", "clues") and isinstance(arg, int):
            total += GOOD[verb] * arg * (1.0 if arg > 0 else 1.2)
        elif verb == "condition":
            total += 1.0 if arg in GOOD_CONDITIONS else -BAD["condition"]
        elif verb == "discard_condition":
            total += -0.5 if arg in GOOD_CONDITIONS else 1.0
        elif verb in GOOD:
            total += GOOD[verb] * (arg if isinstance(arg, int) and not isinstance(arg, bool) else 1)
        elif verb in BAD:
            total -= BAD[verb] * (arg if isinstance(arg, int) and not isinstance(arg, bool) else 1)
        elif verb == "test":
            total += 0.5 * score(arg.get("pass", [])) + 0.5 * score(arg.get("fail", []))
        elif verb in ("each_investigator", "one_here", "may"):
            total += max(0.0, score(arg)) if verb == "may" else score(arg)
        elif verb == "choice":
            total += max(score(b) for b in arg)
        elif verb == "spend":
            total += max(0.0, score(arg["cost"]) + score(arg["then"]))
        elif verb == "unless":
            total += max(score(arg["cost"]), score(arg["else"]))
        elif verb == "group_spend":
            total += max(score(arg["then"]) - 0.5 * (arg["clues"] if isinstance(arg["clues"], int) else 2),
                         score(arg.get("else", [])))
    return total


class SmartAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: GameState, prompt: Prompt | None = None) -> Action:
        assert isinstance(state, EldritchState)
        if prompt is None:
            from engine import api

            prompt = api.prompts(state)[0]
        seat = prompt.seats[0]
        choice = self.choose(state, prompt, seat)
        if prompt.kind is PromptKind.MANY:
            return Action(seat=seat, prompt=prompt.seq, choice=[])
        return Action(seat=seat, prompt=prompt.seq, choice=[choice.id])

    def choose(self, state: EldritchState, prompt: Prompt, seat: int) -> Option:
        opts = prompt.options
        by_id = {o.id: o for o in opts}
        title = prompt.title
        first = opts[0]
        if first.id == "keep" and title.startswith("Dice"):
            return next((o for o in opts if o.id.startswith("free:")), None) or self._clue_reroll(state, seat, opts)
        if "choose an action" in title:
            return self.action(state, seat, opts)
        if "choose an encounter" in title:
            for kind in ENCOUNTER_ORDER:
                for o in opts:
                    if isinstance(o.data, tuple) and o.data[0] == kind:
                        return o
            return first
        if title.startswith("Acquire assets"):
            buys = [o for o in opts if o.data[0] == "buy"]
            if buys:
                c = default_content()
                return max(buys, key=lambda o: c.assets[o.data[1]].cost)
            return by_id.get("done", opts[-1])
        if title.startswith("Cast a spell"):
            return next((o for o in opts if o.id != "none"), first)
        if title.startswith("Lose"):
            return by_id.get("use", first)
        if "offers a trade" in title:
            return by_id.get("yes", first)
        if title == "The Lead Investigator token":
            return first
        if all(isinstance(o.data, list) for o in opts):  # a choice between effect lists
            return max(opts, key=lambda o: score(o.data))
        return first

    def _clue_reroll(self, state: EldritchState, seat: int, opts: list[Option]) -> Option:
        keep = opts[0]
        clue = next((o for o in opts if o.id.startswith("clue:")), None)  # the lowest failed die
        failing = "fails" in keep.label
        if clue is not None and failing and state.investigators[seat].clues > 1:
            return clue
        return keep

    def action(self, state: EldritchState, seat: int, opts: list[Option]) -> Option:
        inv = state.investigators[seat]
        c = default_content()
        assert inv.card is not None
        sheet = c.investigators[inv.card]
        rest = next((o for o in opts if o.id == "rest"), None)
        hurt = inv.health <= sheet.health // 2 or inv.sanity <= sheet.sanity // 2
        if rest is not None and hurt:
            return rest
        goals = self.goals(state, seat)
        here_good = inv.space in goals
        travels = [o for o in opts if isinstance(o.data, tuple) and o.data[0] == "travel"]
        if travels and not here_good:
            board = board_of(state.content_version)
            best = None
            best_key: tuple[float, int] = (1e9, 0)
            for o in travels:
                dist = board.distances(o.data[1])
                d = min((dist.get(g, 99) - goals[g] for g in goals), default=99.0)
                key = (d, o.data[2] + o.data[3])
                if key < best_key:
                    best, best_key = o, key
            if best is not None:
                return best
        useful = self.useful_component(state, seat, opts)
        if useful is not None:
            return useful
        acquire = next((o for o in opts if o.id == "acquire"), None)
        if acquire is not None and state.reserve:
            return acquire
        if inv.train + inv.ship == 0:
            prep = next((o for o in opts if o.id.startswith("prepare:")), None)
            if prep is not None:
                return prep
        if rest is not None and (inv.health < sheet.health or inv.sanity < sheet.sanity):
            return rest
        return next(o for o in opts if o.id == "end")

    def useful_component(self, state: EldritchState, seat: int, opts: list[Option]) -> Option | None:
        """A component action whose effects score well (a sheet ability, an item, a spell to cast)."""
        c = default_content()
        best: tuple[float, Option | None] = (0.5, None)
        for o in opts:
            if not (isinstance(o.data, tuple) and o.data[0] == "component"):
                continue
            card = o.data[1]
            model = (c.investigators.get(card) or c.assets.get(card) or c.artifacts.get(card)
                     or c.spells.get(card) or c.conditions.get(card))
            effects = getattr(model, "action", []) or []
            value = score(effects) + (1.0 if card in c.conditions else 0.0)  # shedding a Condition is good
            if value > best[0]:
                best = (value, o)
        return best[1]

    def goals(self, state: EldritchState, seat: int) -> dict[str, float]:
        """Spaces worth reaching, with a bonus (in paths) for the most useful ones."""
        c = default_content()
        goals: dict[str, float] = {}
        if state.mystery is not None:
            m = c.mysteries[state.mystery]
            if m.encounter is not None:
                for sp in c.spaces:
                    if matches(state, sp, m.encounter.at) and m.encounter.at != "any":
                        goals[sp] = max(goals.get(sp, 0.0), 2.0)
            if m.epic:
                for tok in state.monsters:
                    if tok.kind == m.epic:
                        goals[tok.space] = 2.5
        ao = c.ancient_ones[state.ao]
        if state.awakened and ao.final_mystery is not None:
            fm = ao.final_mystery
            if fm.at:
                for sp in c.spaces:
                    if matches(state, sp, fm.at):
                        goals[sp] = 3.0
            for tok in state.monsters:
                if tok.kind == fm.epic:
                    goals[tok.space] = 3.0
        gate_weight = 1.5 if state.doom <= 8 else 1.0
        for sp in state.gates:
            goals[sp] = max(goals.get(sp, 0.0), gate_weight if len(monsters_at(state, sp)) <= 1 else 0.0)
        for sp in state.clues:
            goals[sp] = max(goals.get(sp, 0.0), 0.5)
        for sp in state.rumors.values():
            goals[sp] = max(goals.get(sp, 0.0), 1.0)
        return goals
