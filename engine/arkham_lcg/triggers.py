"""Triggered abilities: reactions and forced abilities in the kernel's timing windows, fast abilities and fast
cards in player windows, and the `use_ability` op that pays an ability's cost and resolves it.

Who may answer a window (an ability's `who`):
* `you`: the card's own investigator — the controller of a player card, the investigator whose threat area
  holds a treachery, the investigator an enemy is engaged with, an investigator at a location (for the
  location's abilities and its attachments). When the window names an investigator (its `seat`), that
  investigator must be one of these.
* `here`: the window's investigator is at the card's location (or the controller's location);
* `any`: anyone's event.

Player windows (digest A "PW") are offered only to seats that can do something in them: a usable fast
ability or a fast card they can afford. Nobody able to respond means no question at all (issue: no flooded
chat).
"""

from __future__ import annotations

from typing import Any

from engine.arkham_lcg import board
from engine.arkham_lcg.content import Ability, PlayerCard, lookup
from engine.arkham_lcg.effects import run as run_effects
from engine.arkham_lcg.moments import window_words
from engine.arkham_lcg.ops import FLOW, Events, answers, auto, push, say, step
from engine.arkham_lcg.state import LcgState
from engine.core.flow import Answer, Frame, Step
from engine.core.prompt import Option, Prompt, PromptKind, Unavailable
from engine.core.text import plural
from engine.core.windows import Trigger, Window

PASS = "pass"


# ---------------------------------------------------------------- whose card is it

def card_seats(state: LcgState, uid: int) -> tuple[list[int], str | None]:
    """The investigators a card is "yours" for, and the location it is at (for `here`)."""
    c = state.cards[uid]
    s = state.scenario
    for seat, i in enumerate(state.invs):
        if i.status != "playing":
            continue
        if uid == i.uid or uid in i.play:
            return [seat], i.location
        if uid in i.threat:
            return [seat], i.location
    if s is None:
        return [], None
    if uid and uid in (s.act_uid, s.agenda_uid):  # the act and agenda are every investigator's (FAQ §1.2)
        return board.order(state), None
    if uid in s.enemies:
        e = s.enemies[uid]
        seats = [x for x in board.order(state) if x == e.engaged or (board.is_massive(state, e)
                                                                      and state.invs[x].location == e.location)]
        return seats, e.location
    if c.zone == "location":
        code = c.code
        return board.at(state, code), code
    for code, pile in s.attachments.items():
        if uid in pile:
            return board.at(state, code), code
    return [], None


def in_play_cards(state: LcgState) -> list[int]:
    """Every card whose abilities are live: investigators, play and threat areas, enemies, revealed locations
    and their attachments (in a fixed order: the rules' order for simultaneous forced abilities is the lead's
    to set; we use player order, then enemies, then locations)."""
    out: list[int] = []
    for seat in board.order(state):
        i = state.invs[seat]
        out += [i.uid, *i.play, *i.threat]
    s = state.scenario
    if s is None:
        return out
    out += [u for u in (s.act_uid, s.agenda_uid) if u and board.current_code(state, u)]
    out += sorted(s.enemies)
    for code, loc in sorted(s.locations.items()):
        if loc.revealed:
            out.append(loc.uid)
        out += s.attachments.get(code, [])
    return out


def abilities(state: LcgState, uid: int) -> list[Ability]:
    return board.cdef(state, uid).abilities


# ---------------------------------------------------------------- costs and limits

def limit_key(ab: Ability) -> str:
    return f"{ab.limit.per if ab.limit else 'none'}:{ab.id}"


def within_limit(state: LcgState, uid: int, ab: Ability) -> bool:
    if ab.limit is None:
        return True
    return state.cards[uid].used.get(limit_key(ab), 0) < ab.limit.count


#: a kind of uses in the singular ("1 charge", "2 charges"; ammo is one word for both)
USE_WORD = {"ammo": "ammo", "charges": "charge", "supplies": "supply", "secrets": "secret", "uses": "use"}


def cost_refusal(state: LcgState, seat: int, uid: int, ab: Ability, in_turn: bool = False) -> str | None:
    """Why `seat` cannot pay the ability's cost now, in a few words (the tests of `can_pay_cost`, in order);
    None when it can."""
    c = state.cards[uid]
    i = state.invs[seat]
    cost = ab.cost
    card = board.name(state, uid)
    if cost.actions and (not in_turn or i.actions + (ab.type in i.bonus_actions) < cost.actions):
        return f"That ability costs {plural(cost.actions, 'action')}; you have {i.actions} left."
    if cost.exhaust and c.exhausted:
        return f"{card} is exhausted."
    if cost.uses and c.uses < cost.uses:
        held = board.cdef(state, uid)
        kind = held.uses.kind if isinstance(held, PlayerCard) and held.uses is not None else "uses"
        one = USE_WORD.get(kind, kind)
        return f"{card} has {plural(c.uses, one, kind)} left; that ability spends {plural(cost.uses, one, kind)}."
    if i.resources < cost.resources:
        return f"That ability costs {board.counted(cost.resources, 'resource')}; you have {i.resources}."
    if i.clues < cost.clues:
        return f"That ability costs {plural(cost.clues, 'clue')}; you have {i.clues}."
    if not within_limit(state, uid, ab):
        assert ab.limit is not None
        times = "once" if ab.limit.count == 1 else "twice" if ab.limit.count == 2 else f"{ab.limit.count} times"
        return f"You already used that ability of {card} {times} this {ab.limit.per}."
    return None


def can_pay_cost(state: LcgState, seat: int, uid: int, ab: Ability, in_turn: bool = False) -> bool:
    c = state.cards[uid]
    i = state.invs[seat]
    cost = ab.cost
    if cost.actions and (not in_turn or i.actions + (ab.type in i.bonus_actions) < cost.actions):
        return False
    if cost.exhaust and c.exhausted:
        return False
    if cost.uses and c.uses < cost.uses:
        return False
    if i.resources < cost.resources or i.clues < cost.clues:
        return False
    return within_limit(state, uid, ab)


def ctx_for(state: LcgState, seat: int, uid: int, data: dict[str, Any] | None = None,
            target: int | None = None) -> dict[str, Any]:
    data = data or {}
    ctx: dict[str, Any] = {"seat": seat, "src": uid}
    if uid in (state.scenario.enemies if state.scenario else {}):
        ctx["enemy"] = uid
    for k in ("enemy", "token", "location"):
        if data.get(k) is not None:
            ctx["enemy" if k == "enemy" else ("loc" if k == "location" else k)] = data[k]
    if data.get("action") is not None or data.get("success") is not None:
        ctx["test"] = {k: data.get(k) for k in ("action", "skill", "success", "margin")}
    if target is not None:
        ctx["target"] = target
    return ctx


def use_step(seat: int, uid: int, ab: Ability, ctx: dict[str, Any], code: str, announce: bool = True) -> Step:
    """Using an ability. `announce`: narrate it (a window's response is narrated by the window already)."""
    return step(op="use_ability", seat=seat, source=code, args={"uid": uid, "ability": ab.id, "ctx": ctx,
                                                                "announce": announce})


@auto("use_ability")
def run_use_ability(state: LcgState, frame: Frame, events: Events) -> None:
    """Pay an ability's whole cost (A.4), count it against its limit, then resolve its effects."""
    seat = frame.owner
    uid = frame.args["uid"]
    c = state.cards[uid]
    ab = next(a for a in abilities(state, uid) if a.id == frame.args["ability"])
    code = board.current_code(state, uid)
    i = state.invs[seat]
    cost = ab.cost
    i.actions -= min(max(0, cost.actions - frame.args.get("bonus_used", 0)), i.actions)
    i.resources -= cost.resources
    i.clues -= cost.clues
    if cost.exhaust:
        c.exhausted = True
    if cost.uses:
        c.uses -= cost.uses
    if ab.limit is not None:
        key = limit_key(ab)
        c.used[key] = c.used.get(key, 0) + 1
    if frame.args.get("announce", True) and ab.kind != "forced":
        say(events, f"{state.seat_name(seat)} uses {board.name(state, uid)}: {ab.text}", "ability.used", seat, code)
    if cost.discard_self:
        from engine.arkham_lcg.cards import discard

        push(state, "discard_card", seat, code, uid=uid)
        _ = discard
    run_effects(state, ab.effects, frame.args["ctx"], code)
    if cost.damage or cost.horror:
        from engine.arkham_lcg.harm import take

        take(state, seat, cost.damage, cost.horror, code, direct=True)


# ---------------------------------------------------------------- timing windows

def collect(state: LcgState, window: Window) -> list[Trigger]:
    """FLOW.triggers: every reaction and forced ability (and fast card with a play window) answering `window`."""
    if state.scenario is None:
        return []
    name = f"{window.timing}:{window.event}"
    data = window.data
    wseat = data.get("seat")
    out: list[Trigger] = []
    known = lookup(board.content(state))
    # most windows have no card answering them at all: the cards in play are then not gone through
    answering = known.answering.get(name, ())
    for uid in in_play_cards(state) if answering else ():
        code = board.current_code(state, uid)
        if code not in answering:
            continue
        for ab in known.cards[code].abilities:
            if ab.kind not in ("reaction", "forced") or ab.window != name:
                continue
            for seat in _responders(state, uid, ab, wseat):
                ctx = ctx_for(state, seat, uid, data, window.target)
                if not board.holds(state, ctx, ab.condition):
                    continue
                if ab.kind == "reaction" and not can_pay_cost(state, seat, uid, ab):
                    continue
                if ab.kind == "forced" and not within_limit(state, uid, ab):
                    continue
                out.append(Trigger(id=f"{uid}:{ab.id}:{seat}", source=board.current_code(state, uid), seat=seat,
                                   label=f"{board.name(state, uid)}: {ab.text}", forced=ab.kind == "forced",
                                   steps=[use_step(seat, uid, ab, ctx, board.current_code(state, uid), False)]))
    # fast cards in hand played in this window ("cancel that attack")
    for seat in board.order(state) if name in known.play_windows else ():
        for uid in state.invs[seat].hand:
            pc = board.content(state).player.get(state.cards[uid].code)
            if pc is None or pc.play_window != name or not _may_play(state, seat, pc):
                continue
            if wseat is not None and wseat != seat and not _same_place(state, seat, wseat):
                continue
            ctx = ctx_for(state, seat, uid, data, window.target)
            if not board.holds(state, ctx, pc.play_if):
                continue
            out.append(Trigger(id=f"{uid}:play:{seat}", source=pc.id, seat=seat, private=True,
                               label=f"Play {pc.name}: {pc.text}",
                               steps=[Step(op="play_card", seat=seat, source=pc.id, args={"uid": uid, "ctx": ctx})]))
    return out


def _same_place(state: LcgState, a: int, b: int) -> bool:
    return state.invs[a].location == state.invs[b].location


def _responders(state: LcgState, uid: int, ab: Ability, wseat: int | None) -> list[int]:
    seats, where = card_seats(state, uid)
    player_card = state.cards[uid].owner is not None or any(i.uid == uid for i in state.invs)
    if ab.who == "you":
        if wseat is None:  # a window that names nobody: an encounter card nobody holds answers to the lead
            if not player_card and state.scenario is not None and uid in state.scenario.enemies:
                return seats[:1]  # an enemy's "you" is an investigator it is engaged with: unengaged, nobody
            return seats[:1] if player_card else (seats or [board.lead(state)])
        return [wseat] if wseat in seats else []
    if wseat is None or not board.playing(state, wseat):
        return []
    if ab.who == "here" and state.invs[wseat].location != where:
        return []
    return seats[:1] if player_card else [wseat]


def _may_play(state: LcgState, seat: int, pc: PlayerCard) -> bool:
    return pc.cost is not None and state.invs[seat].resources >= pc.cost


FLOW.triggers = collect
FLOW.window_words = window_words


# ---------------------------------------------------------------- player windows: fast abilities and fast cards

def fast_options(state: LcgState, seat: int, in_turn: bool = False) -> list[tuple[str, str, Step]]:
    """What `seat` may do in a player window: fast abilities of cards it controls or that are at its location,
    and fast cards it can afford that need no window. A fast card with no printed timing is played in a player
    window of its owner's own turn only (Rules Reference, "Fast"): holding one no longer opens a window for its
    owner at every phase's start (issue 30 item 13)."""
    if not board.playing(state, seat):
        return []
    out: list[tuple[str, str, Step]] = []
    i = state.invs[seat]
    cards_here = [i.uid, *i.play, *shared_cards(state, seat)]
    if i.location is not None and state.scenario is not None:
        loc = state.scenario.locations.get(i.location)
        if loc is not None and loc.revealed:
            cards_here.append(loc.uid)
        cards_here += state.scenario.attachments.get(i.location, [])
        cards_here += [e.uid for e in board.engaged(state, seat)]
    for uid in cards_here:
        for ab in abilities(state, uid):
            if ab.kind != "fast" or not can_pay_cost(state, seat, uid, ab, in_turn):
                continue
            ctx = ctx_for(state, seat, uid)
            if not board.holds(state, ctx, ab.condition):
                continue
            if not _effect_has_target(state, seat, ab.effects):
                continue
            out.append((f"f{uid}:{ab.id}", f"{board.name(state, uid)}: {ab.text}",
                        use_step(seat, uid, ab, ctx, board.current_code(state, uid))))
    own_turn = in_turn or state.turn == seat
    for uid in [] if not own_turn or board.forbidden(state, seat, "play") else i.hand:
        pc = board.content(state).player.get(state.cards[uid].code)
        if pc is None or not pc.fast or pc.play_window or not _may_play(state, seat, pc):
            continue
        if pc.type == "asset":
            pass
        elif not board.holds(state, {"seat": seat, "src": uid}, pc.play_if):
            continue
        if pc.type == "event" and not _effect_has_target(state, seat, pc.play):
            continue
        out.append((f"p{uid}", f"Play {pc.name} ({board.counted(pc.cost or 0, 'resource')})",
                    Step(op="play_card", seat=seat, source=pc.id, args={"uid": uid, "ctx": {}})))
    return out


def shared_cards(state: LcgState, seat: int) -> list[int]:
    """Encounter cards whose abilities `seat` may use besides its own: the threat areas of every investigator
    at its location (its own included) and the current act and agenda (FAQ §1.2)."""
    here = board.at(state, state.invs[seat].location)
    out = [u for s in here for u in state.invs[s].threat] if seat in here else list(state.invs[seat].threat)
    sc = state.scenario
    if sc is not None:
        out += [u for u in (sc.act_uid, sc.agenda_uid) if u and board.current_code(state, u)]
    return out


def _effect_has_target(state: LcgState, seat: int, effects: list[dict[str, Any]]) -> bool:
    """Skip abilities that could do nothing now: a bonus "for this test" outside a test."""
    for eff in effects:
        ((verb, _),) = eff.items()
        if verb in ("test_bonus", "damage_bonus", "clue_bonus", "auto_succeed", "reveal_another") and \
                not (state.tests and state.tests[-1].seat == seat):
            return False
    return True


@board.reading
def pw_seats(state: LcgState, frame: Frame) -> list[int]:
    wanted = frame.args.get("seats") or board.order(state)
    passed = frame.args.get("passed", [])
    return [s for s in wanted if s not in passed and fast_options(state, s)]


SKILL_NOT_PLAYED = "Skill cards are committed to skill tests, not played."


def closed_card(state: LcgState, uid: int, why: str) -> Unavailable:
    """A card in hand that cannot be played now, with why: shaped like its play option (a `play_card` step
    with its uid) so `/lcg play` finds the reason; private, as the hand is."""
    c = board.pdef(state, uid)
    cost = f" ({board.counted(c.cost, 'resource')})" if c.cost is not None else ""
    return Unavailable(id=f"p{uid}", label=f"Play {board.name(state, uid)}{cost}",
                       data={"kind": c.action or "play", "steps": [{"op": "play_card", "args": {"uid": uid}}]},
                       private=True, why=why)


def too_dear(state: LcgState, seat: int, uid: int) -> str | None:
    """"Lucky Penny costs 2 resources; you have 1." when the card costs more than `seat` holds."""
    c = board.pdef(state, uid)
    have = state.invs[seat].resources
    if c.cost is not None and have < c.cost:
        return f"{board.name(state, uid)} costs {board.counted(c.cost, 'resource')}; you have {have}."
    return None


def window_refusals(state: LcgState, seat: int, offered: set[str]) -> tuple[Unavailable, ...]:
    """Why each card in hand a player window does not offer cannot be played in it: a skill is committed, a
    card that is not fast is played as an action on your turn, a fast one may cost too much."""
    out = []
    for uid in state.invs[seat].hand:
        if f"p{uid}" in offered:
            continue
        c = board.content(state).player.get(state.cards[uid].code)
        if c is None:
            continue
        name = board.name(state, uid)
        if c.type == "skill":
            why = SKILL_NOT_PLAYED
        elif c.weakness or c.cost is None or c.type not in ("asset", "event"):
            why = f"{name} is not a card you play."
        elif not c.fast:
            why = f"{name} is not fast: play it as an action on your turn."
        elif c.play_window:
            why = too_dear(state, seat, uid) or f"{name} is played only at the moment its text names."
        elif state.turn != seat:
            why = f"{name} is fast, but played in a window of your own turn."
        else:
            why = too_dear(state, seat, uid) or f"{name} has nothing to do in this window."
        out.append(closed_card(state, uid, why))
    return tuple(out)


@FLOW.each("pw", seats=pw_seats)
@board.reading
def ask_pw(state: LcgState, frame: Frame, seat: int) -> Prompt:
    # a fast card in your hand is yours alone to see (`Option.private`); the window itself is asked in the open
    opts = [Option(id=oid, label=label, data=fast, private=oid.startswith("p") and oid[1:].isdigit())
            for oid, label, fast in fast_options(state, seat)]
    closed = window_refusals(state, seat, {o.id for o in opts})
    opts.append(Option(id=PASS, label="Pass", data=None, role="pass"))
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE, title=f"Player window ({frame.args.get('why', '')})",
                  reason="You may use a fast ability or play a fast card now", options=opts, default=[PASS],
                  unavailable=closed)


@answers("pw")
def answer_pw(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    if answer.data is None:
        frame.args["passed"] = [*frame.args.get("passed", []), answer.seat]
        return
    FLOW.cancel(state, frame.id)
    push(state, "pw", frame.seat, frame.source, seats=frame.args.get("seats") or [], why=frame.args.get("why", ""),
         passed=[])
    FLOW.push_steps(state, [answer.data])
