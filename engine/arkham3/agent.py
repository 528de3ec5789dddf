"""A simple smart Arkham Horror 3e agent: sensible habits, no search.

On its turn an investigator deals with engaged monsters first (attack when the odds are fair, else evade),
then uses a codex action that moves the scenario forward where it stands (a seal, fetching or delivering a
witness, burning clues into an epic monster), researches clues onto the sheet while an objective still counts
them, wards doom where it stands, and otherwise moves toward its goal: the delivery place if it carries a
witness, the place to fetch one if it is the nearest, an unsealed stone if it holds the price of a seal, the
epic monster, the nearest clue, or the heaviest doom. It rerolls failed tests with focus and free rerolls,
lets allies soak harm (never a witness, unless the harm would defeat it), and spends remnants on spells. The
goals come from the codex cards' verbs (`engine/arkham3/agent_plans.py`), so a new scenario needs no code.
Every other question gets the prompt's default.
"""

from __future__ import annotations

import random

from engine import api
from engine.arkham3 import agent_plans as plans
from engine.arkham3 import board
from engine.arkham3.board import content, graph, inv, scenario
from engine.arkham3.effects_schema import walk
from engine.arkham3.phases import reachable
from engine.arkham3.skills import dice_for, successes
from engine.arkham3.state import ArkhamState
from engine.core.game import GameState
from engine.core.prompt import Action, Prompt, PromptKind

#: what a component action is good for, by the verbs on it
USES = {"heal": ("recover_damage", "recover_horror"), "ward": ("remove_doom",), "hurt": ("monster_damage",),
        "clue": ("clues",), "money": ("money",)}


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
        carrying = plans.carried_card(state, seat)
        if board.restricting(state, seat):
            return self._engaged(state, seat, ids, carrying is not None)
        for oid in sorted(ids):
            if oid.startswith("codex:"):
                act = scenario(state).archive[int(oid.split(":")[1])].action
                if act is not None and plans.worth_using(state, seat, act):
                    return oid
        if "research" in ids and i.clues and plans.research_useful(state) and not (
                plans.spends_clues_on_seals(state) and i.clues < 3):
            return "research"
        errand = carrying is not None or self._fetcher(state, seat)
        if errand and "move" in ids and self._worth_moving(state, seat):
            return "move"  # a witness to deliver or to fetch comes before everything else
        epic = [m for m in state.monsters if m.card.startswith("archive:")]
        if epic and "attack" in ids and carrying is None and any(board.monster_space(state, m) == here
                                                                  for m in epic):
            return "attack"
        if state.doom.get(here, 0) and here not in state.seals:
            comp = self._comp(state, seat, prompt, "ward")
            if comp:
                return comp
            if "ward" in ids:
                return "ward"
        hurt = i.damage >= 2 or i.horror >= 2
        if "ability" in ids and hurt:
            return "ability"
        comp = self._comp(state, seat, prompt, "heal") if hurt else None
        if comp:
            return comp
        if board.monsters_at(state, here) and carrying is None:
            comp = self._comp(state, seat, prompt, "hurt")
            if comp:
                return comp
        if i.clues < 2 and (plans.research_useful(state) or plans.spends_clues_on_seals(state)):
            comp = self._comp(state, seat, prompt, "clue")
            if comp:
                return comp
        if board.monsters_at(state, here) and "attack" in ids and carrying is None:
            m = board.monsters_at(state, here)[0]
            dice, _ = dice_for(state, seat, "strength", board.monster_card(state, m).attack, "attack")
            if dice >= 3 or board.monster_health(state, m) - m.damage <= 2:
                return "attack"
        if "move" in ids and self._worth_moving(state, seat):
            return "move"
        if "research" in ids and i.clues and plans.research_useful(state):
            return "research"
        if "focus" in ids and len(i.focus) < 2:
            return "focus"
        comp = self._comp(state, seat, prompt, "money")
        if comp:
            return comp
        if "gather" in ids:
            return "gather"
        return "end"

    def _comp(self, state: ArkhamState, seat: int, prompt: Prompt, use: str) -> str | None:
        """A component action good for `use` (its verbs), if casting it would not cost too much sanity."""
        i = inv(state, seat)
        c = content(state)
        for o in prompt.options:
            if not o.id.startswith("comp:"):
                continue
            card = c.assets[o.id.removeprefix("comp:")]
            assert card.action is not None
            verbs = {v for v, _ in walk(card.action.effects)}
            if not verbs & set(USES[use]):
                continue
            cost = max(0, card.horror_cost - i.remnants)
            if cost and i.horror + cost >= board.max_sanity(state, seat) - 1:
                continue
            return o.id
        return None

    def _engaged(self, state: ArkhamState, seat: int, ids: set[str], carrying: bool) -> str:
        engaged = board.engaged_with(state, seat)
        if "attack" in ids and not carrying:
            m = engaged[0]
            dice, _ = dice_for(state, seat, "strength", board.monster_card(state, m).attack, "attack")
            left = board.monster_health(state, m) - m.damage
            if dice >= 4 or left <= 1 or "evade" not in ids:
                return "attack"
        if "evade" in ids:
            return "evade"
        if "attack" in ids:
            return "attack"
        if "focus" in ids:
            return "focus"
        return "end"

    def _goal(self, state: ArkhamState, seat: int) -> str | None:
        """Where to go, in order: deliver what you carry, fetch what waits (the nearest investigator only), an
        unsealed stone you can pay for, the epic monster, doom in a neighborhood with an anomaly (closing it
        stops the doom going to the sheet), doom about to open one, a clue while you hold fewer than 2, then the
        heaviest doom. Spaces another investigator is already heading for count as 2 further away."""
        g = graph(state)
        here = inv(state, seat).space or ""
        claimed = {t for s, t in self.target.items() if s != seat and board.has_inv(state, s)}

        def nearest(spaces: list[str]) -> str | None:
            spaces = [s for s in spaces if s in g.adj]
            return min(spaces, key=lambda s: (g.distance(here, s) + (2 if s in claimed else 0), s)) if spaces \
                else None

        carrying = plans.carried_card(state, seat)
        if carrying is not None:
            return nearest(carrying[1])
        fetch = plans.fetch_goal(state)
        if fetch and plans.nearest_seat(state, fetch, board.on_board(state)) == seat:
            return nearest(fetch)
        sites = plans.seal_sites(state, seat)
        if sites:
            return nearest(sites)
        epic = [m for m in state.monsters if m.card.startswith("archive:")]
        if epic:
            sp = board.monster_space(state, epic[0])
            if sp:
                return sp
        doom = {s: n for s, n in state.doom.items() if n and s in g.adj and s not in state.seals}
        tile = g.tile_of.get(here)
        if tile and state.clues.get(tile) and tile not in state.anomalies and inv(state, seat).clues < 2:
            # the clue's event card is near the top of this deck: stay in the neighborhood for the encounter,
            # on its doom if it has some
            local = [s for s in doom if g.tile_of[s] == tile]
            return max(local, key=lambda s: (doom[s], s == here)) if local else here
        anomalous = [s for s in doom if g.tile_of[s] in state.anomalies]
        if anomalous:
            return nearest(anomalous)
        if scenario(state).sheet.anomalies:
            brink = [s for s, n in doom.items() if n >= 2 or board.tile_doom(state, g.tile_of[s] or "") >= 4]
            if brink:
                return nearest(brink)
        clue_spaces = [s for t, n in state.clues.items() if n and t not in state.anomalies for s in g.spaces_of(t)]
        if clue_spaces and inv(state, seat).clues < 2:
            return nearest(clue_spaces)
        pool = list(doom) or clue_spaces
        if not pool:
            return None
        return min(pool, key=lambda s: (g.distance(here, s) - 2 * doom.get(s, 0) + (2 if s in claimed else 0), s))

    def _fetcher(self, state: ArkhamState, seat: int) -> bool:
        fetch = plans.fetch_goal(state)
        return bool(fetch) and plans.nearest_seat(state, fetch, board.on_board(state)) == seat

    def _score(self, state: ArkhamState, seat: int, space: str, cost: int, goal: str) -> tuple[int, int]:
        """Lower is better: distance to the goal, 3 more where a monster waits (unless it is the epic monster
        you are going to fight), then the money it costs."""
        there = board.monsters_at(state, space)
        epic_only = there and all(m.card.startswith("archive:") for m in there)
        carrying = plans.carried_card(state, seat) is not None
        danger = 3 if there and (carrying or not epic_only) else 0
        return (graph(state).distance(space, goal) + danger, cost)

    def _worth_moving(self, state: ArkhamState, seat: int) -> bool:
        """Set the goal and say whether some reachable space is better than staying."""
        here = inv(state, seat).space or ""
        goal = self._goal(state, seat)
        if not goal or goal == here:
            return False
        self.target[seat] = goal
        free = 2 + self._extra_move(state, seat)
        stay = self._score(state, seat, here, 0, goal)
        best = min((self._score(state, seat, sp, max(0, d - free), goal) for sp, d in reachable(state, seat).items()),
                   default=stay)
        return best[0] < stay[0]

    @staticmethod
    def _extra_move(state: ArkhamState, seat: int) -> int:
        ab = content(state).investigators[inv(state, seat).card].ability
        return int(ab.param("spaces")) if ab.kind == "extra_move" else 0

    def _move(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        goal = self.target.get(seat)
        if goal is None or goal not in graph(state).adj:
            return prompt.options[0].id
        return min(prompt.options, key=lambda o: self._score(state, seat, o.data[0], o.data[1], goal)).id

    def _test_reroll(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        roll = state.rolls[-1]
        ids = [o.id for o in prompt.options]
        if "free" in ids:
            return "free"
        if successes(roll) == 0 or roll.purpose in ("research", "ward"):
            for oid in ids:
                if oid.startswith("focus-"):
                    return oid
        keep_clues = 3 if plans.spends_clues_on_seals(state) else 2
        if successes(roll) == 0 and "clue" in ids and roll.purpose != "research" and \
                inv(state, seat).clues > keep_clues:
            return "clue"
        return "keep"

    def _assign(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        """Soak harm with cards, but never with one whose loss costs the scenario (a witness), unless taking it
        yourself would defeat you."""
        frame = state.flow.stack[-1]
        kind, n = str(frame.args["kind"]), int(frame.args["n"])
        i = inv(state, seat)
        c = content(state)
        safe: list[str] = []
        precious: list[str] = []
        for o in prompt.options:
            if o.id == "self":
                continue
            card = c.assets[i.assets[o.data].card]
            (precious if card.on_lost else safe).append(o.id)
        if safe:
            return safe[0]
        have = i.damage if kind == "damage" else i.horror
        limit = board.max_health(state, seat) if kind == "damage" else board.max_sanity(state, seat)
        if precious and have + n >= limit:
            return precious[0]
        return "self"

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
        keep = plans.remnants_wanted(state)
        return max(0, min(prompt.max_amount, inv(state, seat).remnants - keep))

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
