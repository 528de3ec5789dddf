"""The round (digest 4): Action → Monster → Encounter → Mythos, each a chain of frames on the kernel's stack.

Every decision is a prompt: who goes next (any player whose investigator has not gone may claim the turn),
each action and its target, rerolls, damage assignment, the order of monster activations and attacks
(the leader answers for the group), destination ties, and so on.
"""

from __future__ import annotations

from typing import Any

from engine.arkham3 import board
from engine.arkham3.board import content, graph, has_inv, inv, scenario, who
from engine.arkham3.content import CodexAction
from engine.arkham3.effects import (
    ctx_for,
    engage,
    engage_on_entering,
    hurt_monster,
    move_investigator,
    remove_doom,
    reseed,
    run_effects,
    suffer,
)
from engine.arkham3.effects_schema import SKILLS, walk
from engine.arkham3.ops import Events, answers, asks, auto, pick, push, say, seq
from engine.arkham3.skills import start_test
from engine.arkham3.state import ArkhamState, Asset, Inv, Monster
from engine.core.flow import Answer, Frame
from engine.core.prompt import Option, Prompt, PromptKind, Unavailable
from engine.core.text import plural

ROUND_LIMIT_NOTE = "There is no round limit: the codex and the doom clock end the game."


# ---------------------------------------------------------------- investigators joining

def start_investigator(state: ArkhamState, seat: int, card_id: str, events: Events) -> None:
    """Money and starting cards from the sheet, on the starting space (digest 3 steps 8-10, 6.4)."""
    c = content(state)
    card = c.investigators[card_id]
    if card_id in state.unplayed:
        state.unplayed.remove(card_id)
    row = state.table[seat]
    row.played.append(card_id)
    row.status = "playing"
    i = Inv(card=card_id, space=scenario(state).sheet.start, money=card.money)
    for s in card.starting:
        if c.assets[s].kind == "special" and s in state.special_pile:
            state.special_pile.remove(s)
        i.assets.append(Asset(card=s))
    row.inv = i
    say(events, f"{state.seat_name(seat)} plays {card.name}, {card.occupation}, starting in "
        f"{board.space_name(state, i.space)}.", "investigator.joined", seat, card_id)
    if state.phase != "setup":
        engage_on_entering(state, seat, events)


@asks("join")
def ask_join(state: ArkhamState, frame: Frame) -> Prompt:
    c = content(state)
    opts = [Option(id=i.removeprefix("a3.inv."), label=f"{c.investigators[i].name}, {c.investigators[i].occupation}",
                   detail=c.investigators[i].ability_text, data=i) for i in state.unplayed]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.ONE, title="Choose your new investigator",
                  reason="Your investigator fell; a new one joins on the starting space", options=opts,
                  default=[opts[0].id])


@answers("join")
def answer_join(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    start_investigator(state, frame.owner, answer.data, events)


# ---------------------------------------------------------------- the round

@auto("round")
def run_round(state: ArkhamState, frame: Frame, events: Events) -> None:
    state.round += 1
    seq(state, [("action_phase", None, {}), ("monster_phase", None, {}), ("encounter_phase", None, {}),
                ("mythos_phase", None, {}), ("round", None, {})])


@auto("action_phase")
def run_action_phase(state: ArkhamState, frame: Frame, events: Events) -> None:
    state.phase = "action"
    say(events, f"Round {state.round}: the action phase.", "phase.action")
    for row in state.table:
        if row.inv is not None:
            i = row.inv
            i.actions_used, i.acted, i.encountered = [], False, False
            for a in i.assets:
                a.used = False
    steps: list[tuple[str, int | None, dict[str, Any]]] = []
    for s in board.player_order(state):
        if state.table[s].status == "joining" and state.unplayed:
            steps.append(("join", s, {}))
    steps.append(("next_turn", None, {}))
    seq(state, steps)


@auto("next_turn")
def run_next_turn(state: ArkhamState, frame: Frame, events: Events) -> None:
    waiting = [s for s in board.on_board(state) if not inv(state, s).acted]
    if not waiting:
        say(events, "The action phase ends.", "phase.ended", render=True)
        return
    push(state, "next_turn")
    if len(waiting) == 1:
        push(state, "turn", waiting[0])
    else:
        push(state, "turn_pick", None, "rule.order", seats=waiting)


@asks("turn_pick")
def ask_turn_pick(state: ArkhamState, frame: Frame) -> Prompt:
    seats = [s for s in frame.args["seats"] if has_inv(state, s)]
    opts = [Option(id=f"s{s}", label=f"{who(state, s)} ({state.seat_name(s)}) goes next", data=s) for s in seats]
    return Prompt(seq=0, seats=seats, kind=PromptKind.ONE, title="Who takes the next turn?",
                  reason="The players choose the order", options=opts, default=[opts[0].id])


@answers("turn_pick")
def answer_turn_pick(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    push(state, "turn", answer.data)


@auto("turn")
def run_turn(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    if not has_inv(state, seat):
        return
    i = inv(state, seat)
    i.acted = True
    state.turn, state.after_evade = seat, -1
    if i.delayed:
        i.delayed = False
        state.actions_left = 1
        say(events, f"{who(state, seat)} was delayed: they stand up and take only 1 action.", "turn.start", seat)
    else:
        state.actions_left = 2
        say(events, f"{who(state, seat)}'s turn.", "turn.start", seat)
    push(state, "act", seat)


def _reengage_massive(state: ArkhamState, seat: int, events: Events) -> None:
    """A massive monster you evaded engages you again after your next action if you are still in its space
    (digest 7, 12.16)."""
    for m in state.monsters:
        if seat in m.evaded:
            m.evaded.remove(seat)
            if has_inv(state, seat) and inv(state, seat).space == m.space and seat not in m.engaged:
                engage(state, m, seat, events)


@auto("act")
def run_act(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    push(state, "codex", None, "codex")
    if state.after_evade >= 0:
        state.after_evade += 1
        if state.after_evade >= 2:
            state.after_evade = -1
            _reengage_massive(state, seat, events)
    if not has_inv(state, seat) or state.actions_left <= 0 or not action_options(state, seat):
        if has_inv(state, seat):
            _reengage_massive(state, seat, events)
            say(events, f"{who(state, seat)}'s turn ends.", "turn.end", seat)
        state.turn, state.actions_left, state.after_evade = None, 0, -1
        return
    push(state, "action", seat)


def action_options(state: ArkhamState, seat: int) -> list[tuple[str, str, tuple[str, Any]]]:
    """(id, label, (kind, argument)) for every action the investigator may take now (digest 4.1)."""
    i = inv(state, seat)
    used = set(i.actions_used)
    c = content(state)
    engaged = bool(board.restricting(state, seat))
    out: list[tuple[str, str, tuple[str, Any]]] = []
    here = i.space or ""
    if "attack" not in used and board.monsters_at(state, here):
        out.append(("attack", "Attack a monster in your space (Strength)", ("attack", None)))
    if "evade" not in used and board.engaged_with(state, seat):
        out.append(("evade", "Evade the monsters engaged with you (Observation)", ("evade", None)))
    limit = c.investigators[i.card].focus_limit
    if "focus" not in used and len(i.focus) < limit and len(i.focus) < len(SKILLS):
        out.append(("focus", "Focus a skill", ("focus", None)))
    if engaged:
        return out
    if "move" not in used and reachable(state, seat):
        out.append(("move", move_label(state, seat), ("move", None)))
    if "gather" not in used:
        out.append(("gather", "Gather resources ($1)", ("gather", None)))
    if "research" not in used:
        out.append(("research", f"Research (Observation; you hold {plural(i.clues, 'clue')})", ("research", None)))
    if "ward" not in used:
        out.append(("ward", f"Ward (Lore; {state.doom.get(here, 0)} doom here)", ("ward", None)))
    if "trade" not in used and [s for s in board.at(state, here) if s != seat]:
        out.append(("trade", "Trade with investigators in your space", ("trade", None)))
    for k, a in enumerate(i.assets):
        card = c.assets[a.card]
        key = f"comp:{a.card}"
        if card.action is not None and not a.used and key not in used:
            cost = f", {card.horror_cost} horror" if card.horror_cost else ""
            out.append((key, f"{card.name}: action{cost}", ("comp", k)))
    ab = c.investigators[i.card].ability
    if ab.kind == "mend" and "ability" not in used:
        out.append(("ability", f"Ability: {c.investigators[i.card].ability_text}", ("ability", None)))
    pack = scenario(state)
    for n in state.codex:
        act = pack.archive[n].action
        key = f"codex:{n}"
        if act is not None and key not in used and codex_action_open(state, seat, act):
            out.append((key, f"{act.label} (archive {n})", ("codex", n)))
    return out


def free_spaces(state: ArkhamState, seat: int) -> int:
    """The spaces the Move action covers without paying: 2, and more by an investigator's ability."""
    ab = content(state).investigators[inv(state, seat).card].ability
    return 2 + (ab.param("spaces") if ab.kind == "extra_move" else 0)


def move_label(state: ArkhamState, seat: int) -> str:
    """The Move action as offered, saying what it may cost before anything is paid: the free spaces, then the
    extra ones at $1 each the investigator can afford (digest 4.1 Move)."""
    extra = min(2, inv(state, seat).money)
    paid = f"; {extra} more at $1{' each' if extra > 1 else ''}" if extra else ""
    return f"Move (up to {plural(free_spaces(state, seat), 'space')}{paid})"


def codex_action_open(state: ArkhamState, seat: int, act: CodexAction) -> bool:
    """A codex action is offered in its places only, and only when it can do something ([ruling] an action
    that would change nothing is not offered): a seal not where a seal already is, a special card only while
    it is in the special pile, a cost paid with a card only to its holder."""
    i = inv(state, seat)
    here = i.space or ""
    places = act.places()
    if places is not None and here not in places and board.tile_of(state, here) not in places:
        return False
    for verb, arg in walk(act.effects):
        if verb == "seal" and (here in state.seals or board.is_street(here)):
            return False
        if verb == "special" and arg not in state.special_pile:
            return False
        if verb == "pay" and "card" in arg and not any(a.card == arg["card"] for a in i.assets):
            return False
    return True


#: the basic actions by the word `actions_used` records, with their names as players read them
ACTION_NAMES = {"move": "Move", "gather": "Gather Resources", "focus": "Focus", "research": "Research",
                "ward": "Ward", "attack": "Attack", "evade": "Evade", "trade": "Trade"}
#: the actions an engaged investigator cannot take (digest 4.1: engaged, only attack, evade and focus)
NOT_ENGAGED = ("move", "gather", "research", "ward", "trade")


def action_refusals(state: ArkhamState, seat: int, offered: set[str]) -> tuple[Unavailable, ...]:
    """Why each basic action not `offered` is closed, by the tests of `action_options`, shaped like its option
    (`(kind, None)`) so the command standing for it finds the reason."""
    i = inv(state, seat)
    used = set(i.actions_used)
    engaged = bool(board.restricting(state, seat))
    here = i.space or ""
    out = []
    for kind, title in ACTION_NAMES.items():
        if kind in offered:
            continue
        if kind in used:
            why = f"You already took the {title} action this round."
        elif engaged and kind in NOT_ENGAGED:
            why = "While a monster is engaged with you, you can only attack, evade or focus."
        elif kind == "attack" and not board.monsters_at(state, here):
            why = "No monster is on your space to attack."
        elif kind == "evade" and not board.engaged_with(state, seat):
            why = "No monster is engaged with you."
        elif kind == "focus":
            why = f"You hold {plural(len(i.focus), 'focus token')}, as many as you can."
        elif kind == "trade":
            why = "No other investigator is on your space to trade with."
        else:
            continue
        out.append(Unavailable(id=kind, label=title, data=(kind, None), why=why))
    return tuple(out)


@asks("action")
def ask_action(state: ArkhamState, frame: Frame) -> Prompt:
    seat = frame.owner
    opts = [Option(id=oid, label=label, data=data) for oid, label, data in action_options(state, seat)]
    closed = action_refusals(state, seat, {o.id for o in opts})
    opts.append(Option(id="end", label="End your turn", data=None, role="pass"))
    i = inv(state, seat)
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE,
                  title=f"{who(state, seat)}: choose an action ({state.actions_left} left)",
                  reason=f"In {board.space_name(state, i.space)}; ${i.money}, {plural(i.clues, 'clue')}, "
                  f"{i.damage} damage, {i.horror} horror", options=opts, default=["end"], unavailable=closed)


@answers("action")
def answer_action(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = frame.owner
    if answer.data is None:
        state.actions_left = 0
        push(state, "act", seat)
        return
    kind, arg = answer.data
    i = inv(state, seat)
    i.actions_used.append(answer.option.id)
    state.actions_left -= 1
    push(state, "act", seat)
    src = f"action.{kind}"
    if kind == "move":
        push(state, "move", seat, src)
    elif kind == "gather":
        ab = content(state).investigators[i.card].ability
        gain = 1 + (ab.param("money") if ab.kind == "income" else 0)
        i.money += gain
        say(events, f"{who(state, seat)} gathers resources: +${gain} (${i.money}).", "money", seat, src)
    elif kind == "focus":
        free = [s for s in SKILLS if s not in i.focus]
        pick(state, seat, "Focus which skill?", "Focus action", [(s, board.SKILL_NAMES[s], s) for s in free],
             "focus_gain", "skill", src, then_seat=seat, action=True)
    elif kind == "research":
        start_test(state, seat, "observation", 0, "research", src, "research_done")
    elif kind == "ward":
        start_test(state, seat, "lore", 0, "ward", src, "ward_done")
    elif kind == "attack":
        targets = board.monsters_at(state, i.space or "")
        pick(state, seat, "Attack which monster?", "Attack action",
             [(f"m{m.uid}", board.monster_label(state, m), m.uid) for m in targets], "attack_go", "uid", src,
             then_seat=seat)
    elif kind == "evade":
        mods = [board.monster_card(state, m).evade for m in board.engaged_with(state, seat)]
        start_test(state, seat, "observation", min(mods), "evade", src, "evade_done")
    elif kind == "trade":
        push(state, "trade", seat, src)
    elif kind == "comp":
        asset = i.assets[arg]
        asset.used = True
        card = content(state).assets[asset.card]
        assert card.action is not None
        say(events, f"{who(state, seat)} uses {card.name}: {card.action.text}", "component", seat, asset.card)
        run_effects(state, card.action.effects, ctx_for(state, seat, card=asset.card), asset.card)
        if card.horror_cost and i.remnants:
            push(state, "cast_cost", seat, asset.card, cost=card.horror_cost)
        elif card.horror_cost:
            suffer(state, seat, 0, card.horror_cost, False, asset.card)
    elif kind == "ability":
        ab = content(state).investigators[i.card].ability
        here = board.at(state, i.space or "")
        pick(state, seat, f"Who recovers {ab.param('amount')} {ab.param('what')}?", "Your ability",
             [(f"s{s}", who(state, s), s) for s in here], "mend", "target", src, then_seat=seat,
             what=ab.param("what"), amount=ab.param("amount"))
    elif kind == "codex":
        act = scenario(state).archive[arg].action
        assert act is not None
        say(events, f"{who(state, seat)}: {act.label}.", "component", seat, f"archive:{arg}")
        run_effects(state, act.effects, ctx_for(state, seat), f"archive:{arg}")


@asks("cast_cost")
def ask_cast_cost(state: ArkhamState, frame: Frame) -> Prompt:
    cost = frame.args["cost"]
    have = min(cost, inv(state, frame.owner).remnants)
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.AMOUNT,
                  title=f"Casting costs {cost} horror: how many remnants do you spend instead?",
                  reason="Remnants replace horror one for one", min_amount=0, max_amount=have,
                  default_amount=have)


@answers("cast_cost")
def answer_cast_cost(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    seat, cost = frame.owner, frame.args["cost"]
    spent = answer.amount
    inv(state, seat).remnants -= spent
    if spent:
        say(events, f"{who(state, seat)} spends {plural(spent, 'remnant')} to cast.", "remnants", seat, frame.source)
    if cost - spent:
        suffer(state, seat, 0, cost - spent, False, frame.source)


@auto("mend")
def run_mend(state: ArkhamState, frame: Frame, events: Events) -> None:
    target, what, amount = frame.args["target"], frame.args["what"], frame.args["amount"]
    if has_inv(state, target):
        run_effects(state, [{f"recover_{what}": amount}], ctx_for(state, target), "ability.mend")


# ---------------------------------------------------------------- move

def reachable(state: ArkhamState, seat: int, limit: int | None = None) -> dict[str, int]:
    """Spaces the Move action can end in, with the distance: up to 2 (+ abilities) plus up to 2 paid at $1
    each (or up to `limit` spaces); a space with a ready (non-elusive) or massive monster can be entered but
    not passed through, since it engages you and ends the move ([ruling] the engine takes the shortest route
    that avoids them)."""
    i = inv(state, seat)
    if limit is None:
        limit = free_spaces(state, seat) + min(2, i.money)
    g = graph(state)
    stops = {m.space for m in state.monsters if m.space and (board.has_kw(state, m, "massive") or (
        m.status == "ready" and not board.has_kw(state, m, "elusive")))}
    start = i.space or ""
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for s in frontier:
            if s in stops and s != start:
                continue
            for n in g.adj[s]:
                if n not in dist and dist[s] + 1 <= limit:
                    dist[n] = dist[s] + 1
                    nxt.append(n)
        frontier = nxt
    del dist[start]
    return dist


@asks("move")
def ask_move(state: ArkhamState, frame: Frame) -> Prompt:
    seat = frame.owner
    free = free_spaces(state, seat)
    near = reachable(state, seat)
    opts = []
    for space, d in sorted(near.items(), key=lambda kv: (kv[1], kv[0])):
        cost = max(0, d - free)
        danger = " (a monster waits there)" if board.monsters_at(state, space) else ""
        # what the move costs is said before it is paid
        opts.append(Option(id=space, label=f"{board.space_name(state, space)}: {plural(d, 'space')}"
                           f"{f', pay ${cost}' if cost else ''}{danger}", data=(space, cost)))
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE, title="Move where?",
                  reason="Up to 2 spaces, and up to 2 more at $1 each", options=opts,
                  default=[opts[0].id], unavailable=too_far(state, seat, near))


def too_far(state: ArkhamState, seat: int, near: dict[str, int]) -> tuple[Unavailable, ...]:
    """Why each space a longer Move would reach is out of this one's reach: how far it is, and how far this
    Move goes (the free spaces, then those the investigator's money pays for; digest 4.1 Move)."""
    free = free_spaces(state, seat)
    money = inv(state, seat).money
    extra = min(2, money)
    if extra:
        goes = f"{plural(free, 'space')} free and {extra} more at $1{' each' if extra > 1 else ''}"
    else:
        goes = f"{plural(free, 'space')}, and you have no money to pay for more"
    out = []
    for space, d in sorted(reachable(state, seat, free + 2 + len(graph(state).adj)).items(),
                           key=lambda kv: (kv[1], kv[0])):
        if space in near:
            continue
        where = board.space_name(state, space)
        out.append(Unavailable(id=space, label=f"{where}: {plural(d, 'space')}", data=(space, 0),
                               why=f"{where} is {plural(d, 'space')} away; this Move goes {goes}."))
    return tuple(out)


@answers("move")
def answer_move(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    space, cost = answer.data
    seat = frame.owner
    inv(state, seat).money -= cost
    if cost:
        say(events, f"{who(state, seat)} pays ${cost} to move further.", "money", seat, frame.source)
    move_investigator(state, seat, space, events, frame.source)


# ---------------------------------------------------------------- research, ward, attack, evade

@auto("research_done")
def run_research_done(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat, hits = frame.owner, frame.args["successes"]
    if has_inv(state, seat) and hits and inv(state, seat).clues:
        push(state, "place_clues", seat, frame.source, most=min(hits, inv(state, seat).clues))


@asks("place_clues")
def ask_place_clues(state: ArkhamState, frame: Frame) -> Prompt:
    most = frame.args["most"]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.AMOUNT,
                  title=f"Place how many of your clues on the scenario sheet? (up to {most})",
                  reason="Research: one clue per success", min_amount=0, max_amount=most,
                  default_amount=most)


@answers("place_clues")
def answer_place_clues(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    n = answer.amount
    if n:
        inv(state, frame.owner).clues -= n
        state.sheet_clues += n
        say(events, f"{who(state, frame.owner)} places {plural(n, 'clue')} on the scenario sheet "
            f"({state.sheet_clues}).", "sheet.clues", frame.owner, frame.source)
        push(state, "codex", None, "codex")


@auto("ward_done")
def run_ward_done(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat, hits = frame.owner, frame.args["successes"]
    if not has_inv(state, seat):
        return
    doom = state.doom.get(inv(state, seat).space or "", 0)
    if hits and doom:
        push(state, "ward_remove", seat, frame.source, most=min(hits, doom))


@asks("ward_remove")
def ask_ward_remove(state: ArkhamState, frame: Frame) -> Prompt:
    most = frame.args["most"]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.AMOUNT, title=f"Remove how much doom? (up to {most})",
                  reason="Ward: one doom per success; 2 or more gives a remnant", min_amount=0,
                  max_amount=most, default_amount=most)


@answers("ward_remove")
def answer_ward_remove(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = frame.owner
    gone = remove_doom(state, inv(state, seat).space or "", answer.amount, events, seat, frame.source)
    if gone >= 2:
        inv(state, seat).remnants += 1
        say(events, f"{who(state, seat)} gains 1 remnant.", "remnants", seat, frame.source)
    push(state, "codex", None, "codex")


@auto("attack_go")
def run_attack_go(state: ArkhamState, frame: Frame, events: Events) -> None:
    """Attack (digest 4.1): a monster not exhausted is engaged with you first (taken from another
    investigator in your space if need be, 12.3); an exhausted one stays exhausted."""
    seat = frame.owner
    m = board.find_monster(state, frame.args["uid"])
    if m is None or not has_inv(state, seat):
        return
    if m.status != "exhausted" and seat not in m.engaged:
        engage(state, m, seat, events)
    card = board.monster_card(state, m)
    start_test(state, seat, "strength", card.attack, "attack", frame.source, "attack_hit", {"uid": m.uid})


@auto("attack_hit")
def run_attack_hit(state: ArkhamState, frame: Frame, events: Events) -> None:
    m = board.find_monster(state, frame.args["uid"])
    if m is not None and frame.args["successes"]:
        hurt_monster(state, m, frame.args["successes"], frame.owner, events, frame.source)


@auto("evade_done")
def run_evade_done(state: ArkhamState, frame: Frame, events: Events) -> None:
    """Evade (digest 4.1): each success disengages one monster of your choice, exhausted in your space (a
    massive one is not exhausted); evading all of them gives one more action ([GAP] 12.2: an action not yet
    used this round)."""
    seat, hits = frame.owner, frame.args["successes"]
    if not has_inv(state, seat):
        return
    engaged = board.engaged_with(state, seat)
    if not hits or not engaged:
        say(events, f"{who(state, seat)} fails to get away.", "evade.failed", seat, frame.source)
        return
    if hits >= len(engaged):
        push(state, "evade_apply", seat, frame.source, uids=[m.uid for m in engaged], bonus=True)
        return
    push(state, "evade_pick", seat, frame.source, n=hits)


@asks("evade_pick")
def ask_evade_pick(state: ArkhamState, frame: Frame) -> Prompt:
    n = frame.args["n"]
    opts = [Option(id=f"m{m.uid}", label=board.monster_label(state, m), data=m.uid)
            for m in board.engaged_with(state, frame.owner)]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.MANY, title=f"Evade which {plural(n, 'monster')}?",
                  reason="One monster per success", options=opts, min_choices=n, max_choices=n,
                  default=[o.id for o in opts[:n]])


@answers("evade_pick")
def answer_evade_pick(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    push(state, "evade_apply", frame.owner, frame.source, uids=[o.data for o in answer.options], bonus=False)


@auto("evade_apply")
def run_evade_apply(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    space = inv(state, seat).space
    for uid in frame.args["uids"]:
        m = board.find_monster(state, uid)
        if m is None or seat not in m.engaged:
            continue
        m.engaged.remove(seat)
        if board.has_kw(state, m, "massive"):
            m.status = "engaged" if m.engaged else "ready"
            m.evaded.append(seat)
            state.after_evade = 0
        else:
            m.space, m.status, m.engaged = space, "exhausted", []
        say(events, f"{who(state, seat)} evades {board.monster_name(state, m)}.", "evaded", seat, frame.source)
    if frame.args["bonus"] and state.turn == seat:
        state.actions_left += 1
        say(events, f"{who(state, seat)} evaded every monster and may take 1 more action.", "evade.bonus", seat,
            frame.source)


# ---------------------------------------------------------------- trade

TRADEABLE = ("item", "ally", "spell")


@asks("trade")
def ask_trade(state: ArkhamState, frame: Frame) -> Prompt:
    seat = frame.owner
    others = [s for s in board.at(state, inv(state, seat).space or "") if s != seat]
    opts = [Option(id=f"s{s}", label=f"Trade with {who(state, s)}", data=s) for s in others]
    opts.append(Option(id="done", label="Done trading", data=None, role="pass"))
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE, title="Trade with whom?",
                  reason="Allies, items, spells, money, clues and remnants", options=opts,
                  default=["done"])


@answers("trade")
def answer_trade(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    if answer.data is not None:
        push(state, "trade", frame.owner, frame.source)
        push(state, "trade_with", frame.owner, frame.source, partner=answer.data)


@asks("trade_with")
def ask_trade_with(state: ArkhamState, frame: Frame) -> Prompt:
    seat, partner = frame.owner, frame.args["partner"]
    opts = [Option(id="done", label="Done", data=None)]
    for giver, taker, verb in ((seat, partner, "give"), (partner, seat, "take")):
        g = inv(state, giver)
        for k, word in (("money", "$1"), ("clues", "1 clue"), ("remnants", "1 remnant")):
            if getattr(g, k):
                opts.append(Option(id=f"{verb}-{k}", label=f"{verb.title()} {word}", data=(giver, taker, k)))
        for a in g.assets:
            card = content(state).assets[a.card]
            if card.kind in TRADEABLE:
                opts.append(Option(id=f"{verb}-{a.card}", label=f"{verb.title()} {card.name}",
                                   data=(giver, taker, a.card)))
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE, title=f"Trade with {who(state, partner)}",
                  reason="One thing at a time; Done when finished", options=opts, default=["done"])


@answers("trade_with")
def answer_trade_with(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    if answer.data is None:
        return
    giver, taker, what = answer.data
    g, t = inv(state, giver), inv(state, taker)
    if what in ("money", "clues", "remnants"):
        setattr(g, what, getattr(g, what) - 1)
        setattr(t, what, getattr(t, what) + 1)
        label = {"money": "$1", "clues": "a clue", "remnants": "a remnant"}[what]
    else:
        asset = next(a for a in g.assets if a.card == what)
        g.assets.remove(asset)
        t.assets.append(asset)  # a used asset stays used until the next action phase (12.8)
        label = content(state).assets[what].name
    say(events, f"{who(state, giver)} gives {label} to {who(state, taker)}.", "trade", frame.owner, frame.source)
    push(state, "trade_with", frame.owner, frame.source, partner=frame.args["partner"])


# ---------------------------------------------------------------- monster phase

@auto("monster_phase")
def run_monster_phase(state: ArkhamState, frame: Frame, events: Events) -> None:
    state.phase = "monster"
    state.activated = []
    say(events, "The monster phase.", "phase.monster")
    seq(state, [("activate_next", None, {}), ("attack_step", None, {}), ("ready_step", None, {}),
                ("codex", None, {}), ("phase_end", None, {"text": "The monster phase ends."})])


@auto("phase_end")
def run_phase_end(state: ArkhamState, frame: Frame, events: Events) -> None:
    say(events, frame.args["text"], "phase.ended", render=True)


def ready_to_activate(state: ArkhamState) -> list[Monster]:
    return [m for m in state.monsters if m.status == "ready" and m.space is not None and m.uid not in state.activated]


@auto("activate_next")
def run_activate_next(state: ArkhamState, frame: Frame, events: Events) -> None:
    ready = ready_to_activate(state)
    if not ready:
        return
    push(state, "activate_next")
    if len(ready) == 1:
        push(state, "activate", None, "rule.activation", uid=ready[0].uid)
    else:
        push(state, "activate_order", state.leader, "rule.activation")


@asks("activate_order")
def ask_activate_order(state: ArkhamState, frame: Frame) -> Prompt:
    ready = ready_to_activate(state)
    opts = [Option(id="listed", label="Activate them all in the listed order", data=[m.uid for m in ready])]
    opts += [Option(id=f"m{m.uid}", label=f"{board.monster_name(state, m)} in {board.space_name(state, m.space)} "
                    "first", data=[m.uid]) for m in ready]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.ONE, title="Which monster activates next?",
                  reason="The players choose the order of activation", options=opts, default=["listed"])


@answers("activate_order")
def answer_activate_order(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    seq(state, [("activate", None, {"uid": uid}) for uid in answer.data], "rule.activation")


@auto("activate")
def run_activate(state: ArkhamState, frame: Frame, events: Events) -> None:
    """Hunter: toward its prey (without one: the nearest investigator); patrol: toward the closest of its
    destinations; lurker: no movement. Ties are the investigators' to break (digest 4.2)."""
    m = board.find_monster(state, frame.args["uid"])
    if m is None or m.status != "ready" or m.space is None or m.uid in state.activated:
        return
    state.activated.append(m.uid)
    card = board.monster_card(state, m)
    act = card.activation
    say(events, f"{card.name} activates: {act.text}", "monster.activates", None, m.card)
    push(state, "monster_fx", None, m.card, uid=m.uid)
    if act.kind == "lurker":
        return
    g = graph(state)
    if act.kind == "hunter":
        if act.hunts:
            # its prey is whoever holds the card now (so it engages them in a crowded space), else nobody
            holder = card_holder(state, act.hunts)
            m.prey = holder
            if holder is not None:
                push(state, "monster_go", None, m.card, uid=m.uid, space=inv(state, holder).space)
                return
        if m.prey is not None and has_inv(state, m.prey):
            push(state, "monster_go", None, m.card, uid=m.uid, space=inv(state, m.prey).space)
            return
        from engine.arkham3.effects import choose_prey

        near = choose_prey(state, "nearest", None, m.space)
        pick(state, state.leader, f"{card.name} hunts: toward whom?", "Equally near investigators: you choose",
             [(f"s{s}", who(state, s), inv(state, s).space) for s in near], "monster_go", "space", m.card,
             uid=m.uid)
        return
    dests = patrol_targets(state, m, act.destination or "")
    if not dests:
        return
    here = m.space
    best = min(g.distance(here, d) for d in dests)
    closest = sorted(d for d in dests if g.distance(here, d) == best)
    pick(state, state.leader, f"{card.name} patrols: toward which space?", "Equally near destinations: you choose",
         [(d, g.names[d], d) for d in closest], "monster_go", "space", m.card, uid=m.uid)


def card_holder(state: ArkhamState, card: str) -> int | None:
    """The seat whose investigator holds that card, if one does."""
    for s in board.on_board(state):
        if any(a.card == card for a in inv(state, s).assets):
            return s
    return None


def patrol_targets(state: ArkhamState, m: Monster, dest: str) -> list[str]:
    g = graph(state)
    if dest == "sealed":
        return [s for s in state.seals if s in g.adj]
    if dest == "unstable":
        return board.unstable(state)
    if dest == "starting":
        return [scenario(state).sheet.start]
    if dest == "doom":
        return [s for s, n in state.doom.items() if n and s in g.adj]
    if dest == "clue":
        return [s for t, n in state.clues.items() if n for s in g.spaces_of(t)]
    if dest == "street":
        return [s for s in g.spaces if board.is_street(s)]
    return [dest] if dest in g.adj else []


@auto("monster_go")
def run_monster_go(state: ArkhamState, frame: Frame, events: Events) -> None:
    """Up to SPEED spaces along a shortest path, stopping on entering a space with an investigator; "moves
    directly" places it on the target (digest 4.2)."""
    m = board.find_monster(state, frame.args["uid"])
    target = frame.args["space"]
    if m is None or m.space is None or target is None or m.status != "ready":
        return
    card = board.monster_card(state, m)
    g = graph(state)
    start = m.space
    if card.activation.directly:
        m.space = target
    else:
        for _ in range(card.speed):
            if m.space == target:
                break
            m.space = g.step_toward(m.space, target)
            if board.at(state, m.space):
                break
    if m.space != start:
        say(events, f"{card.name} moves to {g.names[m.space]}.", "monster.moved", None, m.card, space=m.space)
    push(state, "engage_here", None, m.card, uid=m.uid, force=True)


@auto("monster_fx")
def run_monster_fx(state: ArkhamState, frame: Frame, events: Events) -> None:
    m = board.find_monster(state, frame.args["uid"])
    if m is None:
        return
    card = board.monster_card(state, m)
    if card.activation.effects:
        run_effects(state, card.activation.effects, {"seat": None, "space": board.monster_space(state, m),
                                                     "monster": m.uid, "card": ""}, m.card)


@auto("attack_step")
def run_attack_step(state: ArkhamState, frame: Frame, events: Events) -> None:
    """Monsters engaged with the leader attack first, then clockwise (digest 4.2); [GAP] 12.4: the attacked
    investigator chooses the order of their own monsters."""
    state.in_attack_step = True
    steps: list[tuple[str, int | None, dict[str, Any]]] = [("attacks_of", s, {"done": []})
                                                           for s in board.player_order(state)]
    steps.append(("attack_step_end", None, {}))
    seq(state, steps, "rule.attack")


@auto("attack_step_end")
def run_attack_step_end(state: ArkhamState, frame: Frame, events: Events) -> None:
    state.in_attack_step = False


@auto("attacks_of")
def run_attacks_of(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    if not has_inv(state, seat):
        return
    done = frame.args["done"]
    left = [m for m in board.engaged_with(state, seat) if m.uid not in done]
    if not left:
        return
    pick(state, seat, "Which monster attacks you first?", "You choose the order of your monsters' attacks",
         [(f"m{m.uid}", board.monster_label(state, m), m.uid) for m in left], "monster_attack", "uid",
         "rule.attack", then_seat=seat, done=done)


@auto("monster_attack")
def run_monster_attack(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat, uid = frame.owner, frame.args["uid"]
    push(state, "attacks_of", seat, "rule.attack", done=[*frame.args["done"], uid])
    m = board.find_monster(state, uid)
    if m is None or seat not in m.engaged or not has_inv(state, seat):
        return
    card = board.monster_card(state, m)
    say(events, f"{card.name} attacks {who(state, seat)}: {card.damage} damage, {card.horror} horror.",
        "monster.attacks", seat, m.card)
    if card.damage and "feed" in card.keywords and m.damage:
        healed = min(m.damage, card.damage)  # Feed: recovers the damage it deals (digest 6.1)
        m.damage -= healed
        say(events, f"{card.name} feeds and recovers {healed} health.", "monster.feeds", seat, m.card)
    suffer(state, seat, card.damage, card.horror, False, m.card)


@auto("ready_step")
def run_ready_step(state: ArkhamState, frame: Frame, events: Events) -> None:
    """Each exhausted monster readies and engages an investigator in its space (digest 4.2)."""
    readied = [m for m in state.monsters if m.status == "exhausted"]
    for m in readied:
        m.status = "ready"
    if readied:
        say(events, f"{plural(len(readied), 'monster')} {'is' if len(readied) == 1 else 'are'} ready.", "monster.ready")
    for m in reversed(readied):
        push(state, "engage_here", None, "rule.ready", uid=m.uid)


# ---------------------------------------------------------------- encounter phase

@auto("encounter_phase")
def run_encounter_phase(state: ArkhamState, frame: Frame, events: Events) -> None:
    state.phase = "encounter"
    say(events, "The encounter phase.", "phase.encounter")
    seq(state, [("next_encounter", None, {}), ("phase_end", None, {"text": "The encounter phase ends."})])


@auto("next_encounter")
def run_next_encounter(state: ArkhamState, frame: Frame, events: Events) -> None:
    for s in board.on_board(state):
        i = inv(state, s)
        if not i.encountered and board.restricting(state, s):
            i.encountered = True  # engaged: no encounter (a watcher does not stop one, digest 7)
            say(events, f"{who(state, s)} is engaged and has no encounter.", "encounter.none", s)
    waiting = [s for s in board.on_board(state) if not inv(state, s).encountered]
    if not waiting:
        return
    push(state, "next_encounter")
    if len(waiting) == 1:
        push(state, "encounter", waiting[0])
    else:
        push(state, "encounter_pick", None, "rule.order", seats=waiting)


@asks("encounter_pick")
def ask_encounter_pick(state: ArkhamState, frame: Frame) -> Prompt:
    seats = [s for s in frame.args["seats"] if has_inv(state, s)]
    opts = [Option(id=f"s{s}", label=f"{who(state, s)} ({state.seat_name(s)}) has the next encounter", data=s)
            for s in seats]
    return Prompt(seq=0, seats=seats, kind=PromptKind.ONE, title="Who has the next encounter?",
                  reason="The players choose the order", options=opts, default=[opts[0].id])


@answers("encounter_pick")
def answer_encounter_pick(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    push(state, "encounter", answer.data)


def anomaly_section(doom: int) -> str:
    """[GAP] anomaly sections: 0-1 doom in your space, 2, 3 or more."""
    return "low" if doom <= 1 else "mid" if doom == 2 else "high"


@auto("encounter")
def run_encounter(state: ArkhamState, frame: Frame, events: Events) -> None:
    """One encounter (digest 4.3): the street deck on a street (the section for its type), an anomaly card in
    a neighborhood with an anomaly (the section for the doom in your space), else the neighborhood's deck
    (the section for your space, or an event card's encounter). Only the text read aloud and the branch
    taken are told."""
    seat = frame.owner
    if not has_inv(state, seat):
        return
    i = inv(state, seat)
    i.encountered = True
    space = i.space or ""
    g = graph(state)
    c = content(state)
    state.clue_gained = False
    ctx = ctx_for(state, seat)
    if board.is_street(space):
        deck, card_id = "street", state.decks["street"].pop()
        section = getattr(c.streets[card_id], g.street_type[space])
        push(state, "encounter_end", seat, card_id, deck=deck, card=card_id, event=False, tile="")
        where = f"{g.names[space]} ({g.street_type[space]})"
    else:
        tile = g.tile_of[space]
        assert tile is not None
        if tile in state.anomalies:
            deck, card_id = "anomaly", state.decks["anomaly"].pop()
            part = anomaly_section(state.doom.get(space, 0))
            section = getattr(c.anomalies[card_id], part)
            push(state, "encounter_end", seat, card_id, deck=deck, card=card_id, event=False, tile=tile)
            where = f"the anomaly in {c.tiles[tile].name}"
        else:
            deck = f"enc:{tile}"
            if not state.decks[deck]:
                say(events, f"The {c.tiles[tile].name} deck is empty: no encounter.", "encounter.none", seat)
                return
            card_id = state.decks[deck].pop()
            events_of = scenario(state).events
            if card_id in events_of:
                section = events_of[card_id].encounter
                push(state, "encounter_end", seat, card_id, deck=deck, card=card_id, event=True, tile=tile)
                where = f"{g.names[space]}: {events_of[card_id].name}"
            else:
                section = c.encounters[tile][card_id].sections[space.split(".", 1)[1]]
                push(state, "encounter_end", seat, card_id, deck=deck, card=card_id, event=False, tile=tile)
                where = g.names[space]
    say(events, f"{who(state, seat)}'s encounter at {where}: {section.text}", "encounter", seat, card_id)
    run_effects(state, section.effects, ctx, card_id)


@auto("encounter_end")
def run_encounter_end(state: ArkhamState, frame: Frame, events: Events) -> None:
    """A normal card goes to the bottom of its deck; an event card goes to the event discard if its clue was
    gained (the unstable space changes), else back into the top 3 of its neighborhood deck (digest 4.3)."""
    a = frame.args
    if a["event"]:
        if state.clue_gained:
            state.event_discard.append(a["card"])
            say(events, "The event card goes to the event discard.", "event.discarded", frame.seat, a["card"])
        else:
            reseed(state, a["card"], a["tile"])
    else:
        state.decks[a["deck"]].insert(0, a["card"])
    state.clue_gained = False
    push(state, "codex", None, "codex")


# ---------------------------------------------------------------- mythos phase

@auto("mythos_phase")
def run_mythos_phase(state: ArkhamState, frame: Frame, events: Events) -> None:
    """Each seat, from the leader clockwise, draws 2 mythos tokens, one at a time, defeated seats too
    (digest 4.4, 12.12)."""
    state.phase = "mythos"
    say(events, "The mythos phase.", "phase.mythos")
    steps: list[tuple[str, int | None, dict[str, Any]]] = []
    for s in board.player_order(state):
        steps += [("mythos_draw", s, {}), ("mythos_draw", s, {})]
    steps.append(("phase_end", None, {"text": "The mythos phase ends."}))
    seq(state, steps, "rule.mythos")


@auto("mythos_draw")
def run_mythos_draw(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    if not state.cup:
        state.cup, state.cup_drawn = state.cup_drawn, []
        say(events, "The mythos cup is empty: every token in use goes back in.", "cup.refilled")
    token = state.cup.pop(state.rng.below(len(state.cup)))
    state.cup_drawn.append(token)
    say(events, f"{state.seat_name(seat)} draws a mythos token: {token.replace('_', ' ')}.", "mythos.token", seat,
        f"token.{token}", token=token)
    push(state, "codex", None, "codex")
    if token in ("spread_doom", "spawn_clue", "gate_burst"):
        push(state, token, seat, f"token.{token}")
    elif token == "spawn_monster":
        push(state, "spawn", seat, "token.spawn_monster")
    elif token == "headline":
        push(state, "headline", seat, "token.headline")
    elif token == "reckoning":
        push(state, "reckoning", None, "token.reckoning")


@auto("headline")
def run_headline(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    from engine.arkham3.effects import add_sheet_doom

    deck = state.decks["headline"]
    if not deck:
        say(events, "The headline deck is empty: 1 doom goes on the scenario sheet instead.", "headline.empty")
        add_sheet_doom(state, 1, events, "token.headline")
        return
    card_id = deck.pop()
    state.headline_discard.append(card_id)
    card = content(state).headlines[card_id]
    say(events, f"Headline: {card.name}. {card.text}", "headline", seat, card_id)
    run_effects(state, card.effects, ctx_for(state, seat), card_id)


def reckoning_sources(state: ArkhamState) -> list[tuple[str, str]]:
    """(key, label) of every component in play with a reckoning effect (digest 4.4)."""
    c = content(state)
    pack = scenario(state)
    out = []
    for n in state.codex:
        if pack.archive[n].reckoning:
            out.append((f"codex:{n}", f"Archive card {n}, {pack.archive[n].name}"))
    for m in state.monsters:
        if board.monster_card(state, m).reckoning:
            out.append((f"monster:{m.uid}", board.monster_name(state, m)))
    for s in board.player_order(state):
        if not has_inv(state, s):
            continue
        i = inv(state, s)
        for copy, face in i.conditions.items():
            card = c.conditions[copy]
            side = card.front if face == "front" else card.blessed if face == "blessed" else card.cursed
            if side is not None and side.reckoning:
                out.append((f"cond:{s}:{copy}", f"{who(state, s)}'s {face.replace('front', 'dark pact')}"))
        for a in i.assets:
            if c.assets[a.card].reckoning:
                out.append((f"asset:{s}:{a.card}", f"{who(state, s)}'s {c.assets[a.card].name}"))
    return out


@auto("reckoning")
def run_reckoning(state: ArkhamState, frame: Frame, events: Events) -> None:
    sources = reckoning_sources(state)
    if not sources:
        say(events, "Reckoning: nothing in play has a reckoning effect.", "reckoning")
        return
    say(events, "Reckoning!", "reckoning")
    push(state, "reckoning_next", None, "token.reckoning", pending=[k for k, _ in sources])


@auto("reckoning_next")
def run_reckoning_next(state: ArkhamState, frame: Frame, events: Events) -> None:
    live = dict(reckoning_sources(state))
    pending = [k for k in frame.args["pending"] if k in live]
    pick(state, state.leader, "Which reckoning resolves next?", "The players choose the order",
         [(k, live[k], k) for k in pending], "reckoning_one", "key", "token.reckoning", pending=pending)


@auto("reckoning_one")
def run_reckoning_one(state: ArkhamState, frame: Frame, events: Events) -> None:
    key = frame.args["key"]
    rest = [k for k in frame.args["pending"] if k != key]
    if rest:
        push(state, "reckoning_next", None, "token.reckoning", pending=rest)
    kind, _, rest_key = key.partition(":")
    c = content(state)
    if kind == "codex":
        n = int(rest_key)
        run_effects(state, scenario(state).archive[n].reckoning, ctx_for(state, None), f"archive:{n}")
    elif kind == "monster":
        m = board.find_monster(state, int(rest_key))
        if m is not None:
            run_effects(state, board.monster_card(state, m).reckoning,
                        {"seat": None, "space": board.monster_space(state, m), "monster": m.uid, "card": ""}, m.card)
    elif kind == "cond":
        s, copy = rest_key.split(":", 1)
        seat = int(s)
        if has_inv(state, seat) and copy in inv(state, seat).conditions:
            face = inv(state, seat).conditions[copy]
            card = c.conditions[copy]
            side = card.front if face == "front" else card.blessed if face == "blessed" else card.cursed
            assert side is not None
            run_effects(state, side.reckoning, ctx_for(state, seat, card=copy), copy)
    else:
        s, card_id = rest_key.split(":", 1)
        if has_inv(state, int(s)):
            run_effects(state, c.assets[card_id].reckoning, ctx_for(state, int(s), card=card_id), card_id)
