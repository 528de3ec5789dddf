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

Each answer that is a real choice comes with a `Reasoning` (issue 32: AI teammates explain): the rule that
decided it, in players' words, with the figure the rule used (dice against health left, doom on the goal,
spaces to go); a question with one answer, or one the agent leaves to the default, gets none.
"""

from __future__ import annotations

import random

from engine import api
from engine.agents import Reasoning
from engine.arkham3 import agent_plans as plans
from engine.arkham3 import board
from engine.arkham3.board import SKILL_NAMES, content, graph, inv, scenario, space_name
from engine.arkham3.effects_schema import walk
from engine.arkham3.phases import reachable
from engine.arkham3.skills import dice_for, successes
from engine.arkham3.state import ArkhamState, Monster
from engine.core.game import GameState
from engine.core.prompt import Action, Prompt, PromptKind
from engine.core.text import listed, plural

#: what a component action is good for, by the verbs on it
USES = {"heal": ("recover_damage", "recover_horror"), "ward": ("remove_doom",), "hurt": ("monster_damage",),
        "clue": ("clues",), "money": ("money",)}

#: how the agent picks where to go, for the detail of a move's reason
GOAL_ORDER = ("goals in order: a card to deliver or to fetch, a seal it can pay for, the epic monster",
              "then doom by an anomaly, doom close to opening one, a clue, the most doom for the distance",
              "a space another investigator is heading for counts 2 spaces farther")


class SmartAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.target: dict[int, str] = {}
        self.goal_words: dict[int, str] = {}  # why each target was chosen, in players' words
        self.reasoning: Reasoning | None = None

    def act(self, state: GameState, prompt: Prompt | None = None) -> Action:
        self.reasoning = None
        prompt = prompt or api.prompts(state)[0]
        seat = prompt.seats[0]
        assert isinstance(state, ArkhamState)
        op = state.flow.stack[-1].op
        handler = getattr(self, f"_{op}", None)
        choice = handler(state, prompt, seat) if handler else None
        if not _a_choice(prompt):
            self.reasoning = None
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
                    self._why(plans.purpose(state, seat, act), f"the scenario's action here: {act.label}")
                    return oid
        if "research" in ids and i.clues and plans.research_useful(state) and not (
                plans.spends_clues_on_seals(state) and i.clues < 3):
            self._why(f"the scenario sheet still counts clues; holding {plural(i.clues, 'clue')}")
            return "research"
        errand = carrying is not None or self._fetcher(state, seat)
        if errand and "move" in ids and self._worth_moving(state, seat):
            self._why_move(state, seat)
            return "move"  # a witness to deliver or to fetch comes before everything else
        epic = [m for m in state.monsters if m.card.startswith("archive:")]
        if epic and "attack" in ids and carrying is None and any(board.monster_space(state, m) == here
                                                                  for m in epic):
            m = next(m for m in epic if board.monster_space(state, m) == here)
            self._why(f"the epic monster {board.monster_name(state, m)} is here",
                      f"{board.monster_name(state, m)}: {self._left(state, m)} health left")
            return "attack"
        if state.doom.get(here, 0) and here not in state.seals:
            comp = self._comp(state, seat, prompt, "ward")
            doom = f"{state.doom[here]} doom in this space"
            if comp:
                self._why(doom)
                return comp
            if "ward" in ids:
                self._why(doom)
                return "ward"
        hurt = i.damage >= 2 or i.horror >= 2
        harm = f"hurt: {plural(i.damage, 'damage')} and {plural(i.horror, 'horror')} taken"
        if "ability" in ids and hurt:
            self._why(harm, "heals at 2 damage or 2 horror")
            return "ability"
        comp = self._comp(state, seat, prompt, "heal") if hurt else None
        if comp:
            self._why(harm, "heals at 2 damage or 2 horror")
            return comp
        if board.monsters_at(state, here) and carrying is None:
            comp = self._comp(state, seat, prompt, "hurt")
            if comp:
                self._why(f"hurts {board.monster_name(state, board.monsters_at(state, here)[0])}, in this space")
                return comp
        if i.clues < 2 and (plans.research_useful(state) or plans.spends_clues_on_seals(state)):
            comp = self._comp(state, seat, prompt, "clue")
            if comp:
                self._why(f"holding {plural(i.clues, 'clue')}, fewer than 2")
                return comp
        if board.monsters_at(state, here) and "attack" in ids and carrying is None:
            m = board.monsters_at(state, here)[0]
            dice, _ = dice_for(state, seat, "strength", board.monster_card(state, m).attack, "attack")
            if dice >= 3 or board.monster_health(state, m) - m.damage <= 2:
                name, left = board.monster_name(state, m), self._left(state, m)
                self._why(f"{plural(dice, 'die')} against {name}" if dice >= 3 else
                          f"only {left} health left on {name}",
                          f"{name}: {left} health left; {plural(dice, 'die')} to attack",
                          "attacks with 3 dice or more, or when 2 health or less is left")
                return "attack"
        if "move" in ids and self._worth_moving(state, seat):
            self._why_move(state, seat)
            return "move"
        if "research" in ids and i.clues and plans.research_useful(state):
            self._why(f"the scenario sheet still counts clues; holding {plural(i.clues, 'clue')}")
            return "research"
        if "focus" in ids and len(i.focus) < 2:
            self._why(f"holding {len(i.focus)} focus, fewer than 2")
            return "focus"
        comp = self._comp(state, seat, prompt, "money")
        if comp:
            self._why("nothing more useful to do here")
            return comp
        if "gather" in ids:
            self._why("nothing more useful to do here")
            return "gather"
        self._why("nothing more useful to do this turn")
        return "end"

    def _why(self, line: str, *detail: str) -> None:
        self.reasoning = Reasoning(line=line, detail=detail[:5])

    @staticmethod
    def _left(state: ArkhamState, m: Monster) -> int:
        return board.monster_health(state, m) - m.damage

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
        m = engaged[0]
        name, left = board.monster_name(state, m), self._left(state, m)
        if "attack" in ids and not carrying:
            dice, _ = dice_for(state, seat, "strength", board.monster_card(state, m).attack, "attack")
            if dice >= 4 or left <= 1 or "evade" not in ids:
                line = f"{plural(dice, 'die')} against {name}" if dice >= 4 else \
                    f"only {left} health left on {name}" if left <= 1 else f"no way to evade {name}"
                self._why(line, f"{name}: {left} health left; {plural(dice, 'die')} to attack",
                          "attacks with 4 dice or more, or at 1 health left; else evades")
                return "attack"
            self._why(f"only {plural(dice, 'die')} against {name}, {left} health left",
                      "attacks with 4 dice or more, or at 1 health left; else evades")
        if "evade" in ids:
            if carrying:
                held = plans.carried_card(state, seat)
                self._why(f"carrying {content(state).name_of(held[0]) if held else 'a card'}: no fighting")
            elif "attack" not in ids:
                self._why(f"no way to attack {name}")
            return "evade"
        if "attack" in ids:
            self._why(f"no way to evade {name}")
            return "attack"
        if "focus" in ids:
            self._why(f"no way to attack or evade {name}")
            return "focus"
        self._why(f"no way to attack or evade {name}")
        return "end"

    def _goal(self, state: ArkhamState, seat: int) -> tuple[str, str] | None:
        """Where to go, in order: deliver what you carry, fetch what waits (the nearest investigator only), an
        unsealed stone you can pay for, the epic monster, doom in a neighborhood with an anomaly (closing it
        stops the doom going to the sheet), doom about to open one, a clue while you hold fewer than 2, then the
        heaviest doom. Spaces another investigator is already heading for count as 2 further away. With the
        goal, why it was chosen, in players' words."""
        g = graph(state)
        here = inv(state, seat).space or ""
        claimed = {t for s, t in self.target.items() if s != seat and board.has_inv(state, s)}
        c = content(state)

        def nearest(spaces: list[str]) -> str | None:
            spaces = [s for s in spaces if s in g.adj]
            return min(spaces, key=lambda s: (g.distance(here, s) + (2 if s in claimed else 0), s)) if spaces \
                else None

        def named(space: str | None, words: str) -> tuple[str, str] | None:
            return (space, words.replace("{at}", space_name(state, space))) if space else None

        carrying = plans.carried_card(state, seat)
        if carrying is not None:
            return named(nearest(carrying[1]), f"to deliver {c.name_of(carrying[0])} at {{at}}")
        fetch = plans.fetch_goal(state)
        if fetch and plans.nearest_seat(state, fetch, board.on_board(state)) == seat:
            return named(nearest(fetch), f"nearest to fetch {listed(plans.fetched(state))} at {{at}}")
        sites = plans.seal_sites(state, seat)
        if sites:
            return named(nearest(sites), "can pay to seal {at}")
        epic = [m for m in state.monsters if m.card.startswith("archive:")]
        if epic:
            sp = board.monster_space(state, epic[0])
            if sp:
                return named(sp, f"epic monster {board.monster_name(state, epic[0])} at {{at}}")
        doom = {s: n for s, n in state.doom.items() if n and s in g.adj and s not in state.seals}
        tile = g.tile_of.get(here)
        if tile and state.clues.get(tile) and tile not in state.anomalies and inv(state, seat).clues < 2:
            # the clue's event card is near the top of this deck: stay in the neighborhood for the encounter,
            # on its doom if it has some
            local = [s for s in doom if g.tile_of[s] == tile]
            if not local:
                return here, "a clue in this neighborhood"
            best = max(local, key=lambda s: (doom[s], s == here))
            return named(best, f"a clue in this neighborhood, {doom[best]} doom at {{at}}")
        anomalous = [s for s in doom if g.tile_of[s] in state.anomalies]
        if anomalous:
            best_sp = nearest(anomalous)
            return named(best_sp, f"{doom.get(best_sp or '', 0)} doom at {{at}}, by an anomaly")
        if scenario(state).sheet.anomalies:
            brink = [s for s, n in doom.items() if n >= 2 or board.tile_doom(state, g.tile_of[s] or "") >= 4]
            if brink:
                best_sp = nearest(brink)
                return named(best_sp, f"{doom.get(best_sp or '', 0)} doom at {{at}}, close to opening an anomaly")
        clue_spaces = [s for t, n in state.clues.items() if n and t not in state.anomalies for s in g.spaces_of(t)]
        if clue_spaces and inv(state, seat).clues < 2:
            best_sp = nearest(clue_spaces)
            hood = c.tiles.get(g.tile_of.get(best_sp or "") or "")
            return named(best_sp, f"nearest clue, in {hood.name}" if hood else "nearest clue, at {at}")
        pool = list(doom) or clue_spaces
        if not pool:
            return None
        best_sp = min(pool, key=lambda s: (g.distance(here, s) - 2 * doom.get(s, 0) + (2 if s in claimed else 0),
                                           s))
        return named(best_sp, f"{doom[best_sp]} doom at {{at}}, the most for the distance" if best_sp in doom
                     else "nearest clue, at {at}")

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
        found = self._goal(state, seat)
        goal = found[0] if found else None
        if not goal or goal == here:
            return False
        assert found is not None
        self.target[seat] = goal
        self.goal_words[seat] = found[1]
        free = 2 + self._extra_move(state, seat)
        stay = self._score(state, seat, here, 0, goal)
        best = min((self._score(state, seat, sp, max(0, d - free), goal) for sp, d in reachable(state, seat).items()),
                   default=stay)
        return best[0] < stay[0]

    def _why_move(self, state: ArkhamState, seat: int) -> None:
        """The goal the move is for, and how far it is."""
        goal, words = self.target[seat], self.goal_words[seat]
        away = graph(state).distance(inv(state, seat).space or "", goal)
        self._why(f"{words}, {plural(away, 'space')} away", *GOAL_ORDER)

    @staticmethod
    def _extra_move(state: ArkhamState, seat: int) -> int:
        ab = content(state).investigators[inv(state, seat).card].ability
        return int(ab.param("spaces")) if ab.kind == "extra_move" else 0

    def _move(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        goal = self.target.get(seat)
        if goal is None or goal not in graph(state).adj:
            self._why("no goal in mind: the first space offered")
            return prompt.options[0].id
        # sorted is stable: its first is min()'s, the first of the equally good
        ranked = sorted(prompt.options, key=lambda o: self._score(state, seat, o.data[0], o.data[1], goal))
        best = ranked[0]
        words = self.goal_words.get(seat, f"heading for {space_name(state, goal)}")
        left = graph(state).distance(best.data[0], goal)
        self._why(words if left == 0 else f"{words}, {plural(left, 'space')} to go",
                  *(self._move_words(state, seat, o.data[0], o.data[1], goal) for o in ranked[:4]))
        return best.id

    def _move_words(self, state: ArkhamState, seat: int, space: str, cost: int, goal: str) -> str:
        """A space the move could end in, as weighed: spaces from the goal, a monster there, the money."""
        far, _ = self._score(state, seat, space, cost, goal)
        left = graph(state).distance(space, goal)
        monster = ", a monster there (counts 3 spaces more)" if far > left else ""
        money = f", ${cost}" if cost else ""
        return f"{space_name(state, space)}: {plural(left, 'space')} from the goal{monster}{money}"

    def _test_reroll(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        roll = state.rolls[-1]
        ids = [o.id for o in prompt.options]
        got = plural(successes(roll), "success")
        if "free" in ids:
            self._why("a free reroll costs nothing", f"{got} so far")
            return "free"
        if successes(roll) == 0 or roll.purpose in ("research", "ward"):
            for oid in ids:
                if oid.startswith("focus-"):
                    self._why("no successes yet" if successes(roll) == 0 else
                              f"{got} so far, and every success counts for "
                              + ("research" if roll.purpose == "research" else "a ward"))
                    return oid
        keep_clues = 3 if plans.spends_clues_on_seals(state) else 2
        clues = inv(state, seat).clues
        if successes(roll) == 0 and "clue" in ids and roll.purpose != "research" and clues > keep_clues:
            self._why(f"no successes yet; holding {plural(clues, 'clue')}, more than the {keep_clues} it keeps")
            return "clue"
        if successes(roll):
            self._why(f"{got} already")
        elif "clue" in ids:
            self._why(f"holding {plural(clues, 'clue')}, no more than the {keep_clues} it keeps"
                      if roll.purpose != "research" else "clues are not spent on research")
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
            self._why("cards take harm first, sparing " + ("health" if kind == "damage" else "sanity"))
            return safe[0]
        have = i.damage if kind == "damage" else i.horror
        limit = board.max_health(state, seat) if kind == "damage" else board.max_sanity(state, seat)
        gauge = "health" if kind == "damage" else "sanity"
        if precious and have + n >= limit:
            self._why(f"{plural(n, kind)} more would defeat: {have} of {limit} {gauge} already lost")
            return precious[0]
        if precious:
            held = [c.assets[i.assets[o.data].card].name for o in prompt.options if o.id in precious]
            self._why(f"the scenario needs {listed(held)}, and {plural(n, kind)} more will not defeat")
        return "self"

    def _pay_ask(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        self._why("pays whenever it can")
        return "yes"

    def _shop(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        buys = [o for o in prompt.options if o.data is not None]
        if not buys:
            return "done"
        weapons = [o for o in buys if "weapon" in content(state).assets[o.data[0]].traits]
        self._why("weapons first" if weapons else "no weapon on offer: the first item", *(o.label for o in buys[:4]))
        return (weapons or buys)[0].id

    def _shop_discard(self, state: ArkhamState, prompt: Prompt, seat: int) -> list[str]:
        return []

    def _cast_cost(self, state: ArkhamState, prompt: Prompt, seat: int) -> int:
        keep = plans.remnants_wanted(state)
        held = inv(state, seat).remnants
        self._why(f"keeps {plural(min(keep, held), 'remnant')} for the scenario's actions" if keep else
                  "no scenario action needs remnants", f"holding {plural(held, 'remnant')}")
        return max(0, min(prompt.max_amount, held - keep))

    def _trade(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        return "done"

    def _choose_ask(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        # no preference, so no reason: a channel line saying so would be noise (/game why says "routine")
        return self.rng.choice(prompt.options).id

    def _pick(self, state: ArkhamState, prompt: Prompt, seat: int) -> str:
        frame = state.flow.stack[-1]
        if frame.args["then"] == "focus_gain":
            prefer = ["observation", "lore", "strength", "will", "influence"]
            ids = [o.id for o in prompt.options]
            self._why("its focus order: " + ", ".join(SKILL_NAMES[s] for s in prefer if s in ids))
            return next((s for s in prefer if s in ids), ids[0])
        return prompt.options[0].id  # no preference: no reason to narrate


def _a_choice(prompt: Prompt) -> bool:
    """Whether a prompt leaves a real choice (a single option, or a fixed amount, is a routine answer)."""
    if prompt.kind is PromptKind.AMOUNT:
        return prompt.max_amount > prompt.min_amount
    return len(prompt.options) > 1 or prompt.kind is PromptKind.MANY and bool(prompt.options)
