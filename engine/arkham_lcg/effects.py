"""The interpreter of the card game's effect vocabulary (engine/arkham_lcg/vocab.py).

`run(state, effects, ctx)` pushes an `effects` frame; it resolves the first effect and pushes the rest behind
whatever that effect pushed, so every effect finishes (questions included) before the next begins. The context
`ctx` is plain data: `seat` (you), `src` (this card's uid), `enemy` (an enemy uid), `loc`, `token`, `test` (the
finished test's result, for "if you succeeded by 2"), `target` (the frame a "when" window is around, for
`cancel`).

Python ops registered by name (`op:` verb) live in `UNIQUE`: a card whose effect the vocabulary cannot say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.arkham_lcg import board, cards, harm, locations, skilltest
from engine.arkham_lcg.enemies import spawn
from engine.arkham_lcg.ops import FLOW, Events, answers, asks, auto, push, say
from engine.arkham_lcg.ops import pick as _pick
from engine.arkham_lcg.state import LcgState
from engine.core.errors import EngineError
from engine.core.flow import Answer, Frame, Step
from engine.core.prompt import Option, Prompt, PromptKind
from engine.core.text import plural


def pick(state: LcgState, seat: int, title: str, reason: str, *rest: Any, **args: Any) -> None:
    """`ops.pick` with its reason (here always the card the question comes from) named as players name it."""
    _pick(state, seat, title, board.source_name(state, reason), *rest, **args)


Ctx = dict[str, Any]
Effects = list[dict[str, Any]]
Handler = Callable[[LcgState, Ctx, Any, Events, str], None]
HANDLERS: dict[str, Handler] = {}
#: Python ops a card names with `op: {name, args}`: (state, ctx, args, events) -> None
UNIQUE: dict[str, Callable[[LcgState, Ctx, dict[str, Any], Events], None]] = {}


def run(state: LcgState, effects: Effects, ctx: Ctx, source: str = "") -> None:
    if effects:
        push(state, "effects", ctx.get("seat"), source, effects=effects, ctx=ctx)


def verb(name: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn
    return deco


@auto("effects")
def run_effects(state: LcgState, frame: Frame, events: Events) -> None:
    effects: Effects = frame.args["effects"]
    if not effects:
        return
    ctx: Ctx = frame.args["ctx"]
    if len(effects) > 1:
        push(state, "effects", frame.seat, frame.source, effects=effects[1:], ctx=ctx)
    ((name, arg),) = effects[0].items()
    seat = ctx.get("seat")
    if ctx.get("campaign"):
        # a resolution or interlude: it speaks to the investigators of the campaign, in or out of the scenario;
        # "you" with nobody named is the lead investigator
        if seat is None and name not in _NO_INVESTIGATOR:
            ctx = {**ctx, "seat": state.lead}
    elif seat is not None and not board.playing(state, seat) and name not in _NO_INVESTIGATOR:
        return  # an investigator who left the scenario resolves nothing more
    HANDLERS[name](state, ctx, arg, events, frame.source)


def _seat(ctx: Ctx) -> int:
    seat = ctx.get("seat")
    if seat is None:
        raise EngineError("an effect for 'you' ran without an investigator")
    return int(seat)


# ---------------------------------------------------------------- you

@verb("draw")
def _draw(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    cards.draw(state, _seat(ctx), n, src)


@verb("resources")
def _resources(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    i = state.invs[_seat(ctx)]
    if n > 0 and board.forbidden(state, _seat(ctx), "gain_resources"):
        say(events, f"{state.seat_name(_seat(ctx))} cannot gain resources.", "cannot", _seat(ctx), src)
        return
    before = i.resources
    i.resources = max(0, i.resources + n)
    change = i.resources - before
    if change:
        word = "gains" if change > 0 else "loses"
        why = board.named_source(state, src)  # a loss at setup said nothing of the card or scenario behind it
        say(events, f"{state.seat_name(_seat(ctx))} {word} {plural(abs(change), 'resource')}"
            + (f" ({why})." if why else "."), "resources", _seat(ctx), src, amount=change)


@verb("discover")
def _discover(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    push(state, "discover", _seat(ctx), src, amount=n, loc=None)


@verb("gain_clues")
def _gain_clues(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    seat = _seat(ctx)
    state.invs[seat].clues += n
    say(events, f"{state.seat_name(seat)} gains {n} clue{'s' if n != 1 else ''}.", "clues.gained", seat, src)


@verb("lose_clues")
def _lose_clues(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    i = state.invs[_seat(ctx)]
    k = min(n, i.clues)
    if k and i.location is not None:
        i.clues -= k
        board.scen(state).locations[i.location].clues += k
        say(events, f"{state.seat_name(_seat(ctx))} places {k} clue{'s' if k != 1 else ''} on their location.",
            "clues.lost", _seat(ctx), src)


def _harm(kind: str, direct: bool) -> Handler:
    def fn(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
        harm.take(state, _seat(ctx), n if kind == "damage" else 0, n if kind == "horror" else 0, src, direct)
    return fn


for _k in ("damage", "horror"):
    HANDLERS[_k] = _harm(_k, False)
    HANDLERS[f"direct_{_k}"] = _harm(_k, True)


@verb("heal_damage")
def _heal_damage(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    harm.heal(state, _seat(ctx), "damage", n, src)


@verb("heal_horror")
def _heal_horror(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    harm.heal(state, _seat(ctx), "horror", n, src)


@verb("gain_actions")
def _gain_actions(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    state.invs[_seat(ctx)].actions += n
    say(events, f"{state.seat_name(_seat(ctx))} gains {n} action{'s' if n != 1 else ''}.", "actions.gained",
        _seat(ctx), src)


@verb("extra_action")
def _extra_action(state: LcgState, ctx: Ctx, kind: str, events: Events, src: str) -> None:
    seat = _seat(ctx)
    state.invs[seat].bonus_actions.append(kind)
    say(events, f"{state.seat_name(seat)} gains an additional action this turn, for {kind} only.",
        "actions.bonus", seat, src)


@verb("lose_actions")
def _lose_actions(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    i = state.invs[_seat(ctx)]
    k = min(n, i.actions)
    i.actions -= k
    say(events, f"{state.seat_name(_seat(ctx))} loses {k} action{'s' if k != 1 else ''}.", "actions.lost",
        _seat(ctx), src)


@verb("discard_hand")
def _discard_hand(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    seat = _seat(ctx)
    n = arg.get("count", 1)
    choosable = [u for u in state.invs[seat].hand if not board.pdef(state, u).weakness]
    if not choosable:
        return
    if arg.get("random"):
        for _ in range(min(n, len(choosable))):
            uid = choosable.pop(state.rng.below(len(choosable)))
            cards.discard(state, uid, events)
        return
    push(state, "discard_from_hand", seat, src, count=min(n, len(choosable)))


@verb("discard_asset")
def _discard_asset(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    seat = _seat(ctx)
    trait = arg.get("trait")
    # a permanent card never leaves play (FAQ errata: Permanent)
    assets = [u for u in state.invs[seat].play if (not trait or trait in board.cdef(state, u).traits)
              and not getattr(board.cdef(state, u), "permanent", False)]
    pick(state, seat, "Discard which asset?", src, [(f"a{u}", board.name(state, u), u) for u in assets],
         "discard_card", "uid", src)


@verb("search")
def _search(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    push(state, "search_deck", _seat(ctx), src, **arg)


@asks("search_deck")
def ask_search(state: LcgState, frame: Frame) -> Prompt:
    a = frame.args
    opts = [Option(id=f"d{u}", label=board.name(state, u), data=u) for u in _search_matches(state, frame)]
    k = min(a.get("take", 1), len(opts))
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.MANY, min_choices=k, max_choices=k, private=True,
                  title=f"Search the top {board.counted(a['count'], 'card')} of your deck: take {k}",
                  reason=board.source_name(state, frame.source),
                  options=opts, default=[o.id for o in opts[:k]])


def _search_matches(state: LcgState, frame: Frame) -> list[int]:
    a = frame.args
    top = state.invs[frame.owner].deck[-a["count"]:]
    out = []
    for uid in reversed(top):
        c = board.pdef(state, uid)
        if c.weakness or (a.get("type") and c.type != a["type"]) or (a.get("trait") and a["trait"] not in c.traits):
            continue
        out.append(uid)
    return out


@answers("search_deck")
def answer_search(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    i = state.invs[answer.seat]
    for o in answer.options:
        i.deck.remove(o.data)
        i.hand.append(o.data)
        state.cards[o.data].zone = "hand"
        say(events, f"You take {board.name(state, o.data)} into your hand.", "search.private", answer.seat,
            frame.source, private_to=answer.seat)
    state.rng.shuffle(i.deck)
    say(events, f"{state.seat_name(answer.seat)} searches their deck, takes "
        f"{board.counted(len(answer.options), 'card')} and shuffles it.", "search", answer.seat, frame.source)


@verb("move")
def _move(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    seat = _seat(ctx)
    to = arg["to"]
    here = state.invs[seat].location
    if board.forbidden(state, seat, "move"):
        say(events, f"{state.seat_name(seat)} cannot move.", "cannot", seat, src)
        return
    if to == "connecting":
        if here is None:
            return
        options = board.connections(state, here)
        pick(state, seat, "Move where?", src, [(c, board.loc_name(state, c), c) for c in options], "move_inv", "to",
             src, then_seat=seat)
    elif to in board.scen(state).locations:
        locations.move(state, seat, to, src)


@verb("engage")
def _engage(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    e = board.scen(state).enemies.get(ctx.get("enemy", -1))
    seat = _seat(ctx)
    if e is not None and not board.is_massive(state, e):
        e.engaged = seat
        e.location = state.invs[seat].location
        say(events, f"{board.name(state, e.uid)} engages {state.seat_name(seat)}.", "enemy.engage", seat, e.code)


@verb("trauma")
def _trauma(state: LcgState, ctx: Ctx, arg: dict[str, int], events: Events, src: str) -> None:
    rec = state.campaign.investigators[_seat(ctx)]
    rec.physical_trauma += arg.get("physical", 0)
    rec.mental_trauma += arg.get("mental", 0)
    say(events, f"{state.seat_name(_seat(ctx))} suffers trauma: " + ", ".join(f"{v} {k}" for k, v in arg.items()) + ".",
        "trauma", _seat(ctx), src)


# ---------------------------------------------------------------- tests

@verb("test")
def _test(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    skilltest.start_test(state, _seat(ctx), arg["skill"], arg["difficulty"], src, enemy=ctx.get("enemy"),
                         on_pass=arg.get("pass"), on_fail=arg.get("fail"), per_point=arg.get("per_point"),
                         src=ctx.get("src"))


def enemy_choices(state: LcgState, seat: int, which: str, ctx: Ctx) -> list[int]:
    """Enemies an effect may target: `this` (the context's), `engaged` (with you), `here` (at your location,
    engaged or not), `attacked` (the one under attack), `any` (engaged with you or at your location)."""
    s = board.scen(state)
    mine = [e.uid for e in board.engaged(state, seat)]
    where = state.invs[seat].location
    here = [e.uid for e in board.enemies_at(state, where)]
    if which in ("this", "attacked"):
        uid = ctx.get("enemy")
        return [uid] if uid in s.enemies else []
    if which == "engaged":
        return mine
    if which == "here":
        return here
    return sorted(set(mine) | set(here))


def attack_targets(state: LcgState, seat: int) -> list[int]:
    """Enemies `seat` may fight: engaged with them or at their location (digest §7), except an aloof enemy
    nobody is engaged with (it must be engaged first), unless a `can: fight_aloof` allows it; none under a
    `cannot: fight`."""
    s = board.scen(state)
    if board.forbidden(state, seat, "fight"):
        return []
    aloof_too = board.permitted(state, seat, "fight_aloof")
    return [u for u in enemy_choices(state, seat, "any", {})
            if aloof_too or not (board.keyword(state, s.enemies[u], "aloof") and s.enemies[u].engaged is None)]


@verb("fight")
def _fight(state: LcgState, ctx: Ctx, arg: Any, events: Events, src: str) -> None:
    arg = {} if arg is True else arg
    seat = _seat(ctx)
    if board.forbidden(state, seat, "fight"):
        return
    targets = [ctx["enemy"]] if ctx.get("enemy") in board.scen(state).enemies else attack_targets(state, seat)
    pick(state, seat, "Fight which enemy?", src,
         [(f"e{u}", f"{board.name(state, u)} (fight {board.enemy_fight(state, board.scen(state).enemies[u])})", u)
          for u in targets], "fight_start", "uid", src, then_seat=seat, arg=arg)


@auto("fight_start")
def run_fight_start(state: LcgState, frame: Frame, events: Events) -> None:
    a = frame.args["arg"]
    e = board.scen(state).enemies.get(frame.args["uid"])
    if e is None:
        return
    skilltest.start_test(state, frame.owner, a.get("skill", "combat"), board.enemy_fight(state, e), frame.source,
                         action="fight", enemy=e.uid, bonus=a.get("bonus", 0), damage_bonus=a.get("damage", 0),
                         on_pass=a.get("pass"), on_fail=a.get("fail"))


@verb("evade")
def _evade(state: LcgState, ctx: Ctx, arg: Any, events: Events, src: str) -> None:
    arg = {} if arg is True else arg
    seat = _seat(ctx)
    if board.forbidden(state, seat, "evade"):
        return
    targets = [u for u in enemy_choices(state, seat, "engaged", ctx)]
    if ctx.get("enemy") in targets:
        targets = [ctx["enemy"]]
    pick(state, seat, "Evade which enemy?", src,
         [(f"e{u}", f"{board.name(state, u)} (evade {board.enemy_evade(state, board.scen(state).enemies[u])})", u)
          for u in targets], "evade_start", "uid", src, then_seat=seat, arg=arg)


@auto("evade_start")
def run_evade_start(state: LcgState, frame: Frame, events: Events) -> None:
    a = frame.args["arg"]
    e = board.scen(state).enemies.get(frame.args["uid"])
    if e is None:
        return
    skilltest.start_test(state, frame.owner, a.get("skill", "agility"), board.enemy_evade(state, e), frame.source,
                         action="evade", enemy=e.uid, bonus=a.get("bonus", 0), on_pass=a.get("pass"),
                         on_fail=a.get("fail"))


@verb("investigate")
def _investigate(state: LcgState, ctx: Ctx, arg: Any, events: Events, src: str) -> None:
    arg = {} if arg is True else arg
    seat = _seat(ctx)
    where = state.invs[seat].location
    if where is None or board.forbidden(state, seat, "investigate"):
        return
    skilltest.start_test(state, seat, arg.get("skill", "intellect"),
                         board.shroud(state, where) + arg.get("shroud", 0) + board.modifier(state, seat, "shroud"),
                         src, action="investigate", location=where, bonus=arg.get("bonus", 0),
                         clue_bonus=arg.get("clues", 0), on_pass=arg.get("pass"), on_fail=arg.get("fail"))


def _on_test(fn: Callable[[Any, Any], None]) -> Handler:
    def handler(state: LcgState, ctx: Ctx, arg: Any, events: Events, src: str) -> None:
        if state.tests:
            fn(skilltest.current(state), arg)
    return handler


def _set(field: str, value: Any = None) -> Callable[[Any, Any], None]:
    def fn(test: Any, arg: Any) -> None:
        setattr(test, field, getattr(test, field) + arg if value is None else value)
    return fn


HANDLERS["test_bonus"] = _on_test(_set("bonus"))
HANDLERS["damage_bonus"] = _on_test(_set("damage_bonus"))
HANDLERS["clue_bonus"] = _on_test(_set("clue_bonus"))
def _auto_succeed(test: Any, arg: Any) -> None:
    if test.auto != "fail":  # a test that both succeeds and fails automatically fails (FAQ Q)
        test.auto = "succeed"


HANDLERS["auto_succeed"] = _on_test(_auto_succeed)


@verb("reveal_another")
def _reveal_another(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    if state.tests:
        test = skilltest.current(state)
        skilltest.ignore_last_token(test)
        push(state, "test_reveal", test.seat, src)


@verb("until")
def _until(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    i = state.invs[_seat(ctx)]
    for m in arg["modifiers"]:
        i.lasting.append({**m, "end": arg["end"], "source": src})


# ---------------------------------------------------------------- enemies

@verb("damage_enemy")
def _damage_enemy(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    seat = _seat(ctx)
    targets = enemy_choices(state, seat, arg.get("which", "any"), ctx)
    pick(state, seat, f"Deal {arg['amount']} damage to which enemy?", src,
         [(f"e{u}", board.name(state, u), u) for u in targets], "hit_enemy", "uid", src, then_seat=seat,
         amount=arg["amount"], by=seat)


@verb("exhaust_enemy")
def _exhaust_enemy(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    seat = _seat(ctx)
    targets = enemy_choices(state, seat, arg.get("which", "any"), ctx)
    pick(state, seat, "Exhaust which enemy?", src, [(f"e{u}", board.name(state, u), u) for u in targets],
         "exhaust_enemy", "uid", src)


@auto("exhaust_enemy")
def run_exhaust_enemy(state: LcgState, frame: Frame, events: Events) -> None:
    e = board.scen(state).enemies.get(frame.args["uid"])
    if e is not None:
        e.exhausted = True
        say(events, f"{board.name(state, e.uid)} is exhausted.", "enemy.exhausted", frame.seat, e.code)


@verb("evade_enemy")
def _evade_enemy(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    seat = _seat(ctx)
    targets = enemy_choices(state, seat, arg.get("which", "engaged"), ctx)
    pick(state, seat, "Evade which enemy?", src, [(f"e{u}", board.name(state, u), u) for u in targets], "evaded",
         "uid", src, then_seat=seat)


@verb("spawn")
def _spawn(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    s = board.scen(state)
    code = arg["enemy"]
    uid = next((u for u in s.set_aside if state.cards[u].code == code), None)
    if uid is not None:
        s.set_aside.remove(uid)
    else:
        uid = next((u for u in s.encounter_discard if state.cards[u].code == code), None)
        if uid is not None:
            s.encounter_discard.remove(uid)
        else:
            uid = next((u for u in s.encounter_deck if state.cards[u].code == code), None)
            if uid is not None:
                s.encounter_deck.remove(uid)
            else:
                uid = board.new_card(state, code, None, "set_aside")
    # an enemy spawned by an effect has no drawer: it engages by the usual rules (FAQ: spawning an enemy)
    at = arg.get("at")
    seat = ctx.get("seat")
    if at in (None, "here"):
        at = state.invs[seat].location if seat is not None else None
    spawn(state, uid, None, at, src)


@verb("enemy_doom")
def _enemy_doom(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    e = board.scen(state).enemies.get(ctx.get("enemy", -1))
    if e is not None:
        e.doom += n
        say(events, f"{board.name(state, e.uid)} gains {n} doom.", "doom.enemy", ctx.get("seat"), src)


@verb("ready_enemy")
def _ready_enemy(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    e = board.scen(state).enemies.get(ctx.get("enemy", -1))
    if e is not None:
        e.exhausted = False


# ---------------------------------------------------------------- the board and the clock

@verb("doom")
def _doom(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    s = board.scen(state)
    s.agenda_doom = max(0, s.agenda_doom + n)
    word = f"{n} doom is placed on" if n > 0 else f"{-n} doom is removed from"
    say(events, f"{word} the agenda ({s.agenda_doom} now).", "doom", ctx.get("seat"), src)


@verb("self_doom")
def _self_doom(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    uid = ctx.get("src")
    if uid is not None:
        state.cards[uid].doom += n


@verb("location_clues")
def _location_clues(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    where = ctx.get("loc") or state.invs[_seat(ctx)].location
    loc = board.scen(state).locations.get(where or "")
    if loc is not None:
        loc.clues = max(0, loc.clues + n)


@verb("reveal")
def _reveal(state: LcgState, ctx: Ctx, code: str, events: Events, src: str) -> None:
    push(state, "reveal_location", ctx.get("seat"), src, code=code)


@verb("place_location")
def _place_location(state: LcgState, ctx: Ctx, code: str, events: Events, src: str) -> None:
    locations.put_into_play(state, code)
    say(events, f"A new location enters play: {board.loc_name(state, code)}.", "location.placed", None, src,
        render=True)


@verb("remove_location")
def _remove_location(state: LcgState, ctx: Ctx, code: str, events: Events, src: str) -> None:
    """A location leaves play, unless an investigator or enemy is there (FAQ §1.21: they must always be at a
    location)."""
    s = board.scen(state)
    if code in s.locations and not board.at(state, code) and not board.enemies_at(state, code) and \
            not any(i.location == code for i in state.invs if i.status == "playing"):
        loc = s.locations.pop(code)
        state.cards[loc.uid].zone = "removed"
        say(events, f"{board.loc_name(state, code)} is removed from play.", "location.removed", None, src,
            render=True)


@verb("advance_act")
def _advance_act(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    push(state, "advance_act", ctx.get("seat"), src)


@verb("advance_agenda")
def _advance_agenda(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    push(state, "advance_agenda", ctx.get("seat"), src)


@verb("draw_encounter")
def _draw_encounter(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    for _ in range(n):
        push(state, "encounter_draw", _seat(ctx), src)


@verb("surge")
def _surge(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    say(events, "Surge: another encounter card is drawn.", "surge", ctx.get("seat"), src)
    push(state, "encounter_draw", _seat(ctx), src)


@verb("threat_area")
def _threat_area(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    uid = ctx["src"]
    seat = _seat(ctx)
    state.cards[uid].zone = "threat"
    state.cards[uid].controller = None
    if uid not in state.invs[seat].threat:
        state.invs[seat].threat.append(uid)
    say(events, f"{board.name(state, uid)} stays in {state.seat_name(seat)}'s threat area.", "threat.placed", seat,
        src)


@verb("attach_location")
def _attach_location(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    uid = ctx["src"]
    where = ctx.get("loc") or state.invs[_seat(ctx)].location
    if where is None:
        return
    state.cards[uid].zone = "attached"
    board.scen(state).attachments.setdefault(where, []).append(uid)
    say(events, f"{board.name(state, uid)} is attached to {board.loc_name(state, where)}.", "location.attached",
        ctx.get("seat"), src)


@verb("discard_self")
def _discard_self(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    uid = ctx.get("src")
    if uid is not None:
        cards.discard(state, uid, events)


@verb("exhaust_self")
def _exhaust_self(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    if ctx.get("src") is not None:
        state.cards[ctx["src"]].exhausted = True


@verb("ready_self")
def _ready_self(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    if ctx.get("src") is not None:
        state.cards[ctx["src"]].exhausted = False


@verb("uses")
def _uses(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    if ctx.get("src") is not None:
        c = state.cards[ctx["src"]]
        c.uses = max(0, c.uses + n)


@verb("victory")
def _victory(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    uid = ctx.get("src")
    if uid is not None:
        cards.discard(state, uid, [])
        s = board.scen(state)
        if uid in s.encounter_discard:
            s.encounter_discard.remove(uid)
        state.cards[uid].zone = "victory"
        s.victory.append(uid)
        say(events, f"{board.name(state, uid)} goes to the victory display.", "victory", ctx.get("seat"), src)


@verb("cancel")
def _cancel(state: LcgState, ctx: Ctx, arg: bool, events: Events, src: str) -> None:
    from engine.core import windows

    target = ctx.get("target")
    if target is not None and windows.cancel_event(FLOW, state, target):
        say(events, "It is cancelled.", "cancelled", ctx.get("seat"), src)


# ---------------------------------------------------------------- the chaos bag and the campaign

@verb("bless")
def _bless(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    k = skilltest.add_bless_curse(state, "bless", n)
    say(events, f"{board.counted(k, 'bless token')} {'goes' if k == 1 else 'go'} into the chaos bag.", "bag.bless",
        ctx.get("seat"), src)


@verb("curse")
def _curse(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    k = skilltest.add_bless_curse(state, "curse", n)
    say(events, f"{board.counted(k, 'curse token')} {'goes' if k == 1 else 'go'} into the chaos bag.", "bag.curse",
        ctx.get("seat"), src)


@verb("bag_add")
def _bag_add(state: LcgState, ctx: Ctx, token: str, events: Events, src: str) -> None:
    state.campaign.bag.append(token)
    state.bag.append(token)
    say(events, f"A {skilltest.token_label(token)} token is added to the chaos bag for the rest of the campaign.",
        "bag.added", None, src)


@verb("bag_remove")
def _bag_remove(state: LcgState, ctx: Ctx, token: str, events: Events, src: str) -> None:
    if token in state.campaign.bag:
        state.campaign.bag.remove(token)
        if token in state.bag:
            state.bag.remove(token)
        say(events, f"A {skilltest.token_label(token)} token leaves the chaos bag for the rest of the campaign.",
            "bag.removed", None, src)


@verb("record")
def _record(state: LcgState, ctx: Ctx, key: str, events: Events, src: str) -> None:
    if key not in state.campaign.log:
        state.campaign.log.append(key)
    if key in state.campaign.crossed_out:
        state.campaign.crossed_out.remove(key)
    say(events, f"Campaign log: {key}.", "log.record", None, src)


@verb("cross_out")
def _cross_out(state: LcgState, ctx: Ctx, key: str, events: Events, src: str) -> None:
    if key not in state.campaign.crossed_out:
        state.campaign.crossed_out.append(key)
    say(events, f"Campaign log: crossed out '{key}'.", "log.cross_out", None, src)


@verb("remember")
def _remember(state: LcgState, ctx: Ctx, key: str, events: Events, src: str) -> None:
    s = board.scen(state)
    if key not in s.remembered:
        s.remembered.append(key)


@verb("xp")
def _xp(state: LcgState, ctx: Ctx, n: int, events: Events, src: str) -> None:
    for rec in state.campaign.investigators:
        if rec.status == "active":
            rec.xp = max(0, rec.xp + n)
            rec.xp_earned = max(0, rec.xp_earned + n)
    say(events, f"Each investigator earns {n} experience.", "xp", None, src)


@verb("resolution")
def _resolution(state: LcgState, ctx: Ctx, which: str, events: Events, src: str) -> None:
    push(state, "end_scenario", None, src, resolution=which)


# ---------------------------------------------------------------- structure

@verb("each_investigator")
def _each_investigator(state: LcgState, ctx: Ctx, effects: Effects, events: Events, src: str) -> None:
    """Every investigator in the scenario, in player order; in a resolution or interlude, every investigator
    still in the campaign."""
    if ctx.get("campaign"):
        seats = [r.seat for r in state.campaign.investigators if r.status == "active"]
    else:
        seats = board.order(state)
    FLOW.push_steps(state, [Step(op="effects", seat=s, source=src, args={"effects": effects, "ctx": {**ctx, "seat": s}})
                            for s in seats])


@verb("each_here")
def _each_here(state: LcgState, ctx: Ctx, effects: Effects, events: Events, src: str) -> None:
    where = ctx.get("loc") or state.invs[_seat(ctx)].location
    FLOW.push_steps(state, [Step(op="effects", seat=s, source=src, args={"effects": effects, "ctx": {**ctx, "seat": s}})
                            for s in board.at(state, where)])


@verb("choose")
def _choose(state: LcgState, ctx: Ctx, options: list[dict[str, Any]], events: Events, src: str) -> None:
    seat = ctx.get("seat")
    who = seat if seat is not None else board.lead(state)
    legal = [(f"o{n}", o["label"], o["effects"]) for n, o in enumerate(options) if board.holds(state, ctx, o.get("if"))]
    # an option whose "if able" part you cannot carry out is no choice while another option is (Rules
    # Reference, If Able): you must pick one you can resolve
    doable = [o for o in legal if seat is None or able(state, seat, o[2])]
    legal = doable or legal
    pick(state, who, "Choose one", src, legal, "effects", "effects", src, then_seat=seat, ctx=ctx)


@verb("if_able")
def _if_able(state: LcgState, ctx: Ctx, effects: Effects, events: Events, src: str) -> None:
    """Effects you must resolve when you are able to; when you are not, they are skipped and what follows
    goes on (Rules Reference, If Able)."""
    seat = ctx.get("seat")
    if seat is None or able(state, seat, effects, strict=True):
        run(state, effects, ctx, src)


def able(state: LcgState, seat: int, effects: Effects, strict: bool = False) -> bool:
    """Can `seat` carry out these effects now? Only their `if_able` parts are judged (everything else resolves
    as far as it can anyway), unless `strict`: then each effect listed is. An effect is unable when a `cannot`
    forbids it or when there is nothing for it to act on."""
    for eff in effects:
        ((verb, arg),) = eff.items()
        if verb == "if_able":
            if not able(state, seat, arg, strict=True):
                return False
        elif strict and not _able_one(state, seat, verb, arg):
            return False
    return True


def _able_one(state: LcgState, seat: int, verb: str, arg: Any) -> bool:
    i = state.invs[seat]
    no = board.forbidden
    if verb == "draw":
        return not no(state, seat, "draw") and bool(i.deck or i.discard)
    if verb == "resources":
        return i.resources > 0 if arg < 0 else not no(state, seat, "gain_resources")
    if verb == "move":
        here = i.location
        if no(state, seat, "move") or here is None:
            return False
        return bool(board.connections(state, here)) if arg["to"] == "connecting" else \
            arg["to"] in board.scen(state).locations and arg["to"] != here
    if verb in ("heal_damage", "heal_horror"):
        return not no(state, seat, "heal") and (i.damage if verb == "heal_damage" else i.horror) > 0
    if verb == "lose_clues":
        return i.clues > 0
    if verb == "discard_hand":
        return any(not board.pdef(state, u).weakness for u in i.hand)
    if verb == "discard_asset":
        trait = arg.get("trait")
        return any(trait is None or trait in board.cdef(state, u).traits for u in i.play)
    if verb in ("fight", "evade", "investigate"):
        if no(state, seat, verb):
            return False
        if verb == "fight":
            return bool(attack_targets(state, seat))
        return bool(board.engaged(state, seat)) if verb == "evade" else i.location is not None
    return True


@verb("may")
def _may(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    seat = ctx.get("seat")
    who = seat if seat is not None else board.lead(state)
    push(state, "may", who, src, label=arg["label"], effects=arg["effects"], ctx=ctx)


@asks("may")
def ask_may(state: LcgState, frame: Frame) -> Prompt:
    a = frame.args
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.CONFIRM, title=a["label"] + "?",
                  reason=board.source_name(state, frame.source),
                  options=[Option(id="yes", label="Yes", data=True), Option(id="no", label="No", data=False)],
                  default=["no"])


@answers("may")
def answer_may(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    if answer.data:
        run(state, frame.args["effects"], frame.args["ctx"], frame.source)


def can_pay(state: LcgState, seat: int, cost: dict[str, Any]) -> bool:
    i = state.invs[seat]
    return bool(i.resources >= cost.get("resources", 0) and i.clues >= cost.get("clues", 0)
                and i.actions >= cost.get("actions", 0))


def pay(state: LcgState, seat: int, cost: dict[str, Any], src: str) -> None:
    i = state.invs[seat]
    i.resources -= cost.get("resources", 0)
    i.clues -= cost.get("clues", 0)
    i.actions -= cost.get("actions", 0)
    harm.take(state, seat, cost.get("damage", 0), cost.get("horror", 0), src, direct=True)


@verb("pay")
def _pay(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    seat = _seat(ctx)
    if can_pay(state, seat, arg):
        push(state, "pay_ask", seat, src, cost={k: v for k, v in arg.items() if k not in ("effects", "label")},
             label=arg.get("label", ""), effects=arg["effects"], ctx=ctx)


@asks("pay_ask")
def ask_pay(state: LcgState, frame: Frame) -> Prompt:
    a = frame.args
    cost = ", ".join(board.counted(v, k.removesuffix("s")) for k, v in a["cost"].items())
    title = a["label"] or f"Pay {cost}?"
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.CONFIRM, title=title,
                  reason=board.source_name(state, frame.source),
                  options=[Option(id="yes", label=f"Pay {cost}", data=True),
                           Option(id="no", label="Don't pay", data=False)], default=["no"])


@answers("pay_ask")
def answer_pay(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    if answer.data and can_pay(state, answer.seat, frame.args["cost"]):
        run(state, frame.args["effects"], frame.args["ctx"], frame.source)
        pay(state, answer.seat, frame.args["cost"], frame.source)


@verb("if")
def _if(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    branch = arg["then"] if board.holds(state, ctx, arg["cond"]) else arg.get("else") or []
    run(state, branch, ctx, src)


@verb("repeat")
def _repeat(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    times = arg["times"]
    n = times if isinstance(times, int) else board.count(state, _seat(ctx), times)
    for _ in range(max(0, n)):
        run(state, arg["effects"], ctx, src)


@verb("op")
def _op(state: LcgState, ctx: Ctx, arg: dict[str, Any], events: Events, src: str) -> None:
    fn = UNIQUE.get(arg["name"])
    if fn is None:
        raise EngineError(f"card {src} names the op '{arg['name']}', which is not registered")
    fn(state, ctx, arg.get("args") or {}, events)


#: verbs that still resolve when "you" have left the scenario (they act on the campaign or the board)
_NO_INVESTIGATOR = frozenset({"record", "cross_out", "remember", "xp", "resolution", "bag_add", "bag_remove",
                              "doom", "advance_act", "advance_agenda", "each_investigator", "trauma",
                              "place_location", "remove_location", "reveal", "spawn", "if", "choose"})
