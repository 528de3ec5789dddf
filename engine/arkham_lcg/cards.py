"""Player cards moving between zones: drawing (weaknesses revealed, the empty-deck rule), playing assets into
slots and events through limbo, discarding, the hand-size check.

* Drawing from an empty deck: shuffle the discard pile into the deck, draw, and take 1 horror [BG, decided].
* A drawn weakness resolves its revelation at once (FAQ §1.12: it is a player card until then); a weakness
  that stays in play goes to the threat area by its own effect; an enemy weakness spawns engaged with you.
* Slots: 2 hand, 2 arcane, 1 accessory, 1 body, 1 ally [BG, decided]. Playing an asset into full slots means
  choosing assets there to discard first (the player's choice, when there is one).
* An event waits in limbo while it resolves, then goes to the discard pile; "after you play" windows come after
  that (FAQ §1.23 and Q: event discard placement at play step 4).
"""

from __future__ import annotations

from collections import Counter

from engine.arkham_lcg import board
from engine.arkham_lcg.content import PlayerCard
from engine.arkham_lcg.harm import take
from engine.arkham_lcg.ops import Events, answers, asks, auto, push, say
from engine.arkham_lcg.state import LcgState
from engine.core import windows
from engine.core.flow import Answer, Frame
from engine.core.prompt import Option, Prompt, PromptKind

SLOTS = {"hand": 2, "arcane": 2, "accessory": 1, "body": 1, "ally": 1}


def draw(state: LcgState, seat: int, n: int, source: str) -> None:
    if n > 0 and board.playing(state, seat):
        push(state, "draw", seat, source, n=n)


def _cannot(state: LcgState, seat: int, what: str, words: str, source: str, events: Events) -> bool:
    """A `cannot` forbids it: say so (the card that asked does nothing more here) and report True."""
    if not board.forbidden(state, seat, what):
        return False
    say(events, f"{state.seat_name(seat)} cannot {words}.", "cannot", seat, source)
    return True


@auto("draw")
def run_draw(state: LcgState, frame: Frame, events: Events) -> None:
    """Draw N cards at once (FAQ Q: cards drawn by one effect are drawn together); the weaknesses among them
    are revealed afterwards, in the order drawn."""
    seat = frame.owner
    n = frame.args["n"]
    i = state.invs[seat]
    if not board.playing(state, seat) or n <= 0 or _cannot(state, seat, "draw", "draw cards", frame.source, events):
        return
    weaknesses: list[int] = []
    drawn = 0
    for _ in range(n):
        if not i.deck:
            if not i.discard:
                say(events, f"{state.seat_name(seat)} has no cards left to draw.", "draw.empty", seat, frame.source)
                break
            i.deck = list(i.discard)
            i.discard = []
            for uid in i.deck:
                state.cards[uid].zone = "deck"
            state.rng.shuffle(i.deck)
            say(events, f"{state.seat_name(seat)}'s deck is empty: the discard pile is shuffled back in and they "
                "take 1 horror.", "draw.reshuffle", seat, "rules")
            take(state, seat, 0, 1, "empty deck")
        uid = i.deck.pop()
        drawn += 1
        say(events, f"{state.seat_name(seat)} draws a card.", "draw.card", seat, frame.source)
        if board.pdef(state, uid).weakness:
            state.cards[uid].zone = "limbo"
            weaknesses.append(uid)
            continue
        state.cards[uid].zone = "hand"
        i.hand.append(uid)
        say(events, f"You draw {board.name(state, uid)}.", "draw.private", seat, state.cards[uid].code,
            private_to=seat)
    for uid in reversed(weaknesses):
        push(state, "reveal_weakness", seat, state.cards[uid].code, uid=uid)


@auto("reveal_weakness")
def run_reveal_weakness(state: LcgState, frame: Frame, events: Events) -> None:
    if board.playing(state, frame.owner):
        reveal_weakness(state, frame.owner, frame.args["uid"], events)


def reveal_weakness(state: LcgState, seat: int, uid: int, events: Events) -> None:
    c = board.pdef(state, uid)
    say(events, f"{state.seat_name(seat)} draws the weakness {c.name}: {c.text}", "weakness.drawn", seat, c.id)
    card = state.cards[uid]
    card.zone = "limbo"
    if c.type == "enemy":
        from engine.arkham_lcg.enemies import spawn  # enemies imports this module's neighbours

        spawn(state, uid, seat, "here", c.id)
        return
    push(state, "weakness_done", seat, c.id, uid=uid)
    if c.revelation:
        push(state, "effects", seat, c.id, effects=c.revelation, ctx={"seat": seat, "src": uid})


@auto("weakness_done")
def run_weakness_done(state: LcgState, frame: Frame, events: Events) -> None:
    """A resolved weakness that did not stay in play (threat area) goes to its owner's discard pile."""
    uid = frame.args["uid"]
    card = state.cards[uid]
    if card.zone == "limbo":
        card.zone = "discard"
        state.invs[card.owner if card.owner is not None else frame.owner].discard.append(uid)


# ---------------------------------------------------------------- playing

def slot_need(c: PlayerCard) -> Counter[str]:
    return Counter(c.slots)


def slots_used(state: LcgState, seat: int, skip: int | None = None) -> Counter[str]:
    used: Counter[str] = Counter()
    for uid in state.invs[seat].play:
        if uid != skip:
            d = board.cdef(state, uid)
            used.update(getattr(d, "slots", []))
    return used


def full_slots(state: LcgState, seat: int, c: PlayerCard) -> list[str]:
    used = slots_used(state, seat)
    return [s for s, n in slot_need(c).items() if used[s] + n > SLOTS[s]]


def play_cost(state: LcgState, seat: int, c: PlayerCard) -> int:
    return c.cost or 0


@auto("play_card")
def run_play_card(state: LcgState, frame: Frame, events: Events) -> None:
    """Play a card from hand (costs already checked by the menu that offered it): pay, then resolve."""
    seat = frame.owner
    uid = frame.args["uid"]
    i = state.invs[seat]
    card = state.cards[uid]
    c = board.pdef(state, uid)
    cost = play_cost(state, seat, c)
    if board.playing(state, seat) and not frame.args.get("paid") and \
            _cannot(state, seat, "play", "play cards", frame.source, events):
        return
    if not board.playing(state, seat):
        # eliminated after paying (an attack of opportunity): the game is over for them and nothing of theirs
        # enters play or resolves (Rules Reference, Elimination); the paid card goes to the discard pile
        if card.zone == "limbo":
            discard(state, uid, events)
        return
    if frame.args.get("paid"):
        if card.zone != "limbo":
            return
    else:
        if uid not in i.hand:
            return
        i.resources -= cost
        i.hand.remove(uid)
    paid = f" ({board.counted(cost, 'resource')})." if cost else "."
    say(events, f"{state.seat_name(seat)} plays {board.name(state, uid)}" + paid,
        "card.played", seat, c.id, render=c.type == "asset")
    data = {"seat": seat, "card": uid}
    after = windows.Window(timing="after", event="card.played", data=data)
    push(state, "window", seat, c.id, window=after)
    if c.type == "asset":
        card.zone = "limbo"
        push(state, "enter_play", seat, c.id, uid=uid)
        for slot in full_slots(state, seat, c):
            push(state, "free_slot", seat, c.id, slot=slot, uid=uid)
        return
    card.zone = "limbo"
    push(state, "event_done", seat, c.id, uid=uid)
    ctx = {"seat": seat, "src": uid, **{k: v for k, v in frame.args.get("ctx", {}).items()}}
    push(state, "effects", seat, c.id, effects=c.play, ctx=ctx)


@auto("pay_card")
def run_pay_card(state: LcgState, frame: Frame, events: Events) -> None:
    """A card played as an action: its cost is paid and it leaves the hand before attacks of opportunity (A.4;
    FAQ §1.23: an event enters limbo after its costs)."""
    uid = frame.args["uid"]
    i = state.invs[frame.owner]
    if uid not in i.hand:
        return
    i.resources -= play_cost(state, frame.owner, board.pdef(state, uid))
    i.hand.remove(uid)
    state.cards[uid].zone = "limbo"


@auto("event_done")
def run_event_done(state: LcgState, frame: Frame, events: Events) -> None:
    uid = frame.args["uid"]
    card = state.cards[uid]
    if card.zone == "limbo":
        card.zone = "discard"
        state.invs[card.owner if card.owner is not None else frame.owner].discard.append(uid)


@auto("enter_play")
def run_enter_play(state: LcgState, frame: Frame, events: Events) -> None:
    uid = frame.args["uid"]
    seat = frame.owner
    card = state.cards[uid]
    c = board.pdef(state, uid)
    if not board.playing(state, seat):  # eliminated while the asset was on its way into play
        discard(state, uid, events)
        return
    card.zone = "play"
    card.controller = seat
    card.exhausted = False
    card.damage = card.horror = 0
    card.uses = c.uses.count if c.uses else 0
    state.invs[seat].play.append(uid)


@auto("free_slot")
def run_free_slot(state: LcgState, frame: Frame, events: Events) -> None:
    """Make room in a full slot: discard an asset that uses it (the player's choice among several)."""
    seat = frame.owner
    slot = frame.args["slot"]
    incoming = board.pdef(state, frame.args["uid"])
    used = slots_used(state, seat)
    if used[slot] + slot_need(incoming)[slot] <= SLOTS[slot]:
        return
    holders = [u for u in state.invs[seat].play if slot in getattr(board.cdef(state, u), "slots", [])]
    if len(holders) == 1:
        push(state, "free_slot", seat, frame.source, **frame.args)
        push(state, "discard_card", seat, frame.source, uid=holders[0])
        return
    push(state, "free_slot", seat, frame.source, **frame.args)
    push(state, "free_slot_pick", seat, frame.source, slot=slot, holders=holders)


@asks("free_slot_pick")
def ask_free_slot(state: LcgState, frame: Frame) -> Prompt:
    opts = [Option(id=f"a{u}", label=board.name(state, u), data=u) for u in frame.args["holders"]]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.ONE, title=f"Your {frame.args['slot']} slots are full: "
                  "discard which asset?", reason=f"Playing {board.source_name(state, frame.source)}", options=opts,
                  default=[opts[0].id])


@answers("free_slot_pick")
def answer_free_slot(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    push(state, "discard_card", answer.seat, frame.source, uid=answer.data)


@auto("discard_card")
def run_discard_card(state: LcgState, frame: Frame, events: Events) -> None:
    """Discard a card from wherever it is: a player card to its owner's discard pile, an encounter card to the
    encounter discard pile."""
    discard(state, frame.args["uid"], events)


def discard(state: LcgState, uid: int, events: Events) -> None:
    card = state.cards[uid]
    for i in state.invs:
        for pile in (i.play, i.threat, i.hand, i.deck):
            if uid in pile:
                pile.remove(uid)
    s = state.scenario
    if s is not None:
        for pile in s.attachments.values():
            if uid in pile:
                pile.remove(uid)
        if uid in s.enemies:
            del s.enemies[uid]
    if card.zone == "discard" or card.zone == "encounter_discard":
        return
    card.exhausted = False
    card.controller = None
    card.damage = card.horror = card.doom = card.clues = card.uses = 0
    if card.owner is not None:
        card.zone = "discard"
        state.invs[card.owner].discard.append(uid)
    elif s is not None:
        card.zone = "encounter_discard"
        s.encounter_discard.append(uid)
    say(events, f"{board.name(state, uid)} is discarded.", "card.discarded", card.owner, card.code)


# ---------------------------------------------------------------- the hand size

@auto("hand_check")
def run_hand_check(state: LcgState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    if not board.playing(state, seat):
        return
    over = len(state.invs[seat].hand) - board.hand_size(state, seat)
    choosable = [u for u in state.invs[seat].hand if not board.pdef(state, u).weakness]
    if over > 0 and choosable:
        push(state, "hand_discard", seat, "hand size", count=min(over, len(choosable)))


@asks("hand_discard")
def ask_hand_discard(state: LcgState, frame: Frame) -> Prompt:
    n = frame.args["count"]
    seat = frame.owner
    opts = [Option(id=f"h{u}", label=board.name(state, u), data=u) for u in state.invs[seat].hand
            if not board.pdef(state, u).weakness]
    return Prompt(seq=0, seats=[seat], kind=PromptKind.MANY, min_choices=n, max_choices=n, private=True,
                  title=f"Discard {n} card{'s' if n != 1 else ''} down to your hand size",
                  reason="Upkeep 4.5: a hand holds 8 cards at most (weaknesses cannot be chosen)", options=opts,
                  default=[o.id for o in opts[:n]])


@answers("hand_discard")
def answer_hand_discard(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    for o in answer.options:
        discard(state, o.data, events)


@asks("discard_from_hand")
def ask_discard_from_hand(state: LcgState, frame: Frame) -> Prompt:
    """An effect makes you discard cards of your choice (weaknesses cannot be chosen, FAQ Q)."""
    seat = frame.owner
    opts = [Option(id=f"h{u}", label=board.name(state, u), data=u) for u in state.invs[seat].hand
            if not board.pdef(state, u).weakness]
    n = min(frame.args["count"], len(opts))
    return Prompt(seq=0, seats=[seat], kind=PromptKind.MANY, min_choices=n, max_choices=n, private=True,
                  title=f"Discard {n} card{'s' if n != 1 else ''} from your hand",
                  reason=board.source_name(state, frame.source), options=opts,
                  default=[o.id for o in opts[:n]])


@answers("discard_from_hand")
def answer_discard_from_hand(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    for o in answer.options:
        discard(state, o.data, events)
