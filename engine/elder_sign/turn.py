"""The turn: Movement → Resolution → Clock, midnight, devouring, awakening and the final battle.

Rules references are to the sections of our rules summary ("digest §", its rulings written out in
docs/elder_sign.md) and to the revised rulebook by heading. Decisions on the digest's [AMBIG] items are stated
where they are made.
"""

from __future__ import annotations

from engine.core.flow import Answer, Frame
from engine.core.prompt import Option, Prompt, PromptKind, Unavailable
from engine.elder_sign import board, items
from engine.elder_sign.board import Events, content, inv, name
from engine.elder_sign.choices import (
    AidKind,
    AskHelp,
    DoTask,
    FirstAid,
    Focus,
    Go,
    Payment,
    Release,
    Souvenir,
    Spot,
)
from engine.elder_sign.dice import DIE_COLOR, DIE_IDS, DIE_TYPES, FACE_LABEL, TERROR, color_of
from engine.elder_sign.effects import (
    ability_sources,
    add_doom,
    advance_clock,
    apply_batch,
    because,
    draw_card,
    lose,
    plural,
    remove_doom,
)
from engine.elder_sign.matcher import Req, face_bounds, ranked_completions, requirement
from engine.elder_sign.ops import FLOW, answers, asks, auto, event, option, prompt, push, push_all
from engine.elder_sign.state import CardInPlay, ElderSignState, Investigator, new_adventure, new_card_in_play
from engine.elder_sign.tasks import Task

#: an event marking that a phase which changes the table is over: the end of each Resolution phase in which an
#: adventure or an attack was made (cause "resolution") and the end of each midnight (cause "midnight"). A front
#: end that shows the table after such phases draws it when it sees this event.
TABLE_CHANGED = "table.changed"


def _price(trophies: int) -> str:
    return "free" if trophies <= 0 else plural(trophies, "trophy")


def _unwind_to_anchor(state: ElderSignState) -> None:
    """An awakening ends whatever was resolving: drop every frame above the topmost anchor (6.1)."""
    anchors = set(state.anchors)
    for f in reversed(state.flow.stack):
        if f.id in anchors:
            FLOW.unwind_to(state, f.id)
            break
    else:
        FLOW.clear(state)
    live = {f.id for f in state.flow.stack}
    state.anchors = [a for a in state.anchors if a in live]


#: "green 2🔍" for every die and face (and "?" for a die not rolled yet)
_DIE_TEXT = {(d, f): f"{color_of(d)} {FACE_LABEL.get(f or '', '?')}" for d in DIE_IDS for f in [*FACE_LABEL, None, ""]}


#: each die's faces, by die id; every die type has six (a roll draws them all with one `Rng.below_each`)
_DIE_FACES = {d: DIE_TYPES[color_of(d)].faces for d in DIE_IDS}
_SIDES = 6
if any(len(faces) != _SIDES for faces in _DIE_FACES.values()):
    raise RuntimeError("every Elder Sign die has six faces (digest 1.2)")


def dice_text(state: ElderSignState, dice: list[str] | tuple[str, ...]) -> str:
    table = state.dice
    out = []
    for d in dice:
        face = table[d].face
        out.append(_DIE_TEXT.get((d, face)) or f"{color_of(d)} {FACE_LABEL.get(face or '', '?')}")
    return ", ".join(out)


# ---------------------------------------------------------------- turn start & movement

@auto("turn_start")
def run_turn_start(state: ElderSignState, step: Frame, events: Events) -> None:
    _turn_start(state, events)


def _turn_start(state: ElderSignState, events: Events) -> None:
    board.put(state, "turn_number", state.turn_number + 1)
    seat = state.current
    push_all(state, [("end_resolution", None, {}), ("clock", None, {}), ("next_turn", None, {})])
    s = state.table[seat]
    if s.eliminated or s.investigator is None:
        events.append(event(kind="turn.started", text=f"Turn {state.turn_number}: {state.seat_name(seat)} has "
                            "no investigator in play and only advances the clock.", seat=seat))
        return
    events.append(event(kind="turn.started", text=f"Turn {state.turn_number}: {name(state, seat)}'s turn.",
                        seat=seat))
    if state.phase == "battle":
        push(state, "battle_begin", seat)
    else:
        push(state, "move", seat)


@asks("move")
def ask_move(state: ElderSignState, step: Frame) -> Prompt:
    seat = step.owner
    here = inv(state, seat).location
    opts = [option(id="go:entrance", label="Go to the Entrance" if here != "entrance" else "Stay at the Entrance",
                   data=Go("entrance"))]
    no_other_worlds = board.modifier(state, "no_other_worlds")
    for where, cip in board.cards_in_play(state):
        if no_other_worlds and where.startswith("ow:"):
            continue
        stay = " (stay)" if where == here else ""
        opts.append(option(id=f"go:{where}", label=f"{board.card_name(state, cip.card)}{stay}", data=Go(where),
                           detail=board.card_tasks_text(state, cip)))
    closed: list[Unavailable] = []
    opts += items.options(state, seat, "move", closed)
    return prompt(seq=step.seq, seats=[seat], kind=PromptKind.ONE, title=f"{name(state, seat)}: where to?",
                  reason="Movement phase", options=opts, default=["go:entrance"], unavailable=tuple(closed))


@answers("move")
def answer_move(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    choice = action.data
    seat = step.owner
    if not isinstance(choice, Go):
        push(state, "move", seat)
        items.use(state, seat, choice, "move", events)
        return
    where = choice.where
    i = inv(state, seat)
    if i.location != where:
        events.append(event(kind="moved", text=f"{name(state, seat)} moves to {board.place_label(state, where)}.",
                            seat=seat, data={"to": where}))
    board.put(i, "location", where)
    if where == "entrance":
        push(state, "entrance", seat)
    else:
        push(state, "adventure_begin", seat)


# ---------------------------------------------------------------- the entrance (4.3)

def _entrance_costs(state: ElderSignState, seat: int) -> int:
    return sum(p["amount"] for k, p in items.abilities(state, seat) if k == "trophy_discount")


@asks("entrance")
def ask_entrance(state: ElderSignState, step: Frame) -> Prompt:
    seat = step.owner
    i = inv(state, seat)
    have = board.trophy_total(state, seat)
    off = _entrance_costs(state, seat)
    opts: list[Option] = []
    if not board.modifier(state, "no_first_aid"):
        if i.stamina < i.max_stamina:
            opts.append(option(id="aid:stamina", label="First Aid: +1 stamina (free)", data=FirstAid("stamina")))
        if i.sanity < i.max_sanity:
            opts.append(option(id="aid:sanity", label="First Aid: +1 sanity (free)", data=FirstAid("sanity")))
        full: tuple[tuple[AidKind, str, int], ...] = (
            ("full_stamina", "full stamina", 2), ("full_sanity", "full sanity", 2),
            ("full_both", "full stamina and sanity", 4))
        for key, label, cost in full:
            cost = max(0, cost - off)
            needs = (key != "full_sanity" and i.stamina < i.max_stamina) or (
                key != "full_stamina" and i.sanity < i.max_sanity)
            if needs and have >= cost:
                opts.append(option(id=f"aid:{key}", label=f"First Aid: {label} ({_price(cost)})",
                                   data=FirstAid(key)))
    if not board.modifier(state, "no_lost_and_found"):
        opts.append(option(id="lost", label="Lost & Found: roll a green die", data="lost"))
    if not board.modifier(state, "no_souvenirs"):
        for s in content(state).entrance.souvenirs:
            cost = max(0, s.cost - off)
            if have >= cost:
                opts.append(option(id=f"buy:{s.id}", label=f"Souvenir: {s.label} ({_price(cost)})",
                                   data=Souvenir(s.id)))
    opts.append(option(id="rest", label="Do nothing", data="rest"))
    return prompt(seq=step.seq, seats=[seat], kind=PromptKind.ONE,
                  title=f"{name(state, seat)} at the Entrance: one action",
                  reason="The Entrance (one action per turn)", options=opts,
                  default=[opts[0].id])


@answers("entrance")
def answer_entrance(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    seat, choice = step.owner, action.data
    off = _entrance_costs(state, seat)
    if choice == "rest":
        events.append(event(kind="entrance", text=f"{name(state, seat)} rests at the Entrance.", seat=seat))
        return
    if choice == "lost":
        push(state, "lost_and_found", seat)
        return
    if isinstance(choice, FirstAid) and choice.kind in ("stamina", "sanity"):
        apply_batch(state, [{choice.kind: 1}], seat, "entrance.first-aid")
        return
    if isinstance(choice, FirstAid):
        cost, purpose = max(0, (4 if choice.kind == "full_both" else 2) - off), f"aid:{choice.kind}"
    else:
        souvenir = next(s for s in content(state).entrance.souvenirs if s.id == choice.id)
        cost, purpose = max(0, souvenir.cost - off), f"buy:{souvenir.id}"
    if cost == 0:  # a discount made it free: nothing to pay
        _entrance_purchase(state, seat, purpose, events)
    else:
        push(state, "pay", seat, cost=cost, purpose=purpose, source=f"entrance.{purpose}")


def _entrance_purchase(state: ElderSignState, seat: int, purpose: str, events: Events) -> None:
    i = inv(state, seat)
    kind, _, key = purpose.partition(":")  # a purpose is data this module wrote: "aid:<kind>" or "buy:<id>"
    if kind == "aid":
        if key in ("full_stamina", "full_both"):
            i.stamina = i.max_stamina
        if key in ("full_sanity", "full_both"):
            i.sanity = i.max_sanity
        events.append(event(kind="first_aid", text=f"{name(state, seat)} is patched up "
                            f"({i.stamina} stamina, {i.sanity} sanity).", seat=seat))
        return
    souvenir = next(s for s in content(state).entrance.souvenirs if s.id == key)
    events.append(event(kind="souvenir", text=f"{name(state, seat)} buys {souvenir.label}.", seat=seat))
    apply_batch(state, souvenir.effects, seat, "entrance.souvenir")


@asks("pay")
def ask_pay(state: ElderSignState, step: Frame) -> Prompt:
    seat, cost = step.owner, step.args["cost"]
    opts = []
    for n, p in enumerate(board.payments(state, seat, cost)):
        label = " + ".join(f"{board.card_name(state, t)} ({board.trophy_value(state, t)})" for t in p)
        opts.append(option(id=f"p{n}", label=label[:100], data=Payment(n)))
    if step.args["purpose"] != "lose":
        opts.append(option(id="back", label="Never mind", data="back"))
    return prompt(seq=step.seq, seats=[seat], kind=PromptKind.ONE,
                  title=f"{name(state, seat)}: pay {cost} in trophies (no change is given)",
                  reason="Trophies", options=opts, default=[opts[0].id])


@answers("pay")
def answer_pay(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    seat, choice, purpose = step.owner, action.data, step.args["purpose"]
    if choice == "back":
        push(state, "entrance", seat)
        return
    paid = board.payments(state, seat, step.args["cost"])[choice.n]
    i = inv(state, seat)
    for t in paid:
        i.trophies.remove(t)
        board.return_trophy(state, t)
    events.append(event(kind="trophies.spent", text=f"{name(state, seat)} spends "
                        f"{', '.join(board.card_name(state, t) for t in paid)}.", seat=seat))
    if purpose != "lose":
        _entrance_purchase(state, seat, purpose, events)


@auto("lost_and_found")
def run_lost_and_found(state: ElderSignState, step: Frame, events: Events) -> None:
    """Roll one green die; items, abilities and clues may not change it (4.3, [AMBIG] no clue rerolls)."""
    face = DIE_TYPES["green"].roll(state.rng)
    e = content(state).entrance
    events.append(event(kind="lost_and_found", text=f"Lost & Found: the die shows {FACE_LABEL[face]}. "
                        f"{e.lost_and_found_text.get(face, '')}", seat=step.owner, data={"faces": [face]}))
    apply_batch(state, e.lost_and_found[face], step.owner, "entrance.lost-and-found")


# ---------------------------------------------------------------- adventures (3.2)

def alive(state: ElderSignState) -> bool:
    adv = state.adventure
    return adv is not None and adv.outcome is None and not state.over


@auto("adventure_begin")
def run_adventure_begin(state: ElderSignState, step: Frame, events: Events) -> None:
    """Starting pool: every green die that is not locked, secured or removed (3.2)."""
    where = inv(state, step.owner).location
    _begin_roll(state, where)
    events.append(event(kind="adventure.begun", text=f"{name(state, step.owner)} attempts "
                        f"{board.place_label(state, where)} with {plural(len(board.dice_at(state, 'pool')), 'die')}.",
                        seat=step.owner))
    _pre_roll(state, step.owner, events)


def _begin_roll(state: ElderSignState, where: str) -> None:
    state.adventure = new_adventure(where)
    for d, die in state.dice.items():
        if die.loc == "supply" and DIE_COLOR[d] == "green":
            board.set_die(state, d, "pool")


@auto("battle_begin")
def run_battle_begin(state: ElderSignState, step: Frame, events: Events) -> None:
    """Battle: roll the remaining green dice (plus item and spell dice) against the battle task (6.2)."""
    _begin_roll(state, "ao")
    events.append(event(kind="battle.attack", text=f"{name(state, step.owner)} attacks "
                        f"{board.place_label(state, 'ao')} with {plural(len(board.dice_at(state, 'pool')), 'die')}.",
                        seat=step.owner))
    _pre_roll(state, step.owner, events)


def _pre_options(state: ElderSignState, seat: int) -> list[Option]:
    opts = items.options(state, seat, "pre")
    for d in board.dice_at(state, "secured"):
        opts.append(option(id=f"release:{d}", label=f"Take the {color_of(d)} die off "
                           f"{board.card_name(state, state.dice[d].holder or '')} to roll it", data=Release(d)))
    return opts


def _any_pre_options(state: ElderSignState, seat: int, secured: bool | None = None) -> bool:
    """Whether `_pre_options` would offer anything (without building the options); `secured`: whether a die
    is on a spell, when the caller knows."""
    if secured is None:
        secured = any(die.loc == "secured" for die in state.dice.values())
    return secured or items.any_options(state, seat, "pre")


# Steps that always come next are called, not pushed: a step pushed last by an automatic step (or by an
# answer) is the very next to run, so running it at once is the same play, without a frame. The ops stay
# registered: other steps push them, and a saved game may hold them on its stack.

@auto("pre_roll")
def run_pre_roll(state: ElderSignState, step: Frame, events: Events) -> None:
    _pre_roll(state, step.owner, events)


def _pre_roll(state: ElderSignState, seat: int, events: Events) -> None:
    """Before a roll, a player may use items and abilities; when they have none to use, the roll is made at
    once (saves a click; the post-roll prompt still offers abandoning)."""
    if not alive(state):
        return
    if items.all_done(state):
        push(state, "succeed", seat)
        return
    locs = [die.loc for die in state.dice.values()]
    if _any_pre_options(state, seat, "secured" in locs):
        push(state, "pre_roll_ask", seat)
    elif "pool" in locs:
        _roll(state, seat, events)
    else:
        _out_of_dice(state, seat, events)


def _out_of_dice(state: ElderSignState, seat: int, events: Events) -> None:
    if state.phase == "battle":
        events.append(event(kind="battle.spent", text=f"{name(state, seat)} has no dice left to roll.", seat=seat))
        adv = state.adventure
        assert adv is not None  # a battle roll is under way
        adv.outcome = "done"
    else:
        _fail_adventure(state, seat, "no dice left", events)


@asks("pre_roll_ask")
def ask_pre_roll(state: ElderSignState, step: Frame) -> Prompt:
    seat = step.owner
    opts = []
    if board.dice_at(state, "pool"):
        opts.append(option(id="roll", label=f"Roll {plural(len(board.dice_at(state, 'pool')), 'die')}", data="roll"))
    opts += _pre_options(state, seat)
    if state.phase == "normal":
        opts.append(option(id="abandon", label="Give up (the adventure fails)", data="abandon", role="danger"))
    else:
        opts.append(option(id="stop", label="End the attack", data="stop", role="pass"))
    return prompt(seq=step.seq, seats=[seat], kind=PromptKind.ONE, title=f"{name(state, seat)}: ready to roll?",
                  reason=board.place_label(state, state.adventure.where if state.adventure else ""),
                  options=opts, default=[opts[0].id])


@answers("pre_roll_ask")
def answer_pre_roll(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    seat, choice = step.owner, action.data
    if choice == "roll":
        _roll(state, seat, events)
    elif choice == "abandon":
        _fail_adventure(state, seat, "gave up", events)
    elif choice == "stop":
        adv = state.adventure
        assert adv is not None  # the attack is under way
        adv.outcome = "done"
    elif isinstance(choice, Release):
        d = choice.die
        spell = state.dice[d].holder
        board.set_die(state, d, "pool")
        events.append(event(kind="die.released", text=f"{name(state, seat)} takes the {color_of(d)} die off "
                            f"{board.card_name(state, spell or '')}.", seat=seat))
        items.tidy_spells(state, events)
        _pre_roll(state, seat, events)
    else:
        push(state, "pre_roll", seat)
        items.use(state, seat, choice, "pre", events)


@auto("roll")
def run_roll(state: ElderSignState, step: Frame, events: Events) -> None:
    _roll(state, step.owner, events)


def _roll(state: ElderSignState, seat: int, events: Events) -> None:
    if not alive(state):
        return
    adv = state.adventure
    assert adv is not None
    table = state.dice
    pool = [d for d, die in table.items() if die.loc == "pool"]  # board.dice_at(state, "pool")
    faces = {}
    for d, k in zip(pool, state.rng.below_each(_SIDES, len(pool)), strict=True):  # in turn, as DieType.roll
        faces[d] = table[d].__dict__["face"] = _DIE_FACES[d][k]  # a plain write: see board.set_die
    a = adv.__dict__  # the same: plain writes of plain fields, on every roll of every game
    a["rolled"], a["assist_this_roll"], a["rolls"] = True, False, adv.rolls + 1
    state.__dict__["roll_number"] = state.roll_number + 1
    text = ", ".join([_DIE_TEXT[d, f] for d, f in faces.items()])  # dice_text(state, pool)
    events.append(event(kind="dice.rolled", text=f"{name(state, seat)} rolls: {text}.", seat=seat,
                        data={"dice": faces}))
    _post_roll(state, seat, events)


def _post_roll(state: ElderSignState, seat: int, events: Events) -> None:
    """The decision after a roll; in a battle, a roll that leaves nothing to decide is failed at once: the one
    thing the rules allow then is the failed roll (6.2 with 3.2), so no one is asked to click it, and the
    narration says why the die goes."""
    if state.phase == "battle" and not _battle_choice(state, seat):
        events.append(event(kind="battle.no_match", text=f"{name(state, seat)}: nothing in this roll completes "
                            "the battle task (a failed roll).", seat=seat))
        _fail_roll(state, seat, events)
        return
    push(state, "post_roll", seat)


@auto("resume_post")
def run_resume_post(state: ElderSignState, step: Frame, events: Events) -> None:
    """Back to the post-roll decision after an item, ability or clue, unless that finished the card."""
    adv = state.adventure
    if adv is None or adv.outcome is not None:
        return
    if items.all_done(state):
        push(state, "succeed", step.seat)
    else:
        _post_roll(state, step.owner, events)


def _battle_choice(state: ElderSignState, seat: int) -> bool:
    """Whether the post-roll question of a battle roll would offer more than the failed roll: a way to complete
    the battle task, a clue to spend on a reroll, or an item, spell or ability to use (as `ask_post_roll`)."""
    pool, held = _pool_and_held(state, seat)
    if task_options(state, seat, pool, held, _todo(state, "ao")):
        return True
    if pool and inv(state, seat).clues >= int(board.modifier(state, "clue_cost") or 1):
        return True
    return items.any_options(state, seat, "post")


def held_dice(state: ElderSignState, seat: int) -> list[str]:
    """Dice usable for a completion besides this roll: focused and assisted (not in battle, 3.2) and
    spell-secured dice (anyone's, on their own turn)."""
    return _pool_and_held(state, seat)[1]


def _pool_and_held(state: ElderSignState, seat: int) -> tuple[list[str], list[str]]:
    """(board.dice_at(state, "pool"), held_dice(state, seat)) in one pass over the dice: asked after every
    roll."""
    pool: list[str] = []
    focused: list[str] = []
    assisted: list[str] = []
    secured: list[str] = []
    normal = state.phase == "normal"
    me = str(seat)
    for d, die in state.dice.items():
        loc = die.loc
        if loc == "pool":
            pool.append(d)
        elif loc == "secured":
            secured.append(d)
        elif normal and loc == "assisted":
            assisted.append(d)
        elif normal and loc == "focused" and die.holder == me:
            focused.append(d)
    return pool, focused + assisted + secured


def task_options(state: ElderSignState, seat: int, pool: list[str] | None = None,
                 held: list[str] | None = None,
                 tasks: list[tuple[str, Task]] | None = None) -> list[Option]:
    """Each way to complete an open task with the rolled and held dice (the callers that know the pool, the
    held dice or the open tasks already pass them)."""
    adv = state.adventure
    if adv is None or not adv.rolled:
        return []
    table = state.dice
    if pool is None:
        pool = board.dice_at(state, "pool")
    if held is None:
        held = held_dice(state, seat)
    dice = [(d, face) for d in pool + held if (face := table[d].face) is not None]
    # (a die added after the roll has no face yet: it waits for the next roll)
    if tasks is None:
        tasks = _todo(state, adv.where)
    i = inv(state, seat)
    opts = []
    for key, task in tasks:
        if (task.sanity and i.sanity - task.sanity <= 0) or (task.stamina and i.stamina - task.stamina <= 0):
            continue  # the cost gate (1.5)
        opts += _ways(key, task, dice)
    return opts


#: the ways to complete a task after a roll, by (the task's text, the dice that matter to it as players read
#: them: "green 3🔍", ...): each way is (positions of its dice among those, its label). The ranking reads a die's
#: colour, face and position, never its id, and a task's text names each of its symbols, so this key holds all
#: the ranking reads: the same few tasks meet the same few relevant faces after roll upon roll.
_WAYS: dict[tuple[str, tuple[str, ...]], tuple[tuple[tuple[int, ...], str], ...]] = {}
#: (task, its requirement, the most dice of each face a way to complete it can use), by id of the task: the
#: open tasks are shared objects (board.task_list), asked about after every roll
_REQS: dict[int, tuple[Task, Req, dict[str, int]]] = {}


def _ways(key: str, task: Task, dice: list[tuple[str, str]]) -> list[Option]:
    """The options completing `task` (key `key`) with some of `dice`, best first (matcher.completions)."""
    got = _REQS.get(id(task))
    if got is None or got[0] is not task:
        if len(_REQS) > 4096:
            _REQS.clear()
        req = requirement(task)
        got = _REQS[id(task)] = (task, req, face_bounds(req))
    _, req, bound = got
    relevant: list[tuple[str, str]] = []  # the dice that matter to the task (matcher.relevant_dice)
    kinds: list[str] = []  # how they read
    for d in dice:
        if bound[d[1]]:
            relevant.append(d)
            kinds.append(_DIE_TEXT[d])
    text = task.text()
    ways = _WAYS.get((text, tuple(kinds)))
    if ways is None:
        ways = _ranked_ways(req, text, relevant, kinds)
    out = []
    for at, label in ways:
        combo = tuple([relevant[p][0] for p in at])
        choice = _CHOICES.get((key, combo))
        if choice is None:
            if len(_CHOICES) > 65536:
                _CHOICES.clear()
            choice = _CHOICES[key, combo] = (f"task:{key}:{','.join(combo)}", DoTask(key, combo))
        out.append(option(id=choice[0], label=label, data=choice[1]))
    return out


#: (option id, data) of completing a task with some dice, by (task key, dice): the same few recur
_CHOICES: dict[tuple[str, tuple[str, ...]], tuple[str, DoTask]] = {}


def _ranked_ways(req: Req, text: str, relevant: list[tuple[str, str]], kinds: list[str]
                 ) -> tuple[tuple[tuple[int, ...], str], ...]:
    """Work out (and keep in `_WAYS`) the ways to complete a task of this text with these relevant dice."""
    if len(_WAYS) > 65536:
        _WAYS.clear()
    position = {d: p for p, (d, _) in enumerate(relevant)}
    found = []
    for combo in ranked_completions(req, relevant, limit=6):
        at = tuple([position[d] for d in combo])
        found.append((at, f"Complete {text} with {', '.join([kinds[p] for p in at])}"[:100]))
    ways = _WAYS[text, tuple(kinds)] = tuple(found)
    return ways


def _todo(state: ElderSignState, where: str) -> list[tuple[str, Task]]:
    """The tasks the current roll may complete: the open tasks of the card, or the battle task."""
    if where == "ao":
        return [("ao", content(state).ancient_ones[state.ao].battle_task)]
    return board.open_tasks(state, where)


@asks("post_roll")
def ask_post_roll(state: ElderSignState, step: Frame) -> Prompt:
    seat = step.owner
    i = inv(state, seat)
    pool, held = _pool_and_held(state, seat)
    where = state.adventure.where if state.adventure else ""
    tasks = _todo(state, where) if where else []
    opts = task_options(state, seat, pool, held, tasks)
    cost = int(board.modifier(state, "clue_cost") or 1)
    if i.clues >= cost and pool:
        opts.append(option(id="clue", label=f"Spend {plural(cost, 'clue')} to reroll "
                           f"(you have {i.clues})", data="clue"))
    closed: list[Unavailable] = []
    opts += items.options(state, seat, "post", closed)
    if len(pool) > 1:
        fail_label = "Failed roll: discard a die and roll again"
    elif state.phase == "battle":
        fail_label = "Failed roll: discard your last die (your attack ends)"
    else:
        fail_label = "Failed roll: discard your last die (the adventure fails)"
    opts.append(option(id="fail", label=fail_label, data="fail", role="danger"))
    if state.phase == "normal":
        opts.append(option(id="abandon", label="Give up (the adventure fails)", data="abandon", role="danger"))
    todo = " | ".join([t.text() for _, t in tasks])
    kept = f" (held: {dice_text(state, held)})" if held else ""
    return prompt(seq=step.seq, seats=[seat], kind=PromptKind.ONE,
                  title=f"{name(state, seat)} rolled {dice_text(state, pool)}{kept}. To do: {todo}",
                  reason=board.place_label(state, where), options=opts, default=["fail"],
                  unavailable=tuple(closed))


@answers("post_roll")
def answer_post_roll(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    seat, choice = step.owner, action.data
    if isinstance(choice, DoTask):
        complete_task(state, seat, choice.key, list(choice.dice), events)
    elif choice == "clue":
        push(state, "resume_post", seat)
        push(state, "pick_dice", seat, purpose="clue", max=8, source="clue")
    elif choice == "fail":
        _fail_roll(state, seat, events)
    elif choice == "abandon":
        _fail_adventure(state, seat, "gave up", events)
    else:
        push(state, "resume_post", seat)
        items.use(state, seat, choice, "post", events)


def complete_task(state: ElderSignState, seat: int, key: str, dice: list[str], events: Events) -> None:
    adv = state.adventure
    assert adv is not None
    for d in dice:
        board.set_die(state, d, "battle" if key == "ao" else "assigned", keep_face=True)
    board.put(adv, "rolled", False)
    items.tidy_spells(state, events)
    if key == "ao":
        task = content(state).ancient_ones[state.ao].battle_task
        events.append(event(kind="task.completed", text=f"{name(state, seat)} completes the battle task "
                            f"with {dice_text(state, dice)}.", seat=seat))
        _pay_costs(state, seat, task.clock, task.sanity, task.stamina, events)
        remove_doom(state, 1, "battle", events)
        push(state, "pre_roll", seat)
        return
    task = dict(board.task_list(state, adv.where))[key]
    monster = board.monster_for_task(state, adv.where, key)
    adv.completed.append(key)
    events.append(event(kind="task.completed", text=f"{name(state, seat)} completes {task.text()} with "
                        f"{dice_text(state, dice)}.", seat=seat, data={"task": key}))
    if monster is not None:
        monster.defeated_by = seat
        events.append(event(kind="monster.defeated", text=f"{board.card_name(state, monster.monster)} is "
                            "defeated.", seat=seat, cause=monster.monster))
    push(state, "pre_roll", seat)
    _pay_costs(state, seat, task.clock, task.sanity, task.stamina, events)


def _pay_costs(state: ElderSignState, seat: int, clock: int, sanity: int, stamina: int, events: Events) -> None:
    """Costs are paid after the dice (1.5); CLOCK moves the hand now, midnight waits for the turn's end."""
    if clock:
        advance_clock(state, clock, "task cost", events)
    effects = ([{"sanity": -sanity}] if sanity else []) + ([{"stamina": -stamina}] if stamina else [])
    apply_batch(state, effects, seat, "task cost")


@auto("fail_roll")
def run_fail_roll(state: ElderSignState, step: Frame, events: Events) -> None:
    _fail_roll(state, step.owner, events)


def _fail_roll(state: ElderSignState, seat: int, events: Events) -> None:
    """A failed roll: terror first (card + Mythos, before the discard), then discard a die, then focus or
    assistance (3.2). A Wildcard never triggers terror ([AMBIG] 1.2 default)."""
    if not alive(state):
        return
    adv = state.adventure
    assert adv is not None
    board.put(adv, "rolled", False)
    table = state.dice
    pool = [d for d, die in table.items() if die.loc == "pool"]  # board.dice_at(state, "pool")
    terror = state.phase == "normal" and any(table[d].face == TERROR for d in pool)
    if not terror:  # nothing comes between: the discard is made at once, then the after-fail step
        board.put(state, "after_fail_frame", push(state, "after_fail", seat).id)
        _discard_die(state, seat, "failed roll", events, pool)
        return
    frames = push_all(state, [("discard_die", seat, {"reason": "failed roll", "forced": False}),
                              ("after_fail", seat, {})])
    state.after_fail_frame = frames[1].id
    c = content(state)
    card = board.card_data(state, adv.where)
    events.append(event(kind="terror", text="Terror! A die shows the terror face.", seat=seat))
    batch = list(card.terror) if card else []
    if state.mythos:
        batch += c.mythos[state.mythos].terror
    batch += c.ancient_ones[state.ao].on_terror
    apply_batch(state, batch, seat, card.id if card else "terror", where=adv.where, context="terror")


@auto("discard_die")
def run_discard_die(state: ElderSignState, step: Frame, events: Events) -> None:
    _discard_die(state, step.owner, step.args.get("reason", ""), events)


def _discard_die(state: ElderSignState, seat: int, reason: str, events: Events, pool: list[str] | None = None
                 ) -> None:
    """Discard a die of the pool (`pool`: its dice, when the caller has them): asked only when they differ."""
    if not alive(state):
        return
    if pool is None:
        pool = board.dice_at(state, "pool")
    table = state.dice
    by_face = _faces_matter(state, seat, len(pool) - 1)
    kinds = {(DIE_COLOR[d], table[d].face if by_face else None) for d in pool}
    if len(kinds) == 1:
        _discard(state, seat, pool[0], events)
    elif pool:
        push(state, "discard_pick", seat, reason=reason)
    else:
        _discard(state, seat, None, events)


def _faces_matter(state: ElderSignState, seat: int, left: int) -> bool:
    """Whether the faces of the pool's dice may still matter once one is discarded and `left` remain: the roll
    is still live (its dice may complete a task), or a focus or an assistance may set one aside before the next
    roll (3.2). Otherwise every die left is rolled again before anything reads it, and a discard differs only
    by colour (an item die spent is gone for the adventure)."""
    adv = state.adventure
    if adv is None:
        return False
    return adv.rolled or _focus_allowed(state, seat, left) or bool(_helpers(state, seat, left))


@asks("discard_pick")
def ask_discard(state: ElderSignState, step: Frame) -> Prompt:
    """Which die to discard: one option per colour and face, or per colour when the faces no longer matter
    (`_faces_matter`: every die left is rolled again first)."""
    opts = []
    seen = set()
    pool = [(d, die.face) for d, die in state.dice.items() if die.loc == "pool"]
    by_face = _faces_matter(state, step.owner, len(pool) - 1)
    for d, face in pool:
        k = (DIE_COLOR[d], face if by_face else None)
        if k not in seen:
            seen.add(k)
            if by_face:
                text = _DIE_TEXT.get((d, face)) or dice_text(state, (d,))
            else:
                text = f"a {DIE_COLOR[d]} die"
            opts.append(option(id=d, label=f"Discard {text}", data=d))
    return prompt(seq=step.seq, seats=[step.owner], kind=PromptKind.ONE,
                  title=f"{name(state, step.owner)}: discard which die?", reason=step.args.get("reason", ""),
                  options=opts, default=[opts[0].id])


@answers("discard_pick")
def answer_discard(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    _discard(state, step.owner, action.data, events)


def _discard(state: ElderSignState, seat: int, die: str | None, events: Events) -> None:
    adv = state.adventure
    assert adv is not None
    if die is not None:
        board.set_die(state, die, "discarded", keep_face=True)
        if DIE_COLOR[die] != "green":
            adv.item_dice_spent.append(die)
        events.append(event(kind="die.discarded", text=f"{name(state, seat)} discards {dice_text(state, [die])}.",
                            seat=seat))
    if not any(d.loc == "pool" for d in state.dice.values()):
        # drop the after-fail step: the adventure (or the attack) is over
        if state.after_fail_frame is not None:
            FLOW.cancel(state, state.after_fail_frame)
        if state.phase == "battle":
            _out_of_dice(state, seat, events)
        else:
            _fail_adventure(state, seat, "the last die was discarded", events)


def _sets_aside(state: ElderSignState, left: int | None = None) -> bool:
    """Whether a die may be set aside now (focus or assistance): in an adventure, with a die left to roll.
    `left`: the dice the pool will hold (after a discard still to come); by default, those it holds now."""
    if left is None:
        left = sum(1 for die in state.dice.values() if die.loc == "pool")
    return state.adventure is not None and state.phase == "normal" and left > 1


def _focus_allowed(state: ElderSignState, seat: int, left: int | None = None) -> bool:
    adv = state.adventure
    if adv is None or state.phase != "normal" or board.modifier(state, "no_focus"):
        return False
    extra = sum(p["dice"] for _, k, p in ability_sources(state, seat) if k == "extra_focus")
    return adv.focus_used < 1 + extra and _sets_aside(state, left)


def _helpers(state: ElderSignState, seat: int, left: int | None = None) -> list[int]:
    adv = state.adventure
    if (adv is None or state.phase != "normal" or adv.assist_this_roll or board.modifier(state, "no_assist")
            or not _sets_aside(state, left)):
        return []
    return [s for s in board.investigators_at(state, adv.where) if s != seat and s not in adv.helpers]


@auto("after_fail")
def run_after_fail(state: ElderSignState, step: Frame, events: Events) -> None:
    """After the discard, the player may focus OR ask for assistance, never both on one failed roll. Both
    leave at least one die to roll ([AMBIG] 9.10 default: the last pool die can't be set aside)."""
    if not alive(state):
        return
    seat = step.owner
    if _sets_aside(state) and (_focus_allowed(state, seat) or _helpers(state, seat)):
        push(state, "after_fail_ask", seat)
    else:
        _pre_roll(state, seat, events)


@asks("after_fail_ask")
def ask_after_fail(state: ElderSignState, step: Frame) -> Prompt:
    seat = step.owner
    opts = [option(id="continue", label="Roll the remaining dice", data="continue")]
    if _focus_allowed(state, seat):
        for d in _distinct(state, board.dice_at(state, "pool")):
            opts.append(option(id=f"focus:{d}", label=f"Focus: keep {dice_text(state, [d])}", data=Focus(d)))
    for h in _helpers(state, seat):
        opts.append(option(id=f"assist:{h}", label=f"Ask {name(state, h)} for assistance", data=AskHelp(h)))
    return prompt(seq=step.seq, seats=[seat], kind=PromptKind.ONE,
                  title=f"{name(state, seat)}: focus, ask for help, or roll on?",
                  reason="Failed roll", options=opts, default=["continue"])


def _distinct(state: ElderSignState, dice: list[str]) -> list[str]:
    seen, out = set(), []
    for d in dice:
        k = (color_of(d), state.dice[d].face)
        if k not in seen:
            seen.add(k)
            out.append(d)
    return out


@answers("after_fail_ask")
def answer_after_fail(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    seat, choice = step.owner, action.data
    adv = state.adventure
    assert adv is not None
    if choice == "continue":
        _pre_roll(state, seat, events)
    elif isinstance(choice, Focus):
        d = choice.die
        board.set_die(state, d, "focused", str(seat), keep_face=True)
        adv.focus_used += 1
        events.append(event(kind="die.focused", text=f"{name(state, seat)} focuses {dice_text(state, [d])}.",
                            seat=seat))
        _pre_roll(state, seat, events)
    else:
        helper = choice.helper
        adv.assist_this_roll = True
        push(state, "assist_consent", helper, asker=seat)


@asks("assist_consent")
def ask_assist(state: ElderSignState, step: Frame) -> Prompt:
    asker = step.args["asker"]
    return prompt(seq=step.seq, seats=[step.owner], kind=PromptKind.CONFIRM,
                  title=f"{name(state, step.owner)}: will you assist {name(state, asker)}? If the adventure fails, "
                  "you lose 1 sanity or 1 stamina.", reason="Assistance",
                  options=[option(id="yes", label="Assist", data=True), option(id="no", label="Refuse", data=False)],
                  default=["no"])


@answers("assist_consent")
def answer_assist(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    asker = step.args["asker"]
    if not action.data:
        events.append(event(kind="assist.refused", text=f"{name(state, step.owner)} declines to assist.",
                            seat=step.owner))
        push(state, "after_fail", asker)
        return
    adv = state.adventure
    assert adv is not None  # the asker's adventure is under way
    adv.helpers.append(step.owner)
    push(state, "assist_die", asker, helper=step.owner)


@asks("assist_die")
def ask_assist_die(state: ElderSignState, step: Frame) -> Prompt:
    opts = [option(id=d, label=f"Give {dice_text(state, [d])}", data=d)
            for d in _distinct(state, board.dice_at(state, "pool"))]
    return prompt(seq=step.seq, seats=[step.owner], kind=PromptKind.ONE,
                  title=f"{name(state, step.owner)}: which die does {name(state, step.args['helper'])} hold?",
                  reason="Assistance", options=opts, default=[opts[0].id])


@answers("assist_die")
def answer_assist_die(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    d, helper = action.data, step.args["helper"]
    board.set_die(state, d, "assisted", str(helper), keep_face=True)
    events.append(event(kind="die.assisted", text=f"{name(state, helper)} holds {dice_text(state, [d])} for "
                        f"{name(state, step.owner)}.", seat=helper))
    _pre_roll(state, step.owner, events)


@auto("succeed")
def run_succeed(state: ElderSignState, step: Frame, events: Events) -> None:
    """Success, in the rulebook's order (3.2): markers home, dice back, trophy, replacement, rewards."""
    if not alive(state):
        return
    adv = state.adventure
    assert adv is not None
    adv.outcome = "success"
    seat, where = step.owner, adv.where
    card = board.card_data(state, where)
    cip = board.card_at(state, where)
    assert card is not None and cip is not None
    events.append(event(kind="adventure.success", text=f"{name(state, seat)} resolves {card.name}!", seat=seat,
                        cause=card.id, render=True))
    for s in board.investigators_at(state, where):
        inv(state, s).location = "entrance"
    _return_adventure_dice(state)
    inv(state, seat).trophies.append(card.id)
    for m in cip.monsters:  # every monster on a resolved card was defeated (it was one of its tasks)
        if m.defeated_by is None:
            m.defeated_by = seat
    collect_from(state, cip, events)  # now, before the card leaves play
    board.unlock_source(state, card.id, events)
    if where.startswith("slot:"):
        deal_adventure(state, int(where[5:]), events)
    else:
        state.other_worlds = [c for c in state.other_worlds if c.card != card.id]
    rewards = list(card.rewards)
    bonus = sum(p["clues"] for k, p in items.abilities(state, seat) if k == "clue_bonus")
    if bonus:
        rewards.append({"clues": bonus})
    apply_batch(state, rewards, seat, card.id)


def deal_adventure(state: ElderSignState, slot: int, events: Events) -> None:
    """Replace a slot from the top of the deck; an empty deck leaves the slot empty ([AMBIG] 9.16)."""
    card_id = state.decks["adventure"].draw(state.rng)
    state.slots[slot] = new_card_in_play(card_id) if card_id else None
    if card_id is None:
        events.append(event(kind="deck.empty", text="The adventure deck is empty; the space stays bare."))
        return
    card = content(state).adventures[card_id]
    events.append(event(kind="adventure.dealt", text=f"A new adventure: {card.name}.", cause=card_id))
    for color in card.locks:
        board.lock_die(state, color, card_id, "adventure", events)


def _return_adventure_dice(state: ElderSignState) -> None:
    _return_dice(state, ("pool", "assigned", "discarded", "battle"))


def _return_dice(state: ElderSignState, locs: tuple[str, ...]) -> None:
    """Every die in one of `locs` leaves play (board.return_die), place by place in the order given."""
    at: dict[str, list[str]] = {}
    for d, die in state.dice.items():
        if die.loc in locs:
            at.setdefault(die.loc, []).append(d)
    if at:
        for loc in locs:
            for d in at.get(loc, ()):
                board.return_die(state, d)


@auto("fail_adventure")
def run_fail_adventure(state: ElderSignState, step: Frame, events: Events) -> None:
    _fail_adventure(state, step.owner, step.args.get("reason", ""), events)


def _fail_adventure(state: ElderSignState, seat: int, reason: str, events: Events) -> None:
    """Failure (3.2): dice back, progress reset, the marker stays, monsters collected before the penalties,
    then penalties, then each helper pays 1 sanity or stamina ([AMBIG] default: every helper pays)."""
    if not alive(state):
        return
    adv = state.adventure
    assert adv is not None
    adv.outcome = "failure"
    card = board.card_data(state, adv.where)
    events.append(event(kind="adventure.failure", text=f"{name(state, seat)} fails "
                        f"{card.name if card else 'the adventure'} ({reason}).", seat=seat,
                        cause=card.id if card else "", render=True))
    _return_dice(state, ("pool", "assigned", "discarded"))
    adv.completed = []
    batch = list(card.penalties) if card else []
    batch += content(state).ancient_ones[state.ao].on_fail
    for h in adv.helpers:
        push(state, "assist_cost", h, where=adv.where)
    apply_batch(state, batch, seat, card.id if card else "failure", where=adv.where)
    _collect(state, events)


@auto("assist_cost")
def run_assist_cost(state: ElderSignState, step: Frame, events: Events) -> None:
    """A helper of a failed adventure loses 1 sanity or stamina (rulebook: Assistance). This frame is an anchor
    (ops.ANCHOR_OPS): a penalty that awakens the Ancient One ends the resolution, but the helper still pays."""
    if state.table[step.owner].investigator is None:
        return
    push(state, "effects", step.owner, effects=[{"choose": [[{"sanity": -1}], [{"stamina": -1}]]}],
         source="assistance", where=step.args["where"], context="")


@auto("collect")
def run_collect(state: ElderSignState, step: Frame, events: Events) -> None:
    _collect(state, events)


def _collect(state: ElderSignState, events: Events) -> None:
    """Defeated monsters go to their defeater's trophies; their locks free; their back text applies (5.3)."""
    for cip in [*state.slots, *state.other_worlds]:
        if cip is not None:
            collect_from(state, cip, events)


def collect_from(state: ElderSignState, cip: CardInPlay, events: Events) -> None:
    c = content(state)
    for m in [m for m in cip.monsters if m.defeated_by is not None]:
        cip.monsters.remove(m)
        s = m.defeated_by
        assert s is not None
        owner = state.table[s].investigator
        if owner is not None:
            owner.trophies.append(m.monster)
        else:
            state.cup.append(m.monster)
        board.unlock_source(state, m.monster, events)
        monster = c.monsters[m.monster]
        if monster.on_defeat and owner is not None:
            apply_batch(state, monster.on_defeat, s, m.monster)


@auto("end_resolution")
def run_end_resolution(state: ElderSignState, step: Frame, events: Events) -> None:
    """End of the Resolution phase: collect monsters, unused focused/assisted dice and item dice return
    (3.2 "End of phase")."""
    if not step.args.get("collected"):
        push(state, "end_resolution", None, collected=True)
        _collect(state, events)
        return
    _return_dice(state, ("pool", "assigned", "discarded", "focused", "assisted", "battle"))
    items.tidy_spells(state, events)
    if state.adventure is not None and not state.over:
        ao = content(state).ancient_ones[state.ao]
        what = "attack" if state.adventure.where == "ao" else "adventure"
        events.append(event(kind=TABLE_CHANGED, seat=state.current, cause="resolution",
                            text=f"After {name(state, state.current)}'s {what}: doom {state.doom}/"
                                 f"{len(ao.doom_track)}, Elder Signs {state.elder_signs}/{ao.elder_signs}."))
    board.put(state, "adventure", None)


# ---------------------------------------------------------------- clock, midnight, next turn (3.4)

@auto("clock")
def run_clock(state: ElderSignState, step: Frame, events: Events) -> None:
    advance_clock(state, 1, "clock phase", events)
    if state.midnights_pending:
        _midnight(state, events)


@auto("midnight")
def run_midnight(state: ElderSignState, step: Frame, events: Events) -> None:
    _midnight(state, events)


def _midnight(state: ElderSignState, events: Events) -> None:
    """Midnight strikes after the turn, once per crossing ([AMBIG] 3.4 default). Normal phase: "At Midnight"
    effects (adventure slots row by row, then Other Worlds, then the Mythos card's next-midnight text —
    [AMBIG] order default), a new Mythos card, then once-per-day abilities refresh. In battle: the Ancient
    One attacks instead; once-per-day abilities still refresh ([AMBIG] 6.2 default)."""
    if state.midnights_pending <= 0:
        return
    state.midnights_pending -= 1
    state.midnight_now = True
    # the hand may have moved on since it passed XII (a task's cost, then the Clock phase): say so, so the
    # narration reads in order
    late = " (the clock passed XII during the turn)" if state.clock != 0 else ""
    events.append(event(kind="midnight", text=f"Midnight strikes{late}.", render=True))
    steps: list[tuple[str, int | None, dict]] = []
    c = content(state)
    if state.phase == "battle":
        steps.append(("ao_attack", None, {}))
    else:
        if state.turn_number > 1:
            for where in board.places(state):
                card = board.card_data(state, where)
                if card and card.midnight:
                    steps.append(("effects", state.current, {"effects": card.midnight, "source": card.id,
                                                             "where": where, "context": "midnight"}))
            if state.mythos and c.mythos[state.mythos].next_midnight:
                steps.append(("effects", state.current, {"effects": c.mythos[state.mythos].next_midnight,
                                                         "source": state.mythos, "context": "midnight"}))
            if c.ancient_ones[state.ao].at_midnight:
                steps.append(("effects", state.current, {"effects": c.ancient_ones[state.ao].at_midnight,
                                                         "source": state.ao, "context": "midnight"}))
            steps.append(("check", None, {}))
        steps.append(("draw_mythos", None, {}))
    steps.append(("midnight_end", None, {}))
    push_all(state, steps)


@auto("draw_mythos")
def run_draw_mythos(state: ElderSignState, step: Frame, events: Events) -> None:
    """Draw the next Mythos card (at midnight, and once at setup step 9, which is not a midnight)."""
    if state.phase != "normal":
        return
    draw_mythos(state, events)


def draw_mythos(state: ElderSignState, events: Events) -> None:
    old = state.mythos
    if old is not None:
        state.decks["mythos"].put_bottom(old)
        board.unlock_source(state, old, events)
    new = state.decks["mythos"].draw(state.rng)
    state.mythos = new
    if new is None:
        return
    m = content(state).mythos[new]
    events.append(event(kind="mythos.drawn", text=f"Mythos: {m.name}. {m.text}", cause=new))
    for color in m.locks:
        board.lock_die(state, color, new, "mythos", events)
    apply_batch(state, m.immediate, state.current, new)


@auto("midnight_end")
def run_midnight_end(state: ElderSignState, step: Frame, events: Events) -> None:
    state.day += 1
    state.midnight_now = False
    events.append(event(kind=TABLE_CHANGED, text=f"Midnight is over: day {state.day} begins.", cause="midnight"))
    if state.midnights_pending:
        _midnight(state, events)


@auto("ao_attack")
def run_ao_attack(state: ElderSignState, step: Frame, events: Events) -> None:
    ao = content(state).ancient_ones[state.ao]
    events.append(event(kind="ao.attack", text=f"{ao.name} attacks: {ao.attack_text}", cause=ao.id))
    apply_batch(state, ao.attack, state.current, ao.id)


@auto("next_turn")
def run_next_turn(state: ElderSignState, step: Frame, events: Events) -> None:
    """Replacement investigators are chosen after the turn (digest 7.4-7.5), then the next seat plays."""
    for s, seat in enumerate(state.table):
        if seat.pending_new:
            if state.phase == "battle" or not state.unused_investigators:
                seat.pending_new, seat.eliminated = False, True  # none left: the player is out (7.4)
                events.append(event(kind="seat.eliminated", text=f"{state.seat_name(s)} has no investigator "
                                    "left and is out of the game.", seat=s))
                continue
            push(state, "next_turn", None)
            push(state, "new_investigator", s)
            return
    if _check_loss(state, events):
        return
    n = len(state.table)
    nxt = (state.current + 1) % n
    if state.phase == "normal":
        for _ in range(n):
            if not state.table[nxt].eliminated:
                break
            nxt = (nxt + 1) % n
    ended = state.current
    board.put(state, "current", nxt)
    events.append(event(kind="turn.ended", text=f"End of turn {state.turn_number} ({state.seat_name(ended)}).",
                        seat=ended, render=True))
    _turn_start(state, events)


def _check_loss(state: ElderSignState, events: Events) -> bool:
    if not board.living_seats(state) and not any(s.pending_new for s in state.table):
        lose(state, "Every investigator has been devoured. The Ancient One's shadow covers the world.", events)
        return True
    return False


# ---------------------------------------------------------------- devoured (7)

@auto("devour")
def run_devour(state: ElderSignState, step: Frame, events: Events) -> None:
    seat = step.owner
    s = state.table[seat]
    i = s.investigator
    if i is None:
        return
    events.append(event(kind="devoured", text=f"{name(state, seat)} is devoured!", seat=seat, render=True,
                        cause=step.args.get("source", "")))
    for card in i.items + i.allies:
        board.return_item(state, card)
    for spell in i.cast:  # [AMBIG] 7.3 default: spells return too, freeing their dice
        for d in board.dice_at(state, "secured", spell):
            board.return_die(state, d)
        board.return_item(state, spell)
    for t in i.trophies:
        board.return_trophy(state, t)
    for loc in ("focused", "assisted"):
        for d in board.dice_at(state, loc, str(seat)):
            board.return_die(state, d)
    s.investigator = None
    s.devoured += 1
    if seat == state.current and state.adventure is not None and state.adventure.outcome is None:
        state.adventure.outcome = "devoured"  # the player goes straight to the Clock phase (7.5)
    if state.phase == "battle":
        s.eliminated = True
    else:
        s.pending_new = True
    add_doom(state, "devoured", events)
    push(state, "check", None)
    if state.phase == "battle":
        _check_loss(state, events)


@asks("new_investigator")
def ask_new_investigator(state: ElderSignState, step: Frame) -> Prompt:
    c = content(state)
    opts = [option(id=i, label=f"{c.investigators[i].name}, {c.investigators[i].occupation}",
                   detail=c.investigators[i].ability_text, data=i) for i in state.unused_investigators[:25]]
    return prompt(seq=step.seq, seats=[step.owner], kind=PromptKind.ONE,
                  title=f"{state.seat_name(step.owner)}: choose a new investigator",
                  reason="Devoured", options=opts, default=[opts[0].id])


@answers("new_investigator")
def answer_new_investigator(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    seat_ix = step.owner
    seat = state.table[seat_ix]
    seat.pending_new = False
    if state.phase == "battle":
        seat.eliminated = True
        return
    start_investigator(state, seat_ix, action.data, events)


def start_investigator(state: ElderSignState, seat: int, card_id: str, events: Events) -> None:
    c = content(state).investigators[card_id]
    state.unused_investigators.remove(card_id)
    state.table[seat].investigator = Investigator(card=card_id, sanity=c.max_sanity, stamina=c.max_stamina,
                                                  max_sanity=c.max_sanity, max_stamina=c.max_stamina,
                                                  clues=c.start.get("clues", 0))
    events.append(event(kind="investigator.joined", text=f"{state.seat_name(seat)} plays {c.name}, "
                        f"{c.occupation}.", seat=seat))
    for deck in ("common", "unique", "spell", "ally"):
        for _ in range(c.start.get(deck, 0)):
            draw_card(state, seat, deck, card_id, events)
    ao = content(state).ancient_ones[state.ao]
    if ao.at_start:
        apply_batch(state, ao.at_start, seat, ao.id)


# ---------------------------------------------------------------- monsters (5.1)

@auto("monster")
def run_monster(state: ElderSignState, step: Frame, events: Events) -> None:
    """A monster appears: a random marker from the cup ([AMBIG] empty cup: nothing), placed on a free
    monster slot, else below a card with the fewest monsters ([AMBIG] 5.1: monsters in slots count)."""
    if state.phase != "normal":
        return
    if not state.cup:
        events.append(event(kind="monster.none", text="The monster cup is empty: nothing appears."))
        return
    monster = state.cup.pop(state.rng.below(len(state.cup)))
    spots = monster_spots(state)
    if not spots:
        state.cup.append(monster)
        return
    source = step.args.get("source", "")
    if len(spots) == 1:
        where, slot = spots[0]
        board.add_monster_to(state, where, monster, slot, events, because(state, source))
        return
    push(state, "place_monster", state.current, monster=monster, source=source)


def monster_spots(state: ElderSignState) -> list[tuple[str, int | None]]:
    """Where a monster may appear (5.1): a free monster slot of a card in play (not one of a task completed in
    the adventure under way), else below a card with the fewest monsters."""
    free: list[tuple[str, int | None]] = []
    cards = board.cards_in_play(state)
    adv = state.adventure
    for where, cip in cards:
        slots = _monster_slots(state, cip.card)
        if not slots:
            continue
        taken = {m.slot for m in cip.monsters}
        done = adv.completed if adv is not None and adv.where == where else ()
        for i in slots:
            if i not in taken and f"t{i}" not in done:
                free.append((where, i))
    if free:
        return free
    if not cards:
        return []
    counts = [(w, board.monster_count(cip)) for w, cip in cards]
    fewest = min(n for _, n in counts)
    return [(w, None) for w, n in counts if n == fewest]


def _monster_slots(state: ElderSignState, card_id: str) -> tuple[int, ...]:
    """The printed tasks of a card (by index) that have a monster slot."""
    got = _SLOTS.get((state.content_version, card_id))
    if got is None:
        card = board.card_of(state, card_id)
        assert card is not None
        got = _SLOTS[state.content_version, card_id] = tuple(
            [i for i, t in enumerate(card.tasks) if t.slot != "none"])
    return got


#: `_monster_slots` by (content version, card): a version's content never changes
_SLOTS: dict[tuple[str, str], tuple[int, ...]] = {}


@asks("place_monster")
def ask_place_monster(state: ElderSignState, step: Frame) -> Prompt:
    m = content(state).monsters[step.args["monster"]]
    opts = []
    for where, slot in monster_spots(state):
        spot = f"task {slot + 1}" if slot is not None else "below the card"
        opts.append(option(id=f"{where}|{slot if slot is not None else '-'}", data=Spot(where, slot),
                           label=f"{board.place_label(state, where)} ({spot})"[:100]))
    return prompt(seq=step.seq, seats=[step.owner], kind=PromptKind.ONE,
                  title=f"{name(state, step.owner)}: where does {m.name} ({m.task.text()}) appear?",
                  reason="A monster appears", options=opts, default=[opts[0].id])


@answers("place_monster")
def answer_place_monster(state: ElderSignState, step: Frame, action: Answer, events: Events) -> None:
    spot: Spot = action.data
    board.add_monster_to(state, spot.where, step.args["monster"], spot.slot, events,
                         because(state, step.args.get("source", "")))


# ---------------------------------------------------------------- awakening (6.1)

@auto("awaken")
def run_awaken(state: ElderSignState, step: Frame, events: Events) -> None:
    c = content(state)
    ao = c.ancient_ones[state.ao]
    state.doom = len(ao.doom_track)  # an early awakening fills the track; those spaces spawn nothing
    events.append(event(kind="ao.awakens", text=f"{ao.name} awakens! The final battle begins.", render=True,
                        cause=ao.id))
    if state.mythos:
        state.decks["mythos"].put_bottom(state.mythos)
        board.unlock_source(state, state.mythos, events)
        state.mythos = None
    for lk in list(state.locks):
        if lk.die is not None:
            board.set_die(state, lk.die, "removed")
            events.append(event(kind="die.removed", text=f"The {lk.color} die locked by "
                                f"{board.card_name(state, lk.source)} is lost for the battle."))
    state.locks = []
    for cip in [*state.slots, *state.other_worlds]:
        if cip is None:
            continue
        deck = "adventure" if cip.card in c.adventures else "other_world"
        state.decks[deck].put_bottom(cip.card)
        state.cup.extend(m.monster for m in cip.monsters)
    state.slots = [None] * len(state.slots)
    state.other_worlds = []
    state.phase = "battle"
    for s in board.living_seats(state):
        inv(state, s).location = "ao"
    for seat in state.table:
        if seat.pending_new:  # devoured into the awakening: eliminated (6.1, 7.6)
            seat.pending_new = False
            seat.eliminated = True
    if state.adventure is not None and state.adventure.outcome is None:
        state.adventure.outcome = "awakened"  # the current player goes straight to the Clock phase
    _unwind_to_anchor(state)
    if state.midnight_now:
        push(state, "ao_attack", None)
    _check_loss(state, events)
