"""Enemies: spawning, engagement, attacks, defeat, hunters and patrols, the keywords (digest §7).

* An enemy that spawns at a location with investigators engages one of them (the one who drew it when they are
  there; otherwise the lead chooses). A ready, unengaged enemy at a location with investigators engages at
  once (rechecked whenever an investigator or enemy moves, an enemy readies, a turn ends).
* **Aloof** never engages by itself (only by the engage action). **Massive** is engaged with everyone at its
  location and never with anyone in particular. **Hunter** moves one location toward the nearest investigator
  in the enemy phase (3.2); **patrol** moves toward its named location (or a location with that trait).
* **Retaliate**: a failed attack against it, while it is ready, makes it attack. **Alert**: a failed evasion
  makes it attack. **Elusive**: after a fight or evade test against it, it disengages and moves to a connecting
  revealed location with no investigators, if there is one.
* An attack deals the enemy's damage and horror to the investigator it is engaged with; only an enemy-phase
  attack (3.3) exhausts it. Attacks of opportunity come from every ready engaged enemy when an investigator
  takes an action other than fight, evade, parley or resign (digest §4.1).
* **Swarming X**: X more copies of the enemy spawn with it, each a separate enemy with the same card. [Decision:
  the published game uses facedown player cards as swarm copies; we spawn real copies, since the swarm cards
  act as copies of the host in every way that matters to a fight.]
"""

from __future__ import annotations

from typing import Any

from engine.arkham_lcg import board
from engine.arkham_lcg.harm import take
from engine.arkham_lcg.ops import FLOW, Events, auto, pick, push, say
from engine.arkham_lcg.state import EnemyState, LcgState
from engine.core import windows
from engine.core.flow import Frame, Step


def spawn(state: LcgState, uid: int, drawer: int | None, at: str | None, source: str) -> None:
    """Push the spawn of enemy card `uid`: at `at`, or by its spawn rule, or engaged with the drawer."""
    push(state, "spawn", drawer, source, uid=uid, at=at)


@auto("spawn")
def run_spawn(state: LcgState, frame: Frame, events: Events) -> None:
    a = frame.args
    uid = a["uid"]
    s = board.scen(state)
    d = board.edef(state, uid)
    drawer: int | None = frame.seat
    where: str | None = a["at"]
    if where == "here":
        where = state.invs[drawer].location if drawer is not None else None
    elif where is not None and where not in s.locations:
        where = "nowhere"  # FAQ §1.21: a location that is not in play is no place to spawn
    if where is None and d.spawn is not None:
        if d.spawn.at and d.spawn.at in s.locations:
            where = d.spawn.at
        elif d.spawn.trait:
            options = sorted(c for c in s.locations if d.spawn.trait in board.ldef(state, c).traits)
            if len(options) > 1:
                pick(state, board.lead(state), f"Where does {d.name} spawn?", f"{d.name}: spawn instruction",
                     [(c, board.loc_name(state, c), c) for c in options], "spawn", "at", frame.source,
                     then_seat=drawer, uid=uid)
                return
            where = options[0] if options else None
    if where is None and drawer is not None and board.playing(state, drawer):
        where = state.invs[drawer].location
    if where is None or where == "nowhere":  # FAQ §1.21: an enemy must be at a location: it is discarded
        state.cards[uid].zone = "encounter_discard"
        s.encounter_discard.append(uid)
        say(events, f"{d.name} has nowhere to spawn and is discarded.", "enemy.discarded", drawer, d.id)
        return
    hp = d.health * (len(board.order(state)) if d.health_per_investigator else 1)
    s.enemies[uid] = EnemyState(uid=uid, code=d.id, location=where, health=max(1, hp))
    state.cards[uid].zone = "location"
    say(events, f"{d.name} spawns at {board.loc_name(state, where)}.", "enemy.spawn", drawer, d.id, render=True,
        location=where)
    steps = [Step(op="window", seat=drawer, source=d.id,
                  args={"window": windows.Window(timing="after", event="enemy.spawned",
                                                 data={"seat": drawer, "enemy": uid, "location": where}).model_dump(),
                        "used": [], "passed": []}),
             Step(op="engage_check", seat=drawer, source=d.id, args={"uid": uid})]
    FLOW.push_steps(state, steps)
    for _ in range(d.swarm if "swarming" in d.keywords and not a.get("swarm") else 0):
        copy = board.new_card(state, d.id, None, "location")
        push(state, "spawn", drawer, d.id, uid=copy, at=where, swarm=True)  # a swarm card brings no swarm


@auto("engage_check")
def run_engage_check(state: LcgState, frame: Frame, events: Events) -> None:
    """A ready, unengaged, non-aloof enemy at a location with investigators engages one: the one named by the
    frame's seat if they are there (the drawer), else the lead's choice."""
    uid = frame.args["uid"]
    e = board.scen(state).enemies.get(uid)
    if e is None or e.exhausted or e.engaged is not None or board.is_massive(state, e):
        return
    if board.keyword(state, e, "aloof"):
        return
    here = board.at(state, e.location)
    if not here:
        return
    if frame.seat in here:
        _engage(state, e, frame.seat, events)
        return
    pick(state, board.lead(state), f"Whom does {board.name(state, uid)} engage?",
         "An enemy engages an investigator at its location", [(f"s{s}", state.seat_name(s), s) for s in here],
         "engage_with", "seat", board.edef(state, uid).id, uid=uid)


@auto("engage_with")
def run_engage_with(state: LcgState, frame: Frame, events: Events) -> None:
    """Engage: an enemy's own engagement (only if unengaged), or the engage action (`force`: an enemy engaged
    with someone else, or aloof, engages you)."""
    e = board.scen(state).enemies.get(frame.args["uid"])
    if e is not None and (e.engaged is None or frame.args.get("force")):
        _engage(state, e, frame.args["seat"], events)


def _engage(state: LcgState, e: EnemyState, seat: int, events: Events) -> None:
    e.engaged = seat
    say(events, f"{board.name(state, e.uid)} engages {state.seat_name(seat)}.", "enemy.engage", seat, e.code)
    push(state, "window", seat, e.code,
         window=windows.Window(timing="after", event="enemy.engaged", data={"seat": seat, "enemy": e.uid}))


def engage_all(state: LcgState, seat: int | None = None) -> None:
    """Push an engagement check for every enemy (after moves, readying, a turn's end)."""
    for uid in sorted(board.scen(state).enemies):
        push(state, "engage_check", seat, "rules", uid=uid)


@auto("enemy_attack")
def run_enemy_attack(state: LcgState, frame: Frame, events: Events) -> None:
    """An enemy attacks the investigator of the frame's seat: a cancellable "when" window, then the hit."""
    uid = frame.args["uid"]
    e = board.scen(state).enemies.get(uid)
    seat = frame.owner
    if e is None or not board.playing(state, seat):
        return
    if frame.args.get("recheck") and (e.exhausted or e not in board.engaged(state, seat)):
        return  # an attack of opportunity comes only from an enemy still ready and engaged when its turn comes
    if frame.args.get("exhaust"):
        e.exhausted = True
    windows.around(FLOW, state, "enemy.attack", Step(op="attack_hit", seat=seat, source=e.code, args={"uid": uid}),
                   data={"seat": seat, "enemy": uid}, seat=seat, source=e.code)


@auto("attack_hit")
def run_attack_hit(state: LcgState, frame: Frame, events: Events) -> None:
    e = board.scen(state).enemies.get(frame.args["uid"])
    if e is None:
        return
    d = board.edef(state, e.uid)
    say(events, f"{d.name} attacks {state.seat_name(frame.owner)}: {d.damage} damage, {d.horror} horror.",
        "enemy.attack", frame.owner, d.id)
    take(state, frame.owner, d.damage, d.horror, d.id)


@auto("hit_enemy")
def run_hit_enemy(state: LcgState, frame: Frame, events: Events) -> None:
    a = frame.args
    e = board.scen(state).enemies.get(a["uid"])
    if e is None:
        return
    e.damage += a["amount"]
    say(events, f"{board.name(state, e.uid)} takes {a['amount']} damage ({e.damage}/{e.health}).", "enemy.damage",
        frame.seat, e.code)
    if e.damage >= e.health:
        push(state, "enemy_defeated", frame.seat, e.code, uid=e.uid)


@auto("enemy_defeated")
def run_enemy_defeated(state: LcgState, frame: Frame, events: Events) -> None:
    s = board.scen(state)
    e = s.enemies.pop(frame.args["uid"], None)
    if e is None:
        return
    c = state.cards[e.uid]
    d = board.edef(state, e.uid)
    if c.owner is not None:  # an enemy weakness goes back to its owner's discard pile
        c.zone = "discard"
        state.invs[c.owner].discard.append(e.uid)
    elif d.victory is not None:
        c.zone = "victory"
        s.victory.append(e.uid)
    else:
        c.zone = "encounter_discard"
        s.encounter_discard.append(e.uid)
    by = f" by {state.seat_name(frame.seat)}" if frame.seat is not None else ""
    say(events, f"{d.name} is defeated{by}.", "enemy.defeated", frame.seat, d.id, render=True)
    push(state, "window", frame.seat, d.id,
         window=windows.Window(timing="after", event="enemy.defeated", data={"seat": frame.seat, "enemy": e.uid}))


@auto("evaded")
def run_evaded(state: LcgState, frame: Frame, events: Events) -> None:
    e = board.scen(state).enemies.get(frame.args["uid"])
    if e is None:
        return
    e.exhausted = True
    e.engaged = None
    say(events, f"{state.seat_name(frame.owner)} evades {board.name(state, e.uid)}.", "enemy.evaded", frame.owner,
        e.code)
    push(state, "window", frame.owner, e.code,
         window=windows.Window(timing="after", event="enemy.evaded", data={"seat": frame.owner, "enemy": e.uid}))


@auto("elusive")
def run_elusive(state: LcgState, frame: Frame, events: Events) -> None:
    e = board.scen(state).enemies.get(frame.args["uid"])
    if e is None or e.location is None:
        return
    s = board.scen(state)
    options = sorted(c for c in board.connections(state, e.location)
                     if s.locations[c].revealed and not board.at(state, c))
    e.engaged = None
    if len(options) > 1:
        pick(state, board.lead(state), f"Where does {board.name(state, e.uid)} slip away to?",
             "Elusive: it moves to a connecting revealed location with no investigators",
             [(c, board.loc_name(state, c), c) for c in options], "move_enemy", "to", e.code, uid=e.uid)
    elif options:
        push(state, "move_enemy", None, e.code, uid=e.uid, to=options[0])


@auto("move_enemy")
def run_move_enemy(state: LcgState, frame: Frame, events: Events) -> None:
    e = board.scen(state).enemies.get(frame.args["uid"])
    if e is None:
        return
    e.location = frame.args["to"]
    e.engaged = None
    say(events, f"{board.name(state, e.uid)} moves to {board.loc_name(state, e.location)}.", "enemy.move", None,
        e.code)
    push(state, "engage_check", None, e.code, uid=e.uid)


# ---------------------------------------------------------------- the enemy phase

def movers(state: LcgState) -> list[int]:
    """Ready, unengaged hunter and patrol enemies, in play order (uid)."""
    out = []
    for uid, e in sorted(board.scen(state).enemies.items()):
        d = board.edef(state, uid)
        if not e.exhausted and e.engaged is None and ("hunter" in d.keywords or d.patrol):
            if board.is_massive(state, e) and board.at(state, e.location):
                continue
            out.append(uid)
    return out


@auto("hunt")
def run_hunt(state: LcgState, frame: Frame, events: Events) -> None:
    """One hunter or patrol enemy moves one location toward its goal (3.2); ties are the lead's choice."""
    e = board.scen(state).enemies.get(frame.args["uid"])
    if e is None or e.exhausted or e.engaged is not None or e.location is None:
        return
    d = board.edef(state, e.uid)
    s = board.scen(state)
    if d.patrol:
        goals = [c for c in s.locations if c == d.patrol or d.patrol in board.ldef(state, c).traits]
    else:
        goals = [state.invs[x].location for x in board.order(state) if state.invs[x].location]  # type: ignore[misc]
    if not goals or e.location in goals:
        return
    dist_from = {g: board.distance_map(state, g) for g in set(goals)}
    best: dict[str, int] = {}
    for nxt in board.connections(state, e.location):
        near = min((dm.get(nxt, 10**6) for dm in dist_from.values()), default=10**6)
        best[nxt] = near
    here = min((dm.get(e.location, 10**6) for dm in dist_from.values()), default=10**6)
    if not best or min(best.values()) >= here:
        return
    lowest = min(best.values())
    options = sorted(c for c, v in best.items() if v == lowest)
    pick(state, board.lead(state), f"Where does {d.name} move?", "Hunter/patrol: toward the nearest goal",
         [(c, board.loc_name(state, c), c) for c in options], "move_enemy", "to", d.id, uid=e.uid)


def attack_order(state: LcgState, seat: int) -> list[int]:
    return sorted(e.uid for e in board.engaged(state, seat) if not e.exhausted)


@auto("enemy_attacks")
def run_enemy_attacks(state: LcgState, frame: Frame, events: Events) -> None:
    """Step 3.3: in player order, each ready enemy engaged with each investigator attacks and exhausts; a
    massive enemy attacks everyone it is engaged with and exhausts once, after all of them."""
    steps: list[Step] = []
    for seat in board.order(state):
        steps.append(Step(op="enemy_attack_next", seat=seat, source="enemy phase", args={"done": []}))
        steps.append(Step(op="pw", seat=seat, source="enemy phase",
                          args={"seats": [], "why": "after the attacks on " + state.seat_name(seat)}))
    steps.append(Step(op="massive_exhaust", source="enemy phase"))
    FLOW.push_steps(state, steps)


@auto("enemy_attack_next")
def run_enemy_attack_next(state: LcgState, frame: Frame, events: Events) -> None:
    """The next enemy-phase attack on one investigator. Whether an enemy attacks is decided at its own attack,
    not when step 3.3 begins (Rules Reference, Enemy Phase): one evaded, exhausted or defeated in a window since
    then does not attack, and an investigator eliminated meanwhile is attacked no more."""
    seat = frame.owner
    if not board.playing(state, seat):
        return
    done: list[int] = frame.args["done"]
    waiting = [uid for uid in attack_order(state, seat) if uid not in done]
    if not waiting:
        return
    uid = waiting[0]
    massive = board.is_massive(state, board.scen(state).enemies[uid])
    FLOW.push_steps(state, [
        Step(op="enemy_attack", seat=seat, source="enemy phase", args={"uid": uid, "exhaust": not massive}),
        Step(op="enemy_attack_next", seat=seat, source="enemy phase", args={"done": [*done, uid]})])


@auto("massive_exhaust")
def run_massive_exhaust(state: LcgState, frame: Frame, events: Events) -> None:
    """A ready massive enemy at a location with investigators attacked each of them in step 3.3: it exhausts."""
    for e in board.scen(state).enemies.values():
        if not e.exhausted and board.is_massive(state, e) and board.at(state, e.location):
            e.exhausted = True


def attacks_of_opportunity(state: LcgState, seat: int) -> list[Step]:
    return [Step(op="enemy_attack", seat=seat, source="attack of opportunity",
                 args={"uid": e.uid, "exhaust": False, "recheck": True})
            for e in board.engaged(state, seat) if not e.exhausted]


def ctx_enemy(ctx: dict[str, Any]) -> int | None:
    e = ctx.get("enemy")
    return e if isinstance(e, int) else None
