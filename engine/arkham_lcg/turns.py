"""The investigation phase: turns and the actions of a turn (digest A.2 step 2, A.4, §4).

A turn is a menu the investigator answers until they end it or have nothing left to do: the basic actions
(investigate, move, draw, resource, engage, fight, evade, play, activate), free things (fast cards and fast
abilities, spending clues on the act). Taking an action: pay its cost (1 action, or the ability's), then
attacks of opportunity from every ready engaged enemy unless the action is a fight, evade, parley or resign
(digest §4.1), then resolve it. An ability or event with an action designator *is* that action (FAQ Q: bold
action designators), so a fight ability provokes nothing.

The investigators choose who takes the next turn: the lead asks when more than one has yet to act [FAQ §1.5:
the lead settles group decisions].
"""

from __future__ import annotations

from typing import Any

from engine.arkham_lcg import board
from engine.arkham_lcg.effects import attack_targets
from engine.arkham_lcg.enemies import attacks_of_opportunity
from engine.arkham_lcg.ops import FLOW, Events, answers, asks, auto, option, pick, push, say, step
from engine.arkham_lcg.phases import can_advance_act, pw_step, window_step
from engine.arkham_lcg.state import LcgState
from engine.arkham_lcg.triggers import (
    SKILL_NOT_PLAYED,
    abilities,
    can_pay_cost,
    closed_card,
    cost_refusal,
    ctx_for,
    fast_options,
    shared_cards,
    too_dear,
    use_step,
)
from engine.core.events import PHASE_STARTED, TURN_ENDED, TURN_STARTED
from engine.core.flow import Answer, Frame, Step
from engine.core.prompt import Option, Prompt, PromptKind, Unavailable
from engine.core.text import plural

NO_AOO = frozenset({"fight", "evade", "parley", "resign"})
#: the basic actions a `cannot` modifier takes away (vocab.RESTRICTIONS); playing a card is `play`
BLOCKED_BY = {"investigate": "investigate", "move": "move", "draw": "draw", "resource": "gain_resources",
              "fight": "fight", "evade": "evade"}
END = "end"


@auto("investigation")
def run_investigation(state: LcgState, frame: Frame, events: Events) -> None:
    if state.scenario is None or state.scenario.resolution is not None:
        return
    state.phase = "investigation"
    say(events, f"Round {state.round} — Investigation phase.", PHASE_STARTED, None, "rules", phase="investigation")
    FLOW.push_steps(state, [window_step("investigation.start"), pw_step("start of the investigation phase"),
                            Step(op="next_turn", source="rules")])


@auto("next_turn")
def run_next_turn(state: LcgState, frame: Frame, events: Events) -> None:
    if board.scen(state).resolution is not None:
        return
    waiting = [s for s in board.order(state) if not state.invs[s].took_turn]
    if not waiting:
        state.turn = None
        FLOW.push_steps(state, [window_step("investigation.end"),
                                Step(op="phase_end", source="rules", args={"phase": "investigation"})])
        return
    push(state, "next_turn", None, "rules")
    pick(state, board.lead(state), "Who takes the next turn?", "The investigators choose; the lead decides",
         [(f"s{s}", state.seat_name(s), s) for s in waiting], "start_turn", "who", "rules")


@auto("start_turn")
def run_start_turn(state: LcgState, frame: Frame, events: Events) -> None:
    seat = frame.args["who"]
    if not board.playing(state, seat):
        return
    state.turn = seat
    i = state.invs[seat]
    board.sync_actions(state, seat)  # a card that entered or left play since upkeep
    say(events, f"{state.seat_name(seat)}'s turn ({board.idef(state, seat).name}, at "
        f"{board.loc_name(state, i.location)}).", TURN_STARTED, seat, "rules")
    FLOW.push_steps(state, [window_step("turn.start", seat), Step(op="turn", seat=seat, source="rules"),
                            Step(op="end_turn", seat=seat, source="rules")])


@auto("end_turn")
def run_end_turn(state: LcgState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    i = state.invs[seat]
    i.took_turn = True
    i.bonus_actions = []  # additional actions last for the turn
    i.lasting = [m for m in i.lasting if m.get("end") != "turn"]
    for c in state.cards.values():
        if c.used:
            c.used = {k: v for k, v in c.used.items() if not k.startswith("turn:")}
    state.turn = None
    from engine.arkham_lcg.enemies import engage_all

    say(events, f"{state.seat_name(seat)}'s turn ends.", TURN_ENDED, seat, "rules", render=True)
    engage_all(state)  # after every turn, an eliminated investigator's too (Rules Reference, Engagement)
    if board.playing(state, seat):
        push(state, "window", seat, "rules", window=window_step("turn.end", seat).args["window"])


# ---------------------------------------------------------------- the menu

def playable(state: LcgState, seat: int) -> list[int]:
    """Cards in hand `seat` may play with an action now: assets and events it can afford whose condition holds
    (fast cards with a window are played in that window, not here)."""
    i = state.invs[seat]
    out: list[int] = []
    if board.forbidden(state, seat, "play"):
        return out
    for uid in i.hand:
        c = board.content(state).player.get(state.cards[uid].code)
        if c is None or c.type not in ("asset", "event") or c.weakness or c.cost is None:
            continue
        if c.fast or c.play_window or i.resources < c.cost:
            continue
        if c.unique and unique_in_play(state, c.name):
            continue
        if not board.holds(state, {"seat": seat, "src": uid}, c.play_if):
            continue
        if c.action == "fight" and not attack_targets(state, seat):
            continue
        if c.action == "evade" and not board.engaged(state, seat):
            continue
        if c.action in ("fight", "evade", "investigate") and board.forbidden(state, seat, c.action):
            continue
        out.append(uid)
    return out


def unique_in_play(state: LcgState, name: str) -> bool:
    """A unique card (by title) already in play anywhere: a second copy cannot enter play [BG, decided]."""
    for i in state.invs:
        for uid in i.play:
            if board.cdef(state, uid).name == name and getattr(board.cdef(state, uid), "unique", False):
                return True
    return False


def action_abilities(state: LcgState, seat: int,
                     closed: list[Unavailable] | None = None) -> list[tuple[int, Any]]:
    """Action abilities `seat` may activate: on cards it controls, its threat area, its location (revealed) and
    that location's attachments, enemies there. Given `closed`, those whose cost cannot be paid now are added
    to it with why (an ability used up this round, a card exhausted, resources short)."""
    i = state.invs[seat]
    s = board.scen(state)
    uids = [i.uid, *i.play, *shared_cards(state, seat)]
    if i.location is not None:
        loc = s.locations.get(i.location)
        if loc is not None and loc.revealed:
            uids.append(loc.uid)
        uids += s.attachments.get(i.location, [])
        uids += [e.uid for e in board.enemies_at(state, i.location)]
    out = []
    for uid in uids:
        for ab in abilities(state, uid):
            if ab.kind != "action":
                continue
            if not can_pay_cost(state, seat, uid, ab, in_turn=True):
                why = cost_refusal(state, seat, uid, ab, in_turn=True) if closed is not None else None
                if why is not None and closed is not None:
                    closed.append(Unavailable(
                        id=f"ab:{uid}:{ab.id}", label=f"{board.name(state, uid)}: {ab.text}", why=why,
                        data={"kind": ab.type or "activate", "steps": [{"op": "use_ability", "args": {"uid": uid}}]}))
                continue
            if not board.holds(state, ctx_for(state, seat, uid), ab.condition):
                continue
            if ab.type == "fight" and not attack_targets(state, seat):
                continue
            if ab.type == "evade" and not board.engaged(state, seat):
                continue
            if ab.type in ("fight", "evade", "investigate") and board.forbidden(state, seat, ab.type):
                continue
            out.append((uid, ab))
    return out


def provoked(state: LcgState, seat: int) -> str:
    """What taking an action that provokes costs now, said on the option before it is chosen ("; provokes 2
    attacks: 3 damage, 1 horror"): one attack of opportunity from each ready engaged enemy (Rules Reference,
    Attack of Opportunity); "" when none would attack."""
    ready = [board.edef(state, e.uid) for e in board.engaged(state, seat) if not e.exhausted]
    if not ready:
        return ""
    damage, horror = sum(d.damage for d in ready), sum(d.horror for d in ready)
    harm = ", ".join(f"{n} {what}" for n, what in ((damage, "damage"), (horror, "horror")) if n) or "no harm"
    return f"; provokes {plural(len(ready), 'attack')}: {harm}"


def menu(state: LcgState, seat: int, closed: list[Unavailable] | None = None) -> list[Option]:
    """The turn's options; given `closed`, the action abilities whose cost cannot be paid are added to it."""
    i = state.invs[seat]
    s = board.scen(state)
    opts: list[Option] = []
    aoo = provoked(state, seat)

    def action(oid: str, label: str, kind: str, steps: list[Step], detail: str = "",
               pre: list[Step] | None = None, private: bool = False) -> None:
        if i.actions <= 0 and kind not in i.bonus_actions:
            return
        if kind in BLOCKED_BY and board.forbidden(state, seat, BLOCKED_BY[kind]):
            return  # a "cannot" in force: the action is not offered at all
        if kind not in NO_AOO:
            label += aoo
        opts.append(option(oid=oid, label=label, detail=detail, data={"kind": kind, "cost": 1, "steps": steps,
                                                                     "pre": pre or []}, private=private))

    if (i.actions > 0 or i.bonus_actions) and i.location is not None:
        here = i.location
        action("investigate", f"Investigate {board.loc_name(state, here)} (shroud {board.shroud(state, here)}, "
               f"{board.counted(s.locations[here].clues, 'clue')})", "investigate",
               [step(op="effects", seat=seat, source="investigate", args={"effects": [{"investigate": True}],
                                                                          "ctx": {"seat": seat}})])
        for c in board.connections(state, here):
            seen = "" if s.locations[c].revealed else " (unrevealed)"
            action(f"move:{c}", f"Move to {board.loc_name(state, c)}{seen}", "move",
                   [step(op="move_inv", seat=seat, source="move", args={"to": c})])
        action("draw", "Draw 1 card", "draw", [step(op="draw", seat=seat, source="draw action", args={"n": 1})])
        action("resource", "Gain 1 resource", "resource",
               [step(op="effects", seat=seat, source="resource action",
                     args={"effects": [{"resources": 1}], "ctx": {"seat": seat}})])
        mine = {e.uid for e in board.engaged(state, seat)}
        for e in board.enemies_at(state, here):
            if e.uid not in mine and not board.is_massive(state, e):
                action(f"engage:{e.uid}", f"Engage {board.name(state, e.uid)}", "engage",
                       [step(op="engage_with", seat=seat, source="engage", args={"uid": e.uid, "seat": seat,
                                                                               "force": True})])
        for uid in attack_targets(state, seat):
            e = s.enemies[uid]
            action(f"fight:{uid}", f"Fight {board.name(state, uid)} (fight {board.enemy_fight(state, e)}, "
                   f"{e.health - e.damage} health left)", "fight",
                   [step(op="fight_start", seat=seat, source="fight", args={"uid": uid, "arg": {}})])
        for e in board.engaged(state, seat):
            action(f"evade:{e.uid}", f"Evade {board.name(state, e.uid)} (evade {board.enemy_evade(state, e)})",
                   "evade", [step(op="evade_start", seat=seat, source="evade", args={"uid": e.uid, "arg": {}})])
        for uid in playable(state, seat):
            pc = board.pdef(state, uid)
            cost = board.counted(pc.cost or 0, "resource")
            action(f"play:{uid}", f"Play {board.name(state, uid)} ({cost})", pc.action or "play",
                   [step(op="play_card", seat=seat, source=pc.id, args={"uid": uid, "ctx": {}, "paid": True})],
                   pc.text, pre=[step(op="pay_card", seat=seat, source=pc.id, args={"uid": uid})], private=True)
    for uid, ab in action_abilities(state, seat, closed):
        kind = ab.type or "activate"
        steps = [use_step(seat, uid, ab, ctx_for(state, seat, uid), board.current_code(state, uid))]
        if ab.type == "resign":
            steps.append(step(op="defeat", seat=seat, source="resign", args={"how": "resigned"}))
        cost = ab.cost.actions
        label = f"{board.name(state, uid)}: {ab.text}" + (aoo if cost and kind not in NO_AOO else "")
        opts.append(option(oid=f"ab:{uid}:{ab.id}", label=label, data={"kind": kind, "cost": 0, "paid": cost,
                                                                       "steps": steps}))
    if can_advance_act(state):
        a = board.act(state)
        assert a is not None
        opts.append(option(oid="act", label=f"Spend clues to advance the act ({a.name})",
                           data={"kind": "free", "cost": 0, "steps": [step(op="spend_act_clues", seat=seat,
                                                                            source="act")]}))
    for oid, label, fast in fast_options(state, seat, in_turn=True):
        in_hand = oid.startswith("p") and oid[1:].isdigit()  # a fast card played from hand
        opts.append(option(oid=oid, label=label, data={"kind": "free", "cost": 0, "steps": [fast]}, private=in_hand))
    return opts


def unplayable(state: LcgState, seat: int, offered: set[int]) -> tuple[Unavailable, ...]:
    """Why each card in hand the menu does not offer to play cannot be played now, by the tests `playable`
    and `fast_options` make, in a few words; shaped like a play option (a `play_card` step with the card's
    uid) so `/lcg play` finds the reason. Private: they name cards in the hand."""
    i = state.invs[seat]
    out = []
    for uid in i.hand:
        if uid in offered:
            continue
        c = board.content(state).player.get(state.cards[uid].code)
        if c is None:
            continue
        name = board.name(state, uid)
        dear = too_dear(state, seat, uid)
        if c.type == "skill":
            why = SKILL_NOT_PLAYED
        elif c.weakness or c.cost is None or c.type not in ("asset", "event"):
            why = f"{name} is not a card you play."
        elif board.forbidden(state, seat, "play"):
            why = "A card in play forbids you to play cards now."
        elif dear is not None:
            why = dear
        elif c.unique and unique_in_play(state, c.name):
            why = f"{c.name} is unique and already in play."
        elif c.play_window:
            why = f"{name} is played only at the moment its text names."
        elif c.fast:
            why = f"{name} is fast, and has nothing to do now."
        elif i.actions <= 0 and (c.action or "play") not in i.bonus_actions:
            why = "You have no actions left this turn."
        elif c.action == "fight" and not attack_targets(state, seat):
            why = f"{name} needs an enemy you can attack."
        elif c.action == "evade" and not board.engaged(state, seat):
            why = f"{name} needs an enemy engaged with you."
        else:
            why = f"{name} cannot be played now: its condition for play is not met."
        out.append(closed_card(state, uid, why))
    return tuple(out)


@asks("turn")
@board.reading
def ask_turn(state: LcgState, frame: Frame) -> Prompt:
    seat = frame.owner
    i = state.invs[seat]
    spent: list[Unavailable] = []
    opts = menu(state, seat, spent)
    closed = (*unplayable(state, seat, {uid for o in opts if (uid := _played(o)) is not None}), *spent)
    opts.append(option(oid=END, label="End your turn", data=None, role="pass"))
    # The turn is asked in the open (your partners see your options); the options that name cards in your
    # hand are yours alone to see (`Option.private`), and front ends open them privately.
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE,
                  title=f"Your turn: {i.actions} action{'s' if i.actions != 1 else ''} left",
                  reason="Investigation phase: take actions, then end your turn", options=opts, default=[END],
                  unavailable=closed)


def _played(offered: Option) -> int | None:
    """The hand card a menu option plays (its `play_card` step), if any."""
    for one in offered.data["steps"] if isinstance(offered.data, dict) else ():
        if one.op == "play_card":
            uid = one.args.get("uid")
            return uid if isinstance(uid, int) else None
    return None


@answers("turn")
def answer_turn(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = answer.seat
    chosen = answer.data
    if chosen is None:
        return
    i = state.invs[seat]
    push(state, "turn", seat, "rules")
    steps: list[Step] = list(chosen["steps"])
    kind = chosen["kind"]
    spent = chosen["cost"] + chosen.get("paid", 0)
    if kind in i.bonus_actions and (chosen["cost"] or chosen.get("paid")):
        i.bonus_actions.remove(kind)  # FAQ §1.10: the first action that qualifies uses the additional action
        if chosen.get("paid"):
            for one in chosen["steps"]:
                if one.op == "use_ability":
                    one.args["bonus_used"] = 1
    else:
        i.actions -= chosen["cost"]
    # A.4: costs (an action, the card's resources) are paid, then attacks of opportunity, then the action
    if kind != "free" and spent and kind not in NO_AOO:
        steps = [*attacks_of_opportunity(state, seat), *steps]
    steps = [*chosen.get("pre", []), *steps]
    if kind != "free":  # a test begun during this action that had to wait starts once the action is over
        steps.append(Step(op="release_tests", seat=seat, source="rules"))
    steps.append(Step(op="sync_actions", seat=seat, source="rules"))
    FLOW.push_steps(state, steps)


@auto("sync_actions")
def run_sync_actions(state: LcgState, frame: Frame, events: Events) -> None:
    """After each thing done in a turn: an `actions` modifier that came or went with it counts now."""
    if board.playing(state, frame.owner):
        board.sync_actions(state, frame.owner)


@board.reading
def skip_turn_if_idle(state: LcgState, frame: Frame) -> bool:
    """A turn with no action left and nothing free to do ends by itself (no question)."""
    seat = frame.owner
    i = state.invs[seat]
    return i.actions == 0 and not i.bonus_actions and len(menu(state, seat)) == 0
