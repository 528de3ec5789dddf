"""Queries over the card game's state: cards and their definitions, who is where, skill values with every
modifier in play, counts and conditions. Nothing here changes the state except `new_card`."""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

from engine.arkham_lcg.content import (
    CONTENT_BY_VERSION,
    ENEMY_KEYWORDS,
    ActCard,
    AgendaCard,
    AnyCard,
    Content,
    EnemyCard,
    Investigator,
    LocationCard,
    PlayerCard,
    lookup,
)
from engine.arkham_lcg.state import CardInst, EnemyState, InvState, LcgState, ScenarioState, Zone
from engine.core.errors import EngineError
from engine.core.text import plural

counted = plural  # "1 clue", "2 clues": a number and its word in labels

#: the printed hand size (upkeep 4.5; FAQ errata changes it on two cards)
HAND_SIZE = 8
#: a scenario starts each investigator with 5 resources and 5 cards (setup A.1)
START_RESOURCES = 5
OPENING_HAND = 5
ACTIONS_PER_TURN = 3


#: each content version's content and its table of every card (a version's content never changes once
#: loaded): asked on nearly every rules step, so one dict read
_BY_VERSION: dict[str, tuple[Content, dict[str, AnyCard]]] = {}


def _of(version: str) -> tuple[Content, dict[str, AnyCard]]:
    found = _BY_VERSION.get(version)
    if found is None:
        c = CONTENT_BY_VERSION.of(version)
        found = _BY_VERSION[version] = (c, lookup(c).cards)
    return found


def content(state: LcgState) -> Content:
    found = _BY_VERSION.get(state.content_version)
    return (found or _of(state.content_version))[0]


def scen(state: LcgState) -> ScenarioState:
    s = state.scenario
    if s is None:
        raise EngineError("no scenario is being played")
    return s


def card(state: LcgState, uid: int) -> CardInst:
    return state.cards[uid]


def cdef(state: LcgState, uid: int) -> AnyCard:
    found = _BY_VERSION.get(state.content_version)
    return (found or _of(state.content_version))[1][current_code(state, uid)]


def pdef(state: LcgState, uid: int) -> PlayerCard:
    c = content(state).player.get(state.cards[uid].code)
    if c is None:
        raise EngineError(f"card {uid} ({state.cards[uid].code}) is not a player card")
    return c


#: enemy weaknesses read as enemies, by (content version, card id): built once
_WEAKNESS_ENEMIES: dict[tuple[str, str], EnemyCard] = {}


def edef(state: LcgState, uid: int) -> EnemyCard:
    code = state.cards[uid].code
    c = content(state).enemies.get(code)
    if c is not None:
        return c
    key = (state.content_version, code)
    found = _WEAKNESS_ENEMIES.get(key)
    if found is None:
        pc = content(state).player.get(code)
        if pc is None or pc.type != "enemy":
            raise EngineError(f"card {uid} ({code}) is not an enemy")
        found = _WEAKNESS_ENEMIES[key] = EnemyCard(
            id=pc.id, name=pc.name, traits=pc.traits, text=pc.text, fight=pc.fight or 0, evade=pc.evade or 0,
            health=pc.health or 1, damage=pc.damage, horror=pc.horror,
            keywords=[k for k in pc.keywords if k in ENEMY_KEYWORDS],
            abilities=pc.abilities, modifiers=pc.modifiers, victory=pc.victory)
    return found


def ldef(state: LcgState, code: str) -> LocationCard:
    return content(state).locations[code]


def idef(state: LcgState, seat: int) -> Investigator:
    return content(state).investigators[state.invs[seat].code]


def act(state: LcgState) -> ActCard | None:
    deck = scen(state).act_deck
    return content(state).acts[deck[0]] if deck else None


def agenda(state: LcgState) -> AgendaCard | None:
    deck = scen(state).agenda_deck
    return content(state).agendas[deck[0]] if deck else None


def sync_act_agenda(state: LcgState) -> None:
    """The current act and agenda each have one card instance for the whole scenario (its abilities trigger
    like any card's); its code follows the deck's first card (after setup and after each advance)."""
    s = scen(state)
    for deck, attr in ((s.act_deck, "act_uid"), (s.agenda_deck, "agenda_uid")):
        uid = getattr(s, attr)
        if not uid:
            uid = new_card(state, deck[0] if deck else "", None, "act" if attr == "act_uid" else "agenda")
            setattr(s, attr, uid)
        state.cards[uid].code = deck[0] if deck else ""


def current_code(state: LcgState, uid: int) -> str:
    """A card's code; for the act and agenda instances, the deck's current card (read, never stored twice)."""
    s = state.scenario
    if s is not None and uid:  # read tens of times per action: the scenario is checked once
        if uid == s.act_uid:
            return s.act_deck[0] if s.act_deck else ""
        if uid == s.agenda_uid:
            return s.agenda_deck[0] if s.agenda_deck else ""
    return state.cards[uid].code


def name(state: LcgState, uid: int) -> str:
    c = cdef(state, uid)
    return f"{c.name} ({c.subtitle})" if c.subtitle and isinstance(c, PlayerCard) else c.name


def loc_name(state: LcgState, code: str | None) -> str:
    return "nowhere" if code is None else content(state).locations[code].name


def source_name(state: LcgState, source: str) -> str:
    """What a question or a change comes from, as players name it: a card's or a scenario's name, a rule's own
    words ("attack of opportunity"); "" for the rules in general or an id without a name (never the id)."""
    c = content(state)
    if c.has(source):
        return c.card(source).name
    if source in c.scenarios:
        return c.scenarios[source].name
    return "" if source == "rules" or any(ch in source for ch in "._:") else source


def named_source(state: LcgState, source: str) -> str:
    """The card's or scenario's name behind a change, "" for a rule ("upkeep", "resource action"): what a line
    adds in brackets to say why, where the rule itself goes without saying."""
    c = content(state)
    return source_name(state, source) if c.has(source) or source in c.scenarios else ""


def new_card(state: LcgState, code: str, owner: int | None, zone: Zone) -> int:
    uid = state.next_uid
    state.next_uid += 1
    state.cards[uid] = CardInst(uid=uid, code=code, owner=owner, controller=owner if zone == "play" else None,
                                zone=zone)
    return uid


def campaign_over(state: LcgState) -> bool:
    """The whole campaign is over: its last scenario has been played, or nobody is left to play the next."""
    camp = state.campaign
    return camp.scenario_index >= len(content(state).campaign.scenarios) or \
        not any(r.status == "active" for r in camp.investigators)


# ---------------------------------------------------------------- investigators

def inv(state: LcgState, seat: int) -> InvState:
    return state.invs[seat]


def playing(state: LcgState, seat: int) -> bool:
    return 0 <= seat < len(state.invs) and state.invs[seat].status == "playing"


def order(state: LcgState) -> list[int]:
    """Investigators still in the scenario, in player order (from the lead, clockwise = by seat)."""
    n = len(state.invs)
    seats = [(state.lead + i) % n for i in range(n)]
    return [s for s in seats if state.invs[s].status == "playing"]


def at(state: LcgState, loc: str | None) -> list[int]:
    """Investigators at a location, in player order."""
    return [s for s in order(state) if state.invs[s].location == loc]


def lead(state: LcgState) -> int:
    """The lead investigator; if the lead has left the scenario, the next investigator in order decides."""
    live = order(state)
    return live[0] if live else state.lead


# ---------------------------------------------------------------- locations and enemies

def connections(state: LcgState, code: str) -> list[str]:
    """Connected locations that are in play (a connection to a location not in play does not exist)."""
    locs = scen(state).locations
    return [c for c in ldef(state, code).connections if c in locs]


def distance_map(state: LcgState, start: str) -> dict[str, int]:
    dist = {start: 0}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nxt in connections(state, here):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                todo.append(nxt)
    return dist


def enemies_at(state: LcgState, loc: str | None) -> list[EnemyState]:
    return [e for e in scen(state).enemies.values() if e.location == loc]


def engaged(state: LcgState, seat: int) -> list[EnemyState]:
    """Enemies engaged with `seat`; a massive enemy is engaged with every investigator at its location."""
    where = state.invs[seat].location
    return [e for e in scen(state).enemies.values()
            if e.engaged == seat or (e.location == where and where is not None and is_massive(state, e))]


def is_massive(state: LcgState, e: EnemyState) -> bool:
    return "massive" in edef(state, e.uid).keywords


def keyword(state: LcgState, e: EnemyState, kw: str) -> bool:
    return kw in edef(state, e.uid).keywords


def enemy_fight(state: LcgState, e: EnemyState) -> int:
    return max(0, edef(state, e.uid).fight + _enemy_mod(state, e, "enemy_fight"))


def enemy_evade(state: LcgState, e: EnemyState) -> int:
    return max(0, edef(state, e.uid).evade + _enemy_mod(state, e, "enemy_evade"))


def _enemy_mod(state: LcgState, e: EnemyState, stat: str) -> int:
    total = 0
    for m in edef(state, e.uid).modifiers:
        if m.get("stat") == stat:
            total += int(m["amount"])
    return total


def shroud(state: LcgState, code: str) -> int:
    return max(0, ldef(state, code).shroud)


# ---------------------------------------------------------------- modifiers and skill values

#: while a question is built the state does not change (building a prompt never does), so what is in force on
#: a seat is worked out once for the whole question: a turn's menu asks it for nearly every option
_READING: ContextVar[dict[tuple[int, int], list[dict[str, Any]]] | None] = ContextVar("lcg_reading", default=None)

P = ParamSpec("P")
R = TypeVar("R")


def reading(fn: Callable[P, R]) -> Callable[P, R]:
    """`fn` only reads the state (a prompt, the seats a question is for): the modifiers in force are worked
    out once per seat while it runs."""
    @functools.wraps(fn)
    def read(*args: P.args, **kwargs: P.kwargs) -> R:
        if _READING.get() is not None:
            return fn(*args, **kwargs)
        token = _READING.set({})
        try:
            return fn(*args, **kwargs)
        finally:
            _READING.reset(token)
    return read


def _mods_on(state: LcgState, seat: int) -> list[dict[str, Any]]:
    """Every constant modifier that applies to `seat` now (`_mods_now`); the same list again while a question
    is built (`reading`). Read only: the list may be shared."""
    memo = _READING.get()
    if memo is None:
        return _mods_now(state, seat)
    key = (id(state), seat)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _mods_now(state, seat)
    return found


def _mods_now(state: LcgState, seat: int) -> list[dict[str, Any]]:
    """Every constant modifier that applies to `seat` now: its investigator card, the cards it controls, its
    threat area, cards of investigators at its location with `who: here`, every card with `who: all`, the
    enemies engaged with it and its location's cards, and its lasting effects."""
    i = state.invs[seat]
    c, cards = _BY_VERSION.get(state.content_version) or _of(state.content_version)
    held = state.cards
    out: list[dict[str, Any]] = []

    def add(mods: list[dict[str, Any]], mine: bool, same_place: bool) -> None:
        for m in mods:
            who = m.get("who", "you")
            if (who == "you" and mine) or (who == "here" and same_place) or who == "all":
                out.append(m)

    add(c.investigators[i.code].modifiers, True, True)
    for other, o in enumerate(state.invs):
        if o.status != "playing" and other != seat:
            continue
        same = o.location == i.location
        # play and threat areas never hold the act's or agenda's instance: a card's own code is its current one
        for area in (o.play, o.threat):
            for uid in area:
                mods = cards[held[uid].code].modifiers
                if mods:  # most cards in play change no value: nothing to sort
                    add(mods, other == seat, same)
    if state.scenario is not None:
        for e in engaged(state, seat):
            add(edef(state, e.uid).modifiers, True, True)
        for e in enemies_at(state, i.location):
            if e.engaged != seat:
                add([m for m in edef(state, e.uid).modifiers if m.get("who") in ("here", "all")], False, True)
        if i.location is not None:
            loc = scen(state).locations.get(i.location)
            if loc is not None and loc.revealed:
                add(ldef(state, i.location).modifiers, True, True)
            for uid in scen(state).attachments.get(i.location, []):
                add(cdef(state, uid).modifiers, True, True)
        ag = agenda(state)
        if ag is not None:
            add(ag.modifiers, True, True)
    out.extend(i.lasting)
    return out


def modifier(state: LcgState, seat: int, stat: str, during: str | None = None) -> int:
    total = 0
    for m in _mods_on(state, seat):
        if m.get("stat") != stat:
            continue
        when = m.get("during", "any")
        if when == "any" or when == during:
            total += int(m["amount"])
    return total


def forbidden(state: LcgState, seat: int, what: str) -> bool:
    """A `cannot` in force on `seat` forbids `what` (vocab.RESTRICTIONS). "Cannot" is absolute: no `can` and no
    other effect overrides it (Rules Reference, Can and Cannot)."""
    return any(m.get("cannot") == what for m in _mods_on(state, seat))


def permitted(state: LcgState, seat: int, what: str) -> bool:
    """A `can` in force on `seat` allows `what`, which a rule forbids otherwise, unless a `cannot` forbids it."""
    return any(m.get("can") == what for m in _mods_on(state, seat)) and not forbidden(state, seat, what)


def reset_actions(state: LcgState, seat: int) -> None:
    """Upkeep (and setup): 3 actions plus every `actions` modifier in force."""
    i = state.invs[seat]
    i.action_mod = modifier(state, seat, "actions")
    i.actions = max(0, ACTIONS_PER_TURN + i.action_mod)


def sync_actions(state: LcgState, seat: int) -> None:
    """An `actions` modifier counts from the moment its card is in play [decided, as the card game plays an
    ally that gives an action during your turn: that action is usable at once]: the change since the last
    count is added to (or taken from, never below 0) the actions left."""
    i = state.invs[seat]
    now = modifier(state, seat, "actions")
    if now != i.action_mod:
        i.actions = max(0, i.actions + now - i.action_mod)
        i.action_mod = now


def base_skill(state: LcgState, seat: int, skill: str) -> int:
    return idef(state, seat).skill(skill)


def skill_value(state: LcgState, seat: int, skill: str, during: str | None = None) -> int:
    """The investigator's skill with every constant and lasting modifier (before commits and tokens)."""
    return max(0, base_skill(state, seat, skill) + modifier(state, seat, skill, during))


def max_health(state: LcgState, seat: int) -> int:
    return max(1, idef(state, seat).health + modifier(state, seat, "health"))


def max_sanity(state: LcgState, seat: int) -> int:
    return max(1, idef(state, seat).sanity + modifier(state, seat, "sanity"))


def hand_size(state: LcgState, seat: int) -> int:
    return max(0, HAND_SIZE + modifier(state, seat, "hand_size"))


def asset_health(state: LcgState, uid: int) -> int:
    d = cdef(state, uid)
    return getattr(d, "health", None) or 0


def asset_sanity(state: LcgState, uid: int) -> int:
    d = cdef(state, uid)
    return getattr(d, "sanity", None) or 0


# ---------------------------------------------------------------- counts and conditions

def count(state: LcgState, seat: int, what: str) -> int:
    i = state.invs[seat]
    s = state.scenario
    if what == "enemies_here":
        return len(enemies_at(state, i.location))
    if what == "engaged_enemies":
        return len(engaged(state, seat))
    if what == "doom":
        return s.agenda_doom if s else 0
    if what == "doom_in_play":
        return doom_in_play(state)
    if what == "clues_here":
        loc = s.locations.get(i.location or "") if s else None
        return loc.clues if loc else 0
    if what == "your_clues":
        return i.clues
    if what == "your_damage":
        return i.damage
    if what == "your_horror":
        return i.horror
    if what == "revealed_locations":
        return sum(1 for loc in s.locations.values() if loc.revealed) if s else 0
    if what == "investigators":
        return len(order(state))
    if what == "cards_in_hand":
        return len(i.hand)
    if what == "victory_display":
        return len(s.victory) if s else 0
    raise EngineError(f"unknown count '{what}'")


def doom_in_play(state: LcgState) -> int:
    """Doom on the agenda and on every card in play: what the agenda's threshold is checked against (A.2 1.3)."""
    s = scen(state)
    total = s.agenda_doom + sum(e.doom for e in s.enemies.values()) + sum(loc.doom for loc in s.locations.values())
    for i in state.invs:
        for uid in [*i.play, *i.threat]:
            total += state.cards[uid].doom
    return total


def holds(state: LcgState, ctx: dict[str, Any], cond: dict[str, Any] | None) -> bool:
    """Does a content condition (vocab.CONDITIONS) hold for the effect context `ctx`?"""
    if not cond:
        return True
    (key, value), = cond.items()
    return bool(_holds(state, ctx, key, value))


def _holds(state: LcgState, ctx: dict[str, Any], key: str, value: Any) -> Any:
    if key == "all":
        return all(holds(state, ctx, c) for c in value)
    if key == "any":
        return any(holds(state, ctx, c) for c in value)
    if key == "not":
        return not holds(state, ctx, value)
    camp = state.campaign
    if key == "logged":
        return value in camp.log and value not in camp.crossed_out
    if key == "crossed_out":
        return value in camp.crossed_out
    if key == "difficulty":
        return camp.difficulty in value
    s = state.scenario
    if key == "remembered":
        return s is not None and value in s.remembered
    if key == "investigators":
        return len(order(state)) >= value
    if key == "in_play":
        return s is not None and any(state.cards[u].code == value and state.cards[u].zone in
                                     ("play", "threat", "location", "attached") for u in state.cards) or \
            (s is not None and (value in s.locations or any(e.code == value for e in s.enemies.values())))
    if key == "victory_has":
        return s is not None and any(state.cards[u].code == value for u in s.victory)
    if key == "doom":
        return s is not None and s.agenda_doom >= value
    if key == "act":
        a = act(state)
        return a is not None and a.number >= value
    if key == "agenda":
        g = agenda(state)
        return g is not None and g.number >= value
    test = state.tests[-1] if state.tests else None
    last = ctx.get("test") or {}
    if key == "test_action":
        return (test.action if test else last.get("action")) == value
    if key == "test_skill":
        return (test.skill if test else last.get("skill")) == value
    if key == "margin":
        ok = test.success if test else last.get("success")
        return bool(ok) and (test.margin if test else last.get("margin", 0)) >= value
    if key == "failed_by":
        ok = test.success if test else last.get("success")
        return ok is False and (test.margin if test else last.get("margin", 0)) >= value
    if key == "token":
        tok = test.tokens[-1] if test and test.tokens else ctx.get("token")
        return tok in value
    if key == "enemy_trait":
        e = ctx.get("enemy")  # the enemy's card stays in `state.cards` after it leaves play (an "after defeat")
        return e is not None and e in state.cards and value in edef(state, e).traits
    seat = ctx.get("seat")
    if seat is None:
        return False
    i = state.invs[seat]
    if key == "engaged":
        return bool(engaged(state, seat))
    if key == "enemy_here":
        return bool(enemies_at(state, i.location))
    if key == "enemy_trait_here":
        return any(value in edef(state, e.uid).traits for e in enemies_at(state, i.location))
    if key == "at":
        return i.location == value
    if key == "location_trait":
        return i.location is not None and value in ldef(state, i.location).traits
    if key == "clues_here":
        return count(state, seat, "clues_here") >= value
    if key == "your_clues":
        return i.clues >= value
    if key == "resources":
        return i.resources >= value
    if key == "cards_in_hand":
        return len(i.hand) >= value
    if key == "damage":
        return i.damage >= value
    if key == "horror":
        return i.horror >= value
    raise EngineError(f"unknown condition '{key}'")
