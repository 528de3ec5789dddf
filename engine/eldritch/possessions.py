"""Gaining and losing possessions and Conditions, tracks and tokens (digest 1.5, 6, 8 "Gaining cards").

Spells and Conditions are gained face up, front only: the view never shows a back (view.py). "Gain a Spell
of trait X" searches the deck for one; "gain a random Asset" draws the top of the Asset deck.
"""

from __future__ import annotations

from engine.core.flow import Answer, Frame
from engine.core.prompt import Prompt
from engine.eldritch.ops import Events, answers, ask_one, asks, card_name, content, name, option, plural, push, say
from engine.eldritch.state import SKILL_NAMES, EldritchState
from engine.eldritch.world import defeat, draw_clue_token

# ------------------------------------------------------------------ tracks


def max_of(state: EldritchState, seat: int, track: str) -> int:
    inv = state.investigators[seat]
    assert inv.card is not None
    card = content(state).investigators[inv.card]
    return card.health if track == "health" else card.sanity


def change_track(state: EldritchState, seat: int, track: str, n: int, cause: str, events: Events) -> None:
    """Recover up to the maximum, or lose; at 0 the investigator is defeated at once (digest 6)."""
    inv = state.investigators[seat]
    if not inv.active or n == 0:
        return
    label = "Health" if track == "health" else "Sanity"
    now = inv.health if track == "health" else inv.sanity
    if n > 0:
        new = min(max_of(state, seat, track), now + n)
        if new == now:
            return
        verb = "recovers"
    else:
        new = max(0, now + n)
        verb = "loses"
    setattr(inv, track, new)
    why = f" ({card_name(state, cause)})" if cause and not cause.startswith("rule.") else ""
    say(events, f"{name(state, seat)} {verb} {abs(new - now)} {label}{why} — now {new}.", seat=seat, cause=cause,
        kind=f"{track}.changed")
    if new == 0:
        defeat(state, seat, track, events)


def skill_value(state: EldritchState, seat: int, skill: str) -> int:
    """Printed skill plus its improvement (digest 1.5: bonuses are not part of the skill value)."""
    inv = state.investigators[seat]
    assert inv.card is not None
    return content(state).investigators[inv.card].skills[skill] + inv.improve.get(skill, 0)  # type: ignore[index]


def improve(state: EldritchState, seat: int, skill: str, cause: str, events: Events) -> None:
    """+1 to a skill, at most +2 over its printed value (digest 4 "Improvement cap")."""
    inv = state.investigators[seat]
    if skill not in SKILL_NAMES or not inv.active:
        return
    now = inv.improve.get(skill, 0)
    if now >= 2:
        say(events, f"{name(state, seat)}'s {skill.title()} is already improved as far as it goes.", seat=seat)
        return
    inv.improve[skill] = now + 1
    say(events, f"{name(state, seat)} improves {skill.title()} to {skill_value(state, seat, skill)}.", seat=seat,
        cause=cause, kind="skill.improved")


# ------------------------------------------------------------------ clues and tickets


def gain_clues(state: EldritchState, seat: int, n: int, cause: str, events: Events) -> None:
    inv = state.investigators[seat]
    got = 0
    for _ in range(n):
        token = draw_clue_token(state)
        if token is None:
            break
        state.clue_discard.append(token)  # held Clues are anonymous; the token returns when the pool is rebuilt
        got += 1
    if got:
        inv.clues += got
        say(events, f"{name(state, seat)} gains {plural(got, 'Clue')} ({inv.clues} held).", seat=seat, cause=cause,
            kind="clue.gained")
    else:
        say(events, "No Clue is left to gain.", seat=seat, cause=cause)


def lose_clues(state: EldritchState, seat: int, n: int, cause: str, events: Events) -> None:
    inv = state.investigators[seat]
    lost = min(n, inv.clues)
    if lost:
        inv.clues -= lost
        say(events, f"{name(state, seat)} loses {plural(lost, 'Clue')} ({inv.clues} held).", seat=seat, cause=cause,
            kind="clue.lost")


TICKET_LIMIT = 2


def gain_ticket(state: EldritchState, seat: int, kind: str, cause: str, events: Events) -> None:
    """At most 2 tickets in all (Rulebook, Prepare for Travel): holding 2 of this kind already, the new one is
    not gained (keeping those 2 is the only choice); otherwise over 2 the player chooses which 2 to keep, the new
    ticket first by default."""
    inv = state.investigators[seat]
    other = "ship" if kind == "train" else "train"
    if inv.train + inv.ship >= TICKET_LIMIT and getattr(inv, other) == 0:
        say(events, f"{name(state, seat)} already holds 2 tickets.", seat=seat, cause=cause)
        return
    setattr(inv, kind, getattr(inv, kind) + 1)
    say(events, f"{name(state, seat)} gains a {kind} ticket.", seat=seat, cause=cause, kind="ticket.gained")
    ticket_limit(state, seat, cause, events, prefer=kind)



def ticket_choices(train: int, ship: int, prefer: str = "train") -> list[tuple[int, int]]:
    """Every way to keep 2 of these tickets, as (train, ship), the most of the `prefer` kind first."""
    out = [(t, TICKET_LIMIT - t) for t in range(min(train, TICKET_LIMIT), -1, -1) if TICKET_LIMIT - t <= ship]
    return out if prefer == "train" else out[::-1]


def tickets_text(train: int, ship: int) -> str:
    parts = [plural(n, f"{kind} ticket") for n, kind in ((train, "train"), (ship, "ship")) if n]
    return " and ".join(parts) or "no ticket"


def ticket_limit(state: EldritchState, seat: int, source: str, events: Events, prefer: str = "train") -> bool:
    """Over 2 travel tickets, the player chooses 2 to keep and discards the rest (Rulebook, Prepare for
    Travel): a question when there is a choice between kinds (keeping the most `prefer` tickets is the
    default), else the extra tickets simply go. True when it asked (a `keep_tickets` frame is on top)."""
    inv = state.investigators[seat]
    if inv.train + inv.ship <= TICKET_LIMIT or not inv.active:
        return False
    choices = ticket_choices(inv.train, inv.ship)
    if len(choices) > 1:
        push(state, "keep_tickets", seat, source=source, prefer=prefer)
        return True
    keep_tickets(state, seat, *choices[0], source, events)
    return False


def keep_tickets(state: EldritchState, seat: int, train: int, ship: int, source: str, events: Events) -> None:
    inv = state.investigators[seat]
    gone = tickets_text(inv.train - train, inv.ship - ship)
    inv.train, inv.ship = train, ship
    say(events, f"{name(state, seat)} keeps {tickets_text(train, ship)} and discards {gone}.", seat=seat,
        cause=source, kind="ticket.discarded")


@asks("keep_tickets")
def ask_keep_tickets(state: EldritchState, frame: Frame) -> Prompt:
    inv = state.investigators[frame.owner]
    opts = [option(f"keep:{t}:{s}", f"Keep {_kept(t, s)}", (t, s))
            for t, s in ticket_choices(inv.train, inv.ship, frame.args.get("prefer", "train"))]
    return ask_one(frame, f"Keep which 2 of your {inv.train + inv.ship} travel tickets?",
                   f"You hold {tickets_text(inv.train, inv.ship)}; an investigator keeps at most 2.", opts)


def _kept(train: int, ship: int) -> str:
    """"2 train tickets", "1 train and 1 ship ticket": short enough for a button."""
    return "1 train and 1 ship ticket" if train == ship == 1 else tickets_text(train, ship)


def keep_tickets_lapse(state: EldritchState, frame: Frame) -> bool:
    """The question lapses once its seat holds 2 tickets or fewer (a later question, answered first, settled
    it: the travel-ticket passive gains two at once)."""
    inv = state.investigators[frame.owner]
    return inv.train + inv.ship <= TICKET_LIMIT


@answers("keep_tickets")
def answer_keep_tickets(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    train, ship = answer.data
    keep_tickets(state, frame.owner, int(train), int(ship), frame.args.get("source", ""), events)


# ------------------------------------------------------------------ cards


def gain_asset_card(state: EldritchState, seat: int, card: str, cause: str, events: Events) -> None:
    state.investigators[seat].assets.append(card)
    say(events, f"{name(state, seat)} gains {card_name(state, card)}.", seat=seat, cause=cause,
        kind="possession.gained", card=card)


def draw_asset(state: EldritchState, seat: int, cause: str, events: Events, trait: str | None = None) -> None:
    deck = state.decks["asset"]
    if trait is None:
        card = deck.draw(state.rng)
    else:
        assets = content(state).assets
        card = next((a for a in reversed(deck.draw_pile) if trait in assets[a].traits), None)
        if card is not None:
            deck.take(card)
    if card is None:
        say(events, "No such Asset is left to gain.", seat=seat, cause=cause)
        return
    gain_asset_card(state, seat, card, cause, events)


def take_from_reserve(state: EldritchState, seat: int, card: str, cause: str, events: Events) -> None:
    """Take a card from the reserve; the slot refills at once outside the Acquire action (digest 3.1)."""
    if card in state.reserve:
        state.reserve.remove(card)
        gain_asset_card(state, seat, card, cause, events)


def refill_reserve(state: EldritchState, events: Events) -> None:
    while len(state.reserve) < 4:
        card = state.decks["asset"].draw(state.rng)
        if card is None:
            break
        state.reserve.append(card)


def gain_artifact(state: EldritchState, seat: int, cause: str, events: Events) -> None:
    card = state.decks["artifact"].draw(state.rng)
    if card is None:
        say(events, "No Artifact is left to gain.", seat=seat, cause=cause)
        return
    state.investigators[seat].artifacts.append(card)
    say(events, f"{name(state, seat)} gains the artifact {card_name(state, card)}.", seat=seat, cause=cause,
        kind="possession.gained", card=card)


def gain_spell(state: EldritchState, seat: int, trait: str, cause: str, events: Events, spell_name: str = "") -> None:
    """A random Spell, the first of a trait, or a Spell by name (starting possessions). An investigator never
    holds two copies of one spell (decision, like Conditions: docs/eldritch.md)."""
    c = content(state)
    deck = state.decks["spell"]
    held = {c.spells[s].name for s in state.investigators[seat].spells}
    pool = [s for s in deck.draw_pile if c.spells[s].name not in held
            and (trait == "any" or c.spells[s].trait == trait) and (not spell_name or c.spells[s].name == spell_name)]
    if not pool:
        say(events, "No such Spell is left to gain.", seat=seat, cause=cause)
        return
    card = pool[state.rng.below(len(pool))]
    deck.take(card)
    state.investigators[seat].spells.append(card)
    say(events, f"{name(state, seat)} learns the spell {c.spells[card].name}.", seat=seat, cause=cause,
        kind="possession.gained", card=card)


def gain_condition(state: EldritchState, seat: int, kind: str, cause: str, events: Events) -> None:
    """A random card of the kind from the Condition deck. Never two of one kind (errata in digest 1.5);
    Blessed and Cursed discard each other."""
    c = content(state)
    inv = state.investigators[seat]
    if any(c.conditions[x].kind == kind for x in inv.conditions):
        return
    opposite = {"blessed": "cursed", "cursed": "blessed"}.get(kind)
    if opposite:
        for x in [x for x in inv.conditions if c.conditions[x].kind == opposite]:
            discard_condition_card(state, seat, x, cause, events)
    deck = state.decks["condition"]
    pool = [x for x in deck.draw_pile if c.conditions[x].kind == kind]
    if not pool:
        say(events, f"No {kind.replace('_', ' ')} Condition is left to gain.", seat=seat, cause=cause)
        return
    card = pool[state.rng.below(len(pool))]
    deck.take(card)
    inv.conditions.append(card)
    say(events, f"{name(state, seat)} gains the Condition {c.conditions[card].name}.", seat=seat, cause=cause,
        kind="condition.gained", card=card)


def discard_condition_card(state: EldritchState, seat: int, card: str, cause: str, events: Events) -> None:
    inv = state.investigators[seat]
    if card in inv.conditions:
        inv.conditions.remove(card)
        state.decks["condition"].put_bottom(card)
        say(events, f"{name(state, seat)} is rid of {card_name(state, card)}.", seat=seat, cause=cause,
            kind="condition.discarded", card=card)


def condition_of(state: EldritchState, seat: int, kind: str) -> str | None:
    held = state.investigators[seat].conditions
    if not held:
        return None
    c = content(state)
    return next((x for x in held if c.conditions[x].kind == kind), None)


def discard_possession(state: EldritchState, seat: int, card: str, cause: str, events: Events) -> None:
    inv = state.investigators[seat]
    if card in inv.assets:
        inv.assets.remove(card)
        state.decks["asset"].discard(card)
    elif card in inv.artifacts:
        inv.artifacts.remove(card)
        state.decks["artifact"].put_bottom(card)
    elif card in inv.spells:
        inv.spells.remove(card)
        state.decks["spell"].put_bottom(card)
    elif card in inv.conditions:
        discard_condition_card(state, seat, card, cause, events)
        return
    else:
        return
    say(events, f"{name(state, seat)} discards {card_name(state, card)}.", seat=seat, cause=cause,
        kind="possession.discarded", card=card)


def possessions_of_kind(state: EldritchState, seat: int, kind: str) -> list[str]:
    inv = state.investigators[seat]
    c = content(state)
    if kind == "asset":
        return list(inv.assets)
    if kind == "artifact":
        return list(inv.artifacts)
    if kind == "spell":
        return list(inv.spells)
    if kind in ("item", "ally"):
        return [a for a in inv.assets if kind in c.assets[a].traits]
    return inv.possessions()


def holder_of(state: EldritchState, card: str) -> int | None:
    for seat, inv in enumerate(state.investigators):
        if card in inv.assets or card in inv.artifacts or card in inv.spells or card in inv.conditions:
            return seat
    return None
