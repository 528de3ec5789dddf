"""The Mythos Phase (digest 3.3): the Lead draws the top Mythos card and resolves only its printed icons, in
order, then its text; then the end of the phase (Mystery checks, new investigators, the Lead token).

Reckoning resolves every reckoning in play in a fixed order: Monsters, the Ancient One, ongoing Mythos cards,
then each investigator's possessions and Conditions from the Lead clockwise; a snapshot is taken first, so
what appears during the reckoning does not reckon this time.
"""

from __future__ import annotations

from typing import Any

from engine.core.flow import Answer, Frame
from engine.core.prompt import Prompt
from engine.eldritch import world as W
from engine.eldritch.board import reference
from engine.eldritch.ops import (
    Events,
    active_seats,
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
    push_seq,
    resolve,
    resolve_now,
    say,
    seats_from_lead,
)
from engine.eldritch.setup import start_investigator
from engine.eldritch.state import EldritchState, Ongoing


@auto("mythos_phase")
def mythos_phase(state: EldritchState, frame: Frame, events: Events) -> None:
    state.phase = "mythos"
    if state.current != state.lead:
        state.current = state.lead
    say(events, f"Mythos Phase, round {state.round}.", kind="phase.started")
    card = state.decks["mythos"].draw(state.rng)
    if card is None:
        W.end_game(state, "loss", "The Mythos deck is empty: time has run out. The investigators lose.", events)
        return
    push(state, "mythos_end")
    resolve_card(state, card, events)


def resolve_card(state: EldritchState, card: str, events: Events) -> None:
    """The card's icons in printed order, then its text. Called as the last thing its caller does, so the first
    icon resolves at once, with the rest (as frames) waiting beneath whatever it starts."""
    m = content(state).mythos[card]
    say(events, f"Mythos: {m.name} ({m.color}, {m.difficulty}). {m.text}".strip(), cause=card, kind="mythos.drawn",
        card=card)
    steps: list[tuple[str, int | None, dict[str, Any]]] = [("icon", None, {"icon": i, "card": card})
                                                            for i in m.icons[1:]]
    steps.append(("mythos_text", None, {"card": card}))
    push_seq(state, steps)
    if m.icons:
        run_icon(state, m.icons[0], card, events)


@auto("icon")
def icon(state: EldritchState, frame: Frame, events: Events) -> None:
    run_icon(state, frame.args["icon"], frame.args["card"], events)


def run_icon(state: EldritchState, kind: str, card: str, events: Events) -> None:
    """One Mythos icon (digest 3.3 step 2)."""
    gates, surge, clues = reference(state.players)
    if kind == "advance_omen":
        W.advance_omen(state, 1, card, events)
    elif kind == "reckoning":
        reckoning(state, events)
    elif kind == "spawn_gates":
        for _ in range(gates):
            W.spawn_gate(state, events, card)
    elif kind == "monster_surge":
        monster_surge(state, surge, card, events)
    elif kind == "spawn_clues":
        for _ in range(clues):
            W.spawn_clue(state, events, card)


def monster_surge(state: EldritchState, n: int, card: str, events: Events) -> None:
    """At each Gate of the omen's colour spawn Monsters (the Reference number); with no such Gate, spawn one
    Gate instead (digest 3.3)."""
    colour = state.omen_colour
    matching = sorted(s for s, g in state.gates.items() if g == colour)
    if not matching:
        say(events, f"Monster surge: no {colour} Gate is open, so a Gate opens instead.", cause=card)
        W.spawn_gate(state, events, card)
        return
    say(events, f"Monster surge at every {colour} Gate.", cause=card)
    for space in matching:
        for _ in range(n):
            W.spawn_monster(state, space, events, card)


def reckoning(state: EldritchState, events: Events) -> None:
    c = content(state)
    say(events, "Reckoning.", kind="mythos.reckoning")
    steps: list[tuple[str, int | None, dict[str, Any]]] = []
    for token in list(state.monsters):
        m = c.monsters[token.kind]
        if m.reckoning and token.space:
            steps.append(("fx", None, {"effects": m.reckoning, "source": token.kind, "card": None,
                                       "monster": token.uid, "space": token.space}))
    ao = c.ancient_ones[state.ao]
    ao_effects = ao.awakened_reckoning if state.awakened else ao.reckoning
    if ao_effects:
        steps.append(("fx", None, {"effects": ao_effects, "source": ao.id, "card": ao.id, "monster": None,
                                   "space": None}))
    for o in list(state.ongoing):
        m2 = c.mythos[o.card]
        if m2.reckoning:
            steps.append(("fx", None, {"effects": m2.reckoning, "source": o.card, "card": o.card, "monster": None,
                                       "space": m2.rumor.space if m2.rumor else None}))
        if m2.countdown:
            steps.append(("countdown", None, {"card": o.card}))
    for seat in active_seats(state):
        inv = state.investigators[seat]
        for card in [*inv.assets, *inv.artifacts, *inv.spells, *inv.conditions]:
            model = c.assets.get(card) or c.artifacts.get(card) or c.spells.get(card) or c.conditions.get(card)
            if model is not None and model.reckoning:
                steps.append(("fx", seat, {"effects": model.reckoning, "source": card, "card": card, "monster": None,
                                           "space": None}))
    push_seq(state, steps)


@auto("countdown")
def countdown(state: EldritchState, frame: Frame, events: Events) -> None:
    card = frame.args["card"]
    for o in state.ongoing:
        if o.card == card:
            o.tokens = max(0, o.tokens - 1)
            say(events, f"{card_name(state, card)}: {plural(o.tokens, 'Eldritch token')} left.", cause=card)
            if o.tokens == 0:
                expire(state, card, events)
            return


def expire(state: EldritchState, card: str, events: Events) -> None:
    """An ongoing card's last token is gone: its `expire` effect resolves, then it leaves play."""
    m = content(state).mythos[card]
    expire_fx = m.rumor.expire if m.rumor else m.expire
    say(events, f"{m.name} runs its course.", cause=card, kind="rumor.failed" if m.rumor else "mythos.expired")
    push(state, "leave_play", None, card=card)
    resolve(state, None, expire_fx, card, card=card)


@auto("leave_play")
def leave_play_op(state: EldritchState, frame: Frame, events: Events) -> None:
    leave_play(state, frame.args["card"])


def leave_play(state: EldritchState, card: str) -> None:
    state.ongoing = [o for o in state.ongoing if o.card != card]
    state.rumors.pop(card, None)
    state.decks["mythos"].discard(card)


@auto("mythos_text")
def mythos_text(state: EldritchState, frame: Frame, events: Events) -> None:
    card = frame.args["card"]
    m = content(state).mythos[card]
    if m.kind == "event":
        push(state, "mythos_discard", None, card=card)
        resolve_now(state, None, m.effects, card, events, card=card)
        return
    state.ongoing.append(Ongoing(card=card, tokens=m.tokens))
    if m.rumor is not None:
        state.rumors[card] = m.rumor.space
        say(events, f"A rumor takes hold at {W.space_name(state, m.rumor.space)}.", cause=card, kind="rumor.started",
            space=m.rumor.space)
    resolve_now(state, None, m.effects, card, events, card=card)


@auto("mythos_discard")
def mythos_discard(state: EldritchState, frame: Frame, events: Events) -> None:
    state.decks["mythos"].discard(frame.args["card"])


@auto("mythos_end")
def mythos_end(state: EldritchState, frame: Frame, events: Events) -> None:
    """End of the Mythos Phase: "end of Mythos Phase" effects (the Mystery's), then new investigators for the
    defeated (or elimination), then the Lead token may pass (digest 3.3 step 3)."""
    c = content(state)
    steps: list[tuple[str, int | None, dict[str, Any]]] = []
    if state.mystery is not None and c.mysteries[state.mystery].end_of_mythos:
        steps.append(("fx", None, {"effects": c.mysteries[state.mystery].end_of_mythos, "source": state.mystery,
                                   "card": state.mystery, "monster": None, "space": None}))
    for seat in seats_from_lead(state):
        inv = state.investigators[seat]
        if inv.defeated and not inv.eliminated:
            steps.append(("pick_investigator", seat, {}))
    steps.append(("pass_lead", state.lead, {"forced": False}))
    steps.append(("round_end", None, {}))
    push_seq(state, steps)


def unused_investigators(state: EldritchState, seat: int) -> list[str]:
    c = content(state)
    taken = {inv.card for inv in state.investigators if inv.card} | {t.card for t in state.defeated}
    gone = {x for inv in state.investigators for x in inv.past}
    return sorted(i for i in c.investigators if i not in taken and i not in gone)


@asks("pick_investigator")
def ask_pick(state: EldritchState, frame: Frame) -> Prompt:
    c = content(state)
    seat = frame.owner
    opts = []
    for iid in unused_investigators(state, seat):
        i = c.investigators[iid]
        opts.append(option(iid, label=f"{i.name}, {i.occupation} ({i.health} Health, {i.sanity} Sanity)",
                           detail=i.passive.text, data=iid))
    return ask_one(frame, "Choose a new investigator",
                   "Your investigator was defeated; a new one joins at their starting space.", opts)


def pick_lapse(state: EldritchState, frame: Frame, events: Events | None = None) -> bool:
    """No investigator left to choose: the player is eliminated (RG "Choosing a New Investigator")."""
    seat = frame.owner
    if state.awakened or not unused_investigators(state, seat):
        state.investigators[seat].eliminated = True
        W.check_everyone_gone(state, events if events is not None else [])
        return True
    return False


@answers("pick_investigator")
def answer_pick(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = frame.owner
    inv = state.investigators[seat]
    inv.defeated = False
    start_investigator(state, seat, str(answer.data), events, replacement=True)


@asks("pass_lead")
def ask_lead(state: EldritchState, frame: Frame) -> Prompt:
    seat = frame.owner
    opts = [option(f"s{s}", label=("Keep the Lead" if s == seat else f"Pass the Lead to {name(state, s)}"),
                   data=s) for s in active_seats(state) if s != seat or not frame.args.get("forced")]
    return ask_one(frame, "The Lead Investigator token",
                   "The Lead goes first in every phase and decides for the group.", opts)


@answers("pass_lead")
def answer_lead(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    new = int(answer.data)
    if new != state.lead:
        state.lead = new
        say(events, f"{name(state, new)} is now the Lead Investigator.", seat=new, kind="lead.passed")


def lead_lapse(state: EldritchState, frame: Frame) -> bool:
    """The Lead question is skipped when there is nobody to pass to (the only investigator keeps it) or the
    holder's player is out; with the holder out, the next active seat takes it."""
    living = active_seats(state)
    if not living:
        return True
    if frame.owner not in living and not frame.args.get("forced"):
        state.lead = living[0]
        return True
    return len(living) == 1 and living[0] == frame.owner
