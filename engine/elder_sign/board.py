"""Table queries and mutations shared by every step: dice, locks, cards in play, monsters, trophies."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.core.events import Event
from engine.core.game import SeatSpec
from engine.core.text import played_by
from engine.elder_sign.content import AdventureCard, Content, content_of
from engine.elder_sign.dice import DIE_IDS, color_of
from engine.elder_sign.ops import event
from engine.elder_sign.state import (
    CardInPlay,
    DieLoc,
    ElderSignState,
    Investigator,
    LockKind,
    MonsterOn,
    new_lock,
    new_monster_on,
)
from engine.elder_sign.tasks import Task

Events = list[Event]


_LAST: list[Any] = [None, None]  # the last (version, content) looked up: nearly every lookup repeats it


def content(state: ElderSignState) -> Content:
    version = state.content_version
    if _LAST[0] != version:
        _LAST[1], _LAST[0] = content_of(version), version
    return _LAST[1]  # type: ignore[no-any-return]


def put(model: BaseModel, field: str, value: object) -> None:
    """`model.<field> = value` as a plain write, for the steps that run on most turns of every game: pydantic's
    assignment hook only records the field as set (which nothing here reads; a model's JSON is the same either
    way), and costs more than the rule around it."""
    model.__dict__[field] = value


def inv(state: ElderSignState, seat: int) -> Investigator:
    investigator = state.table[seat].investigator
    if investigator is None:
        raise RuntimeError(f"seat {seat} has no investigator")
    return investigator


def name(state: ElderSignState, seat: int) -> str:
    """ "Ada Whitcombe (alice)": the investigator and the player; the player alone without an investigator."""
    i = state.table[seat].investigator
    spec = state.seats[seat]
    if i is None:
        return spec.name
    version = state.content_version
    got = _NAMES.get(id(i))
    if got is None or got[0] is not i or got[1] is not spec or got[2] != version:
        if len(_NAMES) > 4096:
            _NAMES.clear()
        got = _NAMES[id(i)] = (i, spec, version, played_by(content(state).investigators[i.card].name, spec.name))
    return got[3]


#: (investigator, seat, content version, "investigator (player)") by id of the investigator: named in nearly
#: every line of narration. An investigator's card never changes, nor does a version's content
#: (engine/core/content.py); the player's name is read from the same seat object (a new seat, a new name).
_NAMES: dict[int, tuple[Investigator, SeatSpec, str, str]] = {}


def living_seats(state: ElderSignState) -> list[int]:
    return [s for s, seat in enumerate(state.table) if seat.investigator is not None and not seat.eliminated]


# ---------------------------------------------------------------- cards in play

_SLOT_INDEX = {f"slot:{i}": i for i in range(64)}


def card_at(state: ElderSignState, where: str) -> CardInPlay | None:
    i = _SLOT_INDEX.get(where)
    if i is not None:
        return state.slots[i]
    if where.startswith("slot:"):
        return state.slots[int(where[5:])]
    if where.startswith("ow:"):
        for c in state.other_worlds:
            if c.card == where[3:]:
                return c
    return None


def card_data(state: ElderSignState, where: str) -> AdventureCard | None:
    cip = card_at(state, where)
    if cip is None:
        return None
    return card_of(state, cip.card)


def card_of(state: ElderSignState, card_id: str) -> AdventureCard | None:
    """The adventure or Other World card of this id."""
    c = content(state)
    return c.adventures.get(card_id) or c.other_worlds.get(card_id)


def places(state: ElderSignState) -> list[str]:
    """Every face-up card location: adventure slots row by row, then Other Worlds (digest 3.4 order)."""
    out = [f"slot:{i}" for i, c in enumerate(state.slots) if c is not None]
    out += [f"ow:{c.card}" for c in state.other_worlds]
    return out


def cards_in_play(state: ElderSignState) -> list[tuple[str, CardInPlay]]:
    """(where, card) of every face-up card, in the order of `places`."""
    out = [(f"slot:{i}", c) for i, c in enumerate(state.slots) if c is not None]
    out += [(f"ow:{c.card}", c) for c in state.other_worlds]
    return out


def place_label(state: ElderSignState, where: str) -> str:
    if where == "entrance":
        return "the Entrance"
    if where == "ao":
        return content(state).ancient_ones[state.ao].name
    card = card_data(state, where)
    return card.name if card else where


#: task lists by (content version, card, its monsters): the same few cards are asked about on every step
_TASKS: dict[tuple[Any, ...], tuple[tuple[str, Task], ...]] = {}


def task_list(state: ElderSignState, where: str) -> list[tuple[str, Task]]:
    """The card's tasks as they stand now, keyed: printed ones ("t<i>") with monsters in their slots, then
    monsters placed below the card ("m<id>"). Empty monster slots with no monster are not tasks (5.2).
    The tasks returned are shared: read them, never change them."""
    cip = card_at(state, where)
    if cip is None:
        return []
    return list(_tasks_of(state, cip))


def _tasks_key(state: ElderSignState, cip: CardInPlay) -> tuple[Any, ...]:
    """What a card's tasks depend on: the content (by version: a version's content never changes), the card
    and its monsters (which, where, defeated)."""
    monsters = cip.monsters
    placed = tuple([(m.monster, m.slot, m.defeated_by is None) for m in monsters]) if monsters else ()
    return (state.content_version, cip.card, placed)


def _tasks_of(state: ElderSignState, cip: CardInPlay, key: tuple[Any, ...] | None = None
              ) -> tuple[tuple[str, Task], ...]:
    if key is None:
        key = _tasks_key(state, cip)
    got = _TASKS.get(key)
    if got is None:
        if len(_TASKS) > 4096:
            _TASKS.clear()
            _TASKS_TEXT.clear()
        got = _TASKS[key] = tuple(_task_list(content(state), cip))
        _TASKS_TEXT[key] = "; ".join(t.text() for _, t in got)
    return got


#: the same task lists as players read them, one line each
_TASKS_TEXT: dict[tuple[Any, ...], str] = {}


def tasks_text(state: ElderSignState, where: str) -> str:
    """The card's tasks as they stand now, as one line ("Inv 5; Lore, Peril")."""
    cip = card_at(state, where)
    if cip is None:
        return ""
    return card_tasks_text(state, cip)


def card_tasks_text(state: ElderSignState, cip: CardInPlay) -> str:
    """`tasks_text` of a card in play."""
    key = _tasks_key(state, cip)
    _tasks_of(state, cip, key)
    return _TASKS_TEXT[key]


def _task_list(c: Content, cip: CardInPlay) -> list[tuple[str, Task]]:
    card = c.adventures.get(cip.card) or c.other_worlds.get(cip.card)
    if card is None:
        return []
    in_slot = {m.slot: m for m in cip.monsters if m.slot is not None}
    out: list[tuple[str, Task]] = []
    for i, task in enumerate(card.tasks):
        m = in_slot.get(i)
        if m is None:
            if task.slot == "empty":
                continue
            out.append((f"t{i}", task))
        elif m.defeated_by is not None:
            rest = task.without_monster_part()
            if rest.symbols:
                out.append((f"t{i}", rest))
        else:
            out.append((f"t{i}", task.with_monster(c.monsters[m.monster].task)))
    for m in cip.monsters:
        if m.slot is None and m.defeated_by is None:
            out.append((f"m{m.monster}", c.monsters[m.monster].task))
    return out


def open_tasks(state: ElderSignState, where: str) -> list[tuple[str, Task]]:
    """Tasks still to complete this adventure; on an ordered card only the first of them (3.2)."""
    cip = card_at(state, where)
    if cip is None:
        return []
    done = state.adventure.completed if state.adventure else ()
    remaining = [(k, t) for k, t in _tasks_of(state, cip) if k not in done]
    if len(remaining) > 1:
        card = card_data(state, where)
        if card is not None and card.ordered:
            return remaining[:1]
    return remaining


def any_open_task(state: ElderSignState, where: str) -> bool:
    """Whether `open_tasks(state, where)` is not empty (an ordered card's first open task is one)."""
    cip = card_at(state, where)
    if cip is None:
        return False
    done = state.adventure.completed if state.adventure else ()
    for k, _ in _tasks_of(state, cip):
        if k not in done:
            return True
    return False


def monster_for_task(state: ElderSignState, where: str, key: str) -> MonsterOn | None:
    cip = card_at(state, where)
    if cip is None:
        return None
    for m in cip.monsters:
        if m.defeated_by is None and ((m.slot is None and key == f"m{m.monster}") or
                                      (m.slot is not None and key == f"t{m.slot}")):
            return m
    return None


def investigators_at(state: ElderSignState, where: str) -> list[int]:
    return [s for s in living_seats(state) if inv(state, s).location == where]


# ---------------------------------------------------------------- dice

def dice_at(state: ElderSignState, loc: DieLoc, holder: str | None = None) -> list[str]:
    # state.dice is built in DIE_IDS order (rules.new_game), so its items come out in the dice's table order
    if holder is None:
        return [d for d, die in state.dice.items() if die.loc == loc]
    return [d for d, die in state.dice.items() if die.loc == loc and die.holder == holder]


def set_die(state: ElderSignState, die: str, loc: DieLoc, holder: str | None = None, face: str | None = None,
            keep_face: bool = False) -> None:
    # plain writes, skipping pydantic's assignment hook (it only records which fields were set, which nothing
    # here reads; a Die's JSON is the same either way): this runs for every die moved on every step
    d = state.dice[die].__dict__
    d["loc"], d["holder"] = loc, holder
    if not keep_face:
        d["face"] = face


def return_die(state: ElderSignState, die: str) -> None:
    """A die leaves play: to the next waiting lock of its colour, else to the supply (3.3)."""
    for lock in state.locks:
        if lock.die is None and lock.color == color_of(die):
            lock.die = die
            set_die(state, die, "locked", lock.id)
            return
    set_die(state, die, "supply")


def lock_die(state: ElderSignState, color: str, source: str, kind: LockKind, events: Events) -> None:
    """A lock icon enters play: lock a die of that colour, even one on a spell or focused (3.3).
    Green: a free die first (supply, then spell, then focus, then the pool) [AMBIG 3.3 default]; the lock
    queues only when every die of the colour is already locked."""
    state.lock_counter += 1
    lock = new_lock(f"L{state.lock_counter}", color, source, kind)
    state.locks.append(lock)
    order: tuple[DieLoc, ...] = ("supply", "discarded", "secured", "focused", "assisted", "pool")
    for loc in order:
        for d in DIE_IDS:
            if color_of(d) == color and state.dice[d].loc == loc:
                lock.die = d
                set_die(state, d, "locked", lock.id)
                events.append(event(kind="die.locked", text=f"A {color} die is locked by "
                                    f"{card_name(state, source)}.", cause=source, data={"die": d}))
                return
    events.append(event(kind="die.lock_queued", text=f"Every {color} die is already locked; "
                        f"{card_name(state, source)} waits for the next one.", cause=source))


def unlock_source(state: ElderSignState, source: str, events: Events) -> None:
    """Free every lock of `source` (its card resolved, its monster defeated, its Mythos replaced)."""
    mine = [lk for lk in state.locks if lk.source == source]
    state.locks = [lk for lk in state.locks if lk.source != source]
    for lk in mine:
        if lk.die is not None:
            events.append(event(kind="die.unlocked", text=f"The {lk.color} die held by "
                                f"{card_name(state, source)} is freed.", cause=source))
            return_die(state, lk.die)


def cancel_lock(state: ElderSignState, die: str) -> None:
    """An ability frees one locked die: its lock is cancelled (digest 3.2, the only way to free a lock)."""
    state.locks = [lk for lk in state.locks if lk.die != die]
    return_die(state, die)


def card_name(state: ElderSignState, card_id: str) -> str:
    try:
        return content(state).card(card_id).name
    except KeyError:
        return card_id


# ---------------------------------------------------------------- trophies

def trophy_value(state: ElderSignState, card_id: str) -> int:
    c = content(state)
    if card_id in c.monsters:
        return c.monsters[card_id].trophy
    card = c.adventures.get(card_id) or c.other_worlds.get(card_id)
    return card.trophy if card else 0


def trophy_total(state: ElderSignState, seat: int) -> int:
    return sum(trophy_value(state, t) for t in inv(state, seat).trophies)


def payments(state: ElderSignState, seat: int, cost: int, limit: int = 12) -> list[list[str]]:
    """Minimal sets of the seat's trophies worth at least `cost` (no change is given, 4.2): every set whose
    every trophy is needed. Distinct by the values used, smallest overpayment first."""
    trophies = inv(state, seat).trophies
    vals = [trophy_value(state, t) for t in trophies]
    out: list[tuple[int, list[str]]] = []
    seen: set[tuple[int, ...]] = set()
    n = len(trophies)

    def rec(i: int, chosen: list[int], total: int) -> None:
        if total >= cost:
            if all(total - vals[j] < cost for j in chosen):
                key = tuple(sorted(vals[j] for j in chosen))
                if key not in seen:
                    seen.add(key)
                    out.append((total - cost, [trophies[j] for j in chosen]))
            return
        for j in range(i, n):
            rec(j + 1, chosen + [j], total + vals[j])

    if n <= 14:
        rec(0, [], 0)
    out.sort(key=lambda x: (x[0], len(x[1])))
    return [p for _, p in out[:limit]]


def return_trophy(state: ElderSignState, card_id: str) -> None:
    c = content(state)
    if card_id in c.monsters:
        state.cup.append(card_id)
    elif card_id in c.adventures:
        state.decks["adventure"].put_bottom(card_id)
    elif card_id in c.other_worlds:
        state.decks["other_world"].put_bottom(card_id)


def return_item(state: ElderSignState, card_id: str) -> None:
    kind = content(state).items[card_id].kind
    state.decks[kind].put_bottom(card_id)


# ---------------------------------------------------------------- monsters & modifiers

def monster_count(cip: CardInPlay) -> int:
    return sum(1 for m in cip.monsters if m.defeated_by is None)


def modifier(state: ElderSignState, key: str) -> bool | int | None:
    """A lingering rule change (content.MODIFIERS: each is a bool or an int), None when nothing sets it."""
    c = content(state)
    value = c.ancient_ones[state.ao].modifiers.get(key)
    if state.mythos is not None:
        value = c.mythos[state.mythos].modifiers.get(key, value)
    return value


def add_monster_to(state: ElderSignState, where: str, monster: str, slot: int | None, events: Events,
                   why: str = "") -> None:
    """Place a monster marker (`why`: " (from <card or rule>)" for the narration)."""
    cip = card_at(state, where)
    assert cip is not None
    cip.monsters.append(new_monster_on(monster, slot))
    m = content(state).monsters[monster]
    spot = "in a monster slot" if slot is not None else "below the card"
    events.append(event(kind="monster.appeared", text=f"{m.name} appears{why} on {place_label(state, where)} "
                        f"({spot}): {m.task.text()}.", cause=monster, data={"where": where}))
    if m.lock:
        lock_die(state, m.lock, monster, "monster", events)
