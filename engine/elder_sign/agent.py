"""A smart Elder Sign agent: picks adventures by their exact odds and value, and plays each roll the way
the odds solver says is best (engine/elder_sign/odds.py). Everything else follows simple, sensible habits:
heal when hurt, buy Elder Signs when affordable, lose the stat you have more of.

Each answer that matters leaves a `Reasoning` in `self.reasoning` (issue 32: AI teammates explain): the figure
the agent decided by (the solver's odds, a stamina or sanity threshold), in players' words, and the
alternatives it weighed. Working it out reads only what the decision read and the solver's memo (the roll
states best_use has just solved), so it changes no answer and costs little."""

from __future__ import annotations

import random
from typing import Any

from engine import api
from engine.agents import Reasoning
from engine.core.prompt import Action, Prompt
from engine.core.text import chance_words as pct
from engine.elder_sign import board
from engine.elder_sign.content import default_content
from engine.elder_sign.dice import INV_VALUE, WILD, color_of
from engine.elder_sign.matcher import Die, face_counts, feasible, ranked_completions, requirement
from engine.elder_sign.odds import Advice, adventure_odds, best_use
from engine.elder_sign.state import ElderSignState
from engine.elder_sign.tasks import Task
from engine.elder_sign.turn import dice_text, held_dice

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


def _goal(state: ElderSignState) -> str:
    """What the odds of a roll are odds of: finishing the adventure, or the Ancient One's battle task."""
    adv = state.adventure
    return "to complete the battle task" if adv is not None and adv.where == "ao" else "to finish"


#: the agent's habits at the Entrance, for /game why
ENTRANCE_HABITS = ("first an Elder Sign, whenever trophies afford one",
                   "then First Aid: both tracks in full when both are 2 or more down, else the lower track "
                   "(in full at 2 or less)",
                   "then Lost & Found, with 4 or more stamina and sanity; else nothing")
PRE_ROLL_HABITS = ("it uses its ability whenever offered",
                   "it adds a die with an item only for an Elder Sign, 2 or more trophies or the final battle")


SOLVER_WEIGHS = "the odds solver weighs completing a task, rolling on and a clue reroll by the chance each leaves"


class _RollReasons:
    """Why the solver's advice for a roll is best, against the other moves it weighed: completing another task,
    rolling on (a failed roll, maybe with a focus), a clue reroll. The figures are the chances to finish the
    adventure from here (`adventure_odds`, which asks the solver's memo for exactly the roll states best_use
    has just valued: no new solving)."""

    def __init__(self, tasks: list[Task], ordered: bool, rolled: list[Die], held: list[Die], clues: int,
                 focus: bool, advice: Advice, battle: bool) -> None:
        self.tasks, self.ordered, self.rolled, self.held = tasks, ordered, rolled, held
        self.clues, self.focus, self.advice = clues, focus, advice
        self.goal = "to complete the battle task" if battle else "to finish"

    def _after(self, dice: tuple[str, ...] | list[str], left: list[str], tasks: list[Task], focus: bool) -> float:
        pool = [0, 0, 0]
        for d, _ in self.rolled:
            pool[("green", "yellow", "red").index(color_of(d))] += 1
        for d in dice:
            if any(d == r for r, _ in self.rolled):
                pool[("green", "yellow", "red").index(color_of(d))] -= 1
        return adventure_odds(tasks, self.ordered, pool[0], pool[1], pool[2], clues=self.clues, held=left,
                              focus=focus)

    def completions(self) -> list[tuple[int, float]]:
        """(task index, the best chance to finish after completing it now), for each task the roll fits."""
        tasks = self.tasks
        if len(tasks) == 1:
            return []
        every = [*self.rolled, *self.held]
        src: dict[str, object] = {d: ("pool", color_of(d)) for d, _ in self.rolled} | {
            d: ("held",) for d, _ in self.held}
        counts = tuple(face_counts([f for _, f in every]))
        out = []
        for ti in [0] if self.ordered else range(len(tasks)):
            req = requirement(tasks[ti])
            if not feasible(req, counts):
                continue
            after = [t for n, t in enumerate(tasks) if n != ti]
            best = max((self._after(dice, [f for d, f in self.held if d not in dice], after, self.focus)
                        for dice in ranked_completions(req, every, limit=None, key_of=src)), default=0.0)
            out.append((ti, best))
        return out

    def roll_on(self) -> tuple[float, bool]:
        """The best chance to finish after declaring a failed roll, and whether that best keeps a die by focus."""
        reqs = [requirement(t) for t in self.tasks]
        cap = max((n for r in reqs for n in r.inv), default=0)
        rel = frozenset().union(*(r.relevant_faces() for r in reqs))
        held = [f for _, f in self.held]
        best, focused = 0.0, False
        rolled = self.rolled
        for i, (d, _) in enumerate(rolled):
            rest = rolled[:i] + rolled[i + 1:]
            if not rest:
                continue
            v = self._after([d], held, self.tasks, self.focus)
            if v > best:
                best, focused = v, False
            if self.focus and len(rolled) >= 3 and len(rest) >= 2:
                for f_id, face in rest:
                    if not (face in rel or (face in INV_VALUE and (cap > 0 or (face == WILD and rel)))):
                        continue  # a face no task can use is never worth keeping (the solver skips it too)
                    v = self._after([d, f_id], [*held, face], self.tasks, False)
                    if v > best:
                        best, focused = v, True
        return best, focused

    def _others(self, chosen: int | None) -> list[str]:
        lines = [f"completing {self.tasks[ti].text()} first: {pct(v)} {self.goal}"
                 for ti, v in self.completions() if ti != chosen]
        if self.advice.action != "fail" and self.rolled:
            v, focused = self.roll_on()
            lines.append(f"rolling on{' and focusing a die' if focused else ''} instead: {pct(v)} {self.goal}")
        if self.clues and self.advice.action != "reroll":
            lines.append("a clue reroll: no better")
        return lines

    def complete(self, state: ElderSignState) -> Reasoning:
        if len(self.tasks) == 1:
            return Reasoning("certain: the dice fit the battle task" if self.goal != "to finish"
                             else "certain: the dice fit the last task")
        odds, task = self.advice.odds, self.advice.task
        assert task is not None
        left = len(self.tasks) - 1
        dice = dice_text(state, self.advice.dice)
        chosen = f"completing {self.tasks[task].text()} with {dice}: {pct(odds)} to finish"
        return Reasoning(f"{pct(odds)} to finish the adventure after this ({left} {'task' if left == 1 else 'tasks'}"
                         " left)", tuple([chosen, *self._others(task)][:5]))

    def reroll(self, state: ElderSignState) -> Reasoning:
        odds = self.advice.odds
        chosen = f"rerolling {dice_text(state, self.advice.reroll)}: {pct(odds)} {self.goal}"
        return Reasoning(f"a clue reroll gives {pct(odds)} {self.goal}", tuple([chosen, *self._others(None)][:5]))

    def fail(self, state: ElderSignState, completable: bool) -> Reasoning:
        odds = self.advice.odds
        how = "rolling on and focusing a die" if self.advice.focus else "rolling on"
        lines = self._others(None) or [SOLVER_WEIGHS]
        if len(self.rolled) == 1 and not completable:
            return Reasoning("no task fits its last die", (SOLVER_WEIGHS,))
        if completable:
            return Reasoning(f"holding out: {how} gives {pct(odds)} {self.goal}", tuple(lines[:5]))
        return Reasoning(f"nothing fits this roll: {how} gives {pct(odds)} {self.goal}", tuple(lines[:5]))


class SmartAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.advice: Advice | None = None
        self.reasoning: Reasoning | None = None

    def act(self, state: ElderSignState, prompt: Prompt | None = None) -> Action:
        self.reasoning = None
        prompt = prompt or api.prompts(state)[0]
        seat = prompt.seats[0]
        ids = [o.id for o in prompt.options]
        op = state.flow.stack[-1].op
        handler = getattr(self, f"_{op}", None)
        choice = handler(state, prompt, seat) if handler else None
        if choice is None:  # no habit for this question: the default answer, and no reason to narrate
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
            low = [f"{track} {n}" for track, n in (("stamina", i.stamina), ("sanity", i.sanity)) if n <= 2]
            self.reasoning = Reasoning(f"low on {' and '.join(low)}: first aid at the Entrance", (
                "it goes back to the Entrance whenever stamina or sanity is 2 or less",))
            return "go:entrance"
        best, best_value = "go:entrance", 0.5
        green = self._green(state)
        focus = not board.modifier(state, "no_focus")  # the same limits the turn will have (3.5)
        weighed: list[tuple[float, str, float]] = []  # (value, adventure, odds)
        risky: list[str] = []
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
                risky.append(self._risk(o.label, tasks, i.stamina, i.sanity))
                continue
            p = adventure_odds(tasks, card.ordered, green, focus=focus)  # clues left out: keeps the cache warm
            value = p * (_score(card.rewards, REWARD_VALUE) + card.trophy) - (1 - p) * (
                _score(card.penalties, PENALTY_VALUE) + 0.5)
            weighed.append((value, o.label, p))
            if value > best_value:
                best, best_value = o.id, value
        self.reasoning = self._move_reason(best, best_value, weighed, risky, green)
        return best

    @staticmethod
    def _risk(label: str, tasks: list[Task], stamina: int, sanity: int) -> str:
        for t in tasks:
            for track, cost, have in (("sanity", t.sanity, sanity), ("stamina", t.stamina, stamina)):
                if cost and have - cost <= 1:
                    return f"{label}: too risky, a task costs {cost} {track} and it has {have}"
        return f"{label}: too risky"

    @staticmethod
    def _move_reason(best: str, best_value: float, weighed: list[tuple[float, str, float]], risky: list[str],
                     green: int) -> Reasoning:
        ranked = sorted(weighed, key=lambda w: -w[0])  # stable: equal values keep the prompt's order
        lines = [f"{label}: {pct(p)} to complete, worth {value:+.1f}" for value, label, p in ranked]
        bar = "the Entrance: worth +0.5, the bar an adventure must beat (odds × rewards − misses × penalties)"
        detail = tuple([*lines[:3], *risky[:1], bar][:5])
        dice = f"{green} green {'die' if green == 1 else 'dice'}"
        if best != "go:entrance":
            top = next(w for w in ranked if w[0] == best_value)
            return Reasoning(f"best reward for the risk: {pct(top[2])} to complete it with {dice}", detail)
        if ranked:
            return Reasoning(f"no adventure worth the risk: the best is {ranked[0][1]} at {pct(ranked[0][2])}",
                             detail)
        if risky:
            return Reasoning("every adventure's costs could leave it at 1 stamina or sanity or less", detail)
        return Reasoning("no adventure to try", detail)

    def _entrance(self, state: ElderSignState, prompt: Prompt, seat: int) -> str:
        i = board.inv(state, seat)
        ids = [o.id for o in prompt.options]
        buys = [o.id for o in prompt.options if o.id.startswith("buy:") and "elder" in o.id.lower()]
        tracks = f"stamina {i.stamina} of {i.max_stamina}, sanity {i.sanity} of {i.max_sanity}"
        if buys:
            have = board.trophy_total(state, seat)
            self.reasoning = Reasoning(f"an Elder Sign comes first whenever trophies afford it ({have} held)",
                                       ENTRANCE_HABITS)
            return buys[0]
        if i.stamina <= i.max_stamina - 2 and i.sanity <= i.max_sanity - 2 and "aid:full_both" in ids:
            self.reasoning = Reasoning(f"both 2 or more down: {tracks}", ENTRANCE_HABITS)
            return "aid:full_both"
        if i.stamina < i.sanity and "aid:stamina" in ids:
            if i.stamina <= 2 and "aid:full_stamina" in ids:
                self.reasoning = Reasoning(f"stamina down to {i.stamina}: worth trophies to fill it", ENTRANCE_HABITS)
                return "aid:full_stamina"
            self.reasoning = Reasoning(f"heals the lower: {tracks}", ENTRANCE_HABITS)
            return "aid:stamina"
        if "aid:sanity" in ids:
            if i.sanity <= 2 and "aid:full_sanity" in ids:
                self.reasoning = Reasoning(f"sanity down to {i.sanity}: worth trophies to fill it", ENTRANCE_HABITS)
                return "aid:full_sanity"
            self.reasoning = Reasoning(f"heals the lower: {tracks}" if i.sanity <= i.stamina or
                                       i.stamina == i.max_stamina else f"sanity first: {tracks}", ENTRANCE_HABITS)
            return "aid:sanity"
        if "aid:stamina" in ids:
            self.reasoning = Reasoning(f"heals what is hurt: {tracks}", ENTRANCE_HABITS)
            return "aid:stamina"
        if "lost" in ids and min(i.stamina, i.sanity) >= 4:
            self.reasoning = Reasoning(f"healthy enough to risk it: {tracks}", ENTRANCE_HABITS)
            return "lost"
        if len(ids) > 1:
            self.reasoning = Reasoning(
                f"risks Lost & Found only at 4 or more of each: {tracks}" if "lost" in ids
                else "keeps its trophies for an Elder Sign", ENTRANCE_HABITS)
        return "rest"

    def _pre_roll_ask(self, state: ElderSignState, prompt: Prompt, seat: int) -> str:
        saved = False
        for o in prompt.options:
            if o.id.startswith("item:"):
                card = default_content().items[o.id[5:]]
                if any("add_die" in e for e in card.use):
                    if self._worth_item(state):
                        self.reasoning = Reasoning(self._worth_why(state), PRE_ROLL_HABITS)
                        return o.id
                    saved = True
            if o.id.startswith("ab:") and "Ability" in o.label:
                self.reasoning = Reasoning("uses its ability whenever it may, before rolling", PRE_ROLL_HABITS)
                return o.id
        if saved:
            self.reasoning = Reasoning("saves its extra-die items for an Elder Sign or 2 or more trophies",
                                       PRE_ROLL_HABITS)
        return "roll" if "roll" in [o.id for o in prompt.options] else prompt.options[0].id

    def _worth_why(self, state: ElderSignState) -> str:
        adv = state.adventure
        if adv is None or adv.where == "ao":
            return "an extra die: the final battle is worth it"
        card = board.card_data(state, adv.where)
        if card and any("elder_signs" in e for e in card.rewards):
            return "an extra die: this adventure rewards an Elder Sign"
        return f"an extra die: this adventure is worth {card.trophy if card else 0} trophies"

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
        tasks_any = [i for i in ids if i.startswith("task:")]
        why = _RollReasons(tasks, ordered, rolled, held, clues, focus_left, advice, keys == ["ao"])
        if advice.action == "complete" and advice.task is not None:
            key = keys[advice.task]
            wanted = ",".join(advice.dice)
            exact = f"task:{key}:{wanted}"
            if exact in ids:
                self.reasoning = why.complete(state)
                return exact
            same = [i for i in ids if i.startswith(f"task:{key}:")]
            # the offered completions are distinct by (colour, face): find the one the solver meant
            want = sorted(self._kind(state, d) for d in advice.dice)
            for i in same:
                dice = i.split(":", 2)[2]
                if sorted(self._kind(state, d) for d in dice.split(",") if d) == want:
                    self.reasoning = why.complete(state)
                    return i
            if same:
                self.reasoning = why.complete(state)
                return same[0]
        if advice.action == "reroll" and "clue" in ids:
            self.reasoning = why.reroll(state)
            return "clue"
        if advice.action == "complete" and tasks_any:
            return tasks_any[0]
        self.reasoning = why.fail(state, bool(tasks_any))
        return "fail"

    def _pick_dice(self, state: ElderSignState, prompt: Prompt, seat: int) -> list[str] | None:
        ids = [o.id for o in prompt.options]
        if self.advice is not None and self.advice.reroll:
            chosen = [d for d in self.advice.reroll if d in ids][: prompt.max_choices]
            if chosen:
                kept, odds = len(ids) - len(chosen), f"{pct(self.advice.odds)} {_goal(state)}"
                keep = [d for d in ids if d not in chosen and d in state.dice]
                self.reasoning = Reasoning(
                    f"keeps the {'die' if kept == 1 else 'dice'} the odds need: {odds}" if kept
                    else f"none of these dice helps: {odds} after the reroll",
                    (f"rerolling {dice_text(state, [d for d in chosen if d in state.dice])}",
                     *([f"keeping {dice_text(state, keep)}"] if keep else [])))
                return chosen
        return None

    def _discard_pick(self, state: ElderSignState, prompt: Prompt, seat: int) -> str | None:
        picked = self._same_kind(state, prompt, self.advice.discard if self.advice else None)
        if picked is not None and self.advice is not None:
            focus = self.advice.focus
            self.reasoning = Reasoning(
                f"the die the tasks need least: {pct(self.advice.odds)} {_goal(state)}",
                (f"then it focuses {dice_text(state, [focus])}" if focus in state.dice else "then it rolls the rest",))
        return picked

    def _after_fail_ask(self, state: ElderSignState, prompt: Prompt, seat: int) -> str:
        if self.advice is not None and self.advice.focus:
            d = self.advice.focus
            for o in prompt.options:
                if o.id.startswith("focus:") and self._kind(state, o.id[6:]) == self._kind(state, d):
                    self.reasoning = Reasoning(f"keeping that face gives {pct(self.advice.odds)} {_goal(state)}")
                    return o.id
        if self.advice is not None and self.advice.action == "fail" and len(prompt.options) > 1:
            self.reasoning = Reasoning(f"no face worth keeping: {pct(self.advice.odds)} {_goal(state)}")
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
        tracks = f"stamina {i.stamina}, sanity {i.sanity}"
        if min(i.stamina, i.sanity) >= 3:
            self.reasoning = Reasoning(f"fit to help: {tracks}", ("it helps while stamina and sanity are 3 or more",))
            return "yes"
        self.reasoning = Reasoning(f"too hurt to help: {tracks}", ("it helps while stamina and sanity are 3 or more",))
        return "no"

    def _choose_branch(self, state: ElderSignState, prompt: Prompt, seat: int) -> str:
        i = board.inv(state, seat)
        branches = state.flow.stack[-1].args["branches"]
        best, best_cost = "0", float("inf")
        costs: list[float] = []
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
            costs.append(cost)
            if cost < best_cost:
                best, best_cost = str(n), cost
        labels = {o.id: o.label for o in prompt.options}
        self.reasoning = Reasoning(
            f"costs least for stamina {i.stamina} and sanity {i.sanity}",
            tuple(f"{labels.get(str(n), f'choice {n + 1}')}: costs {c:.1f}" for n, c in enumerate(costs))[:4]
            + ("a point costs more the fewer it has left; a maximum counts double",))
        return best
