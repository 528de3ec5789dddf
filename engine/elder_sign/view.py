"""What players see. Elder Sign is open information except deck order and the cup's contents (digest 9.18),
so every seat sees the same table; only counts are shown for decks and the cup."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from engine.elder_sign import board
from engine.elder_sign.board import content
from engine.elder_sign.dice import DIE_IDS, color_of
from engine.elder_sign.effects import clock_label
from engine.elder_sign.state import ElderSignState


class TaskView(BaseModel):
    key: str
    text: str
    symbols: list[str]
    clock: int
    sanity: int
    stamina: int
    done: bool
    monster: str | None


class MonsterView(BaseModel):
    name: str
    defeated: bool


class CardView(BaseModel):
    where: str
    id: str
    name: str
    trophy: int
    ordered: bool
    other_world: bool
    tasks: list[TaskView]
    locks: list[str]
    investigators: list[int]
    monsters: list[MonsterView]
    terror: str
    rewards: str
    penalties: str
    midnight: str


class TrophyView(BaseModel):
    name: str
    value: int


class SeatView(BaseModel):
    seat: int
    player: str
    eliminated: bool
    devoured: int
    investigator: str | None = None  # None: no investigator in play (devoured, none left)
    occupation: str = ""
    ability: str = ""
    sanity: int = 0
    max_sanity: int = 0
    stamina: int = 0
    max_stamina: int = 0
    clues: int = 0
    location: str = ""
    location_name: str = ""
    items: list[str] = Field(default_factory=list)
    allies: list[str] = Field(default_factory=list)
    spells_holding: dict[str, int] = Field(default_factory=dict)
    trophies: list[TrophyView] = Field(default_factory=list)
    trophy_total: int = 0


class AncientOneView(BaseModel):
    id: str
    name: str
    elder_sign_limit: int
    doom_track: list[str]
    doom: int
    battle_task: str
    special: str
    attack: str


class MythosView(BaseModel):
    name: str
    text: str
    terror: str
    modifiers: dict[str, Any]


class DieView(BaseModel):
    id: str
    color: str
    face: str | None
    loc: str
    holder: str | None


class LockView(BaseModel):
    color: str
    source: str
    die: str | None


class AdventureView(BaseModel):
    where: str
    completed: list[str]
    rolls: int
    focus_used: int


class ElderSignView(BaseModel):
    """What a seat (or a spectator) sees of an Elder Sign table: the renderer's and `/game me`'s input."""

    game: str = "elder-sign"
    seat: int | None
    over: bool
    result: str | None
    phase: str
    clock: str
    clock_hours: int
    day: int
    turn: int
    current: int
    ancient_one: AncientOneView
    elder_signs: int
    mythos: MythosView | None
    adventures: list[CardView | None]
    other_worlds: list[CardView]
    dice: list[DieView]
    locks: list[LockView]
    adventure: AdventureView | None
    investigators: list[SeatView]
    decks: dict[str, int]
    cup: int
    notices: list[str]


def _card_view(state: ElderSignState, where: str) -> CardView:
    card = board.card_data(state, where)
    cip = board.card_at(state, where)
    assert card is not None and cip is not None
    done = set(state.adventure.completed) if state.adventure and state.adventure.where == where else set()
    tasks = []
    for key, task in board.task_list(state, where):
        m = board.monster_for_task(state, where, key)
        tasks.append({"key": key, "text": task.text(), "symbols": task.symbols, "clock": task.clock,
                      "sanity": task.sanity, "stamina": task.stamina, "done": key in done,
                      "monster": board.card_name(state, m.monster) if m else None})
    held = [lk.color for lk in state.locks if lk.source == card.id and lk.die]
    return CardView.model_validate({
            "where": where, "id": card.id, "name": card.name, "trophy": card.trophy, "ordered": card.ordered,
            "other_world": card.other_world, "tasks": tasks, "locks": held,
            "investigators": board.investigators_at(state, where),
            "monsters": [{"name": board.card_name(state, m.monster), "defeated": m.defeated_by is not None}
                         for m in cip.monsters],
            "terror": _describe(card.terror), "rewards": _describe(card.rewards),
            "penalties": _describe(card.penalties), "midnight": _describe(card.midnight)})


def _describe(effects: list[dict[str, Any]]) -> str:
    from engine.elder_sign.effects_schema import describe
    return describe(effects) if effects else ""


def build_view(state: ElderSignState, seat: int | None) -> ElderSignView:
    c = content(state)
    ao = c.ancient_ones[state.ao]
    seats = []
    for s, seat_state in enumerate(state.table):
        i = seat_state.investigator
        entry: dict[str, Any] = {"seat": s, "player": state.seat_name(s), "eliminated": seat_state.eliminated,
                                 "devoured": seat_state.devoured}
        if i is not None:
            card = c.investigators[i.card]
            entry.update({
                "investigator": card.name, "occupation": card.occupation, "ability": card.ability_text,
                "sanity": i.sanity, "max_sanity": i.max_sanity, "stamina": i.stamina,
                "max_stamina": i.max_stamina, "clues": i.clues, "location": i.location,
                "location_name": board.place_label(state, i.location),
                "items": [c.items[x].name for x in i.items], "allies": [c.items[x].name for x in i.allies],
                "spells_holding": {c.items[x].name: len(board.dice_at(state, "secured", x)) for x in i.cast},
                "trophies": [{"name": board.card_name(state, t), "value": board.trophy_value(state, t)}
                             for t in i.trophies],
                "trophy_total": board.trophy_total(state, s)})
        seats.append(entry)
    adv = state.adventure
    return ElderSignView.model_validate({
        "game": "elder-sign", "seat": seat, "over": state.over, "result": state.result,
        "phase": state.phase, "clock": clock_label(state.clock), "clock_hours": state.clock, "day": state.day,
        "turn": state.turn_number, "current": state.current,
        "ancient_one": {"id": ao.id, "name": ao.name, "elder_sign_limit": ao.elder_signs,
                        "doom_track": ao.doom_track, "doom": state.doom, "battle_task": ao.battle_task.text(),
                        "special": ao.special_text, "attack": ao.attack_text},
        "elder_signs": state.elder_signs,
        "mythos": ({"name": c.mythos[state.mythos].name, "text": c.mythos[state.mythos].text,
                    "terror": _describe(c.mythos[state.mythos].terror),
                    "modifiers": c.mythos[state.mythos].modifiers} if state.mythos else None),
        "adventures": [_card_view(state, f"slot:{i}") if cip else None for i, cip in enumerate(state.slots)],
        "other_worlds": [_card_view(state, f"ow:{cip.card}") for cip in state.other_worlds],
        "dice": [{"id": d, "color": color_of(d), "face": state.dice[d].face, "loc": state.dice[d].loc,
                  "holder": state.dice[d].holder} for d in DIE_IDS],
        "locks": [{"color": lk.color, "source": board.card_name(state, lk.source), "die": lk.die}
                  for lk in state.locks],
        "adventure": ({"where": adv.where, "completed": adv.completed, "rolls": adv.rolls,
                       "focus_used": adv.focus_used} if adv else None),
        "investigators": seats,
        "decks": {k: len(d) for k, d in state.decks.items()}, "cup": len(state.cup),
        "notices": state.notices,
    })
