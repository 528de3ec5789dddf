"""A reasonable Eldritch Horror agent: it heads for what advances the Mystery (the Mystery's own encounter,
then Gates to close and Clues to research), rests when hurt, buys the best Asset it can, rerolls failing
tests with free rerolls and spare Clues, and scores every effect choice by a simple table of values.
Everything it reads comes from the prompt's options and the state's public parts.

Each answer that matters leaves a `Reasoning` in `self.reasoning` (issue 32: AI teammates explain): the goal it
travels toward and how far, the habit or threshold it followed, the score its table gave each choice.
"""

from __future__ import annotations

import random
from typing import Any

from engine.agents import Reasoning
from engine.core.game import GameState
from engine.core.prompt import Action, Option, Prompt, PromptKind
from engine.eldritch.board import board_of
from engine.eldritch.content import default_content
from engine.eldritch.encounters import matches
from engine.eldritch.state import EldritchState
from engine.eldritch.world import monsters_at, space_name

GOOD = {"health": 0.8, "sanity": 0.8, "clues": 1.0, "improve": 1.5, "gain_asset": 1.2, "gain_artifact": 2.0,
        "gain_spell": 1.2, "ticket": 0.4, "retreat_doom": 3.0, "mystery": 4.0, "close_gate": 3.0, "take_clue": 1.0,
        "solve": 4.0, "combat_bonus": 0.8, "monster_damage": 1.0}
BAD = {"advance_doom": 3.0, "delayed": 0.8, "devoured": 20.0, "lose_possession": 1.2, "spawn_monster": 1.0,
       "spawn_gate": 2.0, "ambush": 1.0, "condition": 1.0}
GOOD_CONDITIONS = {"blessed"}
ENCOUNTER_ORDER = ("final", "mystery", "other_world", "rumor", "research", "expedition", "defeated", "location")
#: why each kind of encounter comes where it does in ENCOUNTER_ORDER, in players' words
ENCOUNTER_WHY = {
    "final": "the Final Mystery comes before every other encounter",
    "mystery": "the Mystery comes before every other encounter",
    "other_world": "entering the Gate to close it comes before a Rumor, research or the city",
    "rumor": "the Rumor comes before research, an expedition or the city",
    "research": "the Clue here comes before an expedition or the city",
    "expedition": "the expedition comes before the city",
    "defeated": "finding the fallen investigator comes before the city",
    "location": "the city's own encounter comes before a General one",
}
ENCOUNTER_ORDER_TEXT = ("its order: Final Mystery, Mystery, Other World, Rumor, Clue research, expedition, a fallen "
                        "investigator, the city")
#: the agent's order of actions, for /game why
ACTION_HABITS = ("its order: rest when health or sanity is half or less; travel toward a goal",
                 "then a card's action scoring above +0.5; acquire assets while the reserve has any",
                 "then a ticket when it holds none; rest when hurt at all; else end the turn")
DICE_HABITS = ("it takes every free reroll; it spends a Clue only on a failing test, and only while holding 2 or "
               "more",)


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


def _n(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


class SmartAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.reasoning: Reasoning | None = None

    def act(self, state: GameState, prompt: Prompt | None = None) -> Action:
        self.reasoning = None
        assert isinstance(state, EldritchState)
        if prompt is None:
            from engine import api

            prompt = api.prompts(state)[0]
        seat = prompt.seats[0]
        choice = self.choose(state, prompt, seat)
        if prompt.kind is PromptKind.MANY:
            self.reasoning = Reasoning("it never trades possessions") if prompt.options else None
            return Action(seat=seat, prompt=prompt.seq, choice=[])
        if len(prompt.options) < 2:
            self.reasoning = None  # nothing was chosen
        return Action(seat=seat, prompt=prompt.seq, choice=[choice.id])

    def choose(self, state: EldritchState, prompt: Prompt, seat: int) -> Option:
        opts = prompt.options
        by_id = {o.id: o for o in opts}
        title = prompt.title
        first = opts[0]
        if first.id == "keep" and title.startswith("Dice"):
            free = next((o for o in opts if o.id.startswith("free:")), None)
            if free is not None:
                self.reasoning = Reasoning("a free reroll costs nothing: it always takes one", DICE_HABITS)
                return free
            return self._clue_reroll(state, seat, opts)
        if "choose an action" in title:
            return self.action(state, seat, opts)
        if "choose an encounter" in title:
            for kind in ENCOUNTER_ORDER:
                for o in opts:
                    if isinstance(o.data, tuple) and o.data[0] == kind:
                        self.reasoning = Reasoning(ENCOUNTER_WHY[kind], (ENCOUNTER_ORDER_TEXT,))
                        return o
            return first
        if title.startswith("Acquire assets"):
            buys = [o for o in opts if o.data[0] == "buy"]
            if buys:
                c = default_content()
                best = max(buys, key=lambda o: c.assets[o.data[1]].cost)
                self.reasoning = Reasoning(
                    f"the costliest Asset it can afford: cost {c.assets[best.data[1]].cost}",
                    tuple(f"{c.assets[o.data[1]].name}: cost {c.assets[o.data[1]].cost}" for o in buys)[:5])
                return best
            spend = title.split(": ", 1)[-1].removesuffix(" to spend")
            self.reasoning = Reasoning(f"nothing in the reserve it can afford with {spend}; it never borrows")
            return by_id.get("done", opts[-1])
        if title.startswith("Cast a spell"):
            self.reasoning = Reasoning("it always casts a spell when it may")
            return next((o for o in opts if o.id != "none"), first)
        if title.startswith("Lose"):
            if "use" in by_id:
                self.reasoning = Reasoning("it always lets a possession prevent the loss")
            return by_id.get("use", first)
        if "offers a trade" in title:
            if "yes" in by_id:
                self.reasoning = Reasoning("it accepts every trade offered")
            return by_id.get("yes", first)
        if title == "The Lead Investigator token":
            return first  # no preference, so no reason: a channel line saying so would be noise
        if all(isinstance(o.data, list) for o in opts):  # a choice between effect lists
            best = max(opts, key=lambda o: score(o.data))
            self.reasoning = self._scored(best, opts)
            return best
        return first  # no habit for this question (which Monster first, who gains): no reason to narrate

    @staticmethod
    def _scored(best: Option, opts: list[Option]) -> Reasoning | None:
        """Why the effect list `best` won: each choice's score by the agent's table of values (None when every
        choice scores the same: the first was taken with no preference)."""
        scores = [(score(o.data), o) for o in opts]
        top = scores[[o for _, o in scores].index(best)][0]
        if all(v == top for v, _ in scores):
            return None
        detail = tuple(f"{o.label}: {v:+.1f}" for v, o in sorted(scores, key=lambda x: -x[0])[:4])
        detail += ("scores from its table: e.g. a Clue +1, a Health or Sanity +0.8, a Doom −3",)
        return Reasoning(f"scores best by its table of values: {top:+.1f}", detail)

    def _clue_reroll(self, state: EldritchState, seat: int, opts: list[Option]) -> Option:
        keep = opts[0]
        clue = next((o for o in opts if o.id.startswith("clue:")), None)  # the lowest failed die
        failing = "fails" in keep.label
        clues = state.investigators[seat].clues
        if clue is not None and failing and clues > 1:
            self.reasoning = Reasoning(f"failing, and {clues} Clues leave some to spare", DICE_HABITS)
            return clue
        self.reasoning = (Reasoning("failing, but it keeps its only Clue", DICE_HABITS) if failing and clue is not None
                          else Reasoning("it passes already", DICE_HABITS))
        return keep

    def action(self, state: EldritchState, seat: int, opts: list[Option]) -> Option:
        inv = state.investigators[seat]
        c = default_content()
        assert inv.card is not None
        sheet = c.investigators[inv.card]
        rest = next((o for o in opts if o.id == "rest"), None)
        hurt = inv.health <= sheet.health // 2 or inv.sanity <= sheet.sanity // 2
        tracks = f"health {inv.health} of {sheet.health}, sanity {inv.sanity} of {sheet.sanity}"
        if rest is not None and hurt:
            self.reasoning = Reasoning(f"hurt: {tracks}", ACTION_HABITS)
            return rest
        goals = self.goals(state, seat)
        here_good = inv.space in goals
        travels = [o for o in opts if isinstance(o.data, tuple) and o.data[0] == "travel"]
        if travels and not here_good:
            board = board_of(state.content_version)
            best = None
            best_key: tuple[float, int] = (1e9, 0)
            weighed: list[tuple[tuple[float, int], Option, dict[str, int]]] = []
            for o in travels:
                dist = board.distances(o.data[1])
                d = min((dist.get(g, 99) - goals[g] for g in goals), default=99.0)
                key = (d, o.data[2] + o.data[3])
                weighed.append((key, o, dist))
                if key < best_key:
                    best, best_key = o, key
            if best is not None:
                self.reasoning = self._travel_reason(state, best, weighed, goals)
                return best
        useful = self.useful_component(state, seat, opts)
        if useful is not None:
            return useful
        acquire = next((o for o in opts if o.id == "acquire"), None)
        if acquire is not None and state.reserve:
            assets = _n(len(state.reserve), "Asset", "Assets")
            self.reasoning = Reasoning(
                f"{self.goal_text(state, inv.space, goals[inv.space])} is here; {assets} in the reserve" if here_good
                else f"no Travel open now; {assets} in the reserve", ACTION_HABITS)
            return acquire
        if inv.train + inv.ship == 0:
            prep = next((o for o in opts if o.id.startswith("prepare:")), None)
            if prep is not None:
                self.reasoning = Reasoning("no ticket held: one speeds later travel", ACTION_HABITS)
                return prep
        if rest is not None and (inv.health < sheet.health or inv.sanity < sheet.sanity):
            self.reasoning = Reasoning(f"nothing better to do than recover: {tracks}", ACTION_HABITS)
            return rest
        self.reasoning = Reasoning("no useful action left", ACTION_HABITS)
        return next(o for o in opts if o.id == "end")

    def _travel_reason(self, state: EldritchState, best: Option,
                       weighed: list[tuple[tuple[float, int], Option, dict[str, int]]],
                       goals: dict[str, float]) -> Reasoning:
        def aim(dist: dict[str, int]) -> tuple[str | None, int]:
            """The goal that made this destination's figure (the first of equals, as `min` finds it)."""
            found = min(goals, key=lambda g: dist.get(g, 99) - goals[g], default=None)
            return found, dist.get(found, 99) if found is not None else 99

        def said(dist: dict[str, int]) -> str:
            goal, spaces = aim(dist)
            if goal is None:
                return "no goal on the board"
            text = self.goal_text(state, goal, goals[goal])
            return f"{text} is there" if spaces == 0 else f"{text}, {_n(spaces, 'space', 'spaces')} on"

        goal, spaces = aim(next(d for _, o, d in weighed if o is best))
        if goal is None:
            line = "no goal on the board: the space fewest tickets reach"
        elif spaces == 0:
            line = f"for {self.goal_text(state, goal, goals[goal], at=False)}"
        else:
            line = f"toward {self.goal_text(state, goal, goals[goal])}: {_n(spaces, 'space', 'spaces')} from there"
        ranked = sorted(weighed, key=lambda w: w[0])[:3]  # stable: ties keep the prompt's order, as the choice does
        detail = [f"{space_name(state, o.data[1])}: {said(d)}" for _, o, d in ranked]
        detail.append("a goal counts as this many spaces nearer: Final Mystery 3, Epic Monster 2.5, Mystery 2, "
                      "Gate 1.5 (1 while doom is above 8, 0 if guarded), Rumor 1, Clue 0.5; then fewer tickets")
        return Reasoning(line, tuple(detail))

    def useful_component(self, state: EldritchState, seat: int, opts: list[Option]) -> Option | None:
        """A component action whose effects score well (a sheet ability, an item, a spell to cast)."""
        c = default_content()
        best: tuple[float, Option | None] = (0.5, None)
        scored: list[tuple[float, str]] = []
        for o in opts:
            if not (isinstance(o.data, tuple) and o.data[0] == "component"):
                continue
            card = o.data[1]
            model = (c.investigators.get(card) or c.assets.get(card) or c.artifacts.get(card)
                     or c.spells.get(card) or c.conditions.get(card))
            effects = getattr(model, "action", []) or []
            value = score(effects) + (1.0 if card in c.conditions else 0.0)  # shedding a Condition is good
            scored.append((value, o.label))
            if value > best[0]:
                best = (value, o)
        if best[1] is not None:
            ranked = sorted(scored, key=lambda x: -x[0])[:3]
            self.reasoning = Reasoning(f"its effects score {best[0]:+.1f} by its table of values, above +0.5",
                                       (*[f"{label}: {v:+.1f}" for v, label in ranked], ACTION_HABITS[1]))
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

    @staticmethod
    def goal_text(state: EldritchState, space: str, bonus: float, at: bool = True) -> str:
        """What makes `space` a goal, read back from its bonus in `goals` (the largest wins there, so the bonus
        names it), in players' words: 'the open Gate at Tunguska' (`at`), or 'the open Gate there'."""
        c = default_content()
        where = f" at {space_name(state, space)}" if at else " there"
        if bonus >= 2.5:  # an Epic Monster (the Mystery's, 2.5, or the Final Mystery's, 3) or the Final Mystery
            epic = next((c.monsters[t.kind].name for t in state.monsters if t.space == space and t.kind in c.monsters
                         and c.monsters[t.kind].epic), "")
            if epic:
                return f"{epic}{where}"  # an Epic Monster, by its name
            return f"the Final Mystery{where}"
        if bonus == 2.0:
            return f"the Mystery's encounter{where}"
        if space in state.gates and bonus in (0.0, 1.0, 1.5) and (bonus != 1.0 or state.doom > 8):
            return f"the {'guarded' if bonus == 0.0 else 'open'} Gate{where}"
        if bonus == 1.0:
            return f"the Rumor{where}"
        return f"the Clue{where}"
