"""Locations: moving (digest A.5), revealing, discovering clues, clue values per investigator.

Moving: the investigator leaves, enters (an unrevealed destination is revealed and gets its clues), engaged
enemies follow (they stay engaged), then enemies at the destination check engagement, then the "after you
enter" window. A location's clues are placed when it is revealed: its value times the number of investigators
when the value is per investigator (digest §8).
"""

from __future__ import annotations

from engine.arkham_lcg import board
from engine.arkham_lcg.ops import FLOW, Events, auto, push, say
from engine.arkham_lcg.state import LcgState, LocationState
from engine.core import windows
from engine.core.flow import Frame, Step


def clue_value(state: LcgState, code: str) -> int:
    d = board.ldef(state, code)
    return d.clues * (len(board.order(state)) or 1 if d.clues_per_investigator else 1)


def put_into_play(state: LcgState, code: str) -> LocationState:
    s = board.scen(state)
    loc = s.locations.get(code)
    if loc is None:
        uid = next((u for u in s.set_aside if state.cards[u].code == code), None)
        if uid is None:
            uid = board.new_card(state, code, None, "location")
        else:
            s.set_aside.remove(uid)
        state.cards[uid].zone = "location"
        loc = s.locations[code] = LocationState(uid=uid, code=code)
    return loc


@auto("reveal_location")
def run_reveal(state: LcgState, frame: Frame, events: Events) -> None:
    code = frame.args["code"]
    loc = put_into_play(state, code)
    if loc.revealed:
        return
    loc.revealed = True
    loc.clues += clue_value(state, code)
    d = board.ldef(state, code)
    say(events, f"{d.name} is revealed: shroud {d.shroud}, {loc.clues} clue{'s' if loc.clues != 1 else ''}."
        + (f" {rest}" if (rest := _beyond_printed_values(d.text)) else ""), "location.revealed", frame.seat, code)
    push(state, "window", frame.seat, code,
         window=windows.Window(timing="after", event="location.revealed", data={"seat": frame.seat, "location": code}))
    if d.on_reveal:
        push(state, "effects", frame.seat, code, effects=d.on_reveal, ctx={"seat": frame.seat, "loc": code})


def _beyond_printed_values(text: str) -> str:
    """A location's text without its opening "Shroud N, M clues per investigator." (the reveal line already
    says its shroud and the clues it got): what is left is its keywords and abilities."""
    if text.startswith("Shroud "):
        return text.partition(". ")[2].strip()
    return text


def move(state: LcgState, seat: int, to: str, source: str) -> None:
    push(state, "move_inv", seat, source, to=to)


@auto("move_inv")
def run_move(state: LcgState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    to = frame.args["to"]
    i = state.invs[seat]
    s = board.scen(state)
    if not board.playing(state, seat) or to not in s.locations or i.location == to:
        return
    if board.forbidden(state, seat, "move"):
        say(events, f"{state.seat_name(seat)} cannot move.", "cannot", seat, frame.source)
        return
    came_from = i.location
    i.location = to
    for e in s.enemies.values():
        if e.engaged == seat:
            e.location = to  # engaged enemies move with the investigator
    say(events, f"{state.seat_name(seat)} moves to {board.loc_name(state, to)}.", "investigator.move", seat,
        frame.source, to=to, came_from=came_from)
    steps: list[Step] = []
    if not s.locations[to].revealed:
        steps.append(Step(op="reveal_location", seat=seat, source=to, args={"code": to}))
    for uid in sorted(e.uid for e in board.enemies_at(state, to)):
        steps.append(Step(op="engage_check", seat=seat, source="rules", args={"uid": uid}))
    steps.append(Step(op="window", seat=seat, source=to, args={
        "window": windows.Window(timing="after", event="location.entered",
                                 data={"seat": seat, "location": to}).model_dump(), "used": [], "passed": []}))
    FLOW.push_steps(state, steps)


@auto("discover")
def run_discover(state: LcgState, frame: Frame, events: Events) -> None:
    """Discover clues at a location: they move from it to the investigator (never more than it has)."""
    seat = frame.owner
    code = frame.args["loc"] or state.invs[seat].location
    s = board.scen(state)
    loc = s.locations.get(code) if code else None
    if loc is None or not board.playing(state, seat):
        return
    n = min(frame.args["amount"], loc.clues)
    if n <= 0:
        say(events, f"There are no clues left at {board.loc_name(state, code)}.", "clues.none", seat, frame.source)
        return
    loc.clues -= n
    state.invs[seat].clues += n
    say(events, f"{state.seat_name(seat)} discovers {n} clue{'s' if n != 1 else ''} at {board.loc_name(state, code)}.",
        "clues.discovered", seat, frame.source, amount=n)
    push(state, "window", seat, frame.source, window=windows.Window(
        timing="after", event="clues.discovered", data={"seat": seat, "location": code, "amount": n}))
