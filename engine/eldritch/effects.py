"""The effect interpreter: resolves a card's effect list one verb at a time on the kernel's stack.

`resolve(state, seat, effects, source, ...)` (ops.py) pushes an `fx` frame. Running it takes the first effect,
pushes the rest as another `fx` frame and does the first (which may push questions or tests above the rest), so
an effect list resumes exactly where it was after any decision, and a defeat (which cancels the investigator's
frames, world.interrupt) stops it at once (RG "Defeated Investigators").

The rules modules reach the interpreter only through ops.py (`resolve` pushes an `fx` frame, `resolve_now` calls
the function registered here), so this module may import them and none of them imports it: the package has no
import cycle (tests/engine/test_import_cycles.py).

The context travels in the frame: `card` (the card the effect is printed on: "this card"), `monster` (the
Monster being fought or spawned), `space` (where a Monster's effect happens). With no investigator ("you")
an investigator effect applies to each investigator on `space`, or to the Lead when there is no space.
"""

from __future__ import annotations

from typing import Any

from engine.core.flow import Answer, Frame
from engine.core.prompt import Prompt
from engine.eldritch import possessions as P
from engine.eldritch import world as W
from engine.eldritch.board import board_of
from engine.eldritch.checks import card_test
from engine.eldritch.combat import hurt_monster
from engine.eldritch.mythos import expire, leave_play
from engine.eldritch.ops import (
    FLOW,
    Events,
    active_seats,
    answers,
    ask_one,
    asks,
    auto,
    card_name,
    content,
    interpreter,
    name,
    option,
    plural,
    push,
    resolve,
    resolve_now,
    say,
)
from engine.eldritch.state import SKILL_NAMES, EldritchState

Effects = list[dict[str, Any]]

#: verbs aimed at an investigator ("you"); everything else acts on the world or on "this card"
YOU_VERBS = frozenset({
    "health", "sanity", "clues", "ticket", "improve", "delayed", "move", "devoured", "gain_asset", "gain_artifact",
    "gain_spell", "condition", "discard_condition", "lose_possession", "close_gate", "discard_gate", "take_clue",
    "ambush", "fight_here", "test", "choice", "may", "spend", "unless", "one_here", "if_condition", "if_space",
    "spawn_monster", "monster_damage", "combat_bonus", "special_encounter",
})


def ctx(frame: Frame) -> dict[str, Any]:
    a = frame.args
    return {"card": a.get("card"), "monster": a.get("monster"), "space": a.get("space")}


def targets(state: EldritchState, seat: int | None, space: str | None) -> list[int]:
    if seat is not None:
        return [seat] if state.investigators[seat].active else []
    if space is not None:
        return [s for s in active_seats(state) if state.investigators[s].space == space]
    return [state.lead] if state.investigators[state.lead].active else active_seats(state)[:1]


@auto("fx")
def run_fx(state: EldritchState, frame: Frame, events: Events) -> None:
    """Resolve the effects in order. While a verb pushes nothing (most gain or lose something at once) the next
    one follows in this same frame; a verb that pushes steps (a question, a test, a fight) gets the rest of the
    list as a new `fx` frame beneath them, so the list resumes once they are done."""
    run_effects(state, frame.seat, frame.args["effects"], frame.args.get("source", ""), ctx(frame), events)


@interpreter
def run_effects(state: EldritchState, seat: int | None, effects: Effects, source: str, c: dict[str, Any],
                events: Events) -> None:
    invs = state.investigators
    stack = state.flow.stack
    last = len(effects) - 1
    for i, head in enumerate(effects):
        if state.over or seat is not None and not invs[seat].active:
            return
        mark = len(stack)
        (verb, arg), = head.items()
        if verb in YOU_VERBS and seat is None and not (verb == "move" and c["monster"] is not None):
            for s in reversed(targets(state, None, c["space"])):
                resolve(state, s, [head], source, **c)
        else:
            HANDLERS[verb](state, seat, arg, source, c, events)
        if len(stack) > mark and i < last:
            if not state.over and (seat is None or invs[seat].active):
                stack.insert(mark, FLOW.frame(state, "fx", seat, source, effects=effects[i + 1:], source=source,
                                              **c))
            return


# ------------------------------------------------------------------ verbs on you


def _track(track: str) -> Any:
    def run(state: EldritchState, seat: int, n: int, source: str, c: dict[str, Any], events: Events) -> None:
        if n < 0:
            prevent = _preventer(state, seat, track)
            if prevent is not None:
                push(state, "fx_prevent", seat, track=track, n=n, card=prevent, source=source)
                return
        P.change_track(state, seat, track, n, source, events)
    return run


def _preventer(state: EldritchState, seat: int, track: str) -> str | None:
    cont = content(state)
    inv = state.investigators[seat]
    for card in [*inv.assets, *inv.artifacts]:
        poss = cont.assets.get(card) or cont.artifacts.get(card)
        if poss is not None and poss.prevent is not None and poss.prevent.track == track:
            return card
    return None


@asks("fx_prevent")
def ask_prevent(state: EldritchState, frame: Frame) -> Prompt:
    a = frame.args
    cont = content(state)
    card = a["card"]
    poss = cont.assets.get(card) or cont.artifacts.get(card)
    assert poss is not None and poss.prevent is not None
    track = "Health" if a["track"] == "health" else "Sanity"
    use = f"Use {poss.name}: prevent up to {poss.prevent.amount} of it" + (" (then discard it)" if poss.prevent.discard
                                                                            else "")
    return ask_one(frame, f"Lose {-a['n']} {track}?", f"{card_name(state, a['source'])} would take {-a['n']} {track}.",
                   [option("use", label=use, data=True),
                    option("keep", label=f"Take the loss ({-a['n']} {track})", data=False)], default="use")


@answers("fx_prevent")
def answer_prevent(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    a = frame.args
    seat = frame.owner
    n = a["n"]
    if answer.data:
        cont = content(state)
        card = a["card"]
        poss = cont.assets.get(card) or cont.artifacts.get(card)
        assert poss is not None and poss.prevent is not None
        n = min(0, n + poss.prevent.amount)
        say(events, f"{name(state, seat)} uses {poss.name}.", seat=seat, cause=card)
        if poss.prevent.discard:
            P.discard_possession(state, seat, card, card, events)
    P.change_track(state, seat, a["track"], n, a["source"], events)


def _clues(state: EldritchState, seat: int, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    if n > 0:
        P.gain_clues(state, seat, n, source, events)
    else:
        P.lose_clues(state, seat, -n, source, events)


def _ticket(state: EldritchState, seat: int, kind: str, source: str, c: dict[str, Any], events: Events) -> None:
    if kind == "any":
        pick(state, seat, "Which ticket?", source, [("train", "A train ticket", [{"ticket": "train"}]),
                                                     ("ship", "A ship ticket", [{"ticket": "ship"}])], c)
        return
    if any("no_trains" in content(state).mythos[o.card].modifiers for o in state.ongoing) and kind == "train":
        say(events, "The railways are closed: no train ticket is gained.", seat=seat, cause=source)
        return
    P.gain_ticket(state, seat, kind, source, events)


def _improve(state: EldritchState, seat: int, skill: str, source: str, c: dict[str, Any], events: Events) -> None:
    if skill == "any":
        inv = state.investigators[seat]
        opts = [(s, f"Improve {s.title()} ({P.skill_value(state, seat, s)} now)", [{"improve": s}])
                for s in SKILL_NAMES if inv.improve.get(s, 0) < 2]
        if opts:
            pick(state, seat, "Improve which skill?", source, opts, c)
        return
    P.improve(state, seat, skill, source, events)


def _delayed(state: EldritchState, seat: int, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    become_delayed(state, seat, source, events, payment=False)


def become_delayed(state: EldritchState, seat: int, source: str, events: Events, payment: bool) -> None:
    """Delayed (digest 3.1, 6): during your own action turn you lose your remaining actions instead; an
    investigator whose passive ignores Delayed is not Delayed unless paying with it."""
    inv = state.investigators[seat]
    cont = content(state)
    assert inv.card is not None
    if cont.investigators[inv.card].passive.kind == "ignore_delayed" and not payment:
        say(events, f"{name(state, seat)} is not delayed.", seat=seat, cause=source)
        return
    if state.phase == "action" and state.current == seat:
        if inv.actions_left:
            inv.actions_left = 0
            say(events, f"{name(state, seat)} loses the rest of this turn's actions.", seat=seat, cause=source,
                kind="investigator.delayed")
        return
    if not inv.delayed:
        inv.delayed = True
        say(events, f"{name(state, seat)} is Delayed.", seat=seat, cause=source, kind="investigator.delayed")


def _move(state: EldritchState, seat: int | None, where: str, source: str, c: dict[str, Any], events: Events) -> None:
    board = board_of(state.content_version)
    if c["monster"] is not None and seat is None:  # a Monster's spawn effect moves the Monster
        token = next((m for m in state.monsters if m.uid == c["monster"]), None)
        if token is not None and where in content(state).spaces:
            token.space = where
            say(events, f"{card_name(state, token.kind)} moves to {W.space_name(state, where)}.", cause=source)
            W.check_crowd(state, events)
        return
    assert seat is not None
    inv = state.investigators[seat]
    if P.condition_of(state, seat, "detained"):
        say(events, f"{name(state, seat)} is detained and cannot be moved.", seat=seat, cause=source)
        return
    if where == "choose":
        opts = [(s, f"Move to {W.space_name(state, s)}", [{"move": s}]) for s in board.within(inv.space, 2)]
        pick(state, seat, "Move where?", source, opts, c)
        return
    dest = board.nearest(inv.space, board.cities) if where == "nearest_city" else where
    if dest is None or dest == inv.space:
        return
    inv.space = dest
    say(events, f"{name(state, seat)} moves to {W.space_name(state, dest)}.", seat=seat, cause=source,
        kind="investigator.moved", space=dest)


def _devoured(state: EldritchState, seat: int, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    W.devour(state, seat, events)


def _gain_asset(state: EldritchState, seat: int, how: Any, source: str, c: dict[str, Any], events: Events) -> None:
    if how == "reserve":
        cont = content(state)
        opts = [(a, f"Take {cont.assets[a].name} from the reserve", [{"_take_reserve": a}]) for a in state.reserve]
        if opts:
            pick(state, seat, "Gain which Asset?", source, opts, c)
        return
    P.draw_asset(state, seat, source, events, trait=how["trait"] if isinstance(how, dict) else None)


def _take_reserve(state: EldritchState, seat: int, card: str, source: str, c: dict[str, Any], events: Events) -> None:
    P.take_from_reserve(state, seat, card, source, events)
    P.refill_reserve(state, events)


def _gain_artifact(state: EldritchState, seat: int, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    for _ in range(n):
        P.gain_artifact(state, seat, source, events)


def _gain_spell(state: EldritchState, seat: int, trait: str, source: str, c: dict[str, Any], events: Events) -> None:
    P.gain_spell(state, seat, trait, source, events)


def _condition(state: EldritchState, seat: int, kind: str, source: str, c: dict[str, Any], events: Events) -> None:
    P.gain_condition(state, seat, kind, source, events)


def _discard_condition(state: EldritchState, seat: int, kind: str, source: str, c: dict[str, Any],
                       events: Events) -> None:
    card = P.condition_of(state, seat, kind)
    if card is not None:
        P.discard_condition_card(state, seat, card, source, events)


def _lose_possession(state: EldritchState, seat: int, kind: str, source: str, c: dict[str, Any],
                     events: Events) -> None:
    cards = P.possessions_of_kind(state, seat, kind)
    if len(cards) == 1:
        P.discard_possession(state, seat, cards[0], source, events)
    elif cards:
        opts = [(x, f"Discard {card_name(state, x)}", [{"_discard": x}]) for x in cards]
        pick(state, seat, "Discard which possession?", source, opts, c)


def _discard(state: EldritchState, seat: int, card: str, source: str, c: dict[str, Any], events: Events) -> None:
    P.discard_possession(state, seat, card, source, events)


def _close_gate(state: EldritchState, seat: int, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    space = state.investigators[seat].space
    if space not in state.gates:
        return
    if any("no_close_gates" in content(state).mythos[o.card].modifiers for o in state.ongoing):
        say(events, "The Gate cannot be closed while that Mythos card is in play.", seat=seat, cause=source)
        return
    close_gate(state, space, seat, source, events)


def close_gate(state: EldritchState, space: str, seat: int | None, source: str, events: Events,
               verb: str = "closes") -> None:
    del state.gates[space]
    state.gate_discard.append(space)
    who = name(state, seat) if seat is not None else "The investigators"
    say(events, f"{who} {verb} the Gate at {W.space_name(state, space)}.", seat=seat, cause=source,
        kind="gate.closed", space=space)
    events[-1].render = True
    if seat is not None and verb == "closes":
        inv = state.investigators[seat]
        assert inv.card is not None
        if content(state).investigators[inv.card].passive.kind == "gate_clue":
            P.gain_clues(state, seat, 1, inv.card, events)


def _discard_gate(state: EldritchState, seat: int, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    space = state.investigators[seat].space
    if space in state.gates:
        close_gate(state, space, seat, source, events, verb="discards")


def _take_clue(state: EldritchState, seat: int, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    inv = state.investigators[seat]
    if state.clues.get(inv.space, 0) <= 0:
        return
    state.clues[inv.space] -= 1
    if not state.clues[inv.space]:
        del state.clues[inv.space]
    inv.clues += 1
    say(events, f"{name(state, seat)} takes the Clue at {W.space_name(state, inv.space)} ({inv.clues} held).",
        seat=seat, cause=source, kind="clue.gained")
    assert inv.card is not None
    if content(state).investigators[inv.card].passive.kind == "research_clue" and source.startswith("eh.research"):
        P.gain_clues(state, seat, 1, inv.card, events)


def _ambush(state: EldritchState, seat: int, arg: Any, source: str, c: dict[str, Any], events: Events) -> None:
    """Fight a random Monster from the cup; it is not spawned and goes back to the cup afterwards, defeated or
    not; then the card goes on: `win` if the Monster was defeated, else `lose` (digest 5 "Ambush"). With the cup
    empty nobody comes, and neither branch resolves."""
    if not state.cup:
        return
    kind = state.cup.pop(state.rng.below(len(state.cup)))
    token = W.place_monster(state, kind, "")  # not spawned: it is on no space (digest 5 "Ambush")
    say(events, f"{name(state, seat)} is ambushed by {card_name(state, kind)}!", seat=seat, cause=source,
        kind="monster.ambush")
    branches = arg if isinstance(arg, dict) else {}
    # no seat on the frame: a defeat in the fight cancels the investigator's frames, but the Monster still goes back
    push(state, "ambush_end", None, uid=token.uid, investigator=seat, win=branches.get("win", []),
         lose=branches.get("lose", []), source=source, card=c["card"])
    push(state, "fight", seat, uid=token.uid, source=source)


@auto("ambush_end")
def ambush_end(state: EldritchState, frame: Frame, events: Events) -> None:
    a = frame.args
    token = next((m for m in state.monsters if m.uid == a["uid"]), None)
    if token is not None:
        W.drop_monster(state, token)
        state.cup.append(token.kind)
    seat = a.get("investigator")
    if seat is not None and state.investigators[seat].active:
        resolve_now(state, seat, a.get("lose", []) if token is not None else a.get("win", []), a.get("source", ""),
                    events, card=a.get("card"))


def _fight_here(state: EldritchState, seat: int, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    for token in reversed(W.monsters_at(state, state.investigators[seat].space)):
        push(state, "fight", seat, uid=token.uid, source=source)


def _monster_damage(state: EldritchState, seat: int, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    uid = c["monster"] if c["monster"] is not None else state_fight_uid(state, seat)
    if uid is None:
        here = W.monsters_at(state, state.investigators[seat].space)
        if len(here) == 1:
            uid = here[0].uid
        elif here:
            opts = [(str(m.uid), f"Hurt {card_name(state, m.kind)}", [{"monster_damage": n}]) for m in here]
            pick(state, seat, "Which Monster?", source, opts, c, monster_pick=True)
            return
    if uid is not None:
        hurt_monster(state, seat, uid, n, source, events)


def state_fight_uid(state: EldritchState, seat: int) -> int | None:
    for f in reversed(state.flow.stack):
        if f.op in ("fight_strength", "fight_cast", "fight_will_result", "fight_strength_result") and f.seat == seat:
            return int(f.args["uid"])
    return None


def _combat_bonus(state: EldritchState, seat: int, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    for f in reversed(state.flow.stack):
        if f.op == "fight_strength" and f.seat == seat:
            f.args["bonus"] = max(int(f.args.get("bonus", 0)), n)
            say(events, f"{name(state, seat)} gains +{n} Strength for this fight.", seat=seat, cause=source)
            return


def _special(state: EldritchState, seat: int, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    """Draw and resolve the Ancient One's special encounter (its own deck, digest 1.4)."""
    deck = state.decks.get("special")
    card = deck.draw(state.rng) if deck is not None else None
    if card is None:
        return
    sp = content(state).specials[card]
    say(events, f"{sp.name}: {sp.text}", seat=seat, cause=card, kind="encounter.started", card=card)
    push(state, "discard_encounter", seat, deck="special", card=card)
    resolve(state, seat, sp.effects, card, card=card)


def _spawn_monster(state: EldritchState, seat: int, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    for _ in range(n):
        W.spawn_monster(state, state.investigators[seat].space, events, source)


# ------------------------------------------------------------------ verbs on the world


def _world(fn: Any) -> Any:
    def run(state: EldritchState, seat: int | None, arg: Any, source: str, c: dict[str, Any], events: Events) -> None:
        fn(state, arg, source, c, events)
    return run


def _spawn_epic(state: EldritchState, arg: dict[str, str], source: str, c: dict[str, Any], events: Events) -> None:
    mon = content(state).monsters[arg["monster"]]
    if any(m.kind == mon.id for m in state.monsters):
        return
    space = arg.get("space") or c["space"] or W.random_space(state)
    token = W.place_monster(state, mon.id, space)
    say(events, f"{mon.name} appears at {W.space_name(state, space)}!", cause=source, kind="monster.spawned",
        space=space, monster=mon.id)
    events[-1].render = True
    W.check_crowd(state, events)
    mystery = content(state).mysteries[state.mystery] if state.mystery is not None else None
    if mystery is not None and mystery.epic == mon.id and state.mystery_tokens:  # advanced before it came
        loss, state.mystery_tokens = state.mystery_tokens, 0
        hurt_monster(state, None, token.uid, loss, mystery.id, events)


def _where(state: EldritchState, seat: int | None, c: dict[str, Any]) -> str:
    """"Here" for a world verb: the investigator's space, else the card's space, else a random space."""
    if seat is not None and state.investigators[seat].active:
        return state.investigators[seat].space
    return str(c["space"] or W.random_space(state))


def _spawn_set_aside(state: EldritchState, seat: int | None, arg: dict[str, Any], source: str, c: dict[str, Any],
                     events: Events) -> None:
    """Set-aside Monsters of a kind enter play (digest 1.3 "Set-aside components", 3.4)."""
    kind = arg["monster"]
    space = arg.get("space") or _where(state, seat, c)
    count = state.set_aside.count(kind) if arg.get("count") == "all" else int(arg.get("count", 1))
    spawned = sum(W.spawn_set_aside(state, kind, space, events, source) for _ in range(count))
    if not spawned:
        say(events, f"No {card_name(state, kind)} is left set aside.", seat=seat, cause=source)


def _epic_space(state: EldritchState, epic: str) -> str | None:
    return next((m.space for m in state.monsters if m.kind == epic and m.space), None)


def _spawn_monster_at(state: EldritchState, arg: dict[str, Any], source: str, c: dict[str, Any],
                      events: Events) -> None:
    """Monsters from the cup on a named space, or on an Epic Monster's space (none if it is not on the board)."""
    space = arg.get("space") or _epic_space(state, arg.get("epic", ""))
    if space is None:
        return
    for _ in range(int(arg.get("count", 1))):
        W.spawn_monster(state, space, events, source)


def _gather(state: EldritchState, arg: dict[str, Any], source: str, c: dict[str, Any], events: Events) -> None:
    """Every Monster of the named kinds on the board moves to the Epic Monster's space."""
    space = _epic_space(state, arg["epic"])
    if space is None:
        return
    moved = [m for m in state.monsters if m.kind in arg["monsters"] and m.space and m.space != space]
    for m in moved:
        m.space = space
    if moved:
        say(events, f"{plural(len(moved), 'Monster')} converge on {W.space_name(state, space)}.", cause=source,
            kind="monster.moved", space=space)
        W.check_crowd(state, events)


def _flip_conditions(state: EldritchState, seat: int | None, kind: str, source: str, c: dict[str, Any],
                     events: Events) -> None:
    """Every investigator holding a Condition of this kind flips it, from the Lead clockwise (the card turns
    over and its back resolves: digest 8 "Double-sided cards")."""
    for s in reversed(active_seats(state)):
        card = P.condition_of(state, s, kind)
        if card is not None:
            resolve(state, s, [{"flip": True}], card, card=card)


def _monsters_at_gates(state: EldritchState, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    for space in sorted(state.gates):
        for _ in range(n):
            W.spawn_monster(state, space, events, source)


def _heal_monsters(state: EldritchState, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    for m in state.monsters:
        if m.damage:
            m.damage = 0
    say(events, "Every Monster's wounds close.", cause=source)


def _reveal_gate(state: EldritchState, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    for space in reversed(state.gate_stack):
        if space not in state.revealed_gates:
            state.revealed_gates.append(space)
            say(events, f"The next Gate will open at {W.space_name(state, space)}.", cause=source)
            return


def _reserve_discard(state: EldritchState, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    for card in state.reserve:
        state.decks["asset"].discard(card)
    state.reserve = []
    P.refill_reserve(state, events)
    say(events, "The reserve is swept away and dealt anew.", cause=source)


def _tokens(state: EldritchState, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    card = c["card"]
    if card is not None and n > 0 and (card == state.mystery or card == state.ao and state.awakened):
        W.add_mystery_tokens(state, n, events, source)
        return
    for o in state.ongoing:
        if o.card == card:
            o.tokens = max(0, o.tokens + n)
            say(events, f"{card_name(state, card)} now holds {plural(o.tokens, 'Eldritch token')}.", cause=source)
            if o.tokens == 0 and n < 0:
                expire(state, card, events)
            return


def _solve(state: EldritchState, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    card = c["card"]
    if card is None:
        return
    if card == state.mystery:
        W.solve_mystery(state, events)
        return
    if any(o.card == card for o in state.ongoing):
        say(events, f"{card_name(state, card)} is resolved and leaves play.", cause=source, kind="rumor.solved")
        events[-1].render = True
        leave_play(state, card)


def _mystery(state: EldritchState, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    """Advance the active Mystery n times, as its kind says (RG "Advancing the Active Mystery", our reading:
    docs/eldritch.md): a Mystery solved by Eldritch tokens gets one token a time; one solved by defeating an
    Epic Monster has that Monster lose Health, half the investigators (rounded up) a time, kept on the card
    while the Monster is not on the board. The Final Mystery is not the active Mystery (RG FAQ): after the
    awakening this does nothing."""
    if state.mystery is None or n <= 0:
        return
    m = content(state).mysteries[state.mystery]
    if m.epic is None:
        W.add_mystery_tokens(state, n, events, source)
        return
    loss = n * W.need_of(state, "half")
    token = next((t for t in state.monsters if t.kind == m.epic and t.space), None)
    epic = card_name(state, m.epic)
    if token is None:
        state.mystery_tokens += loss
        say(events, f"{m.name} advances: {epic} will lose {loss} Health when it appears.", cause=source,
            kind="mystery.progress")
        return
    say(events, f"{m.name} advances: {epic} is weakened.", cause=source, kind="mystery.progress")
    hurt_monster(state, None, token.uid, loss, source, events)


def advances_nothing(state: EldritchState, effects: Effects) -> bool:
    """Whether an effect list only advances the active Mystery (with narration) while there is none to
    advance: after the awakening, or with the Mystery deck exhausted."""
    verbs = [next(iter(e)) for e in effects]
    return "mystery" in verbs and state.mystery is None and all(v in ("mystery", "say") for v in verbs)


def _lose(state: EldritchState, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    W.end_game(state, "loss", f"{card_name(state, source)}: the investigators lose.", events)


def _win(state: EldritchState, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    W.end_game(state, "win", f"{card_name(state, source)}: the investigators win!", events)


def _say(state: EldritchState, seat: int | None, text: str, source: str, c: dict[str, Any], events: Events) -> None:
    say(events, text, seat=seat, cause=source, kind="card.text")


def _flip(state: EldritchState, seat: int | None, _: Any, source: str, c: dict[str, Any], events: Events) -> None:
    """Flip this Spell or Condition: its hidden back resolves now, and then it turns face up again unless the
    back discarded it (digest 8 "Double-sided cards")."""
    card = c["card"]
    cont = content(state)
    model = cont.spells.get(card) or cont.conditions.get(card) if card else None
    if card is None or model is None or seat is None:
        return
    say(events, f"{card_name(state, card)} is turned over.", seat=seat, cause=card, kind="card.flipped", card=card)
    state.flipped.append(card)
    push(state, "unflip", seat, card=card)
    resolve(state, seat, model.back, card, card=card)


@auto("unflip")
def unflip(state: EldritchState, frame: Frame, events: Events) -> None:
    card = frame.args["card"]
    if card in state.flipped:
        state.flipped.remove(card)


def _discard_self(state: EldritchState, seat: int | None, _: Any, source: str, c: dict[str, Any],
                  events: Events) -> None:
    card = c["card"]
    if card is None:
        return
    holder = P.holder_of(state, card)
    if holder is not None:
        P.discard_possession(state, holder, card, source, events)
        return
    if any(o.card == card for o in state.ongoing):
        leave_play(state, card)


# ------------------------------------------------------------------ structure


def _test(state: EldritchState, seat: int, t: dict[str, Any], source: str, c: dict[str, Any], events: Events) -> None:
    card_test(state, seat, t["skill"], t.get("mod", 0), source, t.get("need", 1), t.get("pass", []), t.get("fail", []),
             t.get("per_success", []), c["card"], events)


def _roll(state: EldritchState, seat: int | None, r: dict[str, Any], source: str, c: dict[str, Any],
          events: Events) -> None:
    dice = [state.rng.below(6) + 1 for _ in range(r["dice"])]
    hit = any(d in r["on"] for d in dice)
    # named: at a reckoning several cards roll one after another, and "Rolled 3" alone did not say whose roll it was
    whose = card_name(state, c.get("card") or source)
    say(events, f"{whose}: rolled {' '.join(map(str, dice))}, " + ("it happens." if hit else "nothing comes of it."),
        seat=seat, cause=source, kind="dice.rolled", dice=dice)
    resolve_now(state, seat, r.get("hit" if hit else "miss", []), source, events, **c)


def _choice(state: EldritchState, seat: int, branches: list[Effects], source: str, c: dict[str, Any],
            events: Events) -> None:
    opts = [(str(i), describe(state, b), b) for i, b in enumerate(branches) if can_pay(state, seat, b[:1])]
    if not opts:
        opts = [(str(i), describe(state, b), b) for i, b in enumerate(branches)]
    pick(state, seat, "Choose one", source, opts, c)


def _may(state: EldritchState, seat: int, effects: Effects, source: str, c: dict[str, Any], events: Events) -> None:
    pick(state, seat, "You may", source, [("yes", describe(state, effects), effects), ("no", "Decline", [])], c)


def _spend(state: EldritchState, seat: int, s: dict[str, Any], source: str, c: dict[str, Any], events: Events) -> None:
    """Offer to pay for something; not offered when it cannot be paid, or when what it buys would do nothing
    (a Clue for advancing a Mystery that is no longer there)."""
    if not can_pay(state, seat, s["cost"]) or advances_nothing(state, s["then"]):
        return
    pick(state, seat, "Pay for it?", source,
         [("pay", f"Pay: {describe(state, s['cost'])} → {describe(state, s['then'])}", [*s["cost"], *s["then"]]),
          ("no", "Decline", [])], c, paying=True)


def _unless(state: EldritchState, seat: int, u: dict[str, Any], source: str, c: dict[str, Any],
            events: Events) -> None:
    if not can_pay(state, seat, u["cost"]):
        resolve(state, seat, u["else"], source, **c)
        return
    pick(state, seat, "Pay, or suffer it?", source,
         [("pay", f"Pay: {describe(state, u['cost'])}", u["cost"]),
          ("else", f"Refuse: {describe(state, u['else'])}", u["else"])], c, paying=True)


def _each(state: EldritchState, seat: int | None, effects: Effects, source: str, c: dict[str, Any],
          events: Events) -> None:
    for s in reversed(active_seats(state)):
        resolve(state, s, effects, source, card=c["card"], monster=None, space=None)


def _group_spend(state: EldritchState, seat: int | None, arg: dict[str, Any], source: str, c: dict[str, Any],
                 events: Events) -> None:
    """The investigators as a group may spend Clues (RG: a group decision is the Lead's to make): the Lead
    decides whether to pay; then from the Lead clockwise each investigator holding Clues says how many of
    theirs they give, never so few that the rest cannot make up the sum. Too few Clues among them: `else`."""
    need = W.need_of(state, arg["clues"])
    held = sum(state.investigators[s].clues for s in active_seats(state))
    if held < need or not active_seats(state):
        say(events, f"The investigators hold {plural(held, 'Clue')} between them; {need} would be needed.",
            cause=source)
        resolve_now(state, seat, arg.get("else", []), source, events, **c)
        return
    push(state, "group_spend", state.lead if state.investigators[state.lead].active else active_seats(state)[0],
         need=need, then=arg["then"], otherwise=arg.get("else", []), payer=seat, source=source, card=c["card"])


@asks("group_spend")
def ask_group_spend(state: EldritchState, frame: Frame) -> Prompt:
    a = frame.args
    holders = ", ".join(f"{name(state, s)} {state.investigators[s].clues}" for s in active_seats(state)
                        if state.investigators[s].clues)
    return ask_one(frame, f"Spend {plural(a['need'], 'Clue')} as a group?", f"{card_name(state, a['source'])}. "
                   f"Clues held: {holders}.",
                   [option("pay", f"Pay {plural(a['need'], 'Clue')} between you: {describe(state, a['then'])}", True),
                    option("decline", f"Do not pay: {describe(state, a['otherwise'])}", False)], default="decline")


@answers("group_spend")
def answer_group_spend(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    a = frame.args
    if not answer.data:
        say(events, f"{name(state, frame.owner)} decides the group will not pay.", seat=frame.owner, cause=a["source"])
        resolve_now(state, a["payer"], a["otherwise"], a["source"], events, card=a["card"])
        return
    givers = [s for s in active_seats(state) if state.investigators[s].clues]
    push(state, "group_give", None, givers=givers, left=a["need"], then=a["then"], otherwise=a["otherwise"],
         payer=a["payer"], source=a["source"], card=a["card"])


def _give_range(state: EldritchState, givers: list[int], left: int) -> tuple[int, int]:
    """(fewest, most) Clues the first giver may give so that the others can still make up `left`."""
    first, rest = givers[0], givers[1:]
    others = sum(state.investigators[s].clues for s in rest)
    return max(0, left - others), min(state.investigators[first].clues, left)


@auto("group_give")
def group_give(state: EldritchState, frame: Frame, events: Events) -> None:
    """The next giver in turn: a question when they have a choice, else their share is taken at once."""
    a = frame.args
    givers = [s for s in a["givers"] if state.investigators[s].active]
    if a["left"] <= 0:
        resolve_now(state, a["payer"], a["then"], a["source"], events, card=a["card"])
        return
    if sum(state.investigators[s].clues for s in givers) < a["left"]:  # nothing can shrink them between answers
        resolve_now(state, a["payer"], a["otherwise"], a["source"], events, card=a["card"])
        return
    low, high = _give_range(state, givers, a["left"])
    if low == high:
        _give(state, givers[0], low, a, givers[1:], events)
        return
    push(state, "group_give_ask", givers[0], givers=givers, left=a["left"], then=a["then"],
         otherwise=a["otherwise"], payer=a["payer"], source=a["source"], card=a["card"])


@asks("group_give_ask")
def ask_give(state: EldritchState, frame: Frame) -> Prompt:
    a = frame.args
    low, high = _give_range(state, a["givers"], a["left"])
    return ask_one(frame, f"Give how many of your {plural(state.investigators[frame.owner].clues, 'Clue')}?",
                   f"{card_name(state, a['source'])}: {plural(a['left'], 'Clue')} still to pay as a group.",
                   [option(f"give:{k}", f"Give {plural(k, 'Clue')}", k) for k in range(low, high + 1)])


@answers("group_give_ask")
def answer_give(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    a = frame.args
    _give(state, frame.owner, int(answer.data), a, a["givers"][1:], events)


def _give(state: EldritchState, seat: int, n: int, a: dict[str, Any], rest: list[int], events: Events) -> None:
    if n:
        P.lose_clues(state, seat, n, a["source"], events)
    push(state, "group_give", None, givers=rest, left=a["left"] - n, then=a["then"], otherwise=a["otherwise"],
         payer=a["payer"], source=a["source"], card=a["card"])


def _one_here(state: EldritchState, seat: int, effects: Effects, source: str, c: dict[str, Any],
              events: Events) -> None:
    here = [s for s in active_seats(state) if state.investigators[s].space == state.investigators[seat].space]
    if len(here) == 1:
        resolve(state, seat, effects, source, **c)
        return
    push(state, "fx_who", seat, effects=effects, candidates=here, source=source, card=c["card"])


@asks("fx_who")
def ask_who(state: EldritchState, frame: Frame) -> Prompt:
    a = frame.args
    opts = [option(f"s{s}", label=name(state, s), data=s) for s in a["candidates"]]
    return ask_one(frame, "Who?", f"{card_name(state, a['source'])}: {describe(state, a['effects'])}", opts)


@answers("fx_who")
def answer_who(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    a = frame.args
    resolve_now(state, int(answer.data), a["effects"], a["source"], events, card=a.get("card"))


def _if_condition(state: EldritchState, seat: int, arg: dict[str, Any], source: str, c: dict[str, Any],
                  events: Events) -> None:
    has = P.condition_of(state, seat, arg["condition"]) is not None
    resolve_now(state, seat, arg["then"] if has else arg.get("else", []), source, events, **c)


def _if_space(state: EldritchState, seat: int, arg: dict[str, Any], source: str, c: dict[str, Any],
              events: Events) -> None:
    kind = content(state).spaces[state.investigators[seat].space].type
    resolve_now(state, seat, arg["then"] if kind == arg["type"] else arg.get("else", []), source, events, **c)


def _advance_doom(state: EldritchState, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    W.advance_doom(state, n, card_name(state, source), events)


def _retreat_doom(state: EldritchState, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    W.retreat_doom(state, n, card_name(state, source), events)


def _advance_omen(state: EldritchState, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    W.advance_omen(state, n, source, events)


def _spawn_gate(state: EldritchState, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    for _ in range(n):
        W.spawn_gate(state, events, source)


def _spawn_clue(state: EldritchState, n: int, source: str, c: dict[str, Any], events: Events) -> None:
    for _ in range(n):
        W.spawn_clue(state, events, source)


HANDLERS: dict[str, Any] = {
    "health": _track("health"), "sanity": _track("sanity"), "clues": _clues, "ticket": _ticket,
    "improve": _improve, "delayed": _delayed, "move": _move, "devoured": _devoured, "gain_asset": _gain_asset,
    "_take_reserve": _take_reserve, "gain_artifact": _gain_artifact, "gain_spell": _gain_spell,
    "condition": _condition, "discard_condition": _discard_condition, "lose_possession": _lose_possession,
    "_discard": _discard, "flip": _flip, "discard_self": _discard_self,
    "advance_doom": _world(_advance_doom), "retreat_doom": _world(_retreat_doom),
    "advance_omen": _world(_advance_omen), "spawn_gate": _world(_spawn_gate), "spawn_clue": _world(_spawn_clue),
    "spawn_monster": _spawn_monster, "special_encounter": _special, "spawn_epic": _world(_spawn_epic),
    "spawn_set_aside": _spawn_set_aside, "spawn_monster_at": _world(_spawn_monster_at), "gather": _world(_gather),
    "flip_conditions": _flip_conditions, "group_spend": _group_spend,
    "monsters_at_gates": _world(_monsters_at_gates), "close_gate": _close_gate, "discard_gate": _discard_gate,
    "take_clue": _take_clue, "heal_monsters": _world(_heal_monsters), "ambush": _ambush, "fight_here": _fight_here,
    "reveal_gate": _world(_reveal_gate), "gain_reserve_discard": _world(_reserve_discard),
    "tokens": _world(_tokens), "solve": _world(_solve), "mystery": _world(_mystery),
    "investigators_lose": _world(_lose), "investigators_win": _world(_win),
    "monster_damage": _monster_damage, "combat_bonus": _combat_bonus, "say": _say, "test": _test, "roll": _roll,
    "choice": _choice, "may": _may, "spend": _spend, "unless": _unless, "each_investigator": _each,
    "one_here": _one_here, "if_condition": _if_condition, "if_space": _if_space,
}
YOU_VERBS = YOU_VERBS | {"_take_reserve", "_discard"}


# ------------------------------------------------------------------ a choice between effect lists


def pick(state: EldritchState, seat: int, title: str, source: str, options: list[tuple[str, str, Effects]],
         c: dict[str, Any], paying: bool = False, monster_pick: bool = False) -> None:
    """Ask `seat` to choose one of `options` (id, label, effects); the chosen effects resolve next."""
    push(state, "fx_pick", seat, title=title, source=source, options=[list(o) for o in options], card=c["card"],
         monster=c["monster"], space=c["space"], monster_pick=monster_pick)


@asks("fx_pick")
def ask_pick(state: EldritchState, frame: Frame) -> Prompt:
    a = frame.args
    opts = [option(oid, label=label, data=effects) for oid, label, effects in a["options"]]
    reason = card_name(state, a["source"]) if a["source"] else ""
    return ask_one(frame, a["title"], reason, opts, default=opts[-1].id)


@answers("fx_pick")
def answer_pick(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    a = frame.args
    monster = int(answer.option.id) if a.get("monster_pick") else a.get("monster")
    resolve_now(state, frame.owner, answer.data, a["source"], events, card=a.get("card"), monster=monster,
                space=a.get("space"))


# ------------------------------------------------------------------ paying and describing


def can_pay(state: EldritchState, seat: int, cost: Effects) -> bool:
    """Whether `seat` can pay every cost in the list (you cannot spend your last Health or Sanity, RG)."""
    inv = state.investigators[seat]
    for eff in cost:
        (verb, arg), = eff.items()
        if verb == "health" and isinstance(arg, int) and arg < 0 and inv.health <= -arg:
            return False
        if verb == "sanity" and isinstance(arg, int) and arg < 0 and inv.sanity <= -arg:
            return False
        if verb == "clues" and isinstance(arg, int) and arg < 0 and inv.clues < -arg:
            return False
        if verb == "lose_possession" and not P.possessions_of_kind(state, seat, arg):
            return False
        if verb == "discard_condition" and P.condition_of(state, seat, arg) is None:
            return False
        if verb == "delayed" and inv.delayed:
            return False
        if verb == "condition" and P.condition_of(state, seat, arg) is not None:
            return False
    return True


def describe(state: EldritchState, effects: Effects) -> str:
    """A short reading of an effect list for an option's label ("lose 2 Sanity, gain 1 Clue")."""
    parts = [describe_one(state, e) for e in effects]
    text = ", ".join(p for p in parts if p)
    return (text[:1].upper() + text[1:]) if text else "Nothing"


def describe_one(state: EldritchState, eff: dict[str, Any]) -> str:
    (verb, arg), = eff.items()
    if verb in ("health", "sanity"):
        track = "Health" if verb == "health" else "Sanity"
        return f"lose {-arg} {track}" if arg < 0 else f"recover {arg} {track}"
    if verb == "clues":
        return f"lose {plural(-arg, 'Clue')}" if arg < 0 else f"gain {plural(arg, 'Clue')}"
    if verb == "test":
        mod = arg.get("mod", 0)
        return f"test {arg['skill'].title()}" + (f" ({mod:+d})" if mod else "")
    if verb == "condition":
        return f"gain a {arg.replace('_', ' ').title()} Condition"
    if verb == "say":
        return ""
    if verb == "mystery":
        return _advance_words(state, arg)
    if verb == "spend":
        return f"you may pay {describe(state, arg['cost']).lower()}"
    if verb == "if_space":  # "It depends" told a player nothing: say on what, and what happens then
        return f"on a {str(arg['type']).replace('_', ' ').title()} space: {_branch(state, arg['then'])}"
    if verb == "if_condition":
        held = str(arg["condition"]).replace("_", " ").title()
        return f"with a {held} Condition: {_branch(state, arg['then'])}"
    if verb in ("choice", "may", "unless", "each_investigator", "one_here", "roll"):
        return {"choice": "a choice", "may": "an option", "unless": "a cost", "each_investigator": "every investigator",
                "one_here": "someone here", "roll": "a roll"}[verb]
    words = {
        "ticket": f"gain a {arg} ticket" if arg != "any" else "gain a ticket", "improve": f"improve {arg}",
        "delayed": "become Delayed", "move": f"move ({str(arg).replace('_', ' ')})", "devoured": "be devoured",
        "gain_asset": "gain an Asset", "gain_artifact": "gain an Artifact", "gain_spell": "gain a Spell",
        "discard_condition": f"discard {str(arg).replace('_', ' ')}", "lose_possession": f"discard an {arg}"
        if str(arg)[0] in "aeiou" else f"discard a {arg}", "advance_doom": f"doom advances {arg}",
        "retreat_doom": f"doom retreats {arg}", "close_gate": "close the Gate", "take_clue": "take the Clue here",
        "ambush": "an ambush", "monster_damage": f"the Monster loses {arg} Health",
        "combat_bonus": f"+{arg} Strength this fight", "spawn_monster": "a Monster appears",
        "spawn_gate": "a Gate opens", "spawn_clue": "a Clue appears", "spawn_set_aside": "a set-aside Monster appears",
        "spawn_monster_at": "a Monster appears", "gather": "Monsters gather", "group_spend": "a payment in Clues",
        "flip_conditions": f"every {str(arg).replace('_', ' ')} Condition turns over",
        "discard_self": "discard this card",
    }
    return str(words.get(verb, verb.replace("_", " ")))


def _branch(state: EldritchState, effects: Effects) -> str:
    text = ", ".join(p for p in (describe_one(state, e) for e in effects) if p)
    return text or "nothing happens"


def _advance_words(state: EldritchState, n: Any) -> str:
    """"advance the Mystery", and what that does for a Mystery solved by defeating an Epic Monster."""
    m = content(state).mysteries[state.mystery] if state.mystery is not None else None
    if m is None or m.epic is None or not isinstance(n, int):
        return "advance the Mystery"
    return f"advance the Mystery ({card_name(state, m.epic)} loses {n * W.need_of(state, 'half')} Health)"
