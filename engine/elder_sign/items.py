"""Items, spells, allies and investigator abilities: when each may be used, and what using it does.

Windows: "move" (the start of a turn), "pre" (before a roll in an adventure or an attack) and "post" (after
a roll). Only the owner uses their cards and abilities, on their own turn (digest 3.2 "Ownership").
"""

from __future__ import annotations

from typing import Any, Literal

from engine.core.flow import Answer, Frame
from engine.core.prompt import Option, Prompt, PromptKind, Unavailable
from engine.core.text import plural
from engine.elder_sign import board
from engine.elder_sign.board import Events, content, inv, name
from engine.elder_sign.choices import Item, MonsterAt, UseAbility, UseItem
from engine.elder_sign.dice import DIE_TYPES, FACE_LABEL, color_of
from engine.elder_sign.effects import EFFECT, ability_sources, ability_sources_of, active_abilities
from engine.elder_sign.effects_schema import describe
from engine.elder_sign.ops import answers, asks, event, option, prompt, push
from engine.elder_sign.state import ElderSignState, Investigator

abilities = active_abilities
#: when a card or ability may be used: the start of a turn, before a roll, after a roll
Window = Literal["move", "pre", "post"]
ROLL_VERBS = {"secure", "reroll", "set_face"}


def _adv_active(state: ElderSignState) -> bool:
    adv = state.adventure
    return adv is not None and adv.outcome is None


def _die_free(state: ElderSignState, color: str) -> bool:
    die = "y" if color == "yellow" else "r"
    adv = state.adventure
    return state.dice[die].loc == "supply" and adv is not None and die not in adv.item_dice_spent


def _rolled(state: ElderSignState) -> bool:
    adv = state.adventure
    return adv is not None and adv.rolled and any(die.loc == "pool" for die in state.dice.values())


def _verb_usable(state: ElderSignState, seat: int, verb: str, arg: Any, window: Window,
                 rolled: bool | None = None) -> bool:
    if verb in ROLL_VERBS:
        return window == "post" and (_rolled(state) if rolled is None else rolled)
    if verb == "add_die":
        return window in ("pre", "post") and _adv_active(state) and _die_free(state, arg)
    if verb == "defeat_monster":
        return bool(_monsters_in_play(state))
    if verb == "unlock":
        return bool(board.dice_at(state, "locked"))
    if verb in ("stamina", "sanity") and arg > 0:
        i = inv(state, seat)
        now: int = getattr(i, verb)
        top: int = getattr(i, f"max_{verb}")
        return now < top
    return True


def _period_counter(state: ElderSignState, per: str) -> int:
    return state.roll_number if per == "roll" else state.turn_number if per == "turn" else state.day


def _ability_sources(state: ElderSignState, seat: int) -> tuple[tuple[str, str, dict[str, Any]], ...]:
    return ability_sources(state, seat)


_PERIODIC = frozenset({"free_reroll", "add_die", "unlock_die", "heal", "turn_face"})


def _ability_usable(state: ElderSignState, i: Investigator, seat: int, source: str, kind: str, p: dict[str, Any],
                    window: Window, rolled: bool) -> bool:
    """Whether a periodic ability of `i` (at `seat`) may be used now; `rolled`: the pool shows a fresh roll and
    the window is "post" (the only one where rerolling or turning a die is offered)."""
    used = i.used.get(source)
    if used is not None and used == _period_counter(state, p.get("per", "roll")):
        return False
    if kind == "free_reroll":
        return rolled
    if kind == "turn_face":
        return rolled and any(state.dice[d].face in p["from"] for d in board.dice_at(state, "pool"))
    if kind == "add_die":
        return window != "move" and _adv_active(state) and _die_free(state, p["color"])
    if kind == "unlock_die":
        return any(die.loc == "locked" for die in state.dice.values())
    return bool(_heal_targets(state, seat, p["what"]))  # heal


#: why a card in hand cannot be used now, by the first part of its use that cannot be done (the tests of
#: `_verb_usable`, in its order)
WHY_NOT = {
    "roll": "{card} works on dice just rolled: use it after a roll.",
    "adventure": "{card} adds a die to an adventure or an attack: use it before or after a roll there.",
    "die_busy": "{card} adds a die that is already in use.",
    "monster": "No Monster is in play for {card} to defeat.",
    "locked": "No die is locked for {card} to free.",
    "stamina": "Your Stamina is full.",
    "sanity": "Your Sanity is full.",
    "no_spells": "A card in play forbids spells now.",
}
#: (card id, reason key) -> the closed choice, built once (nothing in it depends on the game)
_CLOSED: dict[tuple[str, str], Unavailable] = {}


def _why_not(state: ElderSignState, verb: str, arg: Any, window: Window) -> str:
    """The WHY_NOT key of a use `_verb_usable` refused."""
    if verb in ROLL_VERBS:
        return "roll"
    if verb == "add_die":
        return "die_busy" if window in ("pre", "post") and _adv_active(state) else "adventure"
    if verb == "defeat_monster":
        return "monster"
    if verb == "unlock":
        return "locked"
    return verb  # stamina or sanity already full


def _closed_item(card: Any, key: str) -> Unavailable:
    got = _CLOSED.get((card.id, key))
    if got is None:
        got = _CLOSED[(card.id, key)] = Unavailable(
            id=f"item:{card.id}", label=f"Use {card.name} ({card.kind})", data=UseItem(card.id),
            why=WHY_NOT[key].format(card=card.name))
    return got


def _usable(state: ElderSignState, seat: int, window: Window,
            closed: list[Unavailable] | None = None) -> list[tuple[str, int]]:
    """What `options` offers, unlabelled: ("item", index into the hand) and ("ab", ability number). Given
    `closed`, each card in hand that cannot be used now is added to it with why."""
    i = inv(state, seat)
    out: list[tuple[str, int]] = []
    rolled = window == "post" and _rolled(state)  # the uses that need a fresh roll are post-roll ones only
    hand = i.items
    if hand:
        c = content(state)
        seen: set[str] = set()
        no_spells = None
        for n, card_id in enumerate(hand):
            if card_id in seen:
                continue
            card = c.items[card_id]
            if card.kind == "spell":
                if no_spells is None:
                    no_spells = bool(board.modifier(state, "no_spells"))
                if no_spells:
                    if closed is not None:
                        closed.append(_closed_item(card, "no_spells"))
                    continue
            seen.add(card_id)
            for v, a in _uses(card):
                if not _verb_usable(state, seat, v, a, window, rolled):
                    if closed is not None:
                        closed.append(_closed_item(card, _why_not(state, v, a, window)))
                    break
            else:
                out.append(("item", n))
    for n, (source, kind, p) in enumerate(ability_sources_of(state, i)):
        # lasting abilities (ward, extra focus, ...) are never "used"
        if kind in _PERIODIC and _ability_usable(state, i, seat, source, kind, p, window, rolled):
            out.append(("ab", n))
    return out


_USES: dict[int, tuple[Any, tuple[tuple[str, Any], ...]]] = {}


def _uses(card: Any) -> tuple[tuple[str, Any], ...]:
    """(verb, argument) of each effect of a card's `use`, in order (worked out once per card)."""
    got = _USES.get(id(card))
    if got is None or got[0] is not card:
        got = _USES[id(card)] = (card, tuple((v, a) for e in card.use for v, a in e.items()))
    return got[1]


_USE_TEXT: dict[int, tuple[Any, str]] = {}


def _use_text(card: Any) -> str:
    """What using the card does, whole (never cut: a front end that must shorten it says so, and /es card
    reads the card in full): "Use: reroll up to 2 dice"."""
    got = _USE_TEXT.get(id(card))
    if got is None or got[0] is not card:
        got = _USE_TEXT[id(card)] = (card, f"Use: {describe(card.use)}")
    return got[1]


def any_options(state: ElderSignState, seat: int, window: Window) -> bool:
    """Whether `options(state, seat, window)` would offer anything (without building the options)."""
    return bool(_usable(state, seat, window))


def options(state: ElderSignState, seat: int, window: Window,
            closed: list[Unavailable] | None = None) -> list[Option]:
    """The item, spell, ally and ability uses open to `seat` in this window (and, given `closed`, the cards
    in hand closed now, with why)."""
    out: list[Option] = []
    uses = _usable(state, seat, window, closed)
    if not uses:
        return out
    c = content(state)
    i = inv(state, seat)
    sources = _ability_sources(state, seat)
    for what, n in uses:
        if what == "item":
            card_id = i.items[n]
            card = c.items[card_id]
            out.append(option(id=f"item:{card_id}", label=f"Use {card.name} ({card.kind})",
                              detail=_use_text(card), data=UseItem(card_id)))
        else:
            source = sources[n][0]
            who = c.investigators.get(source)
            out.append(option(id=f"ab:{n}", label=f"Ability: {board.card_name(state, source)}"[:100],
                              detail=who.ability_text if who is not None else c.items[source].text,
                              data=UseAbility(n)))
    return out


def use(state: ElderSignState, seat: int, choice: Item, window: Window, events: Events) -> None:
    """Use an option from `options()` (the caller already pushed the step to come back to)."""
    i = inv(state, seat)
    c = content(state)
    if isinstance(choice, UseItem):
        card_id = choice.card
        card = c.items[card_id]
        i.items.remove(card_id)
        if any("secure" in e for e in card.use):
            i.cast.append(card_id)  # stays in play while it holds dice
        else:
            board.return_item(state, card_id)
        events.append(event(kind="item.used", text=f"{name(state, seat)} uses {card.name}.", seat=seat,
                            cause=card_id))
        push(state, "effects", seat, effects=card.use, source=card_id, where=None, context="use")
        return
    source, kind, p = _ability_sources(state, seat)[choice.n]
    if "per" in p or kind in ("free_reroll", "turn_face"):
        i.used[source] = _period_counter(state, p.get("per", "roll"))
    events.append(event(kind="ability.used", text=f"{name(state, seat)} uses "
                        f"{board.card_name(state, source)}'s ability.", seat=seat, cause=source))
    if kind == "free_reroll":
        push(state, "pick_dice", seat, purpose="reroll", max=p["dice"], source=source)
    elif kind == "turn_face":
        push(state, "pick_die", seat, purpose=f"set:{p['to']}", faces=p["from"], source=source)
    elif kind == "add_die":
        _add_die(state, seat, p["color"], source, events)
    elif kind == "unlock_die":
        push(state, "pick_die", seat, purpose="unlock", source=source)
    elif kind == "heal":
        push(state, "heal_target", seat, what=p["what"], amount=p["amount"], source=source)


def _add_die(state: ElderSignState, seat: int, color: str, source: str, events: Events) -> None:
    die = "y" if color == "yellow" else "r"
    if not _die_free(state, color):
        events.append(event(kind="die.unavailable", text=f"The {color} die is not free.", seat=seat))
        return
    board.set_die(state, die, "pool")
    events.append(event(kind="die.added", text=f"{name(state, seat)} adds the {color} die "
                        "(it joins the next roll).", seat=seat, cause=source))


def tidy_spells(state: ElderSignState, events: Events) -> None:
    """An emptied spell goes to the bottom of its deck; emptied slots can't be refilled (3.2 "Spells")."""
    for s in board.living_seats(state):
        i = inv(state, s)
        for spell in list(i.cast):
            if not board.dice_at(state, "secured", spell):
                i.cast.remove(spell)
                board.return_item(state, spell)


def all_done(state: ElderSignState) -> bool:
    adv = state.adventure
    return (adv is not None and adv.outcome is None and adv.where != "ao" and state.phase == "normal"
            and not board.any_open_task(state, adv.where))


def _monsters_in_play(state: ElderSignState) -> list[tuple[str, int]]:
    out = []
    for where in board.places(state):
        cip = board.card_at(state, where)
        assert cip is not None
        out += [(where, n) for n, m in enumerate(cip.monsters) if m.defeated_by is None]
    return out


def _heal_targets(state: ElderSignState, seat: int, what: str) -> list[int]:
    here = inv(state, seat).location
    return [s for s in board.investigators_at(state, here)
            if getattr(inv(state, s), what) < getattr(inv(state, s), f"max_{what}")]


# ---------------------------------------------------------------- use verbs as effects

def _in_adventure(state: ElderSignState, seat: int, events: Events, verb: str) -> bool:
    if _adv_active(state) and seat == state.current:
        return True
    events.append(event(kind="effect.skipped", text=f"({verb} only works during your own roll.)", seat=seat))
    return False


def e_add_die(state: ElderSignState, seat: int, arg: str, source: str, where: str | None, context: str,
              events: Events) -> None:
    if _in_adventure(state, seat, events, "add a die"):
        _add_die(state, seat, arg, source, events)


def e_secure(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
             events: Events) -> None:
    if _in_adventure(state, seat, events, "securing"):
        push(state, "pick_dice", seat, purpose=f"secure:{source}", max=arg, source=source)


def e_reroll(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
             events: Events) -> None:
    if _in_adventure(state, seat, events, "rerolling"):
        push(state, "pick_dice", seat, purpose="reroll", max=arg, source=source)


def e_set_face(state: ElderSignState, seat: int, arg: str, source: str, where: str | None, context: str,
               events: Events) -> None:
    if _in_adventure(state, seat, events, "turning a die"):
        push(state, "pick_die", seat, purpose=f"set:{arg}", faces=None, source=source)


def e_defeat_monster(state: ElderSignState, seat: int, arg: int, source: str, where: str | None,
                     context: str, events: Events) -> None:
    for _ in range(arg):
        push(state, "pick_monster", seat, source=source)


def e_unlock(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
             events: Events) -> None:
    for _ in range(arg):
        push(state, "pick_die", seat, purpose="unlock", source=source)


EFFECT.update({"add_die": e_add_die, "secure": e_secure, "reroll": e_reroll, "set_face": e_set_face,
               "defeat_monster": e_defeat_monster, "unlock": e_unlock})


def _die_label(state: ElderSignState, d: str) -> str:
    return f"{color_of(d)} {FACE_LABEL.get(state.dice[d].face or '', 'unrolled')}"


@asks("pick_dice")
def ask_pick_dice(state: ElderSignState, step: Frame) -> Prompt:
    purpose = step.args["purpose"]
    pool = [d for d in board.dice_at(state, "pool") if state.dice[d].face is not None]
    opts = [option(id=d, label=_die_label(state, d), data=d) for d in pool]
    verb = "reroll" if purpose in ("clue", "reroll") else "hold on the spell"
    return prompt(seq=step.seq, seats=[step.owner], kind=PromptKind.MANY,
                  title=f"{name(state, step.owner)}: which dice to {verb}?",
                  reason=board.card_name(state, step.args["source"]) if purpose != "clue" else "Clue reroll",
                  options=opts, min_choices=1, max_choices=min(step.args["max"], len(opts)),
                  default=[opts[0].id] if opts else None)


@answers("pick_dice")
def answer_pick_dice(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    purpose, seat = step.args["purpose"], step.owner
    dice = [o.data for o in action.options]
    if purpose.startswith("secure:"):
        spell = purpose[7:]
        for d in dice:
            board.set_die(state, d, "secured", spell, keep_face=True)
        events.append(event(kind="die.secured", text=f"{name(state, seat)} holds "
                            f"{', '.join(_die_label(state, d) for d in dice)} on {board.card_name(state, spell)}.",
                            seat=seat, cause=spell))
        return
    if purpose == "clue":
        cost = int(board.modifier(state, "clue_cost") or 1)
        inv(state, seat).clues -= cost
    before = ", ".join(_die_label(state, d) for d in dice)
    for d in dice:
        state.dice[d].face = DIE_TYPES[color_of(d)].roll(state.rng)
    events.append(event(kind="dice.rerolled", text=f"{name(state, seat)} rerolls {before}: now "
                        f"{', '.join(_die_label(state, d) for d in dice)}.", seat=seat,
                        data={"dice": {d: state.dice[d].face for d in board.dice_at(state, 'pool')}}))


@asks("pick_die")
def ask_pick_die(state: ElderSignState, step: Frame) -> Prompt:
    purpose = step.args["purpose"]
    if purpose == "unlock":
        dice = board.dice_at(state, "locked")
        opts = [option(id=d, label=f"Free the {color_of(d)} die held by "
                       f"{board.card_name(state, _lock_source(state, d))}"[:100], data=d) for d in dice]
        title = "which locked die to free?"
    else:
        faces = step.args.get("faces")
        dice = [d for d in board.dice_at(state, "pool")
                if state.dice[d].face is not None and (not faces or state.dice[d].face in faces)]
        opts = [option(id=d, label=_die_label(state, d), data=d) for d in dice]
        title = f"which die becomes {FACE_LABEL[purpose[4:]]}?"
    if not opts:
        opts = [option(id="none", label="No die can be chosen", data=None)]
    return prompt(seq=step.seq, seats=[step.owner], kind=PromptKind.ONE, title=f"{name(state, step.owner)}: {title}",
                  reason=board.card_name(state, step.args["source"]), options=opts, default=[opts[0].id])


def _lock_source(state: ElderSignState, die: str) -> str:
    for lk in state.locks:
        if lk.die == die:
            return lk.source
    return ""


@answers("pick_die")
def answer_pick_die(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    d, purpose = action.data, step.args["purpose"]
    if d is None:
        return
    if purpose == "unlock":
        board.cancel_lock(state, d)
        events.append(event(kind="die.unlocked", text=f"{name(state, step.owner)} frees the {color_of(d)} die.",
                            seat=step.owner, cause=step.args["source"]))
        return
    state.dice[d].face = purpose[4:]
    events.append(event(kind="die.turned", text=f"{name(state, step.owner)} turns a {color_of(d)} die to "
                        f"{FACE_LABEL[purpose[4:]]}.", seat=step.owner, cause=step.args["source"]))


@asks("pick_monster")
def ask_pick_monster(state: ElderSignState, step: Frame) -> Prompt:
    opts = []
    for where, n in _monsters_in_play(state):
        cip = board.card_at(state, where)
        assert cip is not None
        m = cip.monsters[n]
        opts.append(option(id=f"{where}|{n}", label=f"{board.card_name(state, m.monster)} on "
                           f"{board.place_label(state, where)}"[:100], data=MonsterAt(where, n)))
    if not opts:
        opts = [option(id="none", label="No monster is in play", data=None)]
    return prompt(seq=step.seq, seats=[step.owner], kind=PromptKind.ONE,
                  title=f"{name(state, step.owner)}: defeat which monster?",
                  reason=board.card_name(state, step.args["source"]), options=opts, default=[opts[0].id])


@answers("pick_monster")
def answer_pick_monster(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    if action.data is None:
        return
    where, n = action.data
    cip = board.card_at(state, where)
    assert cip is not None
    m = cip.monsters[n]
    m.defeated_by = step.owner
    events.append(event(kind="monster.defeated", text=f"{name(state, step.owner)} defeats "
                        f"{board.card_name(state, m.monster)} with {board.card_name(state, step.args['source'])}.",
                        seat=step.owner, cause=m.monster))


@asks("heal_target")
def ask_heal(state: ElderSignState, step: Frame) -> Prompt:
    what = step.args["what"]
    opts = [option(id=str(s), label=f"{name(state, s)} ({getattr(inv(state, s), what)}/"
                   f"{getattr(inv(state, s), 'max_' + what)} {what})"[:100], data=s)
            for s in _heal_targets(state, step.owner, what)]
    if not opts:
        opts = [option(id="none", label="Nobody here needs it", data=None)]
    return prompt(seq=step.seq, seats=[step.owner], kind=PromptKind.ONE,
                  title=f"{name(state, step.owner)}: restore {step.args['amount']} {what} to whom?",
                  reason=board.card_name(state, step.args["source"]), options=opts, default=[opts[0].id])


@answers("heal_target")
def answer_heal(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    if action.data is None:
        return
    push(state, "effects", action.data, effects=[{step.args["what"]: step.args["amount"]}],
         source=step.args["source"], where=None, context="use")


@asks("discard_items")
def ask_discard_items(state: ElderSignState, step: Frame) -> Prompt:
    c = content(state)
    held = [x for x in inv(state, step.owner).items if c.items[x].kind in ("common", "unique")]
    opts = [option(id=x, label=f"Discard {c.items[x].name}", data=x) for x in dict.fromkeys(held)]
    n = min(step.args["count"], len(opts))
    return prompt(seq=step.seq, seats=[step.owner], kind=PromptKind.MANY,
                  title=f"{name(state, step.owner)}: discard {plural(n, 'item')}",
                  reason=board.card_name(state, step.args["source"]), options=opts, min_choices=n,
                  max_choices=n, default=[o.id for o in opts[:n]])


@answers("discard_items")
def answer_discard_items(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    i = inv(state, step.owner)
    chosen = [o.data for o in action.options]
    for x in chosen:
        i.items.remove(x)
        board.return_item(state, x)
    events.append(event(kind="items.lost", text=f"{name(state, step.owner)} discards "
                        f"{', '.join(content(state).items[x].name for x in chosen)}.", seat=step.owner,
                        cause=step.args["source"]))
