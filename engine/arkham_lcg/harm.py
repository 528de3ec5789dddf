"""Damage and horror: assignment to assets that can soak them, direct damage, healing, defeat (digest §10;
FAQ §2.12: damage dealt to "you" may go to your assets unless it is direct).

Assignment is one decision per point while the investigator controls an asset that can still take that kind
(with only the investigator able to take it, everything lands at once). An asset with damage equal to its
health, or horror equal to its sanity, is defeated and discarded; an investigator is defeated the same way, by
damage (physical trauma at the scenario's end) or by horror (mental trauma)."""

from __future__ import annotations

from engine.arkham_lcg import board
from engine.arkham_lcg.ops import Events, answers, asks, auto, pick, push, say
from engine.arkham_lcg.state import LcgState
from engine.core import windows
from engine.core.flow import Answer, Frame
from engine.core.prompt import Option, Prompt, PromptKind


def take(state: LcgState, seat: int, damage: int, horror: int, source: str, direct: bool = False) -> None:
    if (damage or horror) and board.playing(state, seat):
        push(state, "take", seat, source, damage=damage, horror=horror, direct=direct, dealt=[0, 0])


def soakers(state: LcgState, seat: int, kind: str) -> list[int]:
    """Assets `seat` controls that can still take a point of damage (`kind` "damage") or horror."""
    out = []
    for uid in state.invs[seat].play:
        c = state.cards[uid]
        cap = board.asset_health(state, uid) if kind == "damage" else board.asset_sanity(state, uid)
        have = c.damage if kind == "damage" else c.horror
        if cap and have < cap:
            out.append(uid)
    return out


@auto("take")
def run_take(state: LcgState, frame: Frame, events: Events) -> None:
    a = frame.args
    seat = frame.owner
    if not board.playing(state, seat):
        return
    for kind in ("damage", "horror"):
        if a[kind] and (a["direct"] or not soakers(state, seat, kind)):
            _hurt_investigator(state, seat, kind, a[kind], frame.source, events)
            a["dealt"][0 if kind == "damage" else 1] += a[kind]
            a[kind] = 0
    if a["damage"] or a["horror"]:
        push(state, "take", seat, frame.source, **a)
        push(state, "assign", seat, frame.source, kind="damage" if a["damage"] else "horror")
        return
    _check_defeat(state, seat, frame.source, events)
    if board.playing(state, seat) and (a["dealt"][0] or a["dealt"][1]):
        push(state, "window", seat, frame.source,
             window=windows.Window(timing="after", event="damage.taken",
                                   data={"seat": seat, "damage": a["dealt"][0], "horror": a["dealt"][1]}))


@asks("assign")
def ask_assign(state: LcgState, frame: Frame) -> Prompt:
    kind = frame.args["kind"]
    seat = frame.owner
    take_frame = _take_below(state, frame)
    left = take_frame.args[kind] if take_frame else 1
    opts = [Option(id="you", label=f"{board.idef(state, seat).name} (you)", data=None)]
    for uid in soakers(state, seat, kind):
        c = state.cards[uid]
        cap = board.asset_health(state, uid) if kind == "damage" else board.asset_sanity(state, uid)
        have = c.damage if kind == "damage" else c.horror
        opts.append(Option(id=f"a{uid}", label=board.name(state, uid), detail=f"{have}/{cap} {kind}", data=uid))
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE, title=f"Assign 1 {kind} ({left} to assign)",
                  reason=_soak_reason(board.source_name(state, frame.source)), options=opts, default=["you"])


def _soak_reason(source: str) -> str:
    return f"{source}: damage and horror may go to your assets" if source else \
        "Damage and horror may go to your assets"


def _take_below(state: LcgState, frame: Frame) -> Frame | None:
    stack = state.flow.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i].id == frame.id and i > 0 and stack[i - 1].op == "take":
            return stack[i - 1]
    return None


@answers("assign")
def answer_assign(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    kind = frame.args["kind"]
    seat = answer.seat
    below = _take_below_popped(state, seat)
    if below is None:
        return
    below.args[kind] -= 1
    below.args["dealt"][0 if kind == "damage" else 1] += 1
    uid = answer.data
    if uid is None:
        _hurt_investigator(state, seat, kind, 1, frame.source, events)
        return
    c = state.cards[uid]
    if kind == "damage":
        c.damage += 1
    else:
        c.horror += 1
    say(events, f"{board.name(state, uid)} takes 1 {kind}.", f"asset.{kind}", seat, c.code)
    cap = board.asset_health(state, uid) if kind == "damage" else board.asset_sanity(state, uid)
    if (c.damage if kind == "damage" else c.horror) >= cap:
        say(events, f"{board.name(state, uid)} is defeated and discarded.", "asset.defeated", seat, c.code)
        push(state, "discard_card", seat, c.code, uid=uid)


def _take_below_popped(state: LcgState, seat: int) -> Frame | None:
    """The `take` frame the answered `assign` sat on (the assign frame is already popped)."""
    stack = state.flow.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i].op == "take" and stack[i].seat == seat:
            return stack[i]
    return None


def _hurt_investigator(state: LcgState, seat: int, kind: str, n: int, source: str, events: Events) -> None:
    i = state.invs[seat]
    if kind == "damage":
        i.damage += n
    else:
        i.horror += n
    say(events, f"{state.seat_name(seat)} takes {n} {kind}.", f"investigator.{kind}", seat, source, amount=n)


def _check_defeat(state: LcgState, seat: int, source: str, events: Events) -> None:
    i = state.invs[seat]
    by_damage = i.damage >= board.max_health(state, seat)
    by_horror = i.horror >= board.max_sanity(state, seat)
    if by_damage or by_horror:
        how = "defeated_damage" if by_damage else "defeated_horror"
        push(state, "defeat", seat, source, how=how)


def heal(state: LcgState, seat: int, kind: str, n: int, source: str) -> None:
    push(state, "heal", seat, source, kind=kind, amount=n)


@auto("heal")
def run_heal(state: LcgState, frame: Frame, events: Events) -> None:
    """Heal your investigator (an effect that names no target heals you, FAQ Q)."""
    a = frame.args
    seat = frame.owner
    kind = a["kind"]
    i = state.invs[seat]
    if board.forbidden(state, seat, "heal"):
        say(events, f"{state.seat_name(seat)} cannot heal.", "cannot", seat, frame.source)
        return
    # FAQ Q: healing that names no target heals your investigator (never an asset)
    targets: list[tuple[str, str, object]] = []
    if (i.damage if kind == "damage" else i.horror) > 0:
        targets.append(("you", f"{board.idef(state, seat).name} (you)", None))
    if not targets:
        return
    if len(targets) == 1:
        _heal_on(state, seat, kind, a["amount"], targets[0][2], frame.source, events)
        return
    push(state, "heal_pick", seat, frame.source, kind=kind, amount=a["amount"], targets=[list(t) for t in targets])


@asks("heal_pick")
def ask_heal(state: LcgState, frame: Frame) -> Prompt:
    a = frame.args
    opts = [Option(id=str(t[0]), label=str(t[1]), data=t[2]) for t in a["targets"]]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.ONE, title=f"Heal {a['amount']} {a['kind']} from?",
                  reason=board.source_name(state, frame.source), options=opts, default=[opts[0].id])


@answers("heal_pick")
def answer_heal(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    _heal_on(state, answer.seat, frame.args["kind"], frame.args["amount"], answer.data, frame.source, events)


def _heal_on(state: LcgState, seat: int, kind: str, n: int, uid: object, source: str, events: Events) -> None:
    target = state.invs[seat] if uid is None else state.cards[uid]  # type: ignore[index]
    have = target.damage if kind == "damage" else target.horror
    k = min(n, have)
    if kind == "damage":
        target.damage -= k
    else:
        target.horror -= k
    who = state.seat_name(seat) if uid is None else board.name(state, uid)  # type: ignore[arg-type]
    say(events, f"{who} heals {k} {kind}.", f"heal.{kind}", seat, source)


@auto("defeat")
def run_defeat(state: LcgState, frame: Frame, events: Events) -> None:
    """An investigator leaves the scenario (defeated, or `how` = "resigned"): clues on their location, engaged
    enemies stay there unengaged (and engage anyone else there at once), their cards leave play (digest §10, §12)."""
    seat = frame.owner
    i = state.invs[seat]
    if i.status != "playing":
        return
    how = frame.args["how"]
    i.status = how
    s = board.scen(state)
    if i.location is not None and i.clues and i.location in s.locations:
        s.locations[i.location].clues += i.clues
    i.clues = 0
    freed = []
    for e in s.enemies.values():
        if e.engaged == seat:
            e.engaged = None
            freed.append(e.uid)
    for uid in [*i.play, *i.threat, *i.hand]:
        c = state.cards[uid]
        c.zone = "encounter_discard" if c.owner is None else "discard"
        if c.owner is not None:
            state.invs[c.owner].discard.append(uid)
        else:
            s.encounter_discard.append(uid)
    i.play, i.threat, i.hand = [], [], []
    words = {"resigned": "resigns and flees the scenario", "defeated_damage": "is defeated by damage",
             "defeated_horror": "is defeated by horror", "defeated": "is defeated"}[how]
    say(events, f"{state.seat_name(seat)} {words}.", "investigator.out", seat, frame.source, render=True, how=how)
    if how != "resigned":
        push(state, "window", seat, frame.source,
             window=windows.Window(timing="after", event="investigator.defeated", data={"seat": seat}))
    if not board.order(state):
        push(state, "end_scenario", None, "rules", resolution="none")
    # Rules Reference, Elimination and Engagement: the enemies stay where they are, unengaged, and a ready one
    # at a location with an investigator engages at once (before anything else resolves)
    for uid in reversed(freed):
        push(state, "engage_check", None, "rules", uid=uid)
    left = board.order(state)
    if seat == state.lead and left:  # Rules Reference, Elimination: the others choose a new lead
        pick(state, left[0], "Who becomes the lead investigator?",
             f"{state.seat_name(seat)} was the lead investigator and is out of the scenario",
             [(f"s{x}", state.seat_name(x), x) for x in left], "new_lead", "who", "rules")


@auto("new_lead")
def run_new_lead(state: LcgState, frame: Frame, events: Events) -> None:
    """The lead passes: player order now starts from the new lead investigator."""
    who = frame.args["who"]
    if not board.playing(state, who) or who == state.lead:
        return
    state.lead = who
    say(events, f"{state.seat_name(who)} is now the lead investigator.", "lead.changed", who, "rules")
