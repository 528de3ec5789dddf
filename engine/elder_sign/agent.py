"""A smart Elder Sign agent: picks adventures by their exact odds and value, and plays each roll the way
the odds solver says is best (engine/elder_sign/odds.py). Everything else follows simple, sensible habits:
heal when hurt, buy Elder Signs when affordable, lose the stat you have more of."""

from __future__ import annotations

import random
from typing import Any

from engine import api
from engine.core.prompt import Action, Prompt
from engine.elder_sign import board
from engine.elder_sign.content import default_content
from engine.elder_sign.dice import color_of
from engine.elder_sign.odds import Advice, adventure_odds, best_use
from engine.elder_sign.state import ElderSignState
from engine.elder_sign.turn import held_dice

REWARD_VALUE = {"elder_signs": 6.0, "unique": 1.5, "spell": 1.2, "ally": 1.5, "common": 1.0, "clues": 0.6,
                "gate": 0.3, "stamina": 0.4, "sanity": 0.4}
PENALTY_VALUE = {"doom": 2.5, "monsters": 1.0, "stamina": 0.8, "sanity": 0.8, "max_stamina": 2.0,
                 "max_sanity": 2.0, "lose_trophies": 0.8, "discard_items": 0.8, "clock": 0.8, "clues": 0.4}


def _score(effects: list[dict[str, Any]], table: dict[str, float]) -> float:
    total = 0.0
    for e in effects:
        ((verb, arg),) = e.items()
        if verb in ("all", "here", "others"):
            total += _score(arg, table)
        elif verb == "choose":
            total += min(_score(b, table) for b in arg)
        elif verb in table:
            total += table[verb] * abs(arg if isinstance(arg, int) and not isinstance(arg, bool) else 1)
    return total


class SmartAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.advice: Advice | None = None

    def act(self, state: ElderSignState, prompt: Prompt | None = None) -> Action:
        prompt = prompt or api.prompts(state)[0]
        seat = prompt.seats[0]
        ids = [o.id for o in prompt.options]
        op = state.flow.stack[-1].op
        handler = getattr(self, f"_{op}", None)
        choice = handler(state, prompt, seat) if handler else None
        if choice is None:
            choice = prompt.default or [ids[0]]
        if isinstance(choice, str):
            choice = [choice]
        return Action(seat=seat, prompt=prompt.seq, choice=choice)

    # ---------------------------------------------------------------- helpers
    def _green(self, state: ElderSignState) -> int:
        return sum(1 for d, die in state.dice.items() if color_of(d) == "green" and die.loc in ("supply", "pool"))

    def _clue_budget(self, state: ElderSignState, seat: int) -> int:
        cost = int(board.modifier(state, "clue_cost") or 1)
        return min(3, board.inv(state, seat).clues // cost)

    def _open(self, state: ElderSignState) -> tuple[list[str], list[Any], bool]:
        adv = state.adventure
        assert adv is not None
        if adv.where == "ao":
            return ["ao"], [default_content().ancient_ones[state.ao].battle_task], False
        card = board.card_data(state, adv.where)
        done = set(adv.completed)
        rest = [(k, t) for k, t in board.task_list(state, adv.where) if k not in done]
        return [k for k, _ in rest], [t for _, t in rest], bool(card and card.ordered)

    # ---------------------------------------------------------------- prompts
    def _move(self, state: ElderSignState, prompt: Prompt, seat: int) -> str:
        i = board.inv(state, seat)
        if min(i.stamina, i.sanity) <= 2 and not board.modifier(state, "no_first_aid"):
            return "go:entrance"
        best, best_value = "go:entrance", 0.5
        green = self._green(state)
        focus = not board.modifier(state, "no_focus")  # the same limits the turn will have (3.5)
        for o in prompt.options:
            if not o.id.startswith("go:") or o.id == "go:entrance":
                continue
            where = o.id[3:]
            card = board.card_data(state, where)
            tasks = [t for _, t in board.task_list(state, where)]
            if card is None or not tasks:
                continue
            if any((t.sanity and i.sanity - t.sanity <= 1) or (t.stamina and i.stamina - t.stamina <= 1)
                   for t in tasks):
                continue
            p = adventure_odds(tasks, card.ordered, green, focus=focus)  # clues left out: keeps the cache warm
            value = p * (_score(card.rewards, REWARD_VALUE) + card.trophy) - (1 - p) * (
                _score(card.penalties, PENALTY_VALUE) + 0.5)
            if value > best_value:
                best, best_value = o.id, value
        return best

    def _entrance(self, state: ElderSignState, prompt: Prompt, seat: int) -> str:
        i = board.inv(state, seat)
        ids = [o.id for o in prompt.options]
        buys = [o.id for o in prompt.options if o.id.startswith("buy:") and "elder" in o.id.lower()]
        if buys:
            return buys[0]
        if i.stamina <= i.max_stamina - 2 and i.sanity <= i.max_sanity - 2 and "aid:full_both" in ids:
            return "aid:full_both"
        if i.stamina < i.sanity and "aid:stamina" in ids:
            return "aid:full_stamina" if i.stamina <= 2 and "aid:full_stamina" in ids else "aid:stamina"
        if "aid:sanity" in ids:
            return "aid:full_sanity" if i.sanity <= 2 and "aid:full_sanity" in ids else "aid:sanity"
        if "aid:stamina" in ids:
            return "aid:stamina"
        if "lost" in ids and min(i.stamina, i.sanity) >= 4:
            return "lost"
        return "rest"

    def _pre_roll_ask(self, state: ElderSignState, prompt: Prompt, seat: int) -> str:
        for o in prompt.options:
            if o.id.startswith("item:"):
                card = default_content().items[o.id[5:]]
                if any("add_die" in e for e in card.use) and self._worth_item(state):
                    return o.id
            if o.id.startswith("ab:") and "Ability" in o.label:
                return o.id
        return "roll" if "roll" in [o.id for o in prompt.options] else prompt.options[0].id

    def _worth_item(self, state: ElderSignState) -> bool:
        adv = state.adventure
        if adv is None or adv.where == "ao":
            return True
        card = board.card_data(state, adv.where)
        return bool(card and (card.trophy >= 2 or any("elder_signs" in e for e in card.rewards)))

    def _post_roll(self, state: ElderSignState, prompt: Prompt, seat: int) -> str:
        keys, tasks, ordered = self._open(state)
        if not tasks:
            return "fail"
        rolled = [(d, state.dice[d].face or "") for d in board.dice_at(state, "pool") if state.dice[d].face]
        held = [(d, state.dice[d].face or "") for d in held_dice(state, seat) if state.dice[d].face]
        adv = state.adventure
        focus_left = adv is not None and adv.focus_used == 0 and state.phase == "normal" and not board.modifier(
            state, "no_focus")
        ids = [o.id for o in prompt.options]
        clues = self._clue_budget(state, seat) if "clue" in ids else 0
        try:
            advice = best_use(tasks, rolled, held, clues=clues, focus=focus_left, ordered=ordered)
        except ValueError:
            return "fail"
        self.advice = advice
        if advice.action == "complete" and advice.task is not None:
            key = keys[advice.task]
            wanted = ",".join(advice.dice)
            exact = f"task:{key}:{wanted}"
            if exact in ids:
                return exact
            same = [i for i in ids if i.startswith(f"task:{key}:")]
            # the offered completions are distinct by (colour, face): find the one the solver meant
            want = sorted(self._kind(state, d) for d in advice.dice)
            for i in same:
                dice = i.split(":", 2)[2]
                if sorted(self._kind(state, d) for d in dice.split(",") if d) == want:
                    return i
            if same:
                return same[0]
        if advice.action == "reroll" and "clue" in ids:
            return "clue"
        tasks_any = [i for i in ids if i.startswith("task:")]
        if advice.action == "complete" and tasks_any:
            return tasks_any[0]
        return "fail"

    def _pick_dice(self, state: ElderSignState, prompt: Prompt, seat: int) -> list[str] | None:
        ids = [o.id for o in prompt.options]
        if self.advice is not None and self.advice.reroll:
            chosen = [d for d in self.advice.reroll if d in ids][: prompt.max_choices]
            if chosen:
                return chosen
        return None

    def _discard_pick(self, state: ElderSignState, prompt: Prompt, seat: int) -> str | None:
        return self._same_kind(state, prompt, self.advice.discard if self.advice else None)

    def _after_fail_ask(self, state: ElderSignState, prompt: Prompt, seat: int) -> str:
        if self.advice is not None and self.advice.focus:
            d = self.advice.focus
            for o in prompt.options:
                if o.id.startswith("focus:") and self._kind(state, o.id[6:]) == self._kind(state, d):
                    return o.id
        return "continue"

    def _kind(self, state: ElderSignState, die: str) -> tuple[str, str | None]:
        return color_of(die), state.dice[die].face

    def _same_kind(self, state: ElderSignState, prompt: Prompt, die: str | None) -> str | None:
        if die is None:
            return None
        ids = [o.id for o in prompt.options]
        if die in ids:
            return die
        for i in ids:
            if i in state.dice and self._kind(state, i) == self._kind(state, die):
                return i
        return None

    def _assist_consent(self, state: ElderSignState, prompt: Prompt, seat: int) -> str:
        i = board.inv(state, seat)
        return "yes" if min(i.stamina, i.sanity) >= 3 else "no"

    def _choose_branch(self, state: ElderSignState, prompt: Prompt, seat: int) -> str:
        i = board.inv(state, seat)
        branches = state.flow.stack[-1].args["branches"]
        best, best_cost = "0", float("inf")
        for n, branch in enumerate(branches):
            cost = 0.0
            for e in branch:
                ((verb, arg),) = e.items()
                if verb in ("sanity", "max_sanity") and isinstance(arg, int):
                    cost += -arg * (3.0 / max(1, i.sanity)) * (2 if verb.startswith("max") else 1)
                elif verb in ("stamina", "max_stamina") and isinstance(arg, int):
                    cost += -arg * (3.0 / max(1, i.stamina)) * (2 if verb.startswith("max") else 1)
                else:
                    cost += _score([e], PENALTY_VALUE) - _score([e], REWARD_VALUE)
            if cost < best_cost:
                best, best_cost = str(n), cost
        return best
