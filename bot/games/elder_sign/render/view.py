"""What the Elder Sign renderer reads from the engine's view, in one place.

`read_table(view)` turns the view (today a dict from `engine.elder_sign.view.build_view`; tomorrow a typed
model) into small frozen records, and the drawing code reads only those. So when the view's shape changes,
this module changes and the drawing does not. `_get` reads a key from a dict or an attribute from a model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if obj is None:
        return default
    if isinstance(obj, dict):
        value = obj.get(key, default)
    else:
        value = getattr(obj, key, default)
    return default if value is None else value


def _int(obj: Any, key: str) -> int:
    return int(_get(obj, key, 0) or 0)


@dataclass(frozen=True)
class TaskInfo:
    symbols: tuple[str, ...]
    clock: int
    sanity: int
    stamina: int
    done: bool
    monster: str | None


@dataclass(frozen=True)
class CardInfo:
    where: str
    name: str
    trophy: int
    ordered: bool
    other_world: bool
    tasks: tuple[TaskInfo, ...]
    locks: tuple[str, ...]  # colours of the dice locked on it
    investigators: tuple[int, ...]  # seats with a marker on it
    terror: str
    rewards: str
    penalties: str
    midnight: str

    def open_tasks(self) -> tuple[TaskInfo, ...]:
        return tuple(t for t in self.tasks if not t.done)


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    player: str
    investigator: str | None
    sanity: int
    max_sanity: int
    stamina: int
    max_stamina: int
    clues: int
    trophy_total: int
    location: str
    location_name: str
    items: tuple[str, ...]
    allies: tuple[str, ...]
    spells_holding: tuple[tuple[str, int], ...]  # (spell name, dice on it)
    eliminated: bool
    devoured: bool

    @property
    def name(self) -> str:
        return self.investigator or self.player or "?"

    @property
    def initial(self) -> str:
        return self.name[:1].upper()


@dataclass(frozen=True)
class DieInfo:
    id: str
    colour: str
    face: str | None
    loc: str  # supply, pool, focused, assisted, secured, assigned, battle, discarded, locked, ...
    holder: str | None


@dataclass(frozen=True)
class LockInfo:
    """A lock icon in play (an adventure's, a monster's or the Mythos card's) and the die it holds."""

    colour: str
    source: str  # the name of the card or monster whose icon it is
    die: str | None  # None: waiting for a die of its colour


@dataclass(frozen=True)
class AncientOneInfo:
    name: str
    doom: int
    doom_track: tuple[str, ...]
    elder_sign_limit: int
    battle_task: str
    attack: str
    special: str


@dataclass(frozen=True)
class Table:
    phase: str
    over: bool
    result: str | None
    clock_hours: int
    day: int
    turn: int
    current: int | None
    ancient_one: AncientOneInfo
    elder_signs: int
    mythos: tuple[str, str] | None  # (name, text)
    adventures: tuple[CardInfo | None, ...]
    other_worlds: tuple[CardInfo, ...]
    dice: tuple[DieInfo, ...]
    adventure_where: str | None  # where the current roll is, if one is on
    rolls: int
    seats: tuple[SeatInfo, ...]
    locks: tuple[LockInfo, ...] = ()

    @property
    def battle(self) -> bool:
        return self.phase == "battle"

    def seat(self, n: int | None) -> SeatInfo | None:
        return next((s for s in self.seats if s.seat == n), None)

    def card_at(self, where: str | None) -> CardInfo | None:
        return next((c for c in (*self.adventures, *self.other_worlds) if c is not None and c.where == where),
                    None)

    def dice_at(self, *locs: str) -> tuple[DieInfo, ...]:
        return tuple(d for d in self.dice if d.loc in locs and d.face)


def _task(raw: Any) -> TaskInfo:
    return TaskInfo(symbols=tuple(_get(raw, "symbols", ())), clock=_int(raw, "clock"), sanity=_int(raw, "sanity"),
                    stamina=_int(raw, "stamina"), done=bool(_get(raw, "done", False)),
                    monster=_get(raw, "monster"))


def read_card(raw: Any) -> CardInfo | None:
    if raw is None:
        return None
    return CardInfo(where=str(_get(raw, "where", "")), name=str(_get(raw, "name", "?")), trophy=_int(raw, "trophy"),
                    ordered=bool(_get(raw, "ordered", False)), other_world=bool(_get(raw, "other_world", False)),
                    tasks=tuple(_task(t) for t in _get(raw, "tasks", ())),
                    locks=tuple(_get(raw, "locks", ())), investigators=tuple(_get(raw, "investigators", ())),
                    terror=str(_get(raw, "terror", "")), rewards=str(_get(raw, "rewards", "")),
                    penalties=str(_get(raw, "penalties", "")), midnight=str(_get(raw, "midnight", "")))


def _seat(raw: Any, index: int) -> SeatInfo:
    holding = _get(raw, "spells_holding", {}) or {}
    return SeatInfo(seat=_int(raw, "seat") if _get(raw, "seat") is not None else index,
                    player=str(_get(raw, "player", "?")), investigator=_get(raw, "investigator"),
                    sanity=_int(raw, "sanity"), max_sanity=_int(raw, "max_sanity"), stamina=_int(raw, "stamina"),
                    max_stamina=_int(raw, "max_stamina"), clues=_int(raw, "clues"),
                    trophy_total=_int(raw, "trophy_total"), location=str(_get(raw, "location", "")),
                    location_name=str(_get(raw, "location_name", "") or _get(raw, "location", "")),
                    items=tuple(_get(raw, "items", ())), allies=tuple(_get(raw, "allies", ())),
                    spells_holding=tuple((str(k), int(v)) for k, v in dict(holding).items()),
                    eliminated=bool(_get(raw, "eliminated", False)), devoured=bool(_get(raw, "devoured", False)))


def _die(raw: Any) -> DieInfo:
    die_id = str(_get(raw, "id", "?"))
    return DieInfo(id=die_id, colour=str(_get(raw, "color", die_colour(die_id))), face=_get(raw, "face"),
                   loc=str(_get(raw, "loc", "")), holder=_get(raw, "holder"))


def die_colour(die_id: str) -> str:
    # mirrors engine.elder_sign.dice.color_of; kept local so rendering never imports the engine
    return "green" if die_id.startswith("g") else ("yellow" if die_id == "y" else "red")


def read_table(view: Any) -> Table:
    ao = _get(view, "ancient_one", {})
    mythos = _get(view, "mythos")
    adventure = _get(view, "adventure")
    return Table(
        phase=str(_get(view, "phase", "normal")), over=bool(_get(view, "over", False)), result=_get(view, "result"),
        clock_hours=_int(view, "clock_hours"), day=_int(view, "day") or 1, turn=_int(view, "turn"),
        current=_get(view, "current"),
        ancient_one=AncientOneInfo(name=str(_get(ao, "name", "?")), doom=_int(ao, "doom"),
                                   doom_track=tuple(_get(ao, "doom_track", ())),
                                   elder_sign_limit=_int(ao, "elder_sign_limit"),
                                   battle_task=str(_get(ao, "battle_task", "")), attack=str(_get(ao, "attack", "")),
                                   special=str(_get(ao, "special", ""))),
        elder_signs=_int(view, "elder_signs"),
        mythos=(str(_get(mythos, "name", "")), str(_get(mythos, "text", ""))) if mythos else None,
        adventures=tuple(read_card(c) for c in _get(view, "adventures", ())),
        other_worlds=tuple(c for c in (read_card(c) for c in _get(view, "other_worlds", ())) if c is not None),
        dice=tuple(_die(d) for d in _get(view, "dice", ())),
        adventure_where=_get(adventure, "where") if adventure else None,
        rolls=_int(adventure, "rolls") if adventure else 0,
        seats=tuple(_seat(s, i) for i, s in enumerate(_get(view, "investigators", ()))),
        locks=tuple(LockInfo(colour=str(_get(lk, "color", "green")), source=str(_get(lk, "source", "")),
                             die=_get(lk, "die")) for lk in _get(view, "locks", ())),
    )


def symbols_from_text(text: str) -> tuple[list[str], int, int, int]:
    """Symbols, clock, sanity and stamina back out of a task's text ("Inv 4, Lore, Clock, -1 sanity"); the
    Ancient One's battle task reaches the view only as text. Unknown parts are kept as "text:<part>"."""
    symbols: list[str] = []
    clock = sanity = stamina = 0
    for raw in text.split(","):
        part = raw.strip().strip("[]").strip()
        low = part.lower()
        if not part or part == "—":
            continue
        if low.startswith("inv ") and low[4:].isdigit():
            symbols.append(f"inv:{low[4:]}")
        elif low in ("lore", "peril", "terror"):
            symbols.append(low)
        elif " or " in low:
            symbols.append("/".join(sorted(low.split(" or "))))
        elif low == "clock":
            clock += 1
        elif low.endswith(" sanity") and low[1:-7].isdigit():
            sanity += int(low[1:-7])
        elif low.endswith(" stamina") and low[1:-8].isdigit():
            stamina += int(low[1:-8])
        else:
            symbols.append(f"text:{part}")
    return symbols, clock, sanity, stamina


def battle_task(table: Table) -> TaskInfo:
    symbols, clock, sanity, stamina = symbols_from_text(table.ancient_one.battle_task)
    return TaskInfo(tuple(symbols), clock, sanity, stamina, False, None)


def roll_dice(data: Any) -> list[tuple[str, str, str]]:
    """(die id, colour, face) of a "dice.rolled"/"dice.rerolled" event's data, in die-id order."""
    dice = dict(_get(data, "dice", {}) or {})
    order = ("g1", "g2", "g3", "g4", "g5", "g6", "y", "r")
    ids: Sequence[str] = sorted(dice, key=lambda d: order.index(d) if d in order else len(order))
    return [(d, die_colour(d), dice[d]) for d in ids]
