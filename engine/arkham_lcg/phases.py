"""The round (digest A.2): mythos, investigation, enemy and upkeep phases, each with its "begins" and "ends"
windows and its player windows; encounter draws; the doom threshold and the act's clue threshold.

Decisions recorded in docs/arkham_lcg.md:
* Round 1 skips the mythos phase (A.1 step 6).
* Doom placed outside step 1.2 waits for the next mythos check (digest §3); the check counts doom on the agenda
  and on every card in play.
* The investigators spend clues on the act as a group, during any turn (a free choice in the turn menu); the
  clues come first from the investigator taking the turn, then from the others in player order [decision].
* An empty encounter deck: its discard pile is shuffled to form a new one [BG].
"""

from __future__ import annotations

from engine.arkham_lcg import board
from engine.arkham_lcg.enemies import engage_all, movers
from engine.arkham_lcg.ops import FLOW, Events, auto, push, say, step
from engine.arkham_lcg.state import LcgState
from engine.core import windows
from engine.core.events import PHASE_ENDED, PHASE_STARTED
from engine.core.flow import Frame, Step


def window_step(event: str, seat: int | None = None, **data: object) -> Step:
    return step(op="window", seat=seat, source="rules", args={
        "window": windows.Window(timing="after", event=event, data={"seat": seat, **data}).model_dump(),
        "used": [], "passed": []})


def pw_step(why: str, seats: list[int] | None = None) -> Step:
    return step(op="pw", seat=None, source="rules", args={"seats": seats or [], "why": why})


@auto("round")
def run_round(state: LcgState, frame: Frame, events: Events) -> None:
    if state.scenario is None or state.scenario.resolution is not None:
        return
    state.round += 1
    steps = [Step(op="mythos", source="rules")] if state.round > 1 else []
    steps += [Step(op="investigation", source="rules"), Step(op="enemy_phase", source="rules"),
              Step(op="upkeep", source="rules"), Step(op="round", source="rules")]
    FLOW.push_steps(state, steps)


# ---------------------------------------------------------------- 1. mythos

@auto("mythos")
def run_mythos(state: LcgState, frame: Frame, events: Events) -> None:
    state.phase = "mythos"
    say(events, f"Round {state.round} — Mythos phase.", PHASE_STARTED, None, "rules", phase="mythos")
    steps = [window_step("mythos.start"), Step(op="mythos_doom", source="rules"),
             Step(op="agenda_check", source="rules")]
    steps += [Step(op="encounter_draw", seat=s, source="mythos") for s in board.order(state)]
    steps += [pw_step("end of the mythos phase"), window_step("mythos.end"),
              Step(op="phase_end", source="rules", args={"phase": "mythos"})]
    FLOW.push_steps(state, steps)


@auto("phase_end")
def run_phase_end(state: LcgState, frame: Frame, events: Events) -> None:
    name = frame.args["phase"]
    for i in state.invs:
        i.lasting = [m for m in i.lasting if m.get("end") != "phase"]
    # a "once per phase" limit lasts until its phase ends, not until the round does (Rules Reference, Limits)
    for c in state.cards.values():
        if c.used:
            c.used = {k: v for k, v in c.used.items() if not k.startswith("phase:")}
    say(events, f"The {name} phase ends.", PHASE_ENDED, None, "rules", render=True, phase=name)


@auto("mythos_doom")
def run_mythos_doom(state: LcgState, frame: Frame, events: Events) -> None:
    ag = board.agenda(state)
    if ag is None or ag.skip_mythos_doom:
        return
    s = board.scen(state)
    s.agenda_doom += 1
    say(events, f"1 doom is placed on {ag.name} ({board.doom_in_play(state)}/{ag.doom}).", "doom.mythos", None,
        ag.id)


@auto("agenda_check")
def run_agenda_check(state: LcgState, frame: Frame, events: Events) -> None:
    ag = board.agenda(state)
    if ag is not None and board.doom_in_play(state) >= ag.doom:
        push(state, "advance_agenda", None, ag.id)


@auto("advance_agenda")
def run_advance_agenda(state: LcgState, frame: Frame, events: Events) -> None:
    s = board.scen(state)
    ag = board.agenda(state)
    if ag is None:
        return
    s.agenda_doom = 0
    for e in s.enemies.values():
        e.doom = 0
    for loc in s.locations.values():
        loc.doom = 0
    for c in state.cards.values():
        if c.zone in ("play", "threat", "attached"):
            c.doom = 0
    s.agenda_deck.pop(0)
    board.sync_act_agenda(state)
    say(events, f"The agenda advances: {ag.name}. {ag.story}".strip(), "agenda.advanced", None, ag.id, render=True)
    steps = [window_step("agenda.advanced")]
    if ag.advance:
        steps.insert(0, Step(op="effects", seat=None, source=ag.id,
                             args={"effects": ag.advance, "ctx": {"seat": board.lead(state)}}))
    if not s.agenda_deck:
        steps.append(Step(op="end_scenario", source=ag.id, args={"resolution": "none"}))
    FLOW.push_steps(state, steps)


@auto("advance_act")
def run_advance_act(state: LcgState, frame: Frame, events: Events) -> None:
    s = board.scen(state)
    a = board.act(state)
    if a is None:
        return
    s.act_deck.pop(0)
    board.sync_act_agenda(state)
    say(events, f"The act advances: {a.name}. {a.story}".strip(), "act.advanced", frame.seat, a.id, render=True)
    steps = [window_step("act.advanced", frame.seat)]
    if a.advance:
        steps.insert(0, Step(op="effects", seat=frame.seat, source=a.id,
                             args={"effects": a.advance, "ctx": {"seat": frame.seat if frame.seat is not None
                                                                 else board.lead(state)}}))
    FLOW.push_steps(state, steps)


def act_clues_needed(state: LcgState) -> int:
    a = board.act(state)
    if a is None or a.clues == 0:
        return 0
    return a.clues * (len(board.order(state)) if a.clues_per_investigator else 1)


def can_advance_act(state: LcgState) -> bool:
    need = act_clues_needed(state)
    return need > 0 and sum(state.invs[s].clues for s in board.order(state)) >= need


@auto("spend_act_clues")
def run_spend_act_clues(state: LcgState, frame: Frame, events: Events) -> None:
    need = act_clues_needed(state)
    if not can_advance_act(state):
        return
    payers = [frame.owner] + [s for s in board.order(state) if s != frame.owner]
    left = need
    for s in payers:
        k = min(left, state.invs[s].clues)
        state.invs[s].clues -= k
        left -= k
    say(events, f"The investigators spend {board.counted(need, 'clue')} to advance the act.", "act.clues",
        frame.owner, "act")
    push(state, "advance_act", frame.owner, "act")


# ---------------------------------------------------------------- encounter draws

@auto("encounter_draw")
def run_encounter_draw(state: LcgState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    s = board.scen(state)
    if not board.playing(state, seat) or s.resolution is not None:
        return
    if not s.encounter_deck:
        if not s.encounter_discard:
            return
        s.encounter_deck = list(s.encounter_discard)
        s.encounter_discard = []
        for uid in s.encounter_deck:
            state.cards[uid].zone = "encounter_deck"
        state.rng.shuffle(s.encounter_deck)
        say(events, "The encounter deck is empty: its discard pile is shuffled into a new deck.",
            "encounter.reshuffle", None, "rules")
    uid = s.encounter_deck.pop()
    card = state.cards[uid]
    card.zone = "limbo"
    c = board.content(state)
    code = card.code
    steps: list[Step] = []
    if code in c.enemies:
        d = c.enemies[code]
        say(events, f"{state.seat_name(seat)} draws {d.name} (enemy: fight {d.fight}, evade {d.evade}, health "
            f"{d.health}{'/investigator' if d.health_per_investigator else ''}).", "encounter.enemy", seat, code)
        if d.revelation:
            steps.append(Step(op="effects", seat=seat, source=code, args={"effects": d.revelation,
                                                                          "ctx": {"seat": seat, "src": uid}}))
        steps.append(Step(op="spawn", seat=seat, source=code, args={"uid": uid, "at": None}))
        surge = d.surge
    else:
        t = c.treacheries[code]
        say(events, f"{state.seat_name(seat)} draws {t.name}: {t.text}", "encounter.treachery", seat, code)
        body = Step(op="revelation", seat=seat, source=code, args={"uid": uid})
        surge = t.surge
        push(state, "encounter_after", seat, code, uid=uid, surge=surge)
        windows.around(FLOW, state, "treachery.drawn", body, data={"seat": seat, "card": uid}, seat=seat, source=code)
        return
    steps.append(Step(op="encounter_after", seat=seat, source=code, args={"uid": uid, "surge": surge}))
    FLOW.push_steps(state, steps)


@auto("revelation")
def run_revelation(state: LcgState, frame: Frame, events: Events) -> None:
    uid = frame.args["uid"]
    t = board.content(state).treacheries[state.cards[uid].code]
    push(state, "effects", frame.owner, t.id, effects=t.revelation, ctx={"seat": frame.owner, "src": uid})


@auto("encounter_after")
def run_encounter_after(state: LcgState, frame: Frame, events: Events) -> None:
    """A treachery that did not stay in play goes to the encounter discard pile; surge draws again."""
    uid = frame.args["uid"]
    card = state.cards[uid]
    s = board.scen(state)
    if card.zone == "limbo":
        card.zone = "encounter_discard"
        s.encounter_discard.append(uid)
    if frame.args["surge"] and board.playing(state, frame.owner):
        say(events, "Surge: another encounter card is drawn.", "surge", frame.owner, card.code)
        push(state, "encounter_draw", frame.owner, card.code)
    push(state, "window", frame.owner, card.code, window=windows.Window(
        timing="after", event="encounter.drawn", data={"seat": frame.owner, "card": uid}))


# ---------------------------------------------------------------- 3. enemy

@auto("enemy_phase")
def run_enemy_phase(state: LcgState, frame: Frame, events: Events) -> None:
    if state.scenario is None or state.scenario.resolution is not None:
        return
    state.phase = "enemy"
    state.turn = None
    say(events, f"Round {state.round} — Enemy phase.", PHASE_STARTED, None, "rules", phase="enemy")
    steps = [window_step("enemy.start")]
    steps += [Step(op="hunt", source="rules", args={"uid": uid}) for uid in movers(state)]
    steps += [pw_step("after enemies move"), Step(op="enemy_attacks", source="rules"), window_step("enemy.end"),
              Step(op="phase_end", source="rules", args={"phase": "enemy"})]
    FLOW.push_steps(state, steps)


# ---------------------------------------------------------------- 4. upkeep

@auto("upkeep")
def run_upkeep(state: LcgState, frame: Frame, events: Events) -> None:
    if state.scenario is None or state.scenario.resolution is not None:
        return
    state.phase = "upkeep"
    say(events, f"Round {state.round} — Upkeep phase.", PHASE_STARTED, None, "rules", phase="upkeep")
    steps = [window_step("upkeep.start"), pw_step("start of the upkeep phase"), Step(op="upkeep_ready", source="rules")]
    for s in board.order(state):
        steps.append(Step(op="draw", seat=s, source="upkeep", args={"n": 1}))
        steps.append(Step(op="effects", seat=s, source="upkeep", args={"effects": [{"resources": 1}],
                                                                       "ctx": {"seat": s}}))
    steps += [Step(op="hand_check", seat=s, source="upkeep") for s in board.order(state)]
    steps += [Step(op="round_end", source="rules"), window_step("upkeep.end"), window_step("round.end"),
              Step(op="phase_end", source="rules", args={"phase": "upkeep"})]
    FLOW.push_steps(state, steps)


@auto("upkeep_ready")
def run_upkeep_ready(state: LcgState, frame: Frame, events: Events) -> None:
    """4.2 reset actions, 4.3 ready every exhausted card; readied enemies engage (checked after)."""
    for s in board.order(state):
        i = state.invs[s]
        board.reset_actions(state, s)
        i.took_turn = False
        i.bonus_actions = []
    for c in state.cards.values():
        if c.exhausted:  # most cards (every card in a deck) are ready already: no write for them
            c.exhausted = False
    for e in board.scen(state).enemies.values():
        e.exhausted = False
    say(events, "Every exhausted card and enemy readies.", "upkeep.ready", None, "rules")
    engage_all(state)


@auto("round_end")
def run_round_end(state: LcgState, frame: Frame, events: Events) -> None:
    for i in state.invs:
        i.lasting = [m for m in i.lasting if m.get("end") not in ("round", "phase")]
    for c in state.cards.values():
        if c.used:
            c.used = {k: v for k, v in c.used.items() if not k.startswith(("round:", "phase:", "turn:"))}
