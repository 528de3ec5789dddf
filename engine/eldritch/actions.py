"""The Action Phase (digest 3.1): from the Lead clockwise each investigator takes up to two actions, each
action at most once per round: Travel, Rest, Trade, Prepare for Travel, Acquire Assets and component actions
("Action:" on the sheet, a possession or a Condition; a Local Action of someone else's card on your space).
A Delayed investigator stands up instead of acting.
"""

from __future__ import annotations

from typing import Any

from engine.core.flow import Answer, Frame
from engine.core.prompt import Option, Prompt, PromptKind, Unavailable
from engine.core.text import counted, listed
from engine.eldritch import possessions as P
from engine.eldritch import world as W
from engine.eldritch.board import board_of
from engine.eldritch.checks import start_test
from engine.eldritch.effects import describe
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
    name,
    option,
    plural,
    push,
    resolve,
    say,
    short,
)
from engine.eldritch.state import EldritchState

ACTIONS_PER_TURN = 2


def modifier_on(state: EldritchState, modifier: str) -> bool:
    c = content(state)
    return any(modifier in c.mythos[o.card].modifiers for o in state.ongoing)


@auto("turn")
def turn(state: EldritchState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    inv = state.investigators[seat]
    if not inv.active:
        return
    if state.current != seat:
        state.current = seat
    if inv.delayed:
        inv.delayed = False
        say(events, f"{name(state, seat)} is Delayed: they stand up and take no actions this round.", seat=seat,
            kind="turn.delayed")
        return
    inv.actions_left = ACTIONS_PER_TURN
    say(events, f"{name(state, seat)}'s turn: {plural(ACTIONS_PER_TURN, 'action')}.", seat=seat, kind="turn.started")
    push(state, "choose_action", seat)


# ------------------------------------------------------------------ what can be done


#: (version, card) -> the label of its component action: card text never changes within a version
_COMPONENT_LABELS: dict[tuple[str, str], str] = {}


def _component_label(state: EldritchState, card: str) -> str:
    key = (state.content_version, card)
    label = _COMPONENT_LABELS.get(key)
    if label is None:
        c = content(state)
        if card in c.spells:
            label = f"Cast {c.spells[card].name}: {describe(state, c.spells[card].action)}"
        elif card in c.conditions:
            label = f"{c.conditions[card].name}: {describe(state, c.conditions[card].action)}"
        else:
            poss = c.assets.get(card) or c.artifacts[card]
            label = f"Use {poss.name}: {describe(state, poss.action)}"
        label = _COMPONENT_LABELS[key] = label
    return label


def component_actions(state: EldritchState, seat: int,
                      others_here: list[int] | None = None) -> list[tuple[str, str, str]]:
    """(card, owner seat as str, label) for every component action available: the sheet, possessions,
    Conditions and Spells with an action, others' Local Actions on this space. Each component once per round,
    and never one another investigator already used this round (digest 3.1). `others_here`: the other active
    investigators on this space, from the Lead clockwise, if the caller knows them."""
    c = content(state)
    inv = state.investigators[seat]
    assert inv.card is not None
    out: list[tuple[str, str, str]] = []
    used = state.used_components
    sheet = c.investigators[inv.card]
    mine = str(seat)
    if sheet.action and inv.card not in used:
        out.append((inv.card, mine, f"Use your ability: {sheet.action_text}"))
    for card in inv.assets:
        if c.assets[card].action and card not in used:
            out.append((card, mine, _component_label(state, card)))
    for card in inv.artifacts:
        if c.artifacts[card].action and card not in used:
            out.append((card, mine, _component_label(state, card)))
    for card in inv.spells:
        if c.spells[card].action and card not in used and card not in state.flipped:
            out.append((card, mine, _component_label(state, card)))
    for card in inv.conditions:
        if c.conditions[card].action and card not in used:
            out.append((card, mine, _component_label(state, card)))
    if others_here is None:
        others_here = [s for s in active_seats(state) if s != seat and state.investigators[s].space == inv.space]
    for other in others_here:
        for card in state.investigators[other].conditions:
            cd = c.conditions[card]
            if cd.action and cd.local_action and card not in used:
                out.append((card, str(other), f"Help {short(state, other)} with {cd.name}: "
                                              f"{describe(state, cd.action)}"))
    return out


#: (version, space, train tickets, ship tickets) -> the Travel options from there, cheapest first: the map
#: never changes within a version, and this is asked at every action of every turn. Options are never changed
#: once built, so prompts share them.
_TRAVEL: dict[tuple[str, str, int, int], tuple[Option, ...]] = {}


def travel_choices(state: EldritchState, here: str, trains: int, ships: int) -> tuple[Option, ...]:
    """The Travel option of every destination, by tickets spent, then by name; data is
    ("travel", destination, train tickets, ship tickets)."""
    key = (state.content_version, here, trains, ships)
    got = _TRAVEL.get(key)
    if got is None:
        board = board_of(state.content_version)
        out = []
        for dest, route in sorted(board.routes(here, trains, ships).items(),
                                  key=lambda kv: (kv[1].tickets, W.space_name(state, kv[0]))):
            cost = []
            if route.train:
                cost.append(plural(route.train, "train ticket"))
            if route.ship:
                cost.append(plural(route.ship, "ship ticket"))
            label = f"Travel to {W.space_name(state, dest)}" + (f" ({', '.join(cost)})" if cost else "")
            out.append(option(f"travel:{dest}", label, ("travel", dest, route.train, route.ship)))
        got = _TRAVEL[key] = tuple(out)
    return got


#: options that never change (prompts share them: nothing changes an Option once built)
REST = option("rest", "Rest: recover 1 Health and 1 Sanity", ("rest",))
PREPARE = {kind: option(f"prepare:{kind}", f"Prepare for travel: gain a {kind} ticket", ("prepare", kind))
           for kind in ("train", "ship")}
ACQUIRE = option("acquire", "Acquire assets (test Influence)", ("acquire",))
END = {n: option("end", f"End your turn ({plural(n, 'action')} unused)", ("end",), role="pass")
       for n in range(ACTIONS_PER_TURN + 1)}


def action_options(state: EldritchState, seat: int, closed: list[Unavailable] | None = None) -> list[Option]:
    """The actions `seat` may take now. Given `closed`, each basic action the same tests close is added to it
    with why (in one pass: the action prompt is built at every action of every turn)."""
    c = content(state)
    inv = state.investigators[seat]
    used = inv.actions_used
    board = board_of(state.content_version)
    here = inv.space
    city = c.spaces[here].type == "city"
    monsters_here = False
    for m in state.monsters:
        if m.space == here:
            monsters_here = True
            break
    detained = bool(inv.conditions) and P.condition_of(state, seat, "detained") is not None
    modifiers = {m for o in state.ongoing for m in c.mythos[o.card].modifiers} if state.ongoing else set()
    opts: list[Option] = []
    if "travel" not in used and not detained:
        trains = 0 if "no_trains" in modifiers else inv.train
        ships = 0 if "no_ships" in modifiers else inv.ship
        opts += travel_choices(state, here, trains, ships)
        if closed is not None:
            closed += out_of_reach(state, here, trains, ships)
    elif closed is not None:
        closed.append(USED["travel"] if "travel" in used else DETAINED)
    if "rest" not in used and not monsters_here and "no_rest" not in modifiers:
        opts.append(REST)
    elif closed is not None:
        closed.append(USED["rest"] if "rest" in used else MONSTER_HERE["rest"] if monsters_here else FORBIDDEN["rest"])
    invs = state.investigators
    others_here = [s for s in active_seats(state) if s != seat and invs[s].space == here] if len(invs) > 1 else []
    if "trade" not in used:
        for s in others_here:
            opts.append(option(f"trade:{s}", f"Trade with {name(state, s)}", ("trade", s)))
    if closed is not None and ("trade" in used or not others_here):
        closed.append(USED["trade"] if "trade" in used else NOBODY_HERE)
    sheet = c.investigators[inv.card] if inv.card else None
    anywhere = sheet is not None and sheet.passive.kind == "travel_ticket"
    if "prepare" not in used and (city or anywhere):
        for kind in ("train", "ship"):
            if board.has_path(here, kind) or anywhere:
                opts.append(PREPARE[kind])
    elif closed is not None:
        closed.append(USED["prepare"] if "prepare" in used else NOT_CITY["prepare"])
    if "acquire" not in used and city and not monsters_here and "no_acquire" not in modifiers:
        opts.append(ACQUIRE)
    elif closed is not None:
        closed.append(USED["acquire"] if "acquire" in used else NOT_CITY["acquire"] if not city
                      else MONSTER_HERE["acquire"] if monsters_here else FORBIDDEN["acquire"])
    for card, owner, label in component_actions(state, seat, others_here):
        if f"component:{card}" not in used:
            opts.append(option(f"use:{card}", label, ("component", card, int(owner))))
    opts.append(END.get(inv.actions_left) or option("end", f"End your turn ({plural(inv.actions_left, 'action')} "
                                                             "unused)", ("end",), role="pass"))
    return opts


def closed_action(kind: str, why: str) -> Unavailable:
    """An action closed now: shaped like its option (its data begins with its kind), so the command that
    stands for it finds it."""
    return Unavailable(id=kind, label=kind, data=(kind,), why=why)


#: an action taken this round, by the word actions_used records (digest 3.1: each action once per round)
USED = {kind: closed_action(kind, f"You already {done} this round.") for kind, done in (
    ("travel", "traveled"), ("rest", "rested"), ("trade", "traded"), ("prepare", "prepared for travel"),
    ("acquire", "acquired assets"))}
NOT_CITY = {"prepare": closed_action("prepare", "You can prepare for travel only in a city."),
            "acquire": closed_action("acquire", "You can acquire assets only in a city.")}
MONSTER_HERE = {"rest": closed_action("rest", "You cannot rest with a Monster on your space."),
                "acquire": closed_action("acquire", "You cannot acquire assets with a Monster on your space.")}
FORBIDDEN = {"rest": closed_action("rest", "A Mythos card in play forbids resting."),
             "acquire": closed_action("acquire", "A Mythos card in play forbids acquiring assets.")}
DETAINED = closed_action("travel", "You are Detained: you cannot travel until the Condition is gone.")
NOBODY_HERE = closed_action("trade", "No other investigator is on your space to trade with.")
#: the tickets an investigator can hold at once (at most 2, digest 3.1 Prepare for Travel)
TICKET_SPLITS = ((2, 0), (1, 1), (0, 2))
#: (version, space, train tickets, ship tickets) -> why each space Travel cannot reach from there is closed
_FAR: dict[tuple[str, str, int, int], tuple[Unavailable, ...]] = {}


def out_of_reach(state: EldritchState, here: str, trains: int, ships: int) -> tuple[Unavailable, ...]:
    """Every other space Travel cannot reach with these tickets, each saying what reaching it would take (an
    investigator holds at most 2 tickets, so a space no 2 tickets reach is simply too far)."""
    key = (state.content_version, here, trains, ships)
    got = _FAR.get(key)
    if got is None:
        board = board_of(state.content_version)
        near = board.routes(here, trains, ships)
        ticketed: dict[str, Any] = {}
        for t, sh in TICKET_SPLITS:  # the cheapest route with tickets one could hold
            for dest, route in board.routes(here, t, sh).items():
                if dest not in ticketed or route.tickets < ticketed[dest].tickets:
                    ticketed[dest] = route
        where = W.space_name(state, here)
        have = " and ".join(plural(n, f"{kind} ticket") for n, kind in ((trains, "train"), (ships, "ship")) if n)
        out = []
        for dest in sorted(content(state).spaces, key=lambda d: W.space_name(state, d)):
            if dest == here or dest in near:
                continue
            there = W.space_name(state, dest)
            cheapest = ticketed.get(dest)
            if cheapest is None:
                why = f"{there} is too far from {where} for one Travel action."
            else:
                need = " and ".join(plural(n, f"{kind} ticket") for n, kind in ((cheapest.train, "train"),
                                                                                (cheapest.ship, "ship")) if n)
                why = f"Reaching {there} from {where} takes {need}; you can spend {have or 'none'}."
            out.append(Unavailable(id=f"travel:{dest}", label=f"Travel to {there}",
                                   data=("travel", dest, 0, 0), why=why))
        got = _FAR[key] = tuple(out)
    return got


@asks("choose_action")
def ask_action(state: EldritchState, frame: Frame) -> Prompt:
    seat = frame.owner
    inv = state.investigators[seat]
    closed: list[Unavailable] = []
    return ask_one(frame, f"{name(state, seat)}: choose an action ({inv.actions_left} left)",
                   f"At {W.space_name(state, inv.space)}. Each action at most once per round.",
                   action_options(state, seat, closed), default="end", unavailable=tuple(closed))


@answers("choose_action")
def answer_action(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = frame.owner
    data: tuple[Any, ...] = answer.data
    inv = state.investigators[seat]
    kind = data[0]
    if kind == "end":
        say(events, f"{name(state, seat)} ends their turn.", seat=seat)
        inv.actions_left = 0
        return
    stack = state.flow.stack
    mark = len(stack)
    if kind == "travel":
        inv.actions_used.append("travel")
        travel(state, seat, data[1], data[2], data[3], events)
    elif kind == "rest":
        inv.actions_used.append("rest")
        rest(state, seat, events)
    elif kind == "trade":
        inv.actions_used.append("trade")
        push(state, "trade_give", seat, partner=data[1])
    elif kind == "prepare":
        inv.actions_used.append("prepare")
        P.gain_ticket(state, seat, data[1], "rule.prepare", events)
        sheet = content(state).investigators[inv.card] if inv.card else None
        if sheet is not None and sheet.passive.kind == "travel_ticket":
            P.gain_ticket(state, seat, data[1], inv.card or "", events)
    elif kind == "acquire":
        inv.actions_used.append("acquire")
        acquire(state, seat, events)
    elif kind == "component":
        card, owner = data[1], data[2]
        inv.actions_used.append(f"component:{card}")
        state.used_components.append(card)
        component(state, seat, card, owner, events)
    # the action is spent once everything it started is resolved: now if it started nothing, else after that
    if len(stack) > mark:
        stack.insert(mark, FLOW.frame(state, "after_action", seat))
    elif not state.over:
        action_spent(state, seat)


@auto("after_action")
def after_action(state: EldritchState, frame: Frame, events: Events) -> None:
    action_spent(state, frame.owner)


def action_spent(state: EldritchState, seat: int) -> None:
    inv = state.investigators[seat]
    if not inv.active or state.current != seat:
        return
    inv.actions_left = max(0, inv.actions_left - 1)
    if inv.actions_left > 0:
        push(state, "choose_action", seat)


# ------------------------------------------------------------------ the actions


def travel(state: EldritchState, seat: int, dest: str, trains: int, ships: int, events: Events) -> None:
    inv = state.investigators[seat]
    if trains:
        inv.train -= trains
    if ships:
        inv.ship -= ships
    inv.space = dest
    spent = []
    if trains:
        spent.append(plural(trains, "train ticket"))
    if ships:
        spent.append(plural(ships, "ship ticket"))
    say(events, f"{name(state, seat)} travels to {W.space_name(state, dest)}"
                + (f", spending {' and '.join(spent)}" if spent else "") + ".", seat=seat,
        kind="investigator.moved", space=dest)


def rest(state: EldritchState, seat: int, events: Events) -> None:
    """Recover 1 Health and 1 Sanity (plus the investigator's rest bonus); "when you rest" cards resolve."""
    c = content(state)
    inv = state.investigators[seat]
    assert inv.card is not None
    p = c.investigators[inv.card].passive
    h = 1 + (p.health or 0 if p.kind == "rest_bonus" else 0)
    s = 1 + (p.sanity or 0 if p.kind == "rest_bonus" else 0)
    say(events, f"{name(state, seat)} rests.", seat=seat, kind="investigator.rested")
    for card in reversed([*inv.assets, *inv.artifacts]):
        poss = c.assets.get(card) or c.artifacts.get(card)
        if poss is not None and poss.on_rest:
            resolve(state, seat, poss.on_rest, card, card=card)
    P.change_track(state, seat, "health", h, "rule.rest", events)
    P.change_track(state, seat, "sanity", s, "rule.rest", events)


def acquire(state: EldritchState, seat: int, events: Events) -> None:
    """Test Influence; you may take a Debt for +2 successes (the bank loan, once); buy reserve cards whose
    total cost is at most your successes; having bought nothing you may discard one reserve card; the reserve
    refills after the action (digest 3.1 Acquire Assets)."""
    c = content(state)
    inv = state.investigators[seat]
    assert inv.card is not None
    p = c.investigators[inv.card].passive
    extra = p.successes or 0 if p.kind == "acquire_bonus" else 0
    start_test(state, seat, "influence", 0, "rule.acquire", acquire=True, then="acquire_shop",
               then_args={"extra": extra})


@auto("acquire_shop")
def acquire_shop(state: EldritchState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    budget = int(frame.args["successes"]) + int(frame.args.get("extra", 0))
    push(state, "shop", seat, budget=budget, bought=0, loan=False)


@asks("shop")
def ask_shop(state: EldritchState, frame: Frame) -> Prompt:
    c = content(state)
    a = frame.args
    seat = frame.owner
    opts: list[Option] = []
    for card in state.reserve:
        asset = c.assets[card]
        if asset.cost <= a["budget"]:
            opts.append(option(card, label=f"Buy {asset.name} (cost {asset.cost})", detail=asset.text,
                               data=("buy", card)))
    if not a["loan"] and P.condition_of(state, seat, "debt") is None and c.conditions_of("debt"):
        opts.append(option("loan", label="Take a bank loan: +2 successes, gain a Debt Condition",
                           data=("loan", "")))
    if not a["bought"]:
        for card in state.reserve:
            opts.append(option(f"discard:{card}", label=f"Buy nothing; discard {c.assets[card].name} from the "
                                                           "reserve", data=("discard", card)))
    opts.append(option("done", label="Done shopping" if a["bought"] else "Buy nothing", data=("done", "")))
    spend = plural(a["budget"], "success", "successes")
    return ask_one(frame, f"Acquire assets: {spend} to spend",
                   "Reserve: " + ", ".join(f"{c.assets[x].name} ({c.assets[x].cost})" for x in state.reserve),
                   opts, default="done")


@answers("shop")
def answer_shop(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = frame.owner
    a = frame.args
    kind, card = answer.data
    if kind == "done":
        P.refill_reserve(state, events)
        return
    if kind == "discard":
        state.reserve.remove(card)
        state.decks["asset"].discard(card)
        say(events, f"{card_name(state, card)} is discarded from the reserve.", seat=seat)
        P.refill_reserve(state, events)
        return
    if kind == "loan":
        P.gain_condition(state, seat, "debt", "rule.bank-loan", events)
        push(state, "shop", seat, budget=a["budget"] + 2, bought=a["bought"], loan=True)
        return
    cost = content(state).assets[card].cost
    state.reserve.remove(card)
    P.gain_asset_card(state, seat, card, "rule.acquire", events)
    push(state, "shop", seat, budget=a["budget"] - cost, bought=a["bought"] + 1, loan=a["loan"])


def component(state: EldritchState, seat: int, card: str, owner: int, events: Events) -> None:
    c = content(state)
    if card in c.investigators:
        sheet = c.investigators[card]
        say(events, f"{name(state, seat)} uses their ability.", seat=seat, cause=card, kind="action.component")
        resolve(state, seat, sheet.action, card, card=card)
        return
    model = c.assets.get(card) or c.artifacts.get(card) or c.spells.get(card) or c.conditions.get(card)
    assert model is not None
    holder = "" if owner == seat else f" ({short(state, owner)}'s)"
    say(events, f"{name(state, seat)} uses {model.name}{holder}.", seat=seat, cause=card, kind="action.component")
    # "you" is whoever takes the action, also on a Local Action of someone else's card (RB "Component Actions":
    # an investigator performs it with the other's component); "this card" stays the holder's
    resolve(state, seat, model.action, card, card=card)


# ------------------------------------------------------------------ trade


def tradeable(state: EldritchState, seat: int) -> list[tuple[str, str]]:
    inv = state.investigators[seat]
    out = [(card, card_name(state, card)) for card in inv.possessions()]
    out += [(f"clue{i}", "1 Clue") for i in range(inv.clues)]
    out += [(f"train{i}", "1 train ticket") for i in range(inv.train)]
    out += [(f"ship{i}", "1 ship ticket") for i in range(inv.ship)]
    return out


@asks("trade_give")
def ask_give(state: EldritchState, frame: Frame) -> Prompt:
    seat = frame.owner
    partner = int(frame.args["partner"])
    mine = tradeable(state, seat)
    theirs = tradeable(state, partner)
    opts = [option(f"give:{k}", label=f"Give {label}", data=("give", k)) for k, label in mine]
    opts += [option(f"take:{k}", label=f"Ask for their {label}", data=("take", k)) for k, label in theirs]
    return Prompt(seq=0, seats=[seat], kind=PromptKind.MANY, title=f"Trade with {name(state, partner)}",
                  reason="Pick what you give and what you ask for; they must agree. Conditions cannot be traded.",
                  options=opts, min_choices=0, max_choices=len(opts), default=[])


@answers("trade_give")
def answer_give(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = frame.owner
    give = [o.data[1] for o in answer.options if o.data[0] == "give"]
    take = [o.data[1] for o in answer.options if o.data[0] == "take"]
    if not give and not take:
        say(events, f"{name(state, seat)} trades nothing.", seat=seat)
        return
    push(state, "trade_agree", int(frame.args["partner"]), proposer=seat, give=give, take=take)


@asks("trade_agree")
def ask_agree(state: EldritchState, frame: Frame) -> Prompt:
    a = frame.args
    proposer = int(a["proposer"])
    labels = dict(tradeable(state, proposer)) | {}
    theirs = dict(tradeable(state, frame.owner))
    give = ", ".join(labels.get(k, k) for k in a["give"]) or "nothing"
    take = ", ".join(theirs.get(k, k) for k in a["take"]) or "nothing"
    return ask_one(frame, f"{name(state, proposer)} offers a trade", f"You receive: {give}. You give: {take}.",
                   [option("yes", label="Agree", data=True), option("no", label="Refuse", data=False)], default="no")


@answers("trade_agree")
def answer_agree(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    a = frame.args
    proposer = int(a["proposer"])
    partner = frame.owner
    if not answer.data:
        say(events, f"{name(state, partner)} refuses the trade.", seat=partner)
        return
    given = counted([label for k, label in tradeable(state, proposer) if k in a["give"]])
    taken = counted([label for k, label in tradeable(state, partner) if k in a["take"]])
    _move_items(state, proposer, partner, a["give"])
    _move_items(state, partner, proposer, a["take"])
    say(events, _trade_text(name(state, proposer), name(state, partner), given, taken), seat=proposer,
        kind="trade.done")
    # the ticket limit holds after a trade: each of them over 2 chooses which to keep, the proposer first
    P.ticket_limit(state, partner, "rule.trade", events)
    P.ticket_limit(state, proposer, "rule.trade", events)


def _trade_text(proposer: str, partner: str, given: list[str], taken: list[str]) -> str:
    """What changed hands, in one sentence (issue 30: "X and Y trade." said nothing of it)."""
    if given and taken:
        return f"{proposer} gives {partner} {listed(given)} and receives {listed(taken)}."
    if given:
        return f"{proposer} gives {partner} {listed(given)}."
    return f"{proposer} receives {listed(taken)} from {partner}."


def _move_items(state: EldritchState, src: int, dst: int, keys: list[str]) -> None:
    """Traded possessions are not "gained" (digest 3.1)."""
    a, b = state.investigators[src], state.investigators[dst]
    for k in keys:
        for kind in ("clue", "train", "ship"):
            if k.startswith(kind) and k[len(kind):].isdigit():
                field = "clues" if kind == "clue" else kind
                if getattr(a, field) > 0:
                    setattr(a, field, getattr(a, field) - 1)
                    setattr(b, field, getattr(b, field) + 1)
                break
        else:
            for field in ("assets", "artifacts", "spells"):
                src_list = getattr(a, field)
                if k in src_list:
                    src_list.remove(k)
                    getattr(b, field).append(k)

