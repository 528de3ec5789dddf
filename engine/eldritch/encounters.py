"""The Encounter Phase (digest 3.2): from the Lead clockwise each investigator must resolve an encounter.

Detained: the Condition's back instead. Otherwise every Monster on the space is fought first (non-Epic before
Epic, in the order the investigator chooses); if the space is then clear, one encounter of their choice: the
location (a region's card for a named city, else the General deck by space type), a Clue (Research), a Gate
(Other World), the active Expedition, a Rumor, a defeated investigator, or an "as an encounter" option of the
Mystery or the Final Mystery.
"""

from __future__ import annotations

from typing import Any

from engine.core.flow import Answer, Frame
from engine.core.prompt import Option, Prompt
from engine.eldritch import possessions as P
from engine.eldritch import world as W
from engine.eldritch.ops import (
    FLOW,
    Events,
    answers,
    ask_one,
    asks,
    auto,
    card_name,
    content,
    name,
    option,
    plural,
    push,
    resolve,
    resolve_now,
    say,
)
from engine.eldritch.possessions import condition_of
from engine.eldritch.state import EldritchState


@auto("encounter_turn")
def encounter_turn(state: EldritchState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    inv = state.investigators[seat]
    if not inv.active:
        return
    if state.current != seat:
        state.current = seat
    detained = condition_of(state, seat, "detained")
    if detained is not None:
        say(events, f"{name(state, seat)} is detained: no encounter, the Condition turns over instead.", seat=seat,
            cause=detained, kind="encounter.started")
        resolve(state, seat, [{"flip": True}], detained, card=detained)
        return
    fight_all(state, seat, [], events)  # what a `fights` frame pushed here would do next


@auto("fights")
def fights(state: EldritchState, frame: Frame, events: Events) -> None:
    fight_all(state, frame.owner, frame.args["fought"], events)


def fight_all(state: EldritchState, seat: int, fought: list[int], events: Events) -> None:
    """Fight every Monster here once (`fought`: those fought already), then (if the space is clear) choose an
    encounter."""
    inv = state.investigators[seat]
    if not inv.active:
        return
    here = W.monsters_at(state, inv.space)
    left = [m for m in here if m.uid not in fought]
    if not left:
        if not here:
            push(state, "choose_encounter", seat)
        else:
            say(events, f"Monsters still hold {W.space_name(state, inv.space)}: {name(state, seat)} has no other "
                        "encounter.", seat=seat)
        return
    c = content(state)
    normal = [m for m in left if not c.monsters[m.kind].epic]
    first = normal or left
    if len({m.kind for m in first}) > 1:
        push(state, "fight_which", seat, fought=fought, uids=[m.uid for m in first])
        return
    push(state, "fights", seat, fought=[*fought, first[0].uid])
    push(state, "fight", seat, uid=first[0].uid, source=first[0].kind)


@asks("fight_which")
def ask_which(state: EldritchState, frame: Frame) -> Prompt:
    c = content(state)
    opts = []
    for uid in frame.args["uids"]:
        token = next(m for m in state.monsters if m.uid == uid)
        opts.append(option(str(uid), label=f"Fight {c.monsters[token.kind].name} first", data=uid))
    return ask_one(frame, "Which Monster do you fight first?", "Every Monster on your space must be fought.", opts)


@answers("fight_which")
def answer_which(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = frame.owner
    uid = int(answer.data)
    push(state, "fights", seat, fought=[*frame.args["fought"], uid])
    push(state, "fight", seat, uid=uid, source="")


#: options that never change (prompts share them: nothing changes an Option once built)
GENERAL = option("location:general", label="General encounter (city space)", data=("location", "general"))
RESEARCH = option("research", label="Research the Clue here", data=("research", ""))
OTHER_WORLD = option("other_world", label="Enter the Gate (Other World encounter)", data=("other_world", ""))
EXPEDITION = option("expedition", label="Join the expedition here", data=("expedition", ""))


def encounter_options(state: EldritchState, seat: int) -> list[Option]:
    c = content(state)
    inv = state.investigators[seat]
    here = inv.space
    sp = c.spaces[here]
    opts: list[Option] = []
    where = sp.name if sp.region else f"{sp.type} space"
    opts.append(option("location", label=f"Location encounter ({where})", data=("location", "")))
    if sp.region:  # a named City may also draw from the General deck, reading its City section (RB example)
        opts.append(GENERAL)
    if state.clues.get(here, 0):
        opts.append(RESEARCH)
    if here in state.gates:
        opts.append(OTHER_WORLD)
    if state.expedition == here:
        opts.append(EXPEDITION)
    for card, space in sorted(state.rumors.items()):
        if space == here:
            opts.append(option(f"rumor:{card}", label=f"Investigate the rumor: {card_name(state, card)}",
                               data=("rumor", card)))
    for i, token in enumerate(state.defeated):
        if token.space == here:
            inv_name = c.investigators[token.card].name
            opts.append(option(f"defeated:{token.card}", label=f"Find {inv_name}", data=("defeated", str(i))))
    if state.mystery is not None:
        m = c.mysteries[state.mystery]
        if m.encounter is not None and matches(state, here, m.encounter.at):
            opts.append(option("mystery", label=f"Pursue the Mystery: {m.name}", data=("mystery", "")))
    ao = c.ancient_ones[state.ao]
    fm = ao.final_mystery
    if state.awakened and fm is not None and fm.encounter is not None and fm.at and matches(state, here, fm.at):
        opts.append(option("final", label="Pursue the Final Mystery", data=("final", "")))
    return opts


def matches(state: EldritchState, space: str, at: str) -> bool:
    c = content(state)
    if at == "any":
        return True
    if at == "gate":
        return space in state.gates
    if at in ("city", "wilderness", "sea"):
        return c.spaces[space].type == at
    return space == at


@asks("choose_encounter")
def ask_encounter(state: EldritchState, frame: Frame) -> Prompt:
    seat = frame.owner
    opts = encounter_options(state, seat)
    return ask_one(frame, f"{name(state, seat)}: choose an encounter",
                   f"At {W.space_name(state, state.investigators[seat].space)}", opts)


@answers("choose_encounter")
def answer_encounter(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = frame.owner
    kind, arg = answer.data
    ENCOUNTERS[kind](state, seat, arg, events)


def _draw(state: EldritchState, deck: str, events: Events) -> str | None:
    card = state.decks[deck].draw(state.rng)
    if card is None:
        say(events, "That deck is empty.")
    return card


def _run(state: EldritchState, seat: int, deck: str, card: str, title: str, text: str, effects: list[dict[str, Any]],
         events: Events) -> None:
    say(events, f"{title}: {text}", seat=seat, cause=card, kind="encounter.started", card=card)
    push(state, "discard_encounter", seat, deck=deck, card=card)
    resolve_now(state, seat, effects, card, events, card=card)


@auto("discard_encounter")
def discard_encounter(state: EldritchState, frame: Frame, events: Events) -> None:
    deck, card = frame.args["deck"], frame.args["card"]
    state.decks[deck].discard(card)
    if deck == "expedition":
        set_expedition(state)


def set_expedition(state: EldritchState) -> None:
    """The active expedition is the space on the back of the top Expedition card (digest 1.1)."""
    deck = state.decks["expedition"]
    if not deck.draw_pile and deck.discard_pile:
        deck.draw_pile = deck.discard_pile
        deck.discard_pile = []
        state.rng.shuffle(deck.draw_pile)
    top = deck.draw_pile[-1] if deck.draw_pile else None
    state.expedition = content(state).expeditions[top].site if top else None


def _location(state: EldritchState, seat: int, which: str, events: Events) -> None:
    """A location encounter: a named City's region deck (that City's section), or the General deck (the
    section for the space's type), which a named City may choose instead (digest 3.2)."""
    c = content(state)
    here = state.investigators[seat].space
    sp = c.spaces[here]
    deck = sp.region if sp.region and which != "general" else "general"
    card = _draw(state, deck, events)
    if card is None:
        return
    section = c.locations[card].sections[here if deck != "general" else sp.type]
    _run(state, seat, deck, card, c.locations[card].name, section.text, section.effects, events)


def _research(state: EldritchState, seat: int, _: str, events: Events) -> None:
    c = content(state)
    card = _draw(state, "research", events)
    if card is None:
        return
    kind = c.spaces[state.investigators[seat].space].type
    section = c.research[card].sections[kind]
    _run(state, seat, "research", card, c.research[card].name, section.text, section.effects, events)


def _complex(deck: str, table: str) -> Any:
    def run(state: EldritchState, seat: int, _: str, events: Events) -> None:
        card = _draw(state, deck, events)
        if card is None:
            return
        model = getattr(content(state), table)[card]
        _run(state, seat, deck, card, model.name, model.text, model.effects, events)
    return run


def _rumor(state: EldritchState, seat: int, card: str, events: Events) -> None:
    m = content(state).mythos[card]
    assert m.rumor is not None
    say(events, f"{m.name}: {m.rumor.encounter.text}", seat=seat, cause=card, kind="encounter.started", card=card)
    resolve_now(state, seat, m.rumor.encounter.effects, card, events, card=card)


def _defeated(state: EldritchState, seat: int, index: str, events: Events) -> None:
    """Find a defeated investigator: take all their possessions, Clues and travel tickets (over 2 tickets, the
    finder chooses which to keep), then their Crippled or Insane encounter; the token leaves the game (RB p.14,
    Defeated Investigators and Encountering Defeated Investigators)."""
    c = content(state)
    token = state.defeated.pop(int(index))
    inv = state.investigators[seat]
    inv.assets += token.assets
    inv.artifacts += token.artifacts
    inv.spells += token.spells
    inv.clues += token.clues
    inv.train += token.train
    inv.ship += token.ship
    sheet = c.investigators[token.card]
    taken = [card_name(state, x) for x in [*token.assets, *token.artifacts, *token.spells]]
    if token.clues:
        taken.append(plural(token.clues, "Clue"))
    if token.train or token.ship:
        taken.append(P.tickets_text(token.train, token.ship))
    say(events, f"{name(state, seat)} finds {sheet.name}" + (f" and takes {', '.join(taken)}." if taken else "."),
        seat=seat, cause=token.card, kind="encounter.started")
    enc = sheet.crippled if token.track == "health" else sheet.insane
    say(events, enc.text, seat=seat, cause=token.card)
    if P.ticket_limit(state, seat, token.card, events):  # the encounter resolves once the tickets are chosen
        stack = state.flow.stack
        stack.insert(len(stack) - 1, FLOW.frame(state, "fx", seat, token.card, effects=enc.effects,
                                                source=token.card, card=token.card, monster=None, space=None))
        return
    resolve_now(state, seat, enc.effects, token.card, events, card=token.card)


def _mystery(state: EldritchState, seat: int, _: str, events: Events) -> None:
    assert state.mystery is not None
    m = content(state).mysteries[state.mystery]
    assert m.encounter is not None
    say(events, f"{m.name}: {m.encounter.text}", seat=seat, cause=m.id, kind="encounter.started")
    resolve_now(state, seat, m.encounter.effects, m.id, events, card=m.id)


def _final(state: EldritchState, seat: int, _: str, events: Events) -> None:
    ao = content(state).ancient_ones[state.ao]
    fm = ao.final_mystery
    assert fm is not None and fm.encounter is not None
    say(events, f"The Final Mystery: {fm.encounter.text}", seat=seat, cause=ao.id, kind="encounter.started")
    resolve_now(state, seat, fm.encounter.effects, ao.id, events, card=ao.id)


ENCOUNTERS: dict[str, Any] = {
    "location": _location, "research": _research, "other_world": _complex("other_world", "other_worlds"),
    "expedition": _complex("expedition", "expeditions"), "rumor": _rumor, "defeated": _defeated,
    "mystery": _mystery, "final": _final,
}
