"""The effect interpreter (docs/content-format.md): one verb at a time, as steps on the stack.

Batches (digest 4.1): a resolution's rewards or penalties are applied in full, left to right, and only then
is the game checked for a win (Elder Signs) or an awakening (a full doom track): the `check` step pushed
under every batch. If both happen in one batch, the players win. A devouring happens the moment a value
reaches 0 (digest 7) and stops the rest of that investigator's personal effects.
"""

from __future__ import annotations

from typing import Any

from engine.core.flow import Answer, Frame
from engine.core.prompt import Option, Prompt, PromptKind
from engine.core.text import plural as plural
from engine.elder_sign import board
from engine.elder_sign.board import Events, content, inv, name
from engine.elder_sign.effects_schema import describe
from engine.elder_sign.ops import FLOW, answers, asks, auto, each, event, option, prompt, push, push_all
from engine.elder_sign.state import ElderSignState, Investigator, new_card_in_play

PERSONAL = {"stamina", "sanity", "max_stamina", "max_sanity", "clues", "lose_trophies", "discard_items",
            "to_entrance", "devoured", "common", "unique", "spell", "ally", "discard_die", "choose", "reroll",
            "set_face", "secure", "add_die", "defeat_monster", "unlock"}


def apply_batch(state: ElderSignState, effects: list[dict[str, Any]], seat: int | None, source: str,
                where: str | None = None, context: str = "") -> None:
    """Push a whole batch: its effects, then the win/awaken check."""
    if not effects:
        return
    push_all(state, [("effects", seat, {"effects": effects, "source": source, "where": where,
                                        "context": context}),
                     ("check", None, {})])


@auto("effects")
def run_effects(state: ElderSignState, step: Frame, events: Events) -> None:
    frame = step.__dict__  # plain reads of the frame (see Flow.run): a batch runs one effect per step
    args: dict[str, Any] = frame["args"]
    effects: list[dict[str, Any]] = args["effects"]
    if not effects:
        return
    first, rest = effects[0], effects[1:]
    if rest:
        push(state, "effects", frame["seat"], **{**args, "effects": rest})
    (verb, arg), = first.items()
    seat = frame["seat"] if frame["seat"] is not None else state.current
    source, where, context = args.get("source", ""), args.get("where"), args.get("context", "")
    if verb in ("all", "here", "others"):
        if verb == "all":
            targets = board.living_seats(state)
        elif verb == "here":
            targets = board.investigators_at(state, where) if where else []
        else:
            targets = [s for s in board.living_seats(state) if s != seat]
        *prefix, last = arg
        if len(targets) > 1 and "choose" in last and not any("choose" in e for e in prefix):
            # everyone's closing choice is asked of all of them at once (an Ancient One's attack)
            push(state, "choose_each", None, seats=targets, branches=last["choose"], source=source, where=where,
                 context=context)
            arg = prefix
        if arg:
            for t in reversed(targets):
                push(state, "effects", t, effects=arg, source=source, where=where, context=context)
        return
    if verb in PERSONAL and (state.table[seat].investigator is None or state.table[seat].eliminated):
        return  # the investigator was devoured earlier in this batch
    EFFECT[verb](state, seat, arg, source, where, context, events)


#: rule sources that are not cards, as a player reads them after "from"
_RULE_SOURCES = {
    "task cost": "a task's cost", "assistance": "assisting a failed adventure", "terror": "terror",
    "entrance.first-aid": "First Aid", "entrance.lost-and-found": "Lost & Found",
    "entrance.souvenir": "a souvenir", "battle": "the final battle", "doom track": "the doom track",
    "devoured": "a devoured investigator",
}


def because(state: ElderSignState, source: str) -> str:
    """' (from <card or rule>)' for narration, so every loss and gain says its cause; '' when unknown."""
    if not source:
        return ""
    label = _RULE_SOURCES.get(source)
    if label is None:
        name_ = board.card_name(state, source)
        label = name_ if name_ != source else ""
    return f" (from {label})" if label else ""


def _gain(state: ElderSignState, seat: int, stat: str, n: int, source: str, context: str,
          events: Events) -> None:
    i = inv(state, seat)
    if n < 0 and context == "terror":
        for kind, params in active_abilities(state, seat):
            if kind == "ward" and params["what"] == stat:
                n = min(0, n + params["amount"])
        if n == 0:
            events.append(event(kind="ward", text=f"{name(state, seat)} shrugs off the terror.", seat=seat))
            return
    cur, cap = getattr(i, stat), getattr(i, f"max_{stat}")
    new = min(cap, cur + n) if n > 0 else cur + n
    board.put(i, stat, new)
    why = because(state, source)
    if n > 0 and new == cur:
        text = f"{name(state, seat)}'s {stat} is already full ({cap}/{cap}){why}."
    else:
        verb = "regains" if n > 0 else "loses"
        text = f"{name(state, seat)} {verb} {abs(new - cur)} {stat}{why} ({max(new, 0)}/{cap})."
    events.append(event(kind=f"{stat}.changed", text=text, seat=seat, cause=source, data={"delta": new - cur}))
    if new <= 0:
        push(state, "devour", seat, source=source)


def _max(state: ElderSignState, seat: int, stat: str, n: int, source: str, events: Events) -> None:
    """Lowering a maximum clamps the current value; a maximum of 0 means devoured (digest 7, 9.13)."""
    i = inv(state, seat)
    cap = max(0, getattr(i, f"max_{stat}") + n)
    setattr(i, f"max_{stat}", cap)
    setattr(i, stat, min(getattr(i, stat), cap) if n < 0 else getattr(i, stat))
    events.append(event(kind=f"max_{stat}.changed", text=f"{name(state, seat)}'s maximum {stat} is now "
                        f"{cap}{because(state, source)}.", seat=seat, cause=source))
    if cap <= 0 or getattr(i, stat) <= 0:
        push(state, "devour", seat, source=source)


def e_stamina(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
              events: Events) -> None:
    _gain(state, seat, "stamina", arg, source, context, events)


def e_sanity(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
             events: Events) -> None:
    _gain(state, seat, "sanity", arg, source, context, events)


def e_max_stamina(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
                  events: Events) -> None:
    _max(state, seat, "stamina", arg, source, events)


def e_max_sanity(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
                 events: Events) -> None:
    _max(state, seat, "sanity", arg, source, events)


def e_clues(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
            events: Events) -> None:
    i = inv(state, seat)
    before = i.clues
    i.clues = max(0, i.clues + arg)
    moved, why = abs(i.clues - before), because(state, source)
    if moved == 0:
        text = f"{name(state, seat)} has no clues to lose{why}."
    else:
        text = (f"{name(state, seat)} {'gains' if arg > 0 else 'loses'} {plural(moved, 'clue')}{why} "
                f"(now {i.clues}).")
    events.append(event(kind="clues.changed", text=text, seat=seat, cause=source))


def e_draw(deck: str):  # noqa: ANN201 - a small factory of effect handlers
    def handler(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
                events: Events) -> None:
        for _ in range(arg):
            draw_card(state, seat, deck, source, events)
    return handler


def draw_card(state: ElderSignState, seat: int, deck: str, source: str, events: Events) -> None:
    card = state.decks[deck].draw(state.rng)
    if card is None:
        events.append(event(kind="deck.empty", text=f"The {deck} deck is empty; nothing is drawn.",
                            cause=source))
        return
    item = content(state).items[card]
    i = inv(state, seat)
    if item.kind == "ally" and item.ability is not None:
        i.allies.append(card)
    else:
        i.items.append(card)
    events.append(event(kind="card.drawn", text=f"{name(state, seat)} gains {item.name} ({item.kind}).",
                        seat=seat, cause=source, data={"card": card}))


def e_doom(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
           events: Events) -> None:
    if arg > 0:
        for _ in range(arg):
            add_doom(state, source, events)
    else:
        remove_doom(state, -arg, source, events)


def add_doom(state: ElderSignState, source: str, events: Events) -> None:
    """Place a doom token on the next space; a monster space spawns a monster; the last space awakens the
    Ancient One at the end of the batch (3.5, 4.1). In battle, doom beyond a full track is ignored (6.2)."""
    track = content(state).ancient_ones[state.ao].doom_track
    if state.doom >= len(track):
        return
    state.doom += 1
    events.append(event(kind="doom.added", text=f"Doom advances to {state.doom}/{len(track)}"
                        f"{because(state, source)}.", cause=source))
    if state.phase == "battle":
        return
    if track[state.doom - 1] == "monster" and state.doom < len(track):
        push(state, "monster", None, source="doom track")
    if state.doom >= len(track):
        state.awaken_pending = True


def remove_doom(state: ElderSignState, n: int, source: str, events: Events) -> None:
    n = min(n, state.doom)
    if n <= 0:
        return
    state.doom -= n
    events.append(event(kind="doom.removed", text=f"{n} doom removed{because(state, source)} ({state.doom} left).",
                        cause=source))
    if state.phase == "battle" and state.doom == 0:
        win(state, "The last doom token is gone: the Ancient One is driven back!", events)


def win(state: ElderSignState, text: str, events: Events) -> None:
    if not state.over:
        state.over, state.result = True, "win"
        FLOW.clear(state)
        events.append(event(kind="game.won", text=text, render=True))


def lose(state: ElderSignState, text: str, events: Events) -> None:
    if not state.over:
        state.over, state.result = True, "loss"
        FLOW.clear(state)
        events.append(event(kind="game.lost", text=text, render=True))


def e_elder_signs(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
                  events: Events) -> None:
    state.elder_signs = max(0, state.elder_signs + arg)
    limit = content(state).ancient_ones[state.ao].elder_signs
    events.append(event(kind="elder_signs.changed", text=f"Elder Signs: {state.elder_signs}/{limit}"
                        f"{because(state, source)}.",
                        cause=source))


def e_monsters(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
               events: Events) -> None:
    for _ in range(arg):
        push(state, "monster", None, source=source)


def e_gate(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
           events: Events) -> None:
    for _ in range(arg):
        card = state.decks["other_world"].draw(state.rng)
        if card is None:
            events.append(event(kind="deck.empty", text="No Other World is left to open.", cause=source))
            return
        state.other_worlds.append(new_card_in_play(card))
        ow = content(state).other_worlds[card]
        events.append(event(kind="gate.opened", text=f"A gate opens onto {ow.name}.", cause=source,
                            data={"card": card}))
        for color in ow.locks:
            board.lock_die(state, color, card, "adventure", events)


def e_clock(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
            events: Events) -> None:
    advance_clock(state, arg, source, events)


def advance_clock(state: ElderSignState, steps: int, source: str, events: Events) -> None:
    """Advance 3 hours per step. Reaching XII queues a midnight for after the turn (3.4): one per crossing."""
    passed = False
    for _ in range(steps):
        board.put(state, "clock", (state.clock + 3) % 12)
        if state.clock == 0:
            state.midnights_pending += 1
            passed = True
    if source == "clock phase":
        text = f"Clock phase: the clock strikes {clock_label(state.clock)}."
    else:  # a task's cost, a card: midnight waits for the end of the turn (3.4)
        text = f"The clock strikes {clock_label(state.clock)}{because(state, source)}."
        if passed:
            text += " Midnight comes at the end of the turn."
    events.append(event(kind="clock.advanced", text=text, cause=source, data={"clock": state.clock}))


def clock_label(hours: int) -> str:
    return {0: "XII", 3: "III", 6: "VI", 9: "IX"}[hours]


def e_lose_trophies(state: ElderSignState, seat: int, arg: int, source: str, where: str | None,
                    context: str, events: Events) -> None:
    if board.trophy_total(state, seat) <= arg:
        i = inv(state, seat)
        for t in i.trophies:
            board.return_trophy(state, t)
        lost = len(i.trophies)
        i.trophies = []
        events.append(event(kind="trophies.lost", text=f"{name(state, seat)} loses all {plural(lost, 'trophy')}"
                            f"{because(state, source)}.",
                            seat=seat, cause=source))
        return
    push(state, "pay", seat, cost=arg, purpose="lose", source=source)


def e_discard_items(state: ElderSignState, seat: int, arg: int, source: str, where: str | None,
                    context: str, events: Events) -> None:
    i = inv(state, seat)
    items = [c for c in i.items if content(state).items[c].kind in ("common", "unique")]
    if len(items) <= arg:
        for c in items:
            i.items.remove(c)
            board.return_item(state, c)
        if items:
            events.append(event(kind="items.lost", text=f"{name(state, seat)} loses "
                                f"{', '.join(content(state).items[c].name for c in items)}.", seat=seat,
                                cause=source))
        return
    push(state, "discard_items", seat, count=arg, source=source)


def e_to_entrance(state: ElderSignState, seat: int, arg: bool, source: str, where: str | None, context: str,
                  events: Events) -> None:
    if state.phase == "normal":
        inv(state, seat).location = "entrance"
        events.append(event(kind="moved", text=f"{name(state, seat)} is sent back to the Entrance.",
                            seat=seat, cause=source))


def e_devoured(state: ElderSignState, seat: int, arg: bool, source: str, where: str | None, context: str,
               events: Events) -> None:
    push(state, "devour", seat, source=source)


def e_fail(state: ElderSignState, seat: int, arg: bool, source: str, where: str | None, context: str,
           events: Events) -> None:
    adv = state.adventure
    if adv is not None and adv.outcome is None and state.phase == "normal":
        push(state, "fail_adventure", state.current, reason=source)


def e_discard_die(state: ElderSignState, seat: int, arg: int, source: str, where: str | None, context: str,
                  events: Events) -> None:
    if state.adventure is None or state.adventure.outcome is not None or seat != state.current:
        return
    for _ in range(arg):
        push(state, "discard_die", state.current, reason=board.card_name(state, source), forced=True)


def e_choose(state: ElderSignState, seat: int, arg: list[list[dict[str, Any]]], source: str,
             where: str | None, context: str, events: Events) -> None:
    push(state, "choose_branch", seat, branches=arg, source=source, where=where, context=context)


EFFECT = {
    "stamina": e_stamina, "sanity": e_sanity, "max_stamina": e_max_stamina, "max_sanity": e_max_sanity,
    "clues": e_clues, "common": e_draw("common"), "unique": e_draw("unique"), "spell": e_draw("spell"),
    "ally": e_draw("ally"), "doom": e_doom, "elder_signs": e_elder_signs, "monsters": e_monsters,
    "gate": e_gate, "clock": e_clock, "lose_trophies": e_lose_trophies, "discard_items": e_discard_items,
    "to_entrance": e_to_entrance, "devoured": e_devoured, "fail": e_fail, "discard_die": e_discard_die,
    "choose": e_choose,
}


@asks("choose_branch")
def ask_branch(state: ElderSignState, step: Frame) -> Prompt:
    branches = step.args["branches"]
    return prompt(seq=step.seq, seats=[step.owner], kind=PromptKind.ONE,
                  title=f"{name(state, step.owner)}: choose one", reason=board.card_name(state, step.args["source"]),
                  options=_branch_options(branches), default=["0"])


def _branch_options(branches: list[list[dict[str, Any]]]) -> list[Option]:
    return [option(id=str(i), label=describe(b)[:80], data=b) for i, b in enumerate(branches)]


@answers("choose_branch")
def answer_branch(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    push(state, "effects", step.seat, effects=action.data, source=step.args["source"], where=step.args.get("where"),
         context=step.args.get("context", ""))


def _choose_each_seats(state: ElderSignState, step: Frame) -> list[int]:
    living = board.living_seats(state)
    return [s for s in step.args["seats"] if s in living]


@each("choose_each", seats=_choose_each_seats)
def ask_branch_each(state: ElderSignState, step: Frame, seat: int) -> Prompt:
    """The same choice asked of several investigators at once; each answers for themself, in any order."""
    return prompt(seq=0, seats=[seat], kind=PromptKind.ONE, title=f"{name(state, seat)}: choose one",
                  reason=board.card_name(state, step.args["source"]), options=_branch_options(step.args["branches"]),
                  default=["0"])


@answers("choose_each")
def answer_branch_each(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    push(state, "effects", action.seat, effects=action.data, source=step.args["source"],
         where=step.args.get("where"), context=step.args.get("context", ""))


@auto("check")
def run_check(state: ElderSignState, step: Frame, events: Events) -> None:
    """End of a batch: Elder Signs first (they beat a simultaneous awakening, 4.1), then the awakening."""
    ao = content(state).ancient_ones[state.ao]
    if state.elder_signs >= ao.elder_signs:
        win(state, f"The {state.elder_signs}th Elder Sign is set: {ao.name} is sealed away!", events)
        return
    if state.awaken_pending and state.phase == "normal":
        state.awaken_pending = False
        push(state, "awaken", None)


#: (source, kind, params) of an investigator's own ability and of each ally's, by (content version, card,
#: allies if any): a version's content never changes
_SOURCES: dict[tuple[Any, ...], tuple[tuple[str, str, dict[str, Any]], ...]] = {}


def ability_sources(state: ElderSignState, seat: int) -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """(source card, kind, params) of the investigator's own ability and of each ally with a lasting ability,
    in that order (an ability option's number indexes this). Shared: read the params, never change them."""
    i = state.table[seat].investigator
    if i is None:
        return ()
    return ability_sources_of(state, i)


def ability_sources_of(state: ElderSignState, i: Investigator) -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """`ability_sources` of an investigator in play."""
    allies = i.allies
    key = (state.content_version, i.card, tuple(allies)) if allies else (state.content_version, i.card)
    got = _SOURCES.get(key)
    if got is None:
        c = content(state)
        out = [(i.card, c.investigators[i.card].ability.kind, c.investigators[i.card].ability.params())]
        for ally in i.allies:
            ab = c.items[ally].ability
            if ab is not None:
                out.append((ally, ab.kind, ab.params()))
        if len(_SOURCES) > 4096:
            _SOURCES.clear()
        got = _SOURCES[key] = tuple(out)
    return got


def active_abilities(state: ElderSignState, seat: int) -> list[tuple[str, dict[str, Any]]]:
    """(kind, params) of the investigator's own ability and of each ally with a lasting ability."""
    return [(kind, params) for _, kind, params in ability_sources(state, seat)]
