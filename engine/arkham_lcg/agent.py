"""A reasonable card game agent: sensible habits, no search, the chaos bag's exact odds (engine/arkham_lcg/odds.py).

On its turn an investigator advances the act when the group holds the clues; deals with engaged enemies
(attacks, with its weapon if it has one, when the chance is good; else evades when that is likelier, or when
the enemy retaliates; else plays an evading card; else takes the likelier of the two); plays a card or uses an
ability that heals damage or horror when 2 or less is left; plays the assets it can afford early; investigates
where clues are left when the chance is at least 30%; moves toward the nearest location with clues (or an
unrevealed one); otherwise gathers resources and cards. In its own test it commits cards, most icons first,
until the chance reaches 80%, and only when that makes the test likely and moves the chance by 15 points. It
lets allies soak damage and horror, uses every reaction it is offered, plays cancel cards on attacks that would
defeat it, keeps its opening hand, and spends experience on the first upgrade the deckbuilding rules list.
Every other question gets the prompt's default."""

from __future__ import annotations

import random

from engine import api
from engine.arkham_lcg import board
from engine.arkham_lcg.content import ActCard, AgendaCard, LocationCard, PlayerCard, TreacheryCard
from engine.arkham_lcg.effects import attack_targets
from engine.arkham_lcg.odds import pass_chance
from engine.arkham_lcg.skilltest import committable, current, test_value
from engine.arkham_lcg.state import EnemyState, LcgState
from engine.arkham_lcg.triggers import within_limit
from engine.core.game import GameState
from engine.core.prompt import Action, Prompt, PromptKind

#: the margin a test is aimed at: the bag's tokens average about -1.5 at standard difficulty
MARGIN = 2
#: a test worth taking; a test cards are committed to until it reaches
GOOD_ODDS, COMMIT_ODDS = 0.65, 0.8
#: clues win scenarios: an investigation is worth a worse chance than a fight
INVESTIGATE_ODDS = 0.3


def _mentions(effects: object, verb: str) -> bool:
    """Whether an effect list uses `verb` anywhere (nested: "each investigator here heals 1 horror")."""
    if isinstance(effects, dict):
        return verb in effects or any(_mentions(v, verb) for v in effects.values())
    if isinstance(effects, list):
        return any(_mentions(v, verb) for v in effects)
    return False


class SmartAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.free_buys: dict[int, int] = {}

    def act(self, state: GameState, prompt: Prompt | None = None) -> Action:
        prompt = prompt or api.prompts(state)[0]
        seat = prompt.seats[0]
        assert isinstance(state, LcgState)
        op = state.flow.stack[-1].op
        handler = getattr(self, f"_{op}", None)
        choice = handler(state, prompt, seat) if handler else None
        if choice is None:
            choice = prompt.default if prompt.default is not None else [prompt.options[0].id]
        if isinstance(choice, str):
            choice = [choice]
        if prompt.kind is PromptKind.AMOUNT:
            return Action(seat=seat, prompt=prompt.seq, amount=prompt.default_amount or prompt.min_amount)
        return Action(seat=seat, prompt=prompt.seq, choice=choice)

    # ---------------------------------------------------------------- the turn
    def _turn(self, state: LcgState, prompt: Prompt, seat: int) -> str:
        ids = [o.id for o in prompt.options]
        i = state.invs[seat]
        if "act" in ids:
            return "act"
        engaged = board.engaged(state, seat)
        if engaged:
            choice = self._engaged(state, seat, ids, min(engaged, key=lambda x: x.health - x.damage))
            if choice:
                return choice
        healing = self._heal(state, seat, ids)
        if healing:
            return healing
        objective = self._objective(state, seat, ids)
        if objective:
            return objective
        for oid in ids:
            if oid.startswith("play:"):
                c = board.pdef(state, int(oid[5:]))
                if c.type == "asset" and i.actions >= 1:
                    return oid
        here = i.location
        s = board.scen(state)
        act = board.act(state)
        if act is not None and act.clues == 0 and i.actions > 0:  # the act wants a deed, not clues: go do it
            step = self._toward_clues(state, seat)
            if step and f"move:{step}" in ids and not (here and self._objective_at(state, seat, here)):
                return f"move:{step}"
        if "investigate" in ids and here is not None and s.locations[here].clues > 0 and pass_chance(
                state, seat, board.skill_value(state, seat, "intellect", "investigate"),
                board.shroud(state, here)) >= INVESTIGATE_ODDS:
            return "investigate"
        if i.actions > 0:
            step = self._toward_clues(state, seat)
            if step and f"move:{step}" in ids:
                return f"move:{step}"
        targets = attack_targets(state, seat)
        for uid in targets:
            if f"fight:{uid}" in ids and board.skill_value(state, seat, "combat", "fight") >= \
                    board.enemy_fight(state, s.enemies[uid]) + 1:
                return f"fight:{uid}"
        if "investigate" in ids and here is not None and s.locations[here].clues > 0:
            return "investigate"
        if "draw" in ids and len(i.hand) < 5:
            return "draw"
        if "resource" in ids:
            return "resource"
        return "end"

    def _engaged(self, state: LcgState, seat: int, ids: list[str], e: EnemyState) -> str | None:
        """Fight (with a weapon when it has one) when the odds are good, else evade when that is likelier or the
        enemy retaliates, else an evading card, else whichever of the two is likelier."""
        weapon = self._weapon(ids, state, seat)
        combat = board.skill_value(state, seat, "combat", "fight")
        fight = board.enemy_fight(state, e)
        p_weapon = pass_chance(state, seat, combat + 1, fight) if weapon else 0.0  # a weapon's usual +1
        p_fight = pass_chance(state, seat, combat, fight) if f"fight:{e.uid}" in ids else 0.0
        evade = f"evade:{e.uid}"
        p_evade = pass_chance(state, seat, board.skill_value(state, seat, "agility", "evade"),
                              board.enemy_evade(state, e)) if evade in ids else 0.0
        attack = weapon if weapon and p_weapon >= p_fight else (f"fight:{e.uid}" if p_fight else None)
        p_attack = max(p_weapon, p_fight)
        if attack and p_attack >= GOOD_ODDS:
            return attack
        if p_evade and (p_evade >= GOOD_ODDS and p_attack < 0.4
                        or board.keyword(state, e, "retaliate") and p_evade >= p_attack + 0.1):
            return evade
        for oid in ids:
            if oid.startswith("play:") and board.pdef(state, int(oid[5:])).action == "evade":
                return oid
        return attack or (evade if p_evade else None)

    def _heal(self, state: LcgState, seat: int, ids: list[str]) -> str | None:
        """A card or ability that heals what is close to defeating the investigator (2 or less left)."""
        i = state.invs[seat]
        wanted = [kind for kind, left in (("heal_damage", board.max_health(state, seat) - i.damage),
                                          ("heal_horror", board.max_sanity(state, seat) - i.horror)) if left <= 2]
        if not wanted:
            return None
        for oid in ids:
            if oid.startswith("play:"):
                effects: object = board.pdef(state, int(oid[5:])).play
            elif oid.startswith("ab:"):
                uid, ab_id = oid.split(":")[1:]
                effects = next(a.effects for a in board.cdef(state, int(uid)).abilities if a.id == ab_id)
            else:
                continue
            if any(_mentions(effects, kind) for kind in wanted):
                return oid
        return None

    def _objective(self, state: LcgState, seat: int, ids: list[str]) -> str | None:
        """A scenario's own action (a location's, the act's, the agenda's: reading a gauge, lighting a lamp) or
        getting rid of a treachery in the threat area; never resigning."""
        for oid in ids:
            if not oid.startswith("ab:"):
                continue
            uid, ab_id = oid.split(":")[1:]
            card = board.cdef(state, int(uid))
            ab = next(a for a in card.abilities if a.id == ab_id)
            if ab.type == "resign" or isinstance(card, PlayerCard) and card.weakness is None:
                continue
            if isinstance(card, (LocationCard, ActCard, AgendaCard, TreacheryCard, PlayerCard)):
                return oid
        return None

    def _weapon(self, ids: list[str], state: LcgState, seat: int) -> str | None:
        for oid in ids:
            if oid.startswith("ab:"):
                uid, ab_id = oid.split(":")[1:]
                ab = next(a for a in board.cdef(state, int(uid)).abilities if a.id == ab_id)
                if ab.type == "fight":
                    return oid
        return None

    def _toward_clues(self, state: LcgState, seat: int) -> str | None:
        """The next step toward the nearest useful location: while the act wants an objective rather than clues,
        a location with a scenario action open now; otherwise one with clues or still unrevealed."""
        here = state.invs[seat].location
        if here is None:
            return None
        s = board.scen(state)
        dist = board.distance_map(state, here)
        act = board.act(state)
        goals: list[str] = []
        if act is not None and act.clues == 0:
            goals = [c for c in dist if c != here and self._objective_at(state, seat, c)]
        if not goals:
            goals = [c for c in dist if c != here and (not s.locations[c].revealed or s.locations[c].clues > 0)]
        if not goals:
            return None
        goal = min(goals, key=lambda c: (dist[c], c))
        for nxt in sorted(board.connections(state, here)):
            d = board.distance_map(state, nxt)
            if d.get(goal, 99) == dist[goal] - 1:
                return nxt
        return None

    def _objective_at(self, state: LcgState, seat: int, code: str) -> bool:
        loc = board.scen(state).locations[code]
        if not loc.revealed:
            return True
        for ab in board.ldef(state, code).abilities:
            if ab.kind == "action" and ab.type != "resign" and within_limit(state, loc.uid, ab) and \
                    board.holds(state, {"seat": seat, "loc": code}, ab.condition):
                return True
        return False

    # ---------------------------------------------------------------- tests
    def _test_commit(self, state: LcgState, prompt: Prompt, seat: int) -> list[str]:
        test = current(state)
        if test.seat != seat:
            return []
        base = value = test_value(state, test)
        before = pass_chance(state, seat, base, test.difficulty)
        if before >= COMMIT_ODDS:
            return []
        cards = sorted(committable(state, seat), key=lambda u: -board.pdef(state, u).icons.for_skill(test.skill))
        chosen: list[str] = []
        for uid in cards:
            icons = board.pdef(state, uid).icons.for_skill(test.skill)
            if icons == 0 or pass_chance(state, seat, value, test.difficulty) >= COMMIT_ODDS:
                break
            chosen.append(f"c{uid}")
            value += icons
        after = pass_chance(state, seat, value, test.difficulty)
        # cards are spent only where they make the test likely and change the odds by much
        return chosen if after >= GOOD_ODDS - 0.1 and after - before >= 0.15 else []

    # ---------------------------------------------------------------- everything else
    def _mulligan(self, state: LcgState, prompt: Prompt, seat: int) -> list[str]:
        return [o.id for o in prompt.options if (board.pdef(state, o.data).cost or 0) >= 4]

    def _assign(self, state: LcgState, prompt: Prompt, seat: int) -> str:
        assets = [o.id for o in prompt.options if o.id != "you"]
        return assets[0] if assets else "you"

    def _window_ask(self, state: LcgState, prompt: Prompt, seat: int) -> str:
        uses = [o.id for o in prompt.options if o.id != "pass"]
        return uses[0] if uses else "pass"

    def _pw(self, state: LcgState, prompt: Prompt, seat: int) -> str:
        """During its own test, a bonus that brings the value up to the margin; never one that costs damage or
        horror the investigator cannot spare."""
        if state.tests and current(state).seat == seat:
            test = current(state)
            if test_value(state, test) < test.difficulty + MARGIN:
                for o in prompt.options:
                    if o.id != "pass" and self._affordable(state, seat, o.data):
                        return o.id
        return "pass"

    def _affordable(self, state: LcgState, seat: int, step: object) -> bool:
        args = getattr(step, "args", {})
        if getattr(step, "op", "") != "use_ability":
            return True
        card = board.cdef(state, args["uid"])
        ab = next(a for a in card.abilities if a.id == args["ability"])
        i = state.invs[seat]
        spare_sanity = board.max_sanity(state, seat) - i.horror
        spare_health = board.max_health(state, seat) - i.damage
        return ab.cost.horror < spare_sanity - 2 and ab.cost.damage < spare_health - 2

    def _upgrade(self, state: LcgState, prompt: Prompt, seat: int) -> str:
        """The first purchase the deckbuilding rules rank (refills, then upgrades of cards held), and stop once
        an upgrade has been bought four times in a row without XP changing (free purchases only)."""
        ups = [o.id for o in prompt.options if o.id != "done"]
        rec = state.campaign.investigators[seat]
        if not ups or rec.xp == 0 and self.free_buys.get(seat, 0) >= 4:
            return "done"
        self.free_buys[seat] = self.free_buys.get(seat, 0) + 1 if rec.xp == 0 else 0
        return ups[0]

    def _hand_discard(self, state: LcgState, prompt: Prompt, seat: int) -> list[str]:
        n = prompt.min_choices
        ranked = sorted(prompt.options, key=lambda o: -(board.pdef(state, o.data).cost or 0))
        return [o.id for o in ranked[:n]]


