"""The effect interpreter and the single choke points of the rules (digest 14.1): doom placement (streets and
anomalies), clues, the event deck's two ends, spawning, damage and horror with their assignment, defeat,
assets and conditions, the codex.

An effect list runs as one `eff` frame per effect, in order; an effect that needs a decision pushes a question
above the rest. Every effect carries a context: `seat` ("you", may be None), `space` ("this space"),
`monster` (a monster's activation) and `card` (the card carrying it, for flip_self/discard_self).
"""

from __future__ import annotations

import math
from typing import Any

from engine.arkham3 import board
from engine.arkham3.board import content, graph, has_inv, inv, scenario, who
from engine.arkham3.content import Threshold
from engine.arkham3.effects_schema import SKILLS, TOKENS
from engine.arkham3.ops import Events, answers, asks, auto, pick, push, say, seq
from engine.arkham3.state import ArkhamState, Asset, Inv, Monster
from engine.core.flow import Answer, Frame
from engine.core.prompt import Option, Prompt, PromptKind, Unavailable
from engine.core.text import plural

Ctx = dict[str, Any]


def ctx_for(state: ArkhamState, seat: int | None, card: str = "", monster: int | None = None,
            space: str | None = None) -> Ctx:
    if space is None and seat is not None and has_inv(state, seat):
        space = inv(state, seat).space
    return {"seat": seat, "space": space, "monster": monster, "card": card}


def run_effects(state: ArkhamState, effects: list[dict[str, Any]], ctx: Ctx, source: str = "") -> None:
    """Push an effect list so that it resolves in order, before anything already on the stack."""
    for e in reversed(effects or []):
        push(state, "eff", ctx.get("seat"), source, e=e, ctx=ctx)


def end_game(state: ArkhamState, result: str, text: str, events: Events, cause: str = "") -> None:
    if state.over:
        return
    state.over, state.result, state.phase = True, result, "over"  # type: ignore[assignment]
    say(events, text, "game.won" if result == "win" else "game.lost", cause=cause, render=True)


# ---------------------------------------------------------------- the interpreter

@auto("eff")
def run_eff(state: ArkhamState, frame: Frame, events: Events) -> None:
    ((verb, arg),) = frame.args["e"].items()
    ctx: Ctx = frame.args["ctx"]
    seat = ctx.get("seat")
    handler = VERB_HANDLERS[verb]
    if verb in YOU_VERBS and not has_inv(state, seat):
        return  # nobody to resolve it for (a defeated seat's headline, a seat that was just defeated)
    handler(state, arg, ctx, frame.source, events)


def _you(state: ArkhamState, ctx: Ctx) -> Inv:
    return inv(state, ctx["seat"])


def _space(state: ArkhamState, ctx: Ctx) -> str | None:
    if ctx.get("monster") is not None:
        m = board.find_monster(state, ctx["monster"])
        if m is not None and board.monster_space(state, m):
            return board.monster_space(state, m)
    if ctx.get("seat") is not None and has_inv(state, ctx["seat"]):
        return inv(state, ctx["seat"]).space
    return ctx.get("space")


def h_suffer(kind: str, direct: bool):
    def h(state: ArkhamState, n: int, ctx: Ctx, source: str, events: Events) -> None:
        suffer(state, ctx["seat"], n if kind == "damage" else 0, n if kind == "horror" else 0, direct, source)
    return h


def h_recover(kind: str):
    def h(state: ArkhamState, n: int, ctx: Ctx, source: str, events: Events) -> None:
        i = _you(state, ctx)
        before = getattr(i, kind)
        setattr(i, kind, max(0, before - n))
        if before:
            say(events, f"{who(state, ctx['seat'])} recovers {before - getattr(i, kind)} {kind}.", "recover",
                ctx["seat"], source)
    return h


def h_resource(kind: str):
    def h(state: ArkhamState, n: int, ctx: Ctx, source: str, events: Events) -> None:
        i = _you(state, ctx)
        before = getattr(i, kind)
        setattr(i, kind, max(0, before + n))
        change = getattr(i, kind) - before
        if change:
            amount = f"${abs(change)}" if kind == "money" else plural(abs(change), kind.removesuffix("s"))
            say(events, f"{who(state, ctx['seat'])} {'gains' if change > 0 else 'loses'} {amount}.", kind,
                ctx["seat"], source)
    return h


def h_neighborhood_clue(state: ArkhamState, arg: Any, ctx: Ctx, source: str, events: Events) -> None:
    seat = ctx["seat"]
    tile = board.tile_of(state, inv(state, seat).space or "")
    if tile is None or not state.clues.get(tile):
        say(events, "There is no clue in this neighborhood to gain.", "clue.none", seat, source)
        return
    state.clues[tile] -= 1
    inv(state, seat).clues += 1
    state.clue_gained = True
    say(events, f"{who(state, seat)} gains the clue of {content(state).tiles[tile].name}.", "clue.gained", seat,
        source)
    ab = content(state).investigators[inv(state, seat).card].ability
    if ab.kind == "clue_sense":
        inv(state, seat).clues += ab.param("clues")
        say(events, f"{who(state, seat)}'s instinct finds {plural(ab.param('clues'), 'more clue')}.", "clue.gained",
            seat, ab.kind)


def h_focus(state: ArkhamState, skill: str, ctx: Ctx, source: str, events: Events) -> None:
    seat = ctx["seat"]
    i = inv(state, seat)
    free = [s for s in SKILLS if s not in i.focus]
    if skill != "any":
        free = [skill] if skill in free else []
    if not free:
        return
    pick(state, seat, "Focus which skill?", "An effect lets you focus", [(s, board.SKILL_NAMES[s], s) for s in free],
         "focus_gain", "skill", source, then_seat=seat)


@auto("focus_gain")
def run_focus_gain(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    if not has_inv(state, seat):
        return
    i = inv(state, seat)
    skill = frame.args["skill"]
    if skill in i.focus:
        return
    i.focus.append(skill)
    say(events, f"{who(state, seat)} focuses {board.SKILL_NAMES[skill]}.", "focus", seat, frame.source)
    limit = content(state).investigators[i.card].focus_limit
    if len(i.focus) > limit and not frame.args.get("action"):
        # an effect that focuses past the limit makes you discard one (digest 4.1, 12.9)
        pick(state, seat, "Over your focus limit: discard which focus?", "Focus limit",
             [(s, board.SKILL_NAMES[s], s) for s in i.focus], "focus_drop", "skill", frame.source, then_seat=seat)


@auto("focus_drop")
def run_focus_drop(state: ArkhamState, frame: Frame, events: Events) -> None:
    if has_inv(state, frame.owner) and frame.args["skill"] in inv(state, frame.owner).focus:
        inv(state, frame.owner).focus.remove(frame.args["skill"])
        say(events, f"{who(state, frame.owner)} discards a {board.SKILL_NAMES[frame.args['skill']]} focus.",
            "focus", frame.owner, frame.source)


def h_delayed(state: ArkhamState, arg: Any, ctx: Ctx, source: str, events: Events) -> None:
    i = _you(state, ctx)
    if not i.delayed:
        i.delayed = True
        say(events, f"{who(state, ctx['seat'])} is delayed.", "delayed", ctx["seat"], source)


def h_devoured(state: ArkhamState, arg: Any, ctx: Ctx, source: str, events: Events) -> None:
    push(state, "defeat", ctx["seat"], source, how="devoured")


def h_move_to(state: ArkhamState, where: str, ctx: Ctx, source: str, events: Events) -> None:
    seat = ctx["seat"]
    if board.restricting(state, seat):
        say(events, f"{who(state, seat)} is engaged and cannot be moved.", "move.blocked", seat, source)
        return
    if where == "starting":
        targets = [scenario(state).sheet.start]
    elif where == "unstable":
        targets = board.unstable(state)
    elif where == "here":
        return
    else:
        targets = [where] if where in graph(state).adj else []
    pick(state, seat, "Move to which space?", "You are moved directly",
         [(t, board.space_name(state, t), t) for t in targets], "place_inv", "space", source, then_seat=seat)


@auto("place_inv")
def run_place_inv(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    if not has_inv(state, seat):
        return
    move_investigator(state, seat, frame.args["space"], events, frame.source)


def move_investigator(state: ArkhamState, seat: int, space: str, events: Events, source: str = "") -> None:
    i = inv(state, seat)
    i.space = space
    for m in board.engaged_with(state, seat):  # watchers move with you (digest 7)
        if board.has_kw(state, m, "massive") and m.space is not None:
            m.engaged.remove(seat)
            if not m.engaged:
                m.status = "ready"
    say(events, f"{who(state, seat)} moves to {board.space_name(state, space)}.", "moved", seat, source,
        space=space)
    engage_on_entering(state, seat, events)


def engage_on_entering(state: ArkhamState, seat: int, events: Events) -> None:
    """Ready monsters in the space engage an investigator who enters it; a massive one engages everyone,
    even while already engaged (digest 4.1 Move, 7)."""
    space = inv(state, seat).space
    for m in list(state.monsters):
        if m.space != space:
            continue
        if board.has_kw(state, m, "massive"):
            if seat not in m.engaged:
                m.engaged.append(seat)
                m.status = "engaged"
                say(events, f"{board.monster_name(state, m)} engages {who(state, seat)}.", "engaged", seat)
        elif m.status == "ready" and not board.has_kw(state, m, "elusive"):
            engage(state, m, seat, events)


def engage(state: ArkhamState, m: Monster, seat: int, events: Events) -> None:
    if board.has_kw(state, m, "massive"):
        m.space = m.space or inv(state, seat).space
        if seat not in m.engaged:
            m.engaged.append(seat)
    else:
        m.space = None
        m.engaged = [seat]
    m.status = "engaged"
    say(events, f"{board.monster_name(state, m)} engages {who(state, seat)}.", "engaged", seat)


def h_shop(state: ArkhamState, discount: int, ctx: Ctx, source: str, events: Events) -> None:
    push(state, "shop", ctx["seat"], source, discount=discount, offer=list(state.display), bought=[])


def h_gain(state: ArkhamState, arg: dict[str, Any], ctx: Ctx, source: str, events: Events) -> None:
    gain_asset(state, ctx["seat"], arg["deck"], arg.get("trait"), source, events)


def h_special(state: ArkhamState, card: str, ctx: Ctx, source: str, events: Events) -> None:
    if card in state.special_pile:
        state.special_pile.remove(card)
        _you(state, ctx).assets.append(Asset(card=card))
        say(events, f"{who(state, ctx['seat'])} gains {content(state).name_of(card)}.", "gain", ctx["seat"], source)


def h_condition(state: ArkhamState, name: str, ctx: Ctx, source: str, events: Events) -> None:
    gain_condition(state, ctx["seat"], name, events, source)


def h_lose_condition(state: ArkhamState, name: str, ctx: Ctx, source: str, events: Events) -> None:
    i = _you(state, ctx)
    for copy, face in list(i.conditions.items()):
        if face == name or (name == "dark_pact" and face == "front"):
            discard_condition(state, ctx["seat"], copy, events)


def h_test(state: ArkhamState, arg: dict[str, Any], ctx: Ctx, source: str, events: Events) -> None:
    push(state, "test", ctx["seat"], source, skill=arg["skill"], mod=arg.get("mod", 0), purpose="encounter",
         spec=arg, ctx=ctx)


def can_pay(i: Inv, arg: dict[str, Any]) -> bool:
    """Whether an investigator holds what a `pay` asks: money, clues, remnants, focus tokens and the card (damage
    and horror can always be suffered)."""
    costs = {k: arg[k] for k in ("money", "clues", "remnants", "focus") if k in arg}
    held = "card" not in arg or any(a.card == arg["card"] for a in i.assets)
    return held and all(getattr(i, k) >= n for k, n in costs.items() if k != "focus") and \
        len(i.focus) >= costs.get("focus", 0)


def h_pay(state: ArkhamState, arg: dict[str, Any], ctx: Ctx, source: str, events: Events) -> None:
    i = _you(state, ctx)
    if not can_pay(i, arg):
        say(events, f"{who(state, ctx['seat'])} cannot pay: {arg.get('label', 'the cost')}.", "pay.cannot",
            ctx["seat"], source)
        return
    push(state, "pay_ask", ctx["seat"], source, arg=arg, ctx=ctx)


#: a cost's key as one of it is called ("1 clue", "2 remnants"; damage, horror and focus keep one form)
COST_WORDS = {"clues": "clue", "remnants": "remnant"}


@asks("pay_ask")
def ask_pay(state: ArkhamState, frame: Frame) -> Prompt:
    arg = frame.args["arg"]
    costs = ", ".join(f"${n}" if k == "money" else content(state).name_of(n) if k == "card" else
                      plural(n, COST_WORDS.get(k, k)) for k, n in arg.items() if k not in ("effects", "label"))
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.CONFIRM, title=arg.get("label") or f"Pay {costs}?",
                  reason=f"Costs {costs}", options=[Option(id="yes", label=f"Pay ({costs})", data=True),
                                                    Option(id="no", label="Do not pay", data=False)],
                  default=["no"])


@answers("pay_ask")
def answer_pay(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    if not answer.data or not has_inv(state, frame.owner):
        return
    arg, ctx, seat = frame.args["arg"], frame.args["ctx"], frame.owner
    i = inv(state, seat)
    for k in ("money", "clues", "remnants"):
        if k in arg:
            setattr(i, k, getattr(i, k) - arg[k])
    for _ in range(arg.get("focus", 0)):
        i.focus.pop()
    if "card" in arg:
        given = next(a for a in i.assets if a.card == arg["card"])
        return_asset(state, seat, given)  # given up as a cost: not lost, so its on_lost does not resolve
    say(events, f"{who(state, seat)} pays: {arg.get('label', 'the cost')}.", "pay", seat, frame.source)
    run_effects(state, arg["effects"], ctx, frame.source)
    if arg.get("damage") or arg.get("horror"):
        suffer(state, seat, arg.get("damage", 0), arg.get("horror", 0), False, frame.source)


def source_words(state: ArkhamState, source: str) -> str:
    """The card a question comes from, by name; "" for a rule or an unknown id (never an id itself)."""
    name = content(state).name_of(source)
    return "" if name == source and ("." in source or "_" in source) else name


def h_choose(state: ArkhamState, arg: list[dict[str, Any]], ctx: Ctx, source: str, events: Events) -> None:
    push(state, "choose_ask", ctx["seat"], source, options=arg, ctx=ctx)


@asks("choose_ask")
def ask_choose(state: ArkhamState, frame: Frame) -> Prompt:
    opts = [Option(id=str(k + 1), label=o["label"], data=k) for k, o in enumerate(frame.args["options"])]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.ONE, title="Choose one",
                  reason=source_words(state, frame.source),
                  options=opts, default=[opts[-1].id])


@answers("choose_ask")
def answer_choose(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    chosen = frame.args["options"][answer.data]
    say(events, f"{who(state, frame.owner)} chooses: {chosen['label']}.", "choice", frame.owner, frame.source)
    run_effects(state, chosen["effects"], frame.args["ctx"], frame.source)


def h_die(state: ArkhamState, arg: dict[str, Any], ctx: Ctx, source: str, events: Events) -> None:
    face = state.rng.below(6) + 1
    hit = face in arg["faces"]
    say(events, f"A die is rolled for {content(state).name_of(source) if source else 'a card'}: {face}.", "die",
        ctx.get("seat"), source, face=face)
    run_effects(state, arg["effects"] if hit else (arg.get("else") or []), ctx, source)


def h_doom(state: ArkhamState, n: int, ctx: Ctx, source: str, events: Events) -> None:
    space = _space(state, ctx)
    if space is None:
        return
    for _ in range(n):
        push(state, "place_doom", None, source, space=space)


def h_remove_doom(state: ArkhamState, n: int, ctx: Ctx, source: str, events: Events) -> None:
    space = _space(state, ctx)
    if space is not None:
        remove_doom(state, space, n, events, ctx.get("seat"), source)


def h_seal(state: ArkhamState, arg: Any, ctx: Ctx, source: str, events: Events) -> None:
    """A seal marker (a scenario's rule): the doom in the space is removed and no doom is placed there while the
    seal holds; only a street-free neighborhood space can be sealed."""
    space = _space(state, ctx)
    if space is None or board.is_street(space) or space in state.seals:
        return
    remove_doom(state, space, state.doom.get(space, 0), events, ctx.get("seat"), source)
    state.seals.append(space)
    say(events, f"{board.space_name(state, space)} is sealed ({plural(len(state.seals), 'seal')} on the map).",
        "sealed", ctx.get("seat"), source, space=space)
    push(state, "codex", None, "codex")


def h_break_seal(state: ArkhamState, arg: Any, ctx: Ctx, source: str, events: Events) -> None:
    space = _space(state, ctx)
    if space in state.seals:
        state.seals.remove(space)
        say(events, f"The seal on {board.space_name(state, space)} is broken ({len(state.seals)} left).",
            "seal.broken", ctx.get("seat"), source, space=space)
        push(state, "codex", None, "codex")


def _each(select: str):
    def h(state: ArkhamState, effects: list[dict[str, Any]], ctx: Ctx, source: str, events: Events) -> None:
        space = _space(state, ctx)
        if select == "all":
            seats = board.on_board(state)
        elif space is None:
            seats = []
        elif select == "here":
            seats = board.at(state, space)
        else:
            tile = board.tile_of(state, space)
            seats = [s for s in board.on_board(state)
                     if tile is not None and board.tile_of(state, inv(state, s).space or "") == tile]
        for s in reversed(seats):
            run_effects(state, effects, {**ctx, "seat": s, "space": inv(state, s).space}, source)
    return h


def h_monster_damage(state: ArkhamState, n: int, ctx: Ctx, source: str, events: Events) -> None:
    seat = ctx.get("seat")
    space = _space(state, ctx)
    if space is None or seat is None:
        return
    targets = board.monsters_at(state, space)
    pick(state, seat, f"Deal {n} damage to which monster?", content(state).name_of(source) or source,
         [(f"m{m.uid}", board.monster_label(state, m), m.uid) for m in targets], "hurt_monster", "uid", source,
         then_seat=seat, amount=n)


@auto("hurt_monster")
def run_hurt_monster(state: ArkhamState, frame: Frame, events: Events) -> None:
    m = board.find_monster(state, frame.args["uid"])
    if m is None:
        return
    hurt_monster(state, m, frame.args["amount"], frame.seat, events, frame.source)


def hurt_monster(state: ArkhamState, m: Monster, n: int, seat: int | None, events: Events, source: str = "") -> None:
    m.damage += n
    hp = board.monster_health(state, m)
    say(events, f"{board.monster_name(state, m)} takes {n} damage ({m.damage}/{hp}).", "monster.damaged", seat,
        source)
    if m.damage >= hp:
        defeat_monster(state, m, seat, events, source)


def defeat_monster(state: ArkhamState, m: Monster, seat: int | None, events: Events, source: str = "") -> None:
    """Defeated: on top of the monster deck (an epic monster back to the archive), remnant if the icon shows
    (digest 4.1 Attack, 6.3)."""
    card = board.monster_card(state, m)
    state.monsters.remove(m)
    if m.card.startswith("archive:"):
        state.epic_defeated.append(int(m.card.split(":")[1]))
    else:
        state.decks["monster"].append(m.card)
    say(events, f"{card.name} is defeated!", "monster.defeated", seat, source)
    if card.remnant and has_inv(state, seat):
        inv(state, seat).remnants += 1  # type: ignore[arg-type]
        say(events, f"{who(state, seat)} gains 1 remnant.", "remnants", seat, source)
    push(state, "codex", None, "codex")


def h_spawn_monster(state: ArkhamState, arg: Any, ctx: Ctx, source: str, events: Events) -> None:
    push(state, "spawn", ctx.get("seat"), source)


def h_token(kind: str):
    def h(state: ArkhamState, n: Any, ctx: Ctx, source: str, events: Events) -> None:
        times = 1 if n is True else int(n)
        for _ in range(times):
            push(state, kind, ctx.get("seat"), source)
    return h


def h_sheet(kind: str):
    def h(state: ArkhamState, n: int, ctx: Ctx, source: str, events: Events) -> None:
        if kind == "doom":
            add_sheet_doom(state, n, events, source)
        else:
            state.sheet_clues = max(0, state.sheet_clues + n)
            say(events, f"Clues on the scenario sheet: {state.sheet_clues}.", "sheet.clues", None, source)
            push(state, "codex", None, "codex")
    return h


def h_tokens(add: bool):
    def h(state: ArkhamState, arg: dict[str, int], ctx: Ctx, source: str, events: Events) -> None:
        for kind, n in arg.items():
            for _ in range(n):
                if add:
                    state.cup.append(kind)  # from the box, straight into the cup
                elif kind in state.cup:
                    state.cup.remove(kind)
                elif kind in state.cup_drawn:
                    state.cup_drawn.remove(kind)
            say(events, f"{plural(n, kind.replace('_', ' ') + ' token')} {'added to' if add else 'removed from'} "
                "the mythos cup.", "cup", None, source)
    return h


def h_add_archive(state: ArkhamState, n: int, ctx: Ctx, source: str, events: Events) -> None:
    push(state, "add_archive", None, source, number=n)


def h_end(result: str):
    def h(state: ArkhamState, arg: Any, ctx: Ctx, source: str, events: Events) -> None:
        end_game(state, result, "The investigators have won!" if result == "win" else "The investigators have lost.",
                 events, source)
    return h


def h_flip_self(state: ArkhamState, arg: Any, ctx: Ctx, source: str, events: Events) -> None:
    seat, copy = ctx["seat"], ctx.get("card") or ""
    i = _you(state, ctx)
    if copy not in i.conditions:
        return
    card = content(state).conditions[copy]
    if card.kind == "dark_pact" and card.back is not None:
        say(events, f"{who(state, seat)}'s dark pact turns over: {card.back.text}", "condition.flipped", seat, copy)
        discard_condition(state, seat, copy, events)
        run_effects(state, card.back.effects, {**ctx, "card": ""}, copy)
    else:
        i.conditions[copy] = "cursed" if i.conditions[copy] == "blessed" else "blessed"
        say(events, f"{who(state, seat)} is now {i.conditions[copy]}.", "condition.flipped", seat, copy)


def h_discard_self(state: ArkhamState, arg: Any, ctx: Ctx, source: str, events: Events) -> None:
    seat, card = ctx["seat"], ctx.get("card") or ""
    i = _you(state, ctx)
    if card in i.conditions:
        discard_condition(state, seat, card, events)
        return
    for a in i.assets:
        if a.card == card:
            discard_asset(state, seat, a, events)
            return


VERB_HANDLERS: dict[str, Any] = {
    "damage": h_suffer("damage", False), "horror": h_suffer("horror", False),
    "direct_damage": h_suffer("damage", True), "direct_horror": h_suffer("horror", True),
    "recover_damage": h_recover("damage"), "recover_horror": h_recover("horror"),
    "money": h_resource("money"), "clues": h_resource("clues"), "remnants": h_resource("remnants"),
    "neighborhood_clue": h_neighborhood_clue, "focus": h_focus, "gain": h_gain, "special": h_special,
    "condition": h_condition, "lose_condition": h_lose_condition, "delayed": h_delayed, "devoured": h_devoured,
    "move_to": h_move_to, "shop": h_shop, "test": h_test, "pay": h_pay, "choose": h_choose, "die": h_die,
    "doom": h_doom, "remove_doom": h_remove_doom, "each_here": _each("here"),
    "each_in_neighborhood": _each("neighborhood"), "each_investigator": _each("all"),
    "monster_damage": h_monster_damage, "spawn_monster": h_spawn_monster, "spread_doom": h_token("spread_doom"),
    "spawn_clue": h_token("spawn_clue"), "gate_burst": h_token("gate_burst"), "sheet_doom": h_sheet("doom"),
    "sheet_clues": h_sheet("clues"), "add_tokens": h_tokens(True), "remove_tokens": h_tokens(False),
    "add_archive": h_add_archive, "win": h_end("win"), "lose": h_end("loss"), "flip_self": h_flip_self,
    "discard_self": h_discard_self, "seal": h_seal, "break_seal": h_break_seal,
}
#: verbs that need "you" on the board; the others work on the board alone
YOU_VERBS = frozenset({"damage", "horror", "direct_damage", "direct_horror", "recover_damage", "recover_horror",
                       "money", "clues", "remnants", "neighborhood_clue", "focus", "gain", "special", "condition",
                       "lose_condition", "delayed", "devoured", "move_to", "shop", "test", "pay", "choose",
                       "monster_damage", "flip_self", "discard_self"})


# ---------------------------------------------------------------- doom and clues

def add_sheet_doom(state: ArkhamState, n: int, events: Events, source: str = "") -> None:
    state.sheet_doom = max(0, state.sheet_doom + n)
    say(events, f"Doom on the scenario sheet: {state.sheet_doom}.", "sheet.doom", None, source)
    push(state, "codex", None, "codex")


@auto("place_doom")
def run_place_doom(state: ArkhamState, frame: Frame, events: Events) -> None:
    """The one way doom reaches the board (digest 2.1, 8, 14.1): never on a street (an adjacent neighborhood
    space takes it, [GAP] the leader chooses among several); in a neighborhood with an anomaly it goes to the
    scenario sheet; 3 on a space or 5 in a neighborhood opens an anomaly."""
    space = frame.args["space"]
    g = graph(state)
    if board.is_street(space):
        near = [s for s in g.adj[space] if not board.is_street(s)]
        if not near:
            add_sheet_doom(state, 1, events, frame.source)
            return
        pick(state, state.leader, "Doom cannot rest on a street: which neighboring space takes it?",
             f"Doom aimed at {g.names[space]}", [(s, g.names[s], s) for s in near], "place_doom", "space",
             frame.source)
        return
    tile = g.tile_of[space]
    assert tile is not None
    if space in state.seals:
        say(events, f"The seal on {g.names[space]} holds: the doom is lost.", "doom.sealed", None, frame.source,
            space=space)
        return
    if tile in state.anomalies:
        say(events, f"The anomaly in {content(state).tiles[tile].name} swallows the doom: it goes to the scenario "
            "sheet.", "doom.redirected", None, frame.source, space=space)
        add_sheet_doom(state, 1, events, frame.source)
        return
    state.doom[space] = state.doom.get(space, 0) + 1
    say(events, f"Doom is placed in {g.names[space]} ({state.doom[space]} there).", "doom.placed", None,
        frame.source, space=space)
    if scenario(state).sheet.anomalies and (state.doom[space] >= 3 or board.tile_doom(state, tile) >= 5):
        state.anomalies.append(tile)
        say(events, f"An anomaly opens in {content(state).tiles[tile].name}!", "anomaly.opened", None,
            frame.source, tile=tile)
    push(state, "codex", None, "codex")


def remove_doom(state: ArkhamState, space: str, n: int, events: Events, seat: int | None = None,
                source: str = "") -> int:
    have = state.doom.get(space, 0)
    gone = min(n, have)
    if not gone:
        return 0
    state.doom[space] = have - gone
    if not state.doom[space]:
        del state.doom[space]
    say(events, f"{gone} doom removed from {board.space_name(state, space)}.", "doom.removed", seat, source)
    tile = board.tile_of(state, space)
    if tile is not None and tile in state.anomalies and board.tile_doom(state, tile) == 0:
        state.anomalies.remove(tile)
        say(events, f"The anomaly in {content(state).tiles[tile].name} closes.", "anomaly.closed", seat, source)
    return gone


def reseed(state: ArkhamState, card: str, tile: str) -> None:
    """Shuffle an event card with the top 2 cards of its neighborhood's deck; the 3 go back on top."""
    deck = state.decks[f"enc:{tile}"]
    top = [deck.pop() for _ in range(min(2, len(deck)))] + [card]
    state.rng.shuffle(top)
    deck.extend(top)


def _event_deck_empty(state: ArkhamState, events: Events, source: str) -> bool:
    """An effect that needs the event deck when it is empty is cancelled: 1 doom on the scenario sheet, then
    the event discard becomes the new event deck (digest 12.1)."""
    if state.event_deck:
        return False
    say(events, "The event deck is empty: the effect is cancelled and 1 doom goes on the scenario sheet; the "
        "event discard is shuffled into a new event deck.", "event.empty", None, source)
    state.event_deck, state.event_discard = state.event_discard, []
    state.rng.shuffle(state.event_deck)
    add_sheet_doom(state, 1, events, source)
    return True


@auto("spread_doom")
def run_spread_doom(state: ArkhamState, frame: Frame, events: Events) -> None:
    if _event_deck_empty(state, events, frame.source):
        return
    card_id = state.event_deck.pop(0)  # the bottom
    state.event_discard.append(card_id)
    card = scenario(state).events[card_id]
    say(events, f"Doom spreads: {card.name}.", "event.discarded", None, frame.source, card=card_id)
    for space in reversed(card.doom):
        if space in graph(state).adj:
            push(state, "place_doom", None, card_id, space=space)


@auto("spawn_clue")
def run_spawn_clue(state: ArkhamState, frame: Frame, events: Events) -> None:
    if _event_deck_empty(state, events, frame.source):
        return
    card_id = state.event_deck.pop()  # the top
    tile = scenario(state).events[card_id].neighborhood
    state.clues[tile] = state.clues.get(tile, 0) + 1
    reseed(state, card_id, tile)
    say(events, f"A clue appears in {content(state).tiles[tile].name}.", "clue.spawned", None, frame.source,
        tile=tile)


@auto("gate_burst")
def run_gate_burst(state: ArkhamState, frame: Frame, events: Events) -> None:
    if _event_deck_empty(state, events, frame.source):
        return
    card_id = state.event_deck.pop()  # the top
    tile = scenario(state).events[card_id].neighborhood
    say(events, f"Gate burst in {content(state).tiles[tile].name}! Doom in each of its spaces.", "gate.burst",
        None, frame.source, tile=tile)
    # the card and the whole event discard go, shuffled, to the bottom of the event deck (so the discard empties)
    pile = [card_id, *state.event_discard]
    state.event_discard = []
    state.rng.shuffle(pile)
    state.event_deck[0:0] = pile
    for space in reversed(graph(state).spaces_of(tile)):
        push(state, "place_doom", None, card_id, space=space)


# ---------------------------------------------------------------- monsters appearing

def _nearest(state: ArkhamState, origin: list[str], candidates: list[str]) -> list[str]:
    if not candidates:
        return []
    g = graph(state)
    best = min(min(g.distance(o, c) for o in origin) for c in candidates)
    return [c for c in candidates if min(g.distance(o, c) for o in origin) == best]


def spawn_spaces(state: ArkhamState, where: str, prey: int | None) -> list[str]:
    g = graph(state)
    unst = board.unstable(state)
    if where == "unstable":
        return unst
    if where == "starting":
        return [scenario(state).sheet.start]
    if where == "prey" and prey is not None and has_inv(state, prey):
        return [inv(state, prey).space]  # type: ignore[list-item]
    if where == "doom":
        most = max(state.doom.values(), default=0)
        spaces = [s for s, n in state.doom.items() if n == most and s in g.adj] if most else []
        return _nearest(state, unst, spaces) or unst
    if where == "clue":
        tiles = [t for t, n in state.clues.items() if n and t in state.tiles]
        return _nearest(state, unst, [s for t in tiles for s in g.spaces_of(t)]) or unst
    if where == "street":
        return _nearest(state, unst, [s for s in g.spaces if board.is_street(s)]) or unst
    if where in g.adj:
        return [where]
    return unst


def choose_prey(state: ArkhamState, rule: str, drawer: int | None, space: str | None) -> list[int]:
    seats = board.on_board(state)
    if not seats or rule == "none":
        return []
    if rule == "drawer":
        return [drawer] if drawer in seats else choose_prey(state, "nearest", drawer, space)
    if rule == "leader":
        return [state.leader] if state.leader in seats else seats[:1]
    if rule == "nearest":
        if space is None:
            return seats
        g = graph(state)
        best = min(g.distance(space, inv(state, s).space or "") for s in seats)
        return [s for s in seats if g.distance(space, inv(state, s).space or "") == best]
    if rule == "lowest_health":
        key = {s: board.max_health(state, s) - inv(state, s).damage for s in seats}
        low = min(key.values())
        return [s for s in seats if key[s] == low]
    if rule == "lowest_sanity":
        key = {s: board.max_sanity(state, s) - inv(state, s).horror for s in seats}
        low = min(key.values())
        return [s for s in seats if key[s] == low]
    most = max(inv(state, s).clues for s in seats)  # most_clues
    return [s for s in seats if inv(state, s).clues == most]


@auto("spawn")
def run_spawn(state: ArkhamState, frame: Frame, events: Events) -> None:
    """Spawn monster: the bottom card of the monster deck, placed by its spawn text, ready (digest 4.4). The
    card is off the deck but not yet on the board while its prey and space are being chosen."""
    deck = state.decks["monster"]
    if not deck:
        say(events, "The monster deck is empty: no monster appears.", "monster.none", None, frame.source)
        return
    card_id = deck.pop(0)
    card = content(state).monsters[card_id]
    # the prey is chosen first unless it is "nearest", which is measured from the spawn space
    if card.spawn.prey not in ("nearest", "none"):
        preys = choose_prey(state, card.spawn.prey, frame.seat, None)
        if preys:
            pick(state, state.leader, f"{card.name}: whom does it hunt?", "Ties are the investigators' choice",
                 [(f"s{s}", who(state, s), s) for s in preys], "spawn_prey", "prey", frame.source, card=card_id)
            return
    push(state, "spawn_prey", None, frame.source, card=card_id, prey=None)


@auto("spawn_prey")
def run_spawn_prey(state: ArkhamState, frame: Frame, events: Events) -> None:
    card = content(state).monsters[frame.args["card"]]
    spaces = spawn_spaces(state, card.spawn.where, frame.args["prey"])
    g = graph(state)
    pick(state, state.leader, f"{card.name} appears: in which space?", "Ties are the investigators' choice",
         [(s, g.names[s], s) for s in spaces], "spawn_place", "space", frame.source, card=frame.args["card"],
         prey=frame.args["prey"])


@auto("spawn_place")
def run_spawn_place(state: ArkhamState, frame: Frame, events: Events) -> None:
    card = content(state).monsters[frame.args["card"]]
    m = Monster(uid=state.next_uid, card=frame.args["card"], space=frame.args["space"], status="ready",
                prey=frame.args["prey"])
    state.next_uid += 1
    state.monsters.append(m)
    push(state, "engage_here", None, frame.source, uid=m.uid)
    if m.prey is None and card.spawn.prey == "nearest":
        preys = choose_prey(state, "nearest", None, m.space)
        m.prey = preys[0] if len(preys) == 1 else None
        if len(preys) > 1:
            pick(state, state.leader, f"{card.name}: whom does it hunt?", "Ties are the investigators' choice",
                 [(f"s{s}", who(state, s), s) for s in preys], "set_prey", "prey", frame.source, uid=m.uid)
    prey = f" hunting {who(state, m.prey)}" if m.prey is not None else ""
    say(events, f"{card.name} appears in {board.space_name(state, m.space)}{prey}.", "monster.spawned", None,
        frame.source, monster=m.card, space=m.space)


@auto("set_prey")
def run_set_prey(state: ArkhamState, frame: Frame, events: Events) -> None:
    m = board.find_monster(state, frame.args["uid"])
    if m is not None:
        m.prey = frame.args["prey"]


@auto("engage_here")
def run_engage_here(state: ArkhamState, frame: Frame, events: Events) -> None:
    """A ready monster in a space with investigators engages one (its prey, else the investigators choose); a
    massive one engages them all; an elusive one does not engage on its own (digest 7), unless its own
    activation brings it there (`force`)."""
    m = board.find_monster(state, frame.args["uid"])
    if m is None or m.space is None or m.status == "exhausted":
        return
    here = board.at(state, m.space)
    if not here:
        return
    if board.has_kw(state, m, "massive"):
        for s in here:
            if s not in m.engaged:
                engage(state, m, s, events)
        return
    if m.status != "ready" or (board.has_kw(state, m, "elusive") and not frame.args.get("force")):
        return
    if m.prey in here:
        engage(state, m, m.prey, events)
        return
    pick(state, state.leader, f"{board.monster_name(state, m)} engages whom?", "It has no prey here",
         [(f"s{s}", who(state, s), s) for s in here], "engage_seat", "seat", frame.source, uid=m.uid)


@auto("engage_seat")
def run_engage_seat(state: ArkhamState, frame: Frame, events: Events) -> None:
    m = board.find_monster(state, frame.args["uid"])
    seat = frame.args["seat"]
    if m is not None and m.status == "ready" and has_inv(state, seat) and inv(state, seat).space == m.space:
        engage(state, m, seat, events)


# ---------------------------------------------------------------- damage, horror, defeat

def suffer(state: ArkhamState, seat: int, damage: int, horror: int, direct: bool, source: str) -> None:
    push(state, "check_defeat", seat, source)
    for kind, n in (("horror", horror), ("damage", damage)):
        if n > 0:
            push(state, "harm", seat, source, kind=kind, n=n, direct=direct)


def _soakers(state: ArkhamState, seat: int, kind: str) -> list[Asset]:
    out = []
    for a in inv(state, seat).assets:
        card = content(state).assets[a.card]
        cap = (card.health - a.damage) if kind == "damage" else (card.sanity - a.horror)
        if cap > 0:
            out.append(a)
    return out


@auto("harm")
def run_harm(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    if not has_inv(state, seat):
        return
    kind, n = frame.args["kind"], frame.args["n"]
    if not frame.args["direct"] and _soakers(state, seat, kind):
        push(state, "assign", seat, frame.source, kind=kind, n=n)
        return
    _take(state, seat, kind, n, events, frame.source)


def _take(state: ArkhamState, seat: int, kind: str, n: int, events: Events, source: str) -> None:
    i = inv(state, seat)
    setattr(i, kind, getattr(i, kind) + n)
    limit = board.max_health(state, seat) if kind == "damage" else board.max_sanity(state, seat)
    say(events, f"{who(state, seat)} suffers {n} {kind} ({getattr(i, kind)}/{limit}).", kind, seat, source)


@asks("assign")
def ask_assign(state: ArkhamState, frame: Frame) -> Prompt:
    seat, kind, n = frame.owner, frame.args["kind"], frame.args["n"]
    opts = [Option(id="self", label=f"Take all {n} {kind} yourself", data=None)]
    for k, a in enumerate(inv(state, seat).assets):
        card = content(state).assets[a.card]
        cap = (card.health - a.damage) if kind == "damage" else (card.sanity - a.horror)
        if cap > 0:
            opts.append(Option(id=f"a{k}", label=f"Put {min(cap, n)} on {card.name}", data=k))
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE, title=f"Assign {n} {kind}",
                  reason="Cards with health/sanity can take it for you", options=opts, default=["self"])


@answers("assign")
def answer_assign(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    seat, kind, n = frame.owner, frame.args["kind"], frame.args["n"]
    if answer.data is None:
        _take(state, seat, kind, n, events, frame.source)
        return
    a = inv(state, seat).assets[answer.data]
    card = content(state).assets[a.card]
    cap = (card.health - a.damage) if kind == "damage" else (card.sanity - a.horror)
    put = min(cap, n)
    setattr(a, kind, getattr(a, kind) + put)
    say(events, f"{card.name} takes {put} {kind} for {who(state, seat)}.", "assigned", seat, frame.source)
    if (card.health and a.damage >= card.health) or (card.sanity and a.horror >= card.sanity):
        discard_asset(state, seat, a, events)
    if n - put > 0:
        push(state, "harm", seat, frame.source, kind=kind, n=n - put, direct=False)


@auto("check_defeat")
def run_check_defeat(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    if not has_inv(state, seat):
        return
    i = inv(state, seat)
    if i.damage >= board.max_health(state, seat) or i.horror >= board.max_sanity(state, seat):
        push(state, "defeat", seat, frame.source, how="defeated")


@auto("defeat")
def run_defeat(state: ArkhamState, frame: Frame, events: Events) -> None:
    """Defeated or devoured (digest 6.4): off the board, every card and token discarded, 1 doom on the scenario
    sheet; the monsters engaged with the investigator are disengaged and exhausted where the investigator
    was ([GAP] in every step, not only the attack step: a monster cannot stay engaged with nobody)."""
    seat = frame.owner
    if not has_inv(state, seat):
        return
    i = inv(state, seat)
    space = i.space
    name = who(state, seat)
    for a in list(i.assets):
        discard_asset(state, seat, a, events, quiet=True)
    for copy in list(i.conditions):
        discard_condition(state, seat, copy, events)
    for m in board.engaged_with(state, seat):
        m.engaged.remove(seat)
        if board.has_kw(state, m, "massive"):
            m.status = "engaged" if m.engaged else "ready"  # a massive monster cannot be exhausted
        else:
            m.space, m.status = space, "exhausted"
    for m in state.monsters:
        if m.prey == seat:
            m.prey = None
    row = state.table[seat]
    row.lost.append(frame.args["how"])
    row.inv = None
    unplayed = bool(state.unplayed)
    row.status = "joining" if unplayed else "out"
    say(events, f"{name} is {frame.args['how']}! " + ("A new investigator joins at the next action phase."
                                                       if unplayed else "No investigator is left for this seat."),
        "investigator.defeated", seat, frame.source, render=True)
    add_sheet_doom(state, 1, events, "rule.defeat")
    if all(r.status == "out" for r in state.table):
        end_game(state, "loss", "Every investigator available has fallen: the investigators lose by attrition.",
                 events, "rule.attrition")


# ---------------------------------------------------------------- assets and conditions

DECK_OF = {"item": "item", "ally": "ally", "spell": "spell"}


def return_asset(state: ArkhamState, seat: int, a: Asset) -> None:
    """Allies, items and spells go to the bottom of their decks; special cards back to their pile; starting
    cards leave the game (digest 6.2)."""
    i = inv(state, seat)
    if a in i.assets:
        i.assets.remove(a)
    card = content(state).assets[a.card]
    if card.kind in DECK_OF:
        state.decks[card.kind].insert(0, a.card)
    elif card.kind == "special":
        state.special_pile.append(a.card)


def discard_asset(state: ArkhamState, seat: int, a: Asset, events: Events, quiet: bool = False) -> None:
    """A discard: the card goes back (`return_asset`), then its `on_lost` effects resolve."""
    return_asset(state, seat, a)
    card = content(state).assets[a.card]
    if not quiet or card.on_lost:
        say(events, f"{who(state, seat)} discards {card.name}.", "discard", seat)
    if card.on_lost:
        run_effects(state, card.on_lost, ctx_for(state, seat, card=a.card), a.card)


def refill_display(state: ArkhamState) -> None:
    while len(state.display) < 5 and state.decks["item"]:
        state.display.append(state.decks["item"].pop())


def gain_asset(state: ArkhamState, seat: int, deck: str, trait: str | None, source: str, events: Events) -> None:
    """Gain an item (from the display with the trait, or the deck), an ally or a spell (digest 6.2)."""
    if deck == "item":
        fits = [c for c in state.display if trait is None or trait in content(state).assets[c].traits]
        if fits:
            choices = [(c, f"{content(state).assets[c].name} (display)", c) for c in fits]
            choices.append(("deck", "Draw from the item deck", "deck"))
            pick(state, seat, "Gain which item?", "An effect gives you an item", choices, "take_asset", "card",
                 source, then_seat=seat, deck=deck, trait=trait)
            return
    push(state, "take_asset", seat, source, deck=deck, trait=trait, card="deck")


@auto("take_asset")
def run_take_asset(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat, deck, trait, card = frame.owner, frame.args["deck"], frame.args["trait"], frame.args["card"]
    if not has_inv(state, seat):
        return
    if card != "deck":
        state.display.remove(card)
        refill_display(state)
    else:
        pile = state.decks[deck]
        revealed: list[str] = []
        card = None
        while pile:
            top = pile.pop()
            if trait is None or trait in content(state).assets[top].traits:
                card = top
                break
            revealed.append(top)
        if revealed:
            pile.extend(revealed)
            state.rng.shuffle(pile)
        if card is None:
            say(events, f"No {deck} {'with trait ' + trait + ' ' if trait else ''}is left to gain.", "gain.none",
                seat, frame.source)
            return
    inv(state, seat).assets.append(Asset(card=card))
    say(events, f"{who(state, seat)} gains {content(state).assets[card].name}.", "gain", seat, frame.source)


def gain_condition(state: ArkhamState, seat: int, name: str, events: Events, source: str) -> None:
    """Never two conditions of one name; a random copy; blessed and cursed are one card, so gaining one while
    holding the other discards that card ([GAP] they cancel out)."""
    i = inv(state, seat)
    faces = set(i.conditions.values())
    have = "front" if name == "dark_pact" else name
    if have in faces:
        return
    if name in ("blessed", "cursed"):
        other = "cursed" if name == "blessed" else "blessed"
        for copy, face in list(i.conditions.items()):
            if face == other:
                discard_condition(state, seat, copy, events)
                say(events, f"{who(state, seat)} is no longer {other}.", "condition.lost", seat, source)
                return
    kind = "dark_pact" if name == "dark_pact" else "blessed_cursed"
    copies = [c for c in state.conditions_pile if content(state).conditions[c].kind == kind]
    if not copies:
        say(events, f"No {name.replace('_', ' ')} card is left to take.", "condition.none", seat, source)
        return
    copy = state.rng.choice(copies)
    state.conditions_pile.remove(copy)
    i.conditions[copy] = "front" if name == "dark_pact" else name
    say(events, f"{who(state, seat)} gains {name.replace('_', ' ')}.", "condition.gained", seat, source)


def discard_condition(state: ArkhamState, seat: int, copy: str, events: Events) -> None:
    i = inv(state, seat)
    if copy in i.conditions:
        del i.conditions[copy]
        state.conditions_pile.append(copy)


# ---------------------------------------------------------------- shopping

@asks("shop")
def ask_shop(state: ArkhamState, frame: Frame) -> Prompt:
    seat, discount = frame.owner, frame.args["discount"]
    money = inv(state, seat).money
    opts, dear = [], []
    for c in frame.args["offer"]:
        if c in frame.args["bought"] or c not in state.display:
            continue
        item = content(state).assets[c]
        price = max(0, item.value - discount)
        label = f"Buy {item.name} (${price})"
        if price <= money:
            opts.append(Option(id=c, label=label, data=(c, price)))
        else:
            dear.append(Unavailable(id=c, label=label, data=(c, price), why=f"{item.name} costs ${price}; you have "
                                    f"${money}."))
    opts.append(Option(id="done", label="Done shopping", data=None, role="pass"))
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE, title=f"Shop the display (you have ${money})",
                  reason="Purchases are simultaneous: the display refills when you are done", options=opts,
                  default=["done"], unavailable=tuple(dear))


@answers("shop")
def answer_shop(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = frame.owner
    if answer.data is None:
        if not frame.args["bought"] and state.display:
            push(state, "shop_discard", seat, frame.source)
        else:
            refill_display(state)
        return
    card, price = answer.data
    inv(state, seat).money -= price
    state.display.remove(card)
    inv(state, seat).assets.append(Asset(card=card))
    say(events, f"{who(state, seat)} buys {content(state).assets[card].name} for ${price}.", "buy", seat, frame.source)
    push(state, "shop", seat, frame.source, discount=frame.args["discount"], offer=frame.args["offer"],
         bought=[*frame.args["bought"], card])


@asks("shop_discard")
def ask_shop_discard(state: ArkhamState, frame: Frame) -> Prompt:
    opts = [Option(id=c, label=content(state).assets[c].name, data=c) for c in state.display]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.MANY, title="You bought nothing: discard up to 2 "
                  "cards from the display?", reason="Shopping", options=opts, min_choices=0, max_choices=2,
                  default=[])


@answers("shop_discard")
def answer_shop_discard(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    for o in answer.options:
        state.display.remove(o.data)
        state.decks["item"].insert(0, o.data)
        say(events, f"{content(state).assets[o.data].name} leaves the display.", "display", frame.owner)
    refill_display(state)


# ---------------------------------------------------------------- the codex

@auto("add_archive")
def run_add_archive(state: ArkhamState, frame: Frame, events: Events) -> None:
    n = frame.args["number"]
    pack = scenario(state)
    if n in state.codex or n not in pack.archive:
        return
    card = pack.archive[n]
    state.codex.append(n)
    say(events, f"Archive card {n}, {card.name}, joins the codex: {card.text}", "codex.added", None,
        f"archive:{n}", render=True, number=n)
    push(state, "codex", None, "codex")
    if card.map is not None:
        state.map_changes.append(n)
        for t in card.map.neighborhoods:
            if t not in state.tiles:
                state.tiles.append(t)
                deck = sorted(content(state).encounters[t])
                state.rng.shuffle(deck)
                state.decks[f"enc:{t}"] = deck
                say(events, f"{content(state).tiles[t].name} joins the map.", "map.changed", None, f"archive:{n}")
    if card.epic is not None and card.epic_space is not None:
        m = Monster(uid=state.next_uid, card=f"archive:{n}", space=card.epic_space, status="ready")
        state.next_uid += 1
        state.monsters.append(m)
        say(events, f"{card.epic.name} appears in {board.space_name(state, card.epic_space)}!", "monster.spawned",
            None, f"archive:{n}", space=card.epic_space)
        push(state, "engage_here", None, f"archive:{n}", uid=m.uid)
    run_effects(state, card.on_add, ctx_for(state, None), f"archive:{n}")


def threshold_count(state: ArkhamState, base: int, when: Threshold) -> int:
    """A scaled count: base + per_investigator x the investigators who started, rounded down (digest 10)."""
    return base + math.floor(when.per_investigator * state.started_with)


def threshold_met(state: ArkhamState, number: int, when: Threshold) -> bool:
    def reached(have: int, base: int | None) -> bool:
        return base is None or have >= threshold_count(state, base, when)

    checks = [
        reached(state.sheet_clues, when.sheet_clues),
        reached(state.sheet_doom, when.sheet_doom),
        reached(board.board_doom(state), when.board_doom),
        when.anomalies is None or len(state.anomalies) >= when.anomalies,
        reached(len(state.seals), when.seals),
        when.round is None or state.round >= when.round,
        not when.epic_defeated or number in state.epic_defeated,
    ]
    return all(checks)


@auto("codex")
def run_codex(state: ArkhamState, frame: Frame, events: Events) -> None:
    """Clue-icon objectives and doom-icon clocks on the codex cards resolve as soon as their condition holds
    ([ruling] checked whenever a count they read changes)."""
    pack = scenario(state)
    fired = []
    for n in state.codex:
        card = pack.archive[n]
        for kind, prog in (("clue", card.clue), ("doom", card.doom)):
            key = f"{n}:{kind}"
            if prog is not None and key not in state.fired and threshold_met(state, n, prog.when):
                state.fired.append(key)
                fired.append((n, prog))
    for n, prog in reversed(fired):
        run_effects(state, prog.effects, ctx_for(state, None), f"archive:{n}")
    for n, prog in fired:
        say(events, f"Archive card {n}: {prog.text}", "codex.progress", None, f"archive:{n}")


def token_name(kind: str) -> str:
    assert kind in TOKENS
    return kind.replace("_", " ")


__all__ = ["run_effects", "ctx_for", "seq"]
