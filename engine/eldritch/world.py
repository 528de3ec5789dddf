"""The world's procedures: doom and omen, spawning Gates, Monsters and Clues, Mysteries, the awakening, defeat
and the end of the game (digest 3.4, 6, 7).
"""

from __future__ import annotations

from engine.core.flow import Frame
from engine.core.trusted import trusted
from engine.eldritch.board import board_of
from engine.eldritch.ops import (
    FLOW,
    STRUCTURE_OPS,
    Events,
    active_seats,
    content,
    name,
    plural,
    push,
    resolve,
    say,
)
from engine.eldritch.state import OMEN_TRACK, DefeatedToken, EldritchState, MonsterToken

# ------------------------------------------------------------------ the end


def end_game(state: EldritchState, result: str, why: str, events: Events) -> None:
    """Win or lose now; the first end stands. A win and a loss from the same roll count as a win (digest 7):
    combat applies the Monster's damage before the investigator's, so the win comes first."""
    if state.over:
        return
    state.over = True
    state.result = "win" if result == "win" else "loss"
    kind = "game.won" if result == "win" else "game.lost"
    say(events, why, kind=kind)
    events[-1].render = True


# ------------------------------------------------------------------ doom, omen, the awakening


def advance_doom(state: EldritchState, n: int, cause: str, events: Events) -> None:
    """Doom moves n toward 0; reaching 0 awakens the Ancient One, and what is left of the advance follows the
    sheet's back (digest 3.4 "Overflow past 0"). After the awakening doom stays at 0 (decision:
    docs/eldritch.md): each step it would advance resolves the back's `awakened_doom` instead, if it has one."""
    if n <= 0 or state.over:
        return
    if state.awakened:
        awake_doom(state, n, events)
        return
    over = max(0, n - state.doom)
    state.doom = max(0, state.doom - n)
    say(events, f"Doom advances {n} ({state.doom} left) — {cause}.", cause=cause, kind="doom.advanced",
        doom=state.doom)
    if state.doom == 0:
        mark = len(state.flow.stack)
        awaken(state, events)
        awake_doom(state, over, events, below=mark)  # the rest of the advance follows the awakening


def awake_doom(state: EldritchState, steps: int, events: Events, below: int | None = None) -> None:
    """Doom advancing after the awakening: the Ancient One's back says what each step does. `below`: a stack
    position to put the steps at (under what was pushed since), instead of on top."""
    ao = content(state).ancient_ones[state.ao]
    if not ao.awakened_doom or state.over or steps <= 0:
        return
    frames = [FLOW.frame(state, "fx", None, ao.id, effects=ao.awakened_doom, source=ao.id, card=ao.id, monster=None,
                         space=None) for _ in range(steps)]
    stack = state.flow.stack
    at = len(stack) if below is None else below
    stack[at:at] = frames


def retreat_doom(state: EldritchState, n: int, cause: str, events: Events) -> None:
    """Doom moves n away from 0; never after the awakening (digest 3.4), never past the track's 20."""
    if n <= 0 or state.awakened:
        return
    state.doom = min(20, state.doom + n)
    say(events, f"Doom retreats {n} ({state.doom} left) — {cause}.", cause=cause, kind="doom.retreated",
        doom=state.doom)


def awaken(state: EldritchState, events: Events) -> None:
    """The Ancient One awakens: its back replaces its front, defeated players are eliminated, the active
    Mystery leaves play (only the Final Mystery matters now) and the awakening effect resolves (digest 3.4, 6)."""
    c = content(state)
    ao = c.ancient_ones[state.ao]
    state.awakened = True
    say(events, f"{ao.name} AWAKENS. {ao.awakened_text}".strip(), cause=state.ao, kind="ao.awakened")
    events[-1].render = True
    for seat, inv in enumerate(state.investigators):
        if inv.defeated and not inv.eliminated:
            inv.eliminated = True
            say(events, f"{state.seats[seat].name} is eliminated: the Ancient One is awake.", seat=seat)
    if state.mystery is not None:
        state.decks["mystery"].discard(state.mystery)
        state.mystery = None
        state.mystery_tokens = 0
    if ao.final_mystery is not None:
        say(events, f"The Final Mystery: {ao.final_mystery.text}", cause=state.ao, kind="mystery.final")
    if ao.final_mystery is None:
        push(state, "lose_now", None, why=f"{ao.name} has awakened. The investigators lose.")
    resolve(state, state.lead, ao.awaken, state.ao, card=state.ao)
    check_everyone_gone(state, events)


def advance_omen(state: EldritchState, steps: int, cause: str, events: Events) -> None:
    """Move the omen clockwise one space at a time; each space entered advances doom by 1 per open Gate of its
    colour, plus 1 per Eldritch token on that omen space (Azathoth's setup) (digest 3.3, 8 "Omen laps")."""
    for _ in range(steps):
        state.omen = (state.omen + 1) % len(OMEN_TRACK)
        colour = OMEN_TRACK[state.omen]
        matching = sum(1 for g in state.gates.values() if g == colour)
        extra = state.omen_tokens.get(colour, 0)
        say(events, f"The omen moves to {colour}: {plural(matching, 'Gate')} of that colour"
                    + (f" and {plural(extra, 'Eldritch token')} on it" if extra else "") + ".",
            cause=cause, kind="omen.advanced", omen=colour)
        advance_doom(state, matching + extra, f"the omen on {colour}", events)


# ------------------------------------------------------------------ spawning


def draw_clue_token(state: EldritchState) -> str | None:
    """Take a random Clue token from the pool (its discard is shuffled back in when the pool runs out)."""
    if not state.clue_pool and state.clue_discard:
        state.clue_pool = state.clue_discard
        state.clue_discard = []
        state.rng.shuffle(state.clue_pool)
    return state.clue_pool.pop() if state.clue_pool else None


def spawn_clue(state: EldritchState, events: Events, cause: str = "") -> None:
    token = draw_clue_token(state)
    if token is None:
        say(events, "No Clue is left to spawn.", cause=cause)
        return
    state.clues[token] = state.clues.get(token, 0) + 1
    say(events, f"A Clue appears at {space_name(state, token)}.", cause=cause, kind="clue.spawned", space=token)


def random_space(state: EldritchState) -> str:
    """A random space: draw a Clue token, read its space, discard it (digest 3.4). With none left, the
    Lead's space (decision: the Lead would choose; docs/eldritch.md)."""
    token = draw_clue_token(state)
    if token is None:
        return state.investigators[state.lead].space or "arkham"
    state.clue_discard.append(token)
    return token


def spawn_gate(state: EldritchState, events: Events, cause: str = "") -> None:
    """Place the top Gate on its space and spawn a Monster there. An empty stack takes its shuffled discard;
    with no Gate at all, doom advances 1 instead (digest 3.4)."""
    if not state.gate_stack and state.gate_discard:
        state.gate_stack = state.gate_discard
        state.gate_discard = []
        state.revealed_gates = []
        state.rng.shuffle(state.gate_stack)
    if not state.gate_stack:
        advance_doom(state, 1, "no Gate left to spawn", events)
        return
    space = state.gate_stack.pop()
    if space in state.revealed_gates:
        state.revealed_gates.remove(space)
    colour = content(state).spaces[space].gate or "green"
    state.gates[space] = colour
    say(events, f"A {colour} Gate opens at {space_name(state, space)}.", cause=cause, kind="gate.spawned",
        space=space)
    spawn_monster(state, space, events, cause)


def spawn_monster(state: EldritchState, space: str, events: Events, cause: str = "") -> MonsterToken | None:
    """A random Monster from the cup appears on `space`; its spawn effect resolves at once (digest 3.4)."""
    if not state.cup:
        say(events, "The Monster cup is empty: nothing spawns.", cause=cause)
        return None
    kind = state.cup.pop(state.rng.below(len(state.cup)))
    return arrive(state, kind, space, events, cause)


def spawn_set_aside(state: EldritchState, kind: str, space: str, events: Events, cause: str = "") -> bool:
    """A set-aside Monster of this kind enters play on `space` as if spawned (its spawn effect resolves). None
    left set aside: nothing happens (digest 3.4: a set-aside type cannot spawn once all its copies are out)."""
    if kind not in state.set_aside:
        return False
    state.set_aside.remove(kind)
    arrive(state, kind, space, events, cause)
    return True


def arrive(state: EldritchState, kind: str, space: str, events: Events, cause: str) -> MonsterToken:
    """A Monster is spawned on `space`: placed, announced, its spawn effect resolved."""
    token = place_monster(state, kind, space)
    monster = content(state).monsters[kind]
    say(events, f"{monster.name} appears at {space_name(state, space)}.", cause=cause, kind="monster.spawned",
        space=space, monster=kind)
    if monster.spawn:
        resolve(state, None, monster.spawn, kind, monster=token.uid, space=space)
    check_crowd(state, events)
    return token


def check_crowd(state: EldritchState, events: Events) -> None:
    """The awakened sheet's crowd loss: this many Monsters on the Epic Monster's space, counting it (digest 7,
    Shub-Niggurath's back)."""
    if not state.awakened or state.over:
        return
    ao = content(state).ancient_ones[state.ao]
    rule = ao.crowd_loss
    if rule is None:
        return
    epic = next((m for m in state.monsters if m.kind == rule.epic and m.space), None)
    if epic is None:
        return
    crowd = sum(1 for m in state.monsters if m.space == epic.space)
    if crowd >= rule.monsters:
        end_game(state, "loss", f"{plural(crowd, 'Monster')} throng {space_name(state, epic.space)} around "
                                f"{content(state).monsters[rule.epic].name}. The investigators lose.", events)


def place_monster(state: EldritchState, kind: str, space: str) -> MonsterToken:
    token = trusted(MonsterToken, {"uid": state.next_uid, "kind": kind, "space": space, "damage": 0})
    state.next_uid += 1
    state.monsters.append(token)
    return token


def monster_stats(state: EldritchState, token: MonsterToken) -> tuple[int | None, int | None, int | None,
                                                                      int | None, int]:
    """(will_mod, horror, strength_mod, damage, toughness); a Cultist reads the Ancient One's sheet."""
    c = content(state)
    m = c.monsters[token.kind]
    if m.cultist:
        ao = c.ancient_ones[state.ao]
        s = ao.cultist_awakened if state.awakened else ao.cultist
        return s.will_mod, s.horror, s.strength_mod, s.damage, s.toughness
    toughness = m.toughness + (state.players if m.per_investigator else 0)
    return m.will_mod, m.horror, m.strength_mod, m.damage, toughness


def remove_monster(state: EldritchState, token: MonsterToken, events: Events, defeated: bool) -> None:
    """A defeated or discarded Monster returns to the cup; an Epic Monster goes back to the box, and defeating
    one may solve the Mystery or Final Mystery that needs it (digest 1.6, 5)."""
    drop_monster(state, token)
    c = content(state)
    m = c.monsters[token.kind]
    if not m.epic:
        state.cup.append(token.kind)
        return
    if not defeated:
        return
    if state.mystery is not None and c.mysteries[state.mystery].epic == token.kind:
        solve_mystery(state, events)
    ao = c.ancient_ones[state.ao]
    if state.awakened and ao.final_mystery is not None and ao.final_mystery.epic == token.kind:
        solve_final(state, events)


#: version -> every space's name as narration says it ("space 3", "Arkham")
_SPACE_NAMES: dict[str, dict[str, str]] = {}


def drop_monster(state: EldritchState, token: MonsterToken) -> None:
    """Take this very token off the board (by identity: comparing tokens field by field would be slower, and
    two tokens are never the same Monster)."""
    for i, m in enumerate(state.monsters):
        if m is token:
            del state.monsters[i]
            return


def space_name(state: EldritchState, space: str) -> str:
    names = _SPACE_NAMES.get(state.content_version)
    if names is None:
        names = _SPACE_NAMES[state.content_version] = {
            s.id: f"space {s.name}" if s.name.isdigit() else s.name for s in content(state).spaces.values()}
    return names[space]


def monsters_at(state: EldritchState, space: str) -> list[MonsterToken]:
    """The Monsters on a space, non-Epic first (they are fought first, digest 3.2)."""
    here = [m for m in state.monsters if m.space == space]
    if len(here) < 2:
        return here
    c = content(state)
    return sorted(here, key=lambda m: (c.monsters[m.kind].epic, m.uid))


# ------------------------------------------------------------------ mysteries


def need_of(state: EldritchState, need: int | str) -> int:
    """A Mystery's threshold: "half" is half the investigators rounded up (digest 8 "Rounding")."""
    if need == "half":
        return max(1, (state.players + 1) // 2)
    if need == "all":
        return state.players
    return int(need)


def next_mystery(state: EldritchState, events: Events) -> None:
    """Draw the next Mystery and resolve its "enters play" effect (setup 9h, digest 1.9)."""
    card = state.decks["mystery"].draw(state.rng)
    if card is None:
        say(events, "No Mystery is left to draw.")
        return
    m = content(state).mysteries[card]
    state.mystery = card
    state.mystery_tokens = 0
    say(events, f"A new Mystery: {m.name}. {m.text}".strip(), cause=card, kind="mystery.new")
    if m.enter:
        resolve(state, state.lead, m.enter, card, card=card)


def add_mystery_tokens(state: EldritchState, n: int, events: Events, cause: str = "") -> None:
    c = content(state)
    if state.awakened:
        fm = c.ancient_ones[state.ao].final_mystery
        if fm is None or fm.epic:
            return
        state.final_tokens += n
        need = need_of(state, fm.need)
        say(events, f"The Final Mystery advances ({state.final_tokens}/{need}).", cause=cause, kind="mystery.progress")
        if state.final_tokens >= need:
            solve_final(state, events)
        return
    if state.mystery is None:
        return
    m = c.mysteries[state.mystery]
    if m.epic:
        return
    state.mystery_tokens += n
    need = need_of(state, m.need)
    say(events, f"{m.name} advances ({state.mystery_tokens}/{need}).", cause=cause, kind="mystery.progress")
    if state.mystery_tokens >= need:
        solve_mystery(state, events)


def solve_mystery(state: EldritchState, events: Events) -> None:
    """The active Mystery is solved: its tokens go, it joins the solved pile; with enough solved the
    investigators win, else the next Mystery comes into play (digest 1.9, 7)."""
    if state.mystery is None:
        return
    c = content(state)
    m = c.mysteries[state.mystery]
    state.solved.append(state.mystery)
    state.mystery = None
    state.mystery_tokens = 0
    for token in [t for t in state.monsters if t.kind == m.epic]:
        drop_monster(state, token)
    ao = c.ancient_ones[state.ao]
    say(events, f"Mystery solved: {m.name} ({len(state.solved)}/{ao.mysteries}).", cause=m.id, kind="mystery.solved")
    events[-1].render = True
    if len(state.solved) >= ao.mysteries:
        end_game(state, "win", f"The investigators have solved {plural(ao.mysteries, 'Mystery', 'Mysteries')}: "
                 f"{ao.name} is sealed away. The investigators win!", events)
        return
    next_mystery(state, events)


def solve_final(state: EldritchState, events: Events) -> None:
    state.final_solved = True
    ao = content(state).ancient_ones[state.ao]
    end_game(state, "win", f"The Final Mystery is solved: {ao.name} is driven back. The investigators win!", events)


# ------------------------------------------------------------------ defeat


def defeat(state: EldritchState, seat: int, track: str, events: Events) -> None:
    """Health or Sanity at 0: the investigator is defeated at once and stops what they were resolving; doom
    advances 1; the token lies at the nearest City with their possessions, travel tickets included (RB p.14);
    Conditions and Improvements are discarded; the Lead passes on (RG "Defeated Investigators" steps 1-4). After
    the awakening the player is eliminated instead of choosing a new investigator (RG "Choosing a New
    Investigator")."""
    inv = state.investigators[seat]
    if not inv.active:
        return
    interrupt(state, seat)
    board = board_of(state.content_version)
    who = name(state, seat)
    inv.defeated = True
    lost = "Health" if track == "health" else "Sanity"
    say(events, f"{who} has lost all {lost} and is defeated.", seat=seat, kind="investigator.defeated")
    events[-1].render = True
    advance_doom(state, 1, f"{who} was defeated", events)
    city = board.nearest(inv.space, board.cities) or inv.space
    assert inv.card is not None
    state.defeated.append(DefeatedToken(card=inv.card, space=city, track="health" if track == "health" else "sanity",
                                        assets=inv.assets, artifacts=inv.artifacts, spells=inv.spells,
                                        clues=inv.clues, train=inv.train, ship=inv.ship))
    for cond in inv.conditions:
        state.decks["condition"].put_bottom(cond)
    inv.past.append(inv.card)
    inv.card = None
    inv.assets, inv.artifacts, inv.spells, inv.conditions = [], [], [], []
    inv.clues = inv.train = inv.ship = 0
    inv.improve = {}
    inv.health = inv.sanity = 0
    inv.delayed = False
    inv.actions_left = 0
    say(events, f"Their body lies at {space_name(state, city)}.", seat=seat)
    if state.awakened:
        inv.eliminated = True
        say(events, f"{state.seats[seat].name} is eliminated.", seat=seat)
    pass_lead_if_needed(state, seat, events)
    check_everyone_gone(state, events)


def devour(state: EldritchState, seat: int, events: Events) -> None:
    """Devoured: defeated, but everything is discarded and no token stays on the board (digest 6)."""
    inv = state.investigators[seat]
    if not inv.active:
        return
    interrupt(state, seat)
    who = name(state, seat)
    say(events, f"{who} is devoured.", seat=seat, kind="investigator.devoured")
    events[-1].render = True
    advance_doom(state, 1, f"{who} was devoured", events)
    discard_everything(state, seat)
    assert inv.card is not None
    inv.past.append(inv.card)
    inv.card = None
    inv.defeated = True
    if state.awakened:
        inv.eliminated = True
    pass_lead_if_needed(state, seat, events)
    check_everyone_gone(state, events)


def discard_everything(state: EldritchState, seat: int) -> None:
    inv = state.investigators[seat]
    for a in inv.assets:
        state.decks["asset"].discard(a)
    for a in inv.artifacts:
        state.decks["artifact"].put_bottom(a)
    for s in inv.spells:
        state.decks["spell"].put_bottom(s)
    for cnd in inv.conditions:
        state.decks["condition"].put_bottom(cnd)
    inv.assets, inv.artifacts, inv.spells, inv.conditions = [], [], [], []
    inv.clues = inv.train = inv.ship = 0
    inv.improve = {}
    inv.health = inv.sanity = 0
    inv.delayed = False
    inv.actions_left = 0


def interrupt(state: EldritchState, seat: int) -> None:
    """Stop everything the investigator was resolving (their pending frames), keeping the round's structure."""
    for f in state.flow.stack:
        if f.seat == seat and f.op not in STRUCTURE_OPS:
            f.cancelled = True


def pass_lead_if_needed(state: EldritchState, seat: int, events: Events) -> None:
    if state.lead != seat:
        return
    living = active_seats(state)
    if living:
        push(state, "pass_lead", seat, forced=True)


def check_everyone_gone(state: EldritchState, events: Events) -> None:
    """Every player eliminated is a loss (digest 7). Everyone defeated before the awakening is not."""
    if all(inv.eliminated for inv in state.investigators):
        end_game(state, "loss", "Every investigator is gone. The investigators lose.", events)


# ------------------------------------------------------------------ kernel ops for the above


@FLOW.auto("lose_now")
def lose_now(state: EldritchState, frame: Frame, events: Events) -> None:
    end_game(state, "loss", str(frame.args["why"]), events)

