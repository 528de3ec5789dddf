"""A reasonable card game agent: sensible habits, no search, the chaos bag's exact odds (engine/arkham_lcg/odds.py).

On its turn an investigator advances the act when the group holds the clues; takes a scenario action that
advances the last act (it wins) even while engaged, unless the attacks of opportunity or the test's failure
would defeat it; deals with engaged enemies (for each, attacking it, by the likeliest way, weighed by the chance
to defeat it with the actions left, against evading it, weighed by the harm its attacks would do, three times
over when they could defeat it; every hit on the elite enemy the act wants defeated counts); plays a card or
uses an ability that heals damage or horror before it is critical (3 or less left, or half gone); uses a
scenario action (not one whose failure would defeat it while a friend could take it) or works at a threat-area
card when its test is not hopeless (a long shot for one that harms it every turn); fights an enemy engaged with
a friend at good odds; plays the assets it can afford early; when the act wants a deed, goes to it (an open
scenario action, else the enemy such an action waits on, else the act's elite enemy) and fights that enemy,
except that a poor fighter (until the last agenda), or one close to defeat, stays out of a massive enemy's
location while a friend can face it; investigates here (the likeliest
way, a tool's lower shroud or other skill counted, and a card or two from hand) when the chance is at least 30%,
or moves toward a location clearly likelier to pay (or unrevealed), avoiding steps into attacks it could not
take; otherwise gathers resources and cards. In its own test it commits cards, most icons first, until the
chance reaches 80%, and only when that makes the test likely and moves the chance by 15 points. It lets allies
soak damage and horror, uses every reaction it is offered, plays cancel cards on attacks that would defeat it,
keeps its opening hand, answers "which enemy" with the one it meant, sends a moving enemy where fewer
investigators are, lets an enemy engage the investigator with the most health and sanity left, and spends
experience on the first upgrade the deckbuilding rules list. Every other question gets the prompt's default.

Each answer that is a real choice comes with a `Reasoning` (issue 32: AI teammates explain): the rule that
decided it, in players' words, with the chances the rule weighed (the chaos bag's exact odds) or the figure its
habit used; a question with one answer, or one the agent leaves to the default, gets none."""

from __future__ import annotations

import random
from math import comb
from typing import Any, NamedTuple

from engine import api
from engine.agents import Reasoning
from engine.arkham_lcg import board
from engine.arkham_lcg.content import ActCard, AgendaCard, LocationCard, PlayerCard, TreacheryCard
from engine.arkham_lcg.effects import attack_targets
from engine.arkham_lcg.odds import pass_chance
from engine.arkham_lcg.phases import act_clues_needed
from engine.arkham_lcg.skilltest import committable, current, test_value
from engine.arkham_lcg.state import EnemyState, LcgState
from engine.arkham_lcg.triggers import within_limit
from engine.core.game import GameState
from engine.core.prompt import Action, Prompt, PromptKind
from engine.core.text import chance_words as pct
from engine.core.text import listed, plural

#: the margin a test is aimed at: the bag's tokens average about -1.5 at standard difficulty
MARGIN = 2
#: a test worth taking; a test cards are committed to until it reaches
GOOD_ODDS, COMMIT_ODDS = 0.65, 0.8
#: clues win scenarios: an investigation is worth a worse chance than a fight
INVESTIGATE_ODDS = 0.3
#: what an unrevealed location is counted as worth when choosing where to investigate
UNREVEALED_ODDS = 0.45


def _mentions(effects: object, verb: str) -> bool:
    """Whether an effect list uses `verb` anywhere (nested: "each investigator here heals 1 horror")."""
    if isinstance(effects, dict):
        return verb in effects or any(_mentions(v, verb) for v in effects.values())
    if isinstance(effects, list):
        return any(_mentions(v, verb) for v in effects)
    return False


def _arg(effects: object, verb: str) -> dict[str, Any]:
    """The argument of the first `verb` in an effect list ({} when it is `true` or absent)."""
    if isinstance(effects, list):
        for eff in effects:
            if isinstance(eff, dict) and verb in eff:
                arg = eff[verb]
                return arg if isinstance(arg, dict) else {}
    return {}


def _blocked_by(cond: object) -> set[str]:
    """The cards whose being in play a condition forbids ({"not": {"in_play": X}}, at any depth)."""
    out: set[str] = set()
    if isinstance(cond, dict):
        inner = cond.get("not")
        if isinstance(inner, dict) and isinstance(inner.get("in_play"), str):
            out.add(inner["in_play"])
        for v in cond.values():
            out |= _blocked_by(v)
    elif isinstance(cond, list):
        for v in cond:
            out |= _blocked_by(v)
    return out


def _act_foes(state: LcgState) -> set[str]:
    """The enemies standing between the group and the act: those a scenario action that advances the act
    can only be taken without (Hesper Lusk before the bell can be stilled). Empty when no action says so."""
    s = board.scen(state)
    out: set[str] = set()
    for code in s.locations:
        for ab in board.ldef(state, code).abilities:
            if _mentions(ab.effects, "advance_act"):
                out |= _blocked_by(ab.condition)
    return out


def _is_foe(state: LcgState, e: EnemyState) -> bool:
    """Whether `e` is the enemy the act's deed is about: one an act-advancing action names, else any elite
    (another elite, such as a wandering one, is not the deed and is not chased)."""
    foes = _act_foes(state)
    return board.edef(state, e.uid).id in foes if foes else board.keyword(state, e, "elite")


def _threat(state: LcgState, e: EnemyState) -> int:
    d = board.edef(state, e.uid)
    return d.damage + d.horror


def _at_least(k: int, n: int, p: float) -> float:
    """P(at least k successes in n tries of chance p)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k, n + 1))


class Route(NamedTuple):
    """The next step toward a location, the goal in players' words, and the places weighed (with figures)."""

    step: str
    words: str
    weighed: tuple[str, ...] = ()


class SmartAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.free_buys: dict[int, int] = {}
        self.target: int | None = None  # the enemy its last fight or evade was meant for
        self.reasoning: Reasoning | None = None

    def act(self, state: GameState, prompt: Prompt | None = None) -> Action:
        self.reasoning = None
        prompt = prompt or api.prompts(state)[0]
        seat = prompt.seats[0]
        assert isinstance(state, LcgState)
        op = state.flow.stack[-1].op
        handler = getattr(self, f"_{op}", None)
        choice = handler(state, prompt, seat) if handler else None
        if not _a_choice(prompt):
            self.reasoning = None
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
            held = sum(state.invs[s].clues for s in board.order(state))
            self._why(f"the group holds {plural(held, 'clue')}; the act needs {act_clues_needed(state)}")
            return "act"
        for rule in (self._finish, self._engaged, self._heal, self._objective, self._help):
            chosen = rule(state, seat, ids)
            if chosen:
                return chosen
        for oid in ids:
            if oid.startswith("play:"):
                c = board.pdef(state, int(oid[5:]))
                if c.type == "asset" and i.actions >= 1:
                    self._why("assets it can afford go into play early",
                              f"{c.name}: {plural(c.cost or 0, 'resource')} of the {i.resources} held")
                    return oid
        here = i.location
        s = board.scen(state)
        act = board.act(state)
        if act is not None and act.clues == 0 and i.actions > 0:  # the act wants a deed, not clues: go do it
            route = self._toward_clues(state, seat)
            step = route.step if route else None
            hold = self._hold_back(state, seat, step) if step is not None else None
            if step and not hold and f"move:{step}" in ids and not (here and self._objective_at(state, seat, here)):
                assert route is not None
                self._why(route.words, *route.weighed)
                return f"move:{step}"
            if hold:
                return self._wait(state, seat, ids, hold)
            boss = [e for e in board.enemies_at(state, here) if _is_foe(state, e)]
            for e in boss:
                way, p = self._best_way(state, seat, ids, "fight", e)
                if way and p >= 0.3:
                    self.target = e.uid
                    self._why(f"{pct(p)} to hit {board.name(state, e.uid)}, the enemy the act wants defeated",
                              "fights it at 30% or better")
                    return way
        clues_here = here is not None and s.locations[here].clues > 0
        investigate, p_here = self._best_way(state, seat, ids, "investigate")
        clues = plural(s.locations[here].clues, "clue") if clues_here and here is not None else ""
        if investigate and clues_here and p_here >= INVESTIGATE_ODDS:
            self._why(f"{pct(p_here)} to investigate, {clues} here",
                      f"investigates at {pct(INVESTIGATE_ODDS)} or better, a card or two from hand counted")
            return investigate
        if i.actions > 0:
            route = self._toward_clues(state, seat, p_here if clues_here else -1.0)
            if route and f"move:{route.step}" in ids:
                self._why(route.words, *route.weighed)
                return f"move:{route.step}"
        if investigate and clues_here:
            self._why(f"only {pct(p_here)} to investigate, but no likelier place", f"{clues} here")
            return investigate
        targets = attack_targets(state, seat)
        for uid in targets:
            way, p = self._best_way(state, seat, ids, "fight", s.enemies[uid])
            if way and p >= GOOD_ODDS:
                self.target = uid
                self._why(f"{pct(p)} to hit {board.name(state, uid)}", f"fights at {pct(GOOD_ODDS)} or better")
                return way
        if "draw" in ids and len(i.hand) < 5:
            self._why(f"{plural(len(i.hand), 'card')} in hand, fewer than 5")
            return "draw"
        if "resource" in ids:
            self._why("nothing more useful to do")
            return "resource"
        self._why("nothing more useful to do this turn")
        return "end"

    def _why(self, line: str, *detail: str) -> None:
        self.reasoning = Reasoning(line=line, detail=detail[:5])

    # ---------------------------------------------------------------- enemies
    def _ways(self, state: LcgState, seat: int, ids: list[str], kind: str) -> list[tuple[str, dict[str, Any]]]:
        """Every option that is a `kind` action (fight, evade, investigate): the basic action, an ability of
        that type, an event played as that action; with what its effect adds (skill, bonus, damage, shroud)."""
        out: list[tuple[str, dict[str, Any]]] = []
        for oid in ids:
            if oid == kind or oid.startswith(f"{kind}:"):
                out.append((oid, {}))
            elif oid.startswith("ab:"):
                uid, ab_id = oid.split(":")[1:]
                ab = next(a for a in board.cdef(state, int(uid)).abilities if a.id == ab_id)
                if ab.type == kind:
                    out.append((oid, _arg(ab.effects, kind)))
            elif oid.startswith("play:"):
                c = board.pdef(state, int(oid[5:]))
                if c.action == kind:
                    out.append((oid, _arg(c.play, kind)))
        return out

    def _best_way(self, state: LcgState, seat: int, ids: list[str], kind: str,
                  e: EnemyState | None = None) -> tuple[str | None, float]:
        """The likeliest way to take a `kind` action (against enemy `e`), counting a card or two from the hand
        committed to it; for a fight, a way that deals more damage counts as a little likelier. Spending a
        card's uses or an event only where it is clearly better than the basic action."""
        if kind == "investigate":
            here = state.invs[seat].location
            if here is None:
                return None, 0.0
            difficulty = board.shroud(state, here) + board.modifier(state, seat, "shroud")
        else:
            assert e is not None
            difficulty = board.enemy_fight(state, e) if kind == "fight" else board.enemy_evade(state, e)
        best: tuple[str | None, float] = (None, 0.0)
        score = -1.0
        for oid, arg in self._ways(state, seat, ids, kind):
            if e is not None and ":" in oid and not oid.startswith(("ab:", "play:")) and oid != f"{kind}:{e.uid}":
                continue
            skill = str(arg.get("skill", {"fight": "combat", "evade": "agility"}.get(kind, "intellect")))
            value = board.skill_value(state, seat, skill, kind) + int(arg.get("bonus", 0))
            value += min(2, self._hand_icons(state, seat, skill, kind))
            p = pass_chance(state, seat, value, max(0, difficulty + int(arg.get("shroud", 0))))
            extra = 0.1 * int(arg.get("damage", 0)) + (0.0 if oid == kind or oid.startswith(f"{kind}:") else -0.05)
            if p + extra > score:
                best, score = (oid, p), p + extra
        return best

    def _hand_icons(self, state: LcgState, seat: int, skill: str, action: str | None) -> int:
        """Icons for `skill` the hand could commit to the investigator's own `action` test."""
        total = 0
        for uid in state.invs[seat].hand:
            c = board.pdef(state, uid)
            if c.weakness or c.commit_only in ("fight", "evade", "investigate") and c.commit_only != action:
                continue
            total += c.icons.for_skill(skill)
        return total

    def _engaged(self, state: LcgState, seat: int, ids: list[str]) -> str | None:
        """Engaged enemies: weigh, for each, attacking it (the chance to defeat it with the actions left, minus
        what a retaliation costs) against evading it (the chance, times what its attacks would do), an enemy
        whose attacks could defeat the investigator this round counting three times over; take the best."""
        engaged = sorted(board.engaged(state, seat), key=lambda x: x.uid)
        if not engaged:
            return None
        i = state.invs[seat]
        actions = max(1, i.actions)
        ready = [e for e in engaged if not e.exhausted]
        lethal_d = sum(board.edef(state, e.uid).damage for e in ready) >= board.max_health(state, seat) - i.damage
        lethal_h = sum(board.edef(state, e.uid).horror for e in ready) >= board.max_sanity(state, seat) - i.horror
        plans: list[tuple[float, str, int]] = []
        said: dict[tuple[str, int], str] = {}  # each plan in players' words, with its chances
        act = board.act(state)
        deed = act is not None and act.clues == 0
        for e in engaged:
            d = board.edef(state, e.uid)
            name = board.name(state, e.uid)
            threat = float(d.damage + d.horror) + 0.5
            deadly = bool(lethal_d and d.damage or lethal_h and d.horror)
            if deadly:
                threat *= 3
            attack, p_attack = self._best_way(state, seat, ids, "fight", e)
            evade, p_evade = self._best_way(state, seat, ids, "evade", e)
            if attack:
                left = e.health - e.damage
                dmg = 1 + int(self._effect_arg(state, attack, "fight").get("damage", 0))
                p_kill = _at_least(-(-left // dmg), actions, p_attack)
                value = p_kill * (threat + 1.5) + 0.3 * p_attack
                said[attack, e.uid] = f"{pct(p_attack)} to hit {name}; {pct(p_kill)} to defeat it with " \
                    f"{plural(actions, 'action')}"
                if deed and _is_foe(state, e) and p_attack >= 0.3:
                    value = max(value, p_attack * min(dmg, left) * 5)  # the act's deed: every hit counts
                    said[attack, e.uid] = f"{pct(p_attack)} to hit {name}, the enemy the act wants defeated"
                if board.keyword(state, e, "retaliate"):
                    value -= (1 - p_attack) * threat * 0.5
                plans.append((value, attack, e.uid))
            if evade and not board.is_massive(state, e) and not e.exhausted:
                plans.append((p_evade * threat, evade, e.uid))
                harm = f"{d.damage} damage, {d.horror} horror"
                said[evade, e.uid] = f"{pct(p_evade)} to evade {name}, " + (
                    f"whose {harm} could defeat" if deadly else f"which deals {harm}")
        if not plans:
            return None
        ranked = sorted(plans, key=lambda t: (t[0], -t[2], t[1]), reverse=True)
        _, choice, uid = max(plans, key=lambda t: (t[0], -t[2], t[1]))
        self.target = uid
        self._why(said[choice, uid], *(f"weighed: {said[c, u]}" for _, c, u in ranked[1:4] if (c, u) in said))
        return choice

    def _hold_back(self, state: LcgState, seat: int, step: str) -> str | None:
        """Whether to stay out of `step`, where a massive enemy (the Choirmother) waits: a poor fighter (combat
        under 3) lets a better one not close to defeat bring it down first, until the last agenda; an investigator
        whom two rounds of the attacks there would defeat stays out while a friend can go. Why, when it does."""
        bosses = [e for e in board.enemies_at(state, step) if board.is_massive(state, e)]
        if not bosses:
            return None
        others = [s for s in board.order(state) if s != seat]
        if not others:
            return None
        boss = board.name(state, bosses[0].uid)
        i = state.invs[seat]
        hits = [e for e in board.enemies_at(state, step) if not e.exhausted]
        dmg = sum(board.edef(state, e.uid).damage for e in hits)
        hor = sum(board.edef(state, e.uid).horror for e in hits)
        if 2 * dmg >= board.max_health(state, seat) - i.damage or 2 * hor >= board.max_sanity(state, seat) - i.horror:
            return f"two rounds of attacks by {boss} would defeat it"
        mine = board.skill_value(state, seat, "combat", "fight")
        if mine >= 3 or len(board.scen(state).agenda_deck) <= 1:
            return None  # on the last agenda there is no time to wait for the better fighter: all go in
        for s in others:
            o = state.invs[s]
            if board.skill_value(state, s, "combat", "fight") > mine and \
                    2 * dmg < board.max_health(state, s) - o.damage and 2 * hor < board.max_sanity(state, s) - o.horror:
                return f"{board.idef(state, s).name} fights {boss} better"
        return None

    def _wait(self, state: LcgState, seat: int, ids: list[str], why: str) -> str:
        """Holding back (`why`): fight what is here at good odds, else draw, gather resources, or end the turn."""
        s = board.scen(state)
        for uid in attack_targets(state, seat):
            way, p = self._best_way(state, seat, ids, "fight", s.enemies[uid])
            if way and p >= GOOD_ODDS:
                self.target = uid
                self._why(f"{pct(p)} to hit {board.name(state, uid)}", f"holding back: {why}")
                return way
        hand = len(state.invs[seat].hand)
        if "draw" in ids and hand < 6:
            self._why(f"holding back: {why}", f"{plural(hand, 'card')} in hand, fewer than 6")
            return "draw"
        self._why(f"holding back: {why}")
        if "resource" in ids:
            return "resource"
        return "end"

    def _effect_arg(self, state: LcgState, oid: str, verb: str) -> dict[str, Any]:
        if oid.startswith("ab:"):
            return _arg(self._ab(state, oid).effects, verb)
        if oid.startswith("play:"):
            return _arg(board.pdef(state, int(oid[5:])).play, verb)
        return {}

    def _help(self, state: LcgState, seat: int, ids: list[str]) -> str | None:
        """Fight an enemy at its location that is engaged with someone else, when the odds are good."""
        s = board.scen(state)
        for uid in attack_targets(state, seat):
            e = s.enemies[uid]
            if e.engaged is None or e.engaged == seat:
                continue
            way, p = self._best_way(state, seat, ids, "fight", e)
            bar = GOOD_ODDS + (0.1 if board.keyword(state, e, "retaliate") else 0.0)
            if way and p >= bar:
                self.target = uid
                self._why(f"{pct(p)} to hit {board.name(state, uid)}, engaged with {board.idef(state, e.engaged).name}",
                          f"helps a friend at {pct(bar)} or better")
                return way
        return None

    def _ab(self, state: LcgState, oid: str) -> Any:
        uid, ab_id = oid.split(":")[1:]
        return next(a for a in board.cdef(state, int(uid)).abilities if a.id == ab_id)

    def _heal(self, state: LcgState, seat: int, ids: list[str]) -> str | None:
        """A card or ability that heals damage or horror before it is critical (3 or less left, or half gone and at
        least 2 to heal); never one whose own cost in damage or horror would leave 2 or less."""
        i = state.invs[seat]
        hp, sp = board.max_health(state, seat), board.max_sanity(state, seat)
        # before it is critical: 3 or less left, or half gone with at least 2 to heal
        wanted = [kind for kind, left, full in (("heal_damage", hp - i.damage, hp), ("heal_horror", sp - i.horror, sp))
                  if left <= 3 or full - left >= 2 and 2 * left <= full]
        if not wanted:
            return None
        for oid in ids:
            if oid.startswith("play:"):
                effects: object = board.pdef(state, int(oid[5:])).play
            elif oid.startswith("ab:"):
                effects = self._ab(state, oid).effects
            elif oid.startswith("f") and ":" in oid and oid[1:].split(":")[0].isdigit():
                uid, ab_id = oid[1:].split(":")
                effects = next(a.effects for a in board.cdef(state, int(uid)).abilities if a.id == ab_id)
            else:
                continue
            if oid.startswith(("ab:", "f")) and ":" in oid:
                uid, ab_id = (oid[3:] if oid.startswith("ab:") else oid[1:]).split(":")
                ab = next(a for a in board.cdef(state, int(uid)).abilities if a.id == ab_id)
                if ab.cost.damage and hp - i.damage <= ab.cost.damage + 2 or \
                        ab.cost.horror and sp - i.horror <= ab.cost.horror + 2:
                    continue
            if any(_mentions(effects, kind) for kind in wanted):
                left = [f"{hp - i.damage} of {hp} health" if kind == "heal_damage" else
                        f"{sp - i.horror} of {sp} sanity" for kind in wanted if _mentions(effects, kind)]
                self._why(f"{listed(left)} left", "heals with 3 or less left, or half gone")
                return oid
        return None

    def _finish(self, state: LcgState, seat: int, ids: list[str]) -> str | None:
        """A scenario action that advances the last act (stilling the bell: it wins) comes before the enemies
        engaged with the investigator, unless their attacks of opportunity or the test's failure would defeat it."""
        if len(board.scen(state).act_deck) != 1:
            return None
        for oid in ids:
            if not oid.startswith("ab:"):
                continue
            card = board.cdef(state, int(oid.split(":")[1]))
            if not isinstance(card, LocationCard):
                continue
            ab = self._ab(state, oid)
            test = _arg(ab.effects, "test")
            if not _mentions(ab.effects, "advance_act") or test and self._fatal_fail(state, seat, test.get("fail")):
                continue
            i = state.invs[seat]
            ready = [e for e in board.engaged(state, seat) if not e.exhausted]
            if sum(board.edef(state, e.uid).damage for e in ready) >= board.max_health(state, seat) - i.damage or \
                    sum(board.edef(state, e.uid).horror for e in ready) >= board.max_sanity(state, seat) - i.horror:
                continue
            self._why("advances the last act: it wins the scenario",
                      "neither the enemies engaged nor a failed test would defeat it first")
            return oid
        return None

    def _objective(self, state: LcgState, seat: int, ids: list[str]) -> str | None:
        """A scenario's own action (a location's, the act's, the agenda's: reading a gauge, lighting a lamp) or
        getting rid of a treachery in the threat area, when its test (if any) is not hopeless; never
        resigning."""
        for oid in ids:
            if not oid.startswith("ab:"):
                continue
            uid, ab_id = oid.split(":")[1:]
            card = board.cdef(state, int(uid))
            ab = next(a for a in card.abilities if a.id == ab_id)
            if ab.type == "resign" or isinstance(card, PlayerCard) and card.weakness is None:
                continue
            if not isinstance(card, (LocationCard, ActCard, AgendaCard, TreacheryCard, PlayerCard)):
                continue
            test = _arg(ab.effects, "test")
            if test and isinstance(card, (TreacheryCard, PlayerCard)):
                skill = str(test.get("skill", "willpower"))
                value = board.skill_value(state, seat, skill) + min(2, self._hand_icons(state, seat, skill, None))
                i = state.invs[seat]
                low = min(board.max_health(state, seat) - i.damage, board.max_sanity(state, seat) - i.horror) <= 2
                bar = 0.1 if low or self._harms_each_turn(card) else 0.3
                p = pass_chance(state, seat, value, int(test.get("difficulty", 0)))
                if p < bar:
                    continue
                self._why(f"{pct(p)} to pass; tries at {pct(bar)} or better",
                          "a long shot is worth it for a card that harms every turn, or when close to defeat")
                return oid
            elif test and self._fatal_fail(state, seat, test.get("fail")) and len(board.order(state)) > 1:
                continue  # a friend can take the test that would kill this investigator
            if isinstance(card, (TreacheryCard, PlayerCard)):
                self._why(f"rids its threat area of {card.name}")
            else:
                self._why("the scenario's own action, open now")
            return oid
        return None

    @staticmethod
    def _harms_each_turn(card: Any) -> bool:
        """A card whose forced ability deals damage or horror again and again (Dreams of Green Water)."""
        return any(ab.kind == "forced" and (_mentions(ab.effects, "damage") or _mentions(ab.effects, "horror"))
                   for ab in card.abilities)

    @staticmethod
    def _fatal_fail(state: LcgState, seat: int, effects: object) -> bool:
        """Whether the damage or horror in `effects` (a test's failure) would defeat the investigator."""
        if not isinstance(effects, list):
            return False
        i = state.invs[seat]
        dmg = sum(int(e.get("damage", 0)) for e in effects if isinstance(e, dict) and isinstance(e.get("damage"), int))
        hor = sum(int(e[k]) for e in effects if isinstance(e, dict) for k in ("horror", "direct_horror")
                  if isinstance(e.get(k), int))
        return (dmg > 0 and dmg >= board.max_health(state, seat) - i.damage
                or hor > 0 and hor >= board.max_sanity(state, seat) - i.horror)

    def _toward_clues(self, state: LcgState, seat: int, p_here: float = -1.0) -> Route | None:
        """The next step toward the most useful location: while the act wants an objective rather than clues,
        the nearest with a scenario action open now; otherwise one with clues (the likelier to investigate, a
        step farther costing a little) or still unrevealed, and only if it is clearly better than staying
        (`p_here`: the chance to investigate here, -1 with no clues here). Steps into danger it cannot take
        are avoided when there is another way. With the goal in players' words, and the places weighed."""
        here = state.invs[seat].location
        if here is None:
            return None
        s = board.scen(state)
        dist = board.distance_map(state, here)
        act = board.act(state)
        goal: str | None = None
        weighed: tuple[str, ...]
        foes: dict[str | None, str] = {}
        words, weighed = "", ()
        if act is not None and act.clues == 0:
            # an action open now; else the act's deed is most often defeating its elite enemy; else explore
            goals = [c for c in dist if c != here and s.locations[c].revealed and self._objective_at(state, seat, c)]
            words = "a scenario action open at {goal}{far}"
            if not goals and not self._objective_at(state, seat, here):
                foes = {e.location: board.name(state, e.uid) for e in s.enemies.values()
                        if e.location in dist and e.location != here and _is_foe(state, e)}
                goals = [e.location for e in s.enemies.values() if e.location in dist and e.location != here
                         and _is_foe(state, e)]
                words = "the act wants {foe} defeated, at {goal}{far}"
            if not goals:
                goals = [c for c in dist if c != here and not s.locations[c].revealed]
                words = "unrevealed {goal}{far}, and the act wants a deed"
            if goals:
                goal = min(goals, key=lambda c: (dist[c], c))
                far = f", {plural(dist[goal], 'step')} away" if dist[goal] > 1 else ""
                words = words.replace("{foe}", foes.get(goal) or "").replace("{goal}", board.loc_name(state, goal)) \
                    .replace("{far}", far)
        if goal is None:
            scored: list[tuple[float, str]] = []
            chances: dict[str, float] = {}
            for c in dist:
                if c == here:
                    continue
                loc = s.locations[c]
                if not loc.revealed:
                    p = UNREVEALED_ODDS
                elif loc.clues > 0:
                    p = self._chance_at(state, seat, c)
                else:
                    continue
                chances[c] = p
                scored.append((p - 0.12 * (dist[c] - 1) - 0.1 * self._danger(state, seat, c), c))
            if not scored:
                return None
            value, goal = min(scored, key=lambda t: (-t[0], t[1]))
            if p_here >= 0 and value < p_here + 0.15:
                return None
            here_words = f"; {pct(p_here)} here" if p_here >= 0 else ""
            words = self._place_words(state, goal, chances[goal], dist[goal]) + here_words
            best = sorted(scored, key=lambda t: (-t[0], t[1]))[1:4]
            weighed = tuple(f"weighed: {self._place_words(state, c, chances[c], dist[c])}" for _, c in best)
        steps = []
        for nxt in sorted(board.connections(state, here)):
            d = board.distance_map(state, nxt)
            if d.get(goal, 99) == dist[goal] - 1:
                steps.append(nxt)
        if not steps:
            return None
        return Route(min(steps, key=lambda c: (self._danger(state, seat, c), c)), words, weighed)

    def _place_words(self, state: LcgState, code: str, p: float, away: int) -> str:
        """A location weighed for its clues: its chance (a guess for an unrevealed one) and its distance."""
        loc = board.scen(state).locations[code]
        name = board.loc_name(state, code)
        what = f"{pct(p)} to investigate at {name}, {plural(loc.clues, 'clue')}" if loc.revealed else \
            f"unrevealed {name}, counted as {pct(UNREVEALED_ODDS)}"
        far = f", {plural(away, 'step')} away" if away > 1 else ""
        return f"{what}{far}"

    def _chance_at(self, state: LcgState, seat: int, code: str) -> float:
        """The chance to investigate `code` with the investigator's own intellect and a card or two."""
        value = board.skill_value(state, seat, "intellect", "investigate")
        value += min(2, self._hand_icons(state, seat, "intellect", "investigate"))
        return pass_chance(state, seat, value, board.shroud(state, code) + board.modifier(state, seat, "shroud"))

    def _danger(self, state: LcgState, seat: int, code: str) -> int:
        """How many of the investigator's health or sanity points short it would be of surviving an attack from
        each ready enemy there that would engage it (0: safe enough)."""
        i = state.invs[seat]
        hits = [e for e in board.enemies_at(state, code) if not e.exhausted and e.engaged is None
                and not board.keyword(state, e, "aloof")]
        damage = sum(board.edef(state, e.uid).damage for e in hits)
        horror = sum(board.edef(state, e.uid).horror for e in hits)
        left_h = board.max_health(state, seat) - i.damage
        left_s = board.max_sanity(state, seat) - i.horror
        return max(0, 2 * damage - left_h + 1) + max(0, 2 * horror - left_s + 1)

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
            self._why("commits cards to its own tests only")
            return []
        base = value = test_value(state, test)
        before = pass_chance(state, seat, base, test.difficulty)
        if before >= COMMIT_ODDS:
            self._why(f"{pct(before)} to pass without a card", f"commits until {pct(COMMIT_ODDS)}")
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
        if after >= GOOD_ODDS - 0.1 and after - before >= 0.15:
            self._why(f"{pct(before)} to pass without, {pct(after)} with {plural(len(chosen), 'card')}",
                      f"commits until {pct(COMMIT_ODDS)}, when it reaches {pct(GOOD_ODDS - 0.1)} and gains "
                      "15 points or more")
            return chosen
        self._why(f"{pct(before)} to pass; its cards would only make it {pct(after)}",
                  f"commits when it reaches {pct(GOOD_ODDS - 0.1)} and gains 15 points or more")
        return []

    # ---------------------------------------------------------------- everything else
    def _mulligan(self, state: LcgState, prompt: Prompt, seat: int) -> list[str]:
        costly = [o for o in prompt.options if (board.pdef(state, o.data).cost or 0) >= 4]
        self._why("redraws the cards costing 4 or more" if costly else "no card costs 4 or more",
                  *(f"{o.label}: {plural(board.pdef(state, o.data).cost or 0, 'resource')}" for o in costly))
        return [o.id for o in costly]

    def _assign(self, state: LcgState, prompt: Prompt, seat: int) -> str:
        assets = [o.id for o in prompt.options if o.id != "you"]
        self._why("an asset soaks it first")
        return assets[0] if assets else "you"

    def _window_ask(self, state: LcgState, prompt: Prompt, seat: int) -> str:
        uses = [o.id for o in prompt.options if o.id != "pass"]
        self._why("uses every reaction it is offered")
        return uses[0] if uses else "pass"

    def _pw(self, state: LcgState, prompt: Prompt, seat: int) -> str:
        """During its own test, a bonus that brings the value up to the margin; never one that costs damage or
        horror the investigator cannot spare."""
        if state.tests and current(state).seat == seat:
            test = current(state)
            value = test_value(state, test)
            if value < test.difficulty + MARGIN:
                for o in prompt.options:
                    if o.id != "pass" and self._affordable(state, seat, o.data):
                        self._why(f"value {value} against difficulty {test.difficulty}: wants {MARGIN} to spare")
                        return o.id
                self._why("no boost it can spare the damage or horror for")
            else:
                self._why(f"value {value} against difficulty {test.difficulty}: {MARGIN} to spare already")
        else:
            self._why("boosts its own tests only")
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
            self._why("4 free purchases in a row: enough")
            return "done"
        self.free_buys[seat] = self.free_buys.get(seat, 0) + 1 if rec.xp == 0 else 0
        self._why(f"first on the deckbuilding list; {rec.xp} XP unspent",
                  *(f"weighed: {o.label}" for o in prompt.options[1:4] if o.id != "done"))
        return ups[0]

    def _pick(self, state: LcgState, prompt: Prompt, seat: int) -> str | None:
        """The enemy the investigator meant to fight or evade; an enemy that moves by the lead's choice goes
        where fewer investigators are hurt; an enemy engages the investigator with the most health left."""
        frame = state.flow.stack[-1]
        then = frame.args.get("then")
        values = {o.id: o.data for o in prompt.options}
        if then in ("fight_start", "evade_start"):
            for oid, uid in values.items():
                if uid == self.target:
                    self._why(f"the enemy it chose to {'fight' if then == 'fight_start' else 'evade'}")
                    return oid
        if then == "move_enemy":
            best = min(values, key=lambda oid: (len(board.at(state, str(values[oid]))), oid))
            self._why(f"{plural(len(board.at(state, str(values[best]))), 'investigator')} there, the fewest")
            return best
        if then == "engage_with":
            def left(oid: str) -> tuple[int, str]:
                s = int(values[oid])
                i = state.invs[s]
                return (-(board.max_health(state, s) - i.damage + board.max_sanity(state, s) - i.horror), oid)
            best = min(values, key=left)
            self._why(f"{-left(best)[0]} health and sanity left, the most")
            return best
        return None

    def _hand_discard(self, state: LcgState, prompt: Prompt, seat: int) -> list[str]:
        n = prompt.min_choices
        ranked = sorted(prompt.options, key=lambda o: -(board.pdef(state, o.data).cost or 0))
        cost = board.pdef(state, ranked[n - 1].data).cost or 0 if n else 0
        self._why(f"the costliest in hand: {plural(cost, 'resource')}" if n == 1 else "the costliest cards in hand")
        return [o.id for o in ranked[:n]]




def _a_choice(prompt: Prompt) -> bool:
    """Whether a prompt leaves a real choice (a single option, or a fixed amount, is a routine answer)."""
    if prompt.kind is PromptKind.AMOUNT:
        return prompt.max_amount > prompt.min_amount
    return len(prompt.options) > 1 or prompt.kind is PromptKind.MANY and bool(prompt.options)
