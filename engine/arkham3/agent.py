"""A simple smart Arkham Horror 3e agent: sensible habits, no search.

On its turn an investigator deals with engaged monsters first (attack when the odds are fair, else evade),
researches clues onto the sheet, wards doom where it stands, confronts an epic monster when it is strong
enough, and otherwise moves toward the nearest clue (to draw its event card) or the heaviest doom. It rerolls
failed tests with focus and free rerolls, keeps its clues for research, lets allies soak harm, and spends
remnants on spells. Every other question gets the prompt's default.
"""

from __future__ import annotations

import random

from engine import api
from engine.arkham3 import board
from engine.arkham3.board import content, graph, inv
from engine.arkham3.skills import dice_for, successes
from engine.arkham3.state import ArkhamState
from engine.core.game import GameState
from engine.core.prompt import Action, Prompt, PromptKind


class SmartAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.target: dict[int, str] = {}

    def act(self, state: GameState, prompt: Prompt | None = None) -> Action:
        prompt = prompt or api.prompts(state)[0]
        seat = prompt.seats[0]
        assert isinstance(state, ArkhamState)
        op = state.flow.stack[-1].op
        handler = getattr(self, f"_{op}", None)
        choice = handler(state, prompt, seat) if handler else None
        if prompt.kind is PromptKind.AMOUNT:
            amount = choice if isinstance(choice, int) else (prompt.default_amount if prompt.default_amount
                                                              is not None else prompt.max_amount)
            return Action(seat=seat, prompt=prompt.seq, amount=amount)
        if choice is None:
            choice = prompt.default if prompt.default is not None else [prompt.options[0].id]
        if isinstance(choice, str):
            choice = [choice]
        return Action(seat=seat, prompt=prompt.seq, choice=choice)

    # ---------------------------------------------------------------- the turn
    def _action(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        ids = {o.id for o in prompt.options}
        i = inv(state, seat)
        here = i.space or ""
        engaged = board.engaged_with(state, seat)
        if engaged and board.restricting(state, seat):
            if "attack" in ids:
                m = engaged[0]
                dice, _ = dice_for(state, seat, "strength", board.monster_card(state, m).attack, "attack")
                left = board.monster_health(state, m) - m.damage
                if dice >= 4 or left <= 1 or "evade" not in ids:
                    return "attack"
            if "evade" in ids:
                return "evade"
            if "focus" in ids:
                return "focus"
            return "end"
        if "research" in ids and i.clues:
            return "research"
        for oid in ids:
            if oid.startswith("codex:") and i.clues:
                return oid
        epic = [m for m in state.monsters if m.card.startswith("archive:")]
        if epic and "attack" in ids and any(board.monster_space(state, m) == here for m in epic):
            return "attack"
        doom_here = state.doom.get(here, 0)
        if doom_here:
            for oid in sorted(ids):
                if oid.startswith("comp:") and "sign" in oid or "ward-of-closing" in oid:
                    return oid
            if "ward" in ids:
                return "ward"
        if "ability" in ids and (i.damage or i.horror) >= 2:
            return "ability"
        for oid in sorted(ids):
            if oid.startswith("comp:") and any(k in oid for k in ("first-aid", "laudanum", "mend", "dr-mbeki")) \
                    and (i.damage >= 2 or i.horror >= 2):
                return oid
        if board.monsters_at(state, here) and "attack" in ids:
            m = board.monsters_at(state, here)[0]
            dice, _ = dice_for(state, seat, "strength", board.monster_card(state, m).attack, "attack")
            if dice >= 3 or board.monster_health(state, m) - m.damage <= 2:
                return "attack"
        if "move" in ids:
            goal = self._goal(state, seat)
            if goal and goal != here:
                self.target[seat] = goal
                return "move"
        if "focus" in ids and len(i.focus) < 2:
            return "focus"
        if "gather" in ids:
            return "gather"
        return "end"

    def _goal(self, state: ArkhamState, seat: int) -> str | None:
        g = graph(state)
        here = inv(state, seat).space or ""
        epic = [m for m in state.monsters if m.card.startswith("archive:")]
        if epic:
            sp = board.monster_space(state, epic[0])
            if sp:
                return sp
        clue_spaces = [s for t, n in state.clues.items() if n and t not in state.anomalies for s in g.spaces_of(t)]
        doom_spaces = [s for s, n in state.doom.items() if n and s in g.adj]
        pool = clue_spaces if clue_spaces and inv(state, seat).clues < 2 else doom_spaces or clue_spaces
        if not pool:
            return None
        return min(pool, key=lambda s: (g.distance(here, s) - 2 * state.doom.get(s, 0), s))

    def _move(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        g = graph(state)
        goal = self.target.get(seat)
        if goal is None:
            return prompt.options[0].id

        def score(o: object) -> tuple[int, int]:
            space, cost = o.data  # type: ignore[attr-defined]
            danger = 3 if board.monsters_at(state, space) and not any(
                m.card.startswith("archive:") for m in board.monsters_at(state, space)) else 0
            return (g.distance(space, goal) + danger, cost)
        return min(prompt.options, key=score).id

    def _test_reroll(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        roll = state.rolls[-1]
        ids = [o.id for o in prompt.options]
        if "free" in ids:
            return "free"
        if successes(roll) == 0 or roll.purpose in ("research", "ward"):
            for oid in ids:
                if oid.startswith("focus-"):
                    return oid
        if successes(roll) == 0 and "clue" in ids and roll.purpose not in ("research",) and inv(state, seat).clues > 2:
            return "clue"
        return "keep"

    def _assign(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        others = [o.id for o in prompt.options if o.id != "self"]
        return others[0] if others else "self"

    def _pay_ask(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        return "yes"

    def _shop(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        buys = [o for o in prompt.options if o.data is not None]
        if not buys:
            return "done"
        weapons = [o for o in buys if "weapon" in content(state).assets[o.data[0]].traits]
        return (weapons or buys)[0].id

    def _shop_discard(self, state: ArkhamState, prompt: Prompt, seat: int) -> list[str]:
        return []

    def _cast_cost(self, state: ArkhamState, prompt: Prompt, seat: int) -> int:
        return prompt.max_amount

    def _trade(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        return "done"

    def _choose_ask(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        return self.rng.choice(prompt.options).id

    def _pick(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        frame = state.flow.stack[-1]
        if frame.args["then"] == "focus_gain":
            prefer = ["observation", "lore", "strength", "will", "influence"]
            ids = [o.id for o in prompt.options]
            return next((s for s in prefer if s in ids), ids[0])
        return prompt.options[0].id
