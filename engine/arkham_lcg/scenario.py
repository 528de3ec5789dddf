"""A campaign's life: scenario setup (digest A.1), opening hands and the mulligan, resolutions, experience and
trauma, upgrades between scenarios, and the campaign's end.

Setup order (A.1): investigators (trauma as starting damage and horror, permanent cards in play, 5 resources),
the chaos bag, opening hands of 5 (a drawn weakness is set aside and replaced, then shuffled back), one
mulligan each, then the scenario's own setup, then round 1 begins at the investigation phase.

After a resolution: its effects (log records, experience, trauma, chaos tokens), then the victory display's
experience, then trauma for each defeated investigator (1 physical if defeated by damage, 1 mental if by
horror) [BG, decided]; an investigator whose physical trauma reaches their health is killed, whose mental
trauma reaches their sanity is driven insane, and leaves the campaign. Then each investigator may spend
experience on upgrades, and the next scenario begins. The campaign is won when its last scenario ends with a
winning resolution; it is lost when every investigator is killed or insane, or when a scenario ends with no
investigator left to go on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.arkham_lcg import board
from engine.arkham_lcg.ops import FLOW, Events, answers, asks, auto, push, say
from engine.arkham_lcg.state import InvState, LcgState, ScenarioState
from engine.core.events import PHASE_ENDED, PHASE_STARTED
from engine.core.flow import Answer, Frame, Step
from engine.core.prompt import Option, Prompt, PromptKind
from engine.core.text import listed, table_notes

if TYPE_CHECKING:
    from engine.arkham_lcg.deckbuilding import Upgrade

DONE = "done"


def scenario_id(state: LcgState) -> str:
    return board.content(state).campaign.scenarios[state.campaign.scenario_index]


@auto("start_scenario")
def run_start_scenario(state: LcgState, frame: Frame, events: Events) -> None:
    c = board.content(state)
    sid = scenario_id(state)
    sc = c.scenarios[sid]
    state.scenario = ScenarioState(id=sid)
    state.cards = {}
    state.next_uid = 1
    state.round = 0
    state.phase = "setup"
    state.tests = []
    state.last_test = None
    state.limbo = []
    say(events, f"Scenario {sc.number}: {sc.name}. {sc.intro}", PHASE_STARTED, None, sid, phase="setup")
    # investigators
    state.invs = []
    for rec in state.campaign.investigators:
        inv = InvState(code=rec.code, status="playing" if rec.status == "active" else "defeated")
        inv.uid = board.new_card(state, rec.code, rec.seat, "play")
        state.invs.append(inv)
        if rec.status != "active":
            continue
        inv.damage, inv.horror = rec.physical_trauma, rec.mental_trauma
        inv.resources = board.START_RESOURCES
        inv.actions = board.ACTIONS_PER_TURN  # its `actions` modifiers are counted as its first turn begins
        for code, n in sorted(rec.deck.items()):
            pc = c.player[code]
            for _ in range(n):
                uid = board.new_card(state, code, rec.seat, "deck")
                if pc.permanent:
                    state.cards[uid].zone = "play"
                    state.cards[uid].controller = rec.seat
                    state.cards[uid].uses = pc.uses.count if pc.uses else 0
                    inv.play.append(uid)
                else:
                    inv.deck.append(uid)
        state.rng.shuffle(inv.deck)
    # the chaos bag
    state.bag = list(state.campaign.bag)
    state.sealed = []
    # opening hands, then the mulligan
    for seat in board.order(state):
        _opening_hand(state, seat, board.OPENING_HAND)
    live = board.order(state)
    steps = [Step(op="mulligan", seat=None, source="setup", args={"seats": live}),
             Step(op="scenario_setup", source=sid),
             Step(op="round", source="rules")]
    FLOW.push_steps(state, steps)


def _opening_hand(state: LcgState, seat: int, n: int) -> None:
    """Draw up to `n` cards; weaknesses drawn are set aside and replaced, then shuffled back (A.1 step 4)."""
    i = state.invs[seat]
    aside: list[int] = []
    while len(i.hand) < n and i.deck:
        uid = i.deck.pop()
        if board.pdef(state, uid).weakness:
            aside.append(uid)
            continue
        state.cards[uid].zone = "hand"
        i.hand.append(uid)
    if aside:
        i.deck.extend(aside)
        state.rng.shuffle(i.deck)


def mulligan_seats(state: LcgState, frame: Frame) -> list[int]:
    return [s for s in frame.args["seats"] if board.playing(state, s) and state.invs[s].hand]


@FLOW.each("mulligan", seats=mulligan_seats)
def ask_mulligan(state: LcgState, frame: Frame, seat: int) -> Prompt:
    opts = [Option(id=f"h{u}", label=board.name(state, u), data=u) for u in state.invs[seat].hand]
    return Prompt(seq=0, seats=[seat], kind=PromptKind.MANY, min_choices=0, max_choices=len(opts), private=True,
                  title="Mulligan: choose cards to redraw (or none to keep your hand)",
                  reason="Setup: one mulligan; the cards you set aside are shuffled back into your deck",
                  options=opts, default=[])


@answers("mulligan")
def answer_mulligan(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = answer.seat
    i = state.invs[seat]
    back = [o.data for o in answer.options if o.data in i.hand]
    i.mulliganed = True
    if not back:
        say(events, f"{state.seat_name(seat)} keeps their opening hand.", "mulligan", seat, "setup")
        return
    for uid in back:
        i.hand.remove(uid)
        state.cards[uid].zone = "deck"
    kept = set(i.hand)
    _opening_hand(state, seat, board.OPENING_HAND)
    i.deck.extend(back)
    state.rng.shuffle(i.deck)
    say(events, f"{state.seat_name(seat)} redraws {len(back)} card{'s' if len(back) != 1 else ''}.", "mulligan",
        seat, "setup")
    drawn = [board.name(state, uid) for uid in i.hand if uid not in kept]
    if drawn:  # the player who drew is told what came, privately (the table only hears how many)
        say(events, f"You draw {listed(drawn)}.", "draw.private", seat, "setup", private_to=seat)


@auto("scenario_setup")
def run_scenario_setup(state: LcgState, frame: Frame, events: Events) -> None:
    from engine.arkham_lcg.locations import put_into_play

    c = board.content(state)
    s = board.scen(state)
    sc = c.scenarios[s.id]
    setup = sc.setup
    for code in setup.locations:
        put_into_play(state, code)
    put_into_play(state, setup.start)
    for seat in board.order(state):
        state.invs[seat].location = setup.start
    deck: list[int] = []
    for set_id in setup.encounter_sets:
        for code in c.encounter_sets[set_id]:
            card = c.enemies.get(code) or c.treacheries[code]
            for _ in range(card.quantity):
                deck.append(board.new_card(state, code, None, "encounter_deck"))
    state.rng.shuffle(deck)
    s.encounter_deck = deck
    for code in setup.set_aside:
        if code not in s.locations:
            s.set_aside.append(board.new_card(state, code, None, "set_aside"))
    s.act_deck = list(sc.acts)
    s.agenda_deck = list(sc.agendas)
    board.sync_act_agenda(state)
    lead = board.lead(state)
    steps: list[Step] = [Step(op="reveal_location", seat=lead, source=setup.start, args={"code": setup.start})]
    for placement in setup.enemies:
        uid = board.new_card(state, placement.enemy, None, "set_aside")
        steps.append(Step(op="spawn", seat=None, source=s.id, args={"uid": uid, "at": placement.at}))
    if setup.effects:
        steps.append(Step(op="effects", seat=lead, source=s.id, args={"effects": setup.effects,
                                                                      "ctx": {"seat": lead}}))
    steps.append(Step(op="setup_done", source=s.id))
    FLOW.push_steps(state, steps)


@auto("setup_done")
def run_setup_done(state: LcgState, frame: Frame, events: Events) -> None:
    a, g = board.act(state), board.agenda(state)
    goal = f"Act: {a.name} — {a.objective.rstrip('.')}" if a else ""
    clock = f" Agenda: {g.name} (doom {g.doom})." if g else ""
    if state.notices and not state.campaign.results:  # once a campaign, at its first scenario
        say(events, table_notes(state.game), "setup.notice", None, "setup")
    say(events, f"Setup is complete. {goal}.{clock}", PHASE_ENDED, None, "setup", render=True, phase="setup")


# ---------------------------------------------------------------- the end of a scenario

@auto("end_scenario")
def run_end_scenario(state: LcgState, frame: Frame, events: Events) -> None:
    """A resolution is reached: everything pending is dropped and the scenario's aftermath runs."""
    s = board.scen(state)
    if s.resolution is not None:
        return
    which = frame.args["resolution"]
    s.resolution = which
    FLOW.clear(state)
    state.tests = []
    c = board.content(state)
    res = c.scenarios[s.id].resolutions.get(which) or c.scenarios[s.id].resolutions["none"]
    state.phase = "between"
    state.turn = None
    label = "No resolution" if which == "none" else f"Resolution {which[1:]}"
    say(events, f"{label}: {res.title}. {res.text}", "scenario.resolution", None, s.id, render=True,
        resolution=which, outcome=res.outcome if which != "none" else "loss")
    steps = []
    if res.effects:
        steps.append(Step(op="effects", seat=None, source=s.id,
                          args={"effects": res.effects, "ctx": {"seat": None, "campaign": True}}))
    steps.append(Step(op="aftermath", source=s.id, args={"resolution": which}))
    FLOW.push_steps(state, steps)


def victory_xp(state: LcgState) -> int:
    """Experience from the victory display: its cards, plus revealed locations still in play with a victory
    value and no clues left on them [BG: locations "cleared" count at the end of the scenario]."""
    s = board.scen(state)
    total = 0
    for uid in s.victory:
        total += board.cdef(state, uid).victory or 0
    for code, loc in s.locations.items():
        v = board.ldef(state, code).victory
        if v and loc.revealed and loc.clues == 0:
            total += v
    return total


def _game_over(state: LcgState, won: bool) -> None:
    state.over = True
    state.phase = "over"
    state.result = "win" if won else "loss"


@auto("aftermath")
def run_aftermath(state: LcgState, frame: Frame, events: Events) -> None:
    c = board.content(state)
    s = board.scen(state)
    which = frame.args["resolution"]
    res = c.scenarios[s.id].resolutions.get(which) or c.scenarios[s.id].resolutions["none"]
    outcome = "loss" if which == "none" else res.outcome
    xp = victory_xp(state)
    camp = state.campaign
    for rec in camp.investigators:
        if rec.status != "active":
            continue
        rec.xp += xp
        rec.xp_earned += xp
        i = state.invs[rec.seat]
        if i.status == "defeated_damage":
            rec.physical_trauma += 1
            say(events, f"{state.seat_name(rec.seat)} suffers 1 physical trauma.", "trauma", rec.seat, s.id)
        elif i.status == "defeated_horror":
            rec.mental_trauma += 1
            say(events, f"{state.seat_name(rec.seat)} suffers 1 mental trauma.", "trauma", rec.seat, s.id)
        inv = c.investigators[rec.code]
        if rec.physical_trauma >= inv.health:
            rec.status = "killed"
            say(events, f"{inv.name} is killed.", "investigator.killed", rec.seat, s.id)
        elif rec.mental_trauma >= inv.sanity:
            rec.status = "insane"
            say(events, f"{inv.name} is driven insane.", "investigator.insane", rec.seat, s.id)
    if xp:
        say(events, f"The victory display is worth {xp} experience to each investigator.", "xp.victory", None, s.id)
    camp.results.append(f"{s.id}:{which}:{outcome}")
    camp.scenario_index += 1
    alive = [r for r in camp.investigators if r.status == "active"]
    if board.campaign_over(state):
        won = bool(alive) and outcome == "win"
        _game_over(state, won)
        text = c.campaign.epilogue if won else "The campaign is lost."
        say(events, f"The campaign ends. {text}".strip(), "game.won" if won else "game.lost", None, "campaign",
            render=True)
        return
    stop = camp.stop_after is not None and camp.scenario_index > camp.stop_after
    alone = stop and "campaign_seats" not in state.options  # a scenario played alone has no interlude after it
    interlude = None if alone else c.campaign.interludes.get(s.id)
    steps: list[Step] = []
    if interlude is not None:
        say(events, f"Interlude: {interlude.title}. {interlude.text}", "interlude", None, "campaign")
        if interlude.effects:
            steps.append(Step(op="effects", seat=None, source="campaign",
                              args={"effects": interlude.effects, "ctx": {"seat": None, "campaign": True}}))
    if stop:
        # one scenario of a campaign played game by game (or a scenario played alone): this game ends after the
        # interlude that follows it (its effects belong in the record the next game starts from); the campaign
        # goes on, whatever the scenario's outcome
        steps.append(Step(op="scenario_game_over", source="campaign", args={"won": outcome == "win"}))
        FLOW.push_steps(state, steps)
        return
    steps += [Step(op="upgrade", seat=r.seat, source="campaign") for r in alive]
    steps.append(Step(op="start_scenario", source="campaign"))
    FLOW.push_steps(state, steps)


@auto("scenario_game_over")
def run_scenario_game_over(state: LcgState, frame: Frame, events: Events) -> None:
    """The end of a game that holds one scenario of a campaign: the scenario's outcome is the game's, and the
    campaign's next scenario is named when the game is one of a campaign's (the table starts it)."""
    won = bool(frame.args["won"])
    _game_over(state, won)
    text = f"The scenario is {'won' if won else 'lost'}."
    if "campaign_seats" in state.options:
        c = board.content(state)
        text += f" The campaign goes on: next, {c.scenarios[c.campaign.scenarios[state.campaign.scenario_index]].name}."
    say(events, text, "game.won" if won else "game.lost", None, "campaign", render=True)


# ---------------------------------------------------------------- upgrades between scenarios

def upgrades(state: LcgState, seat: int) -> list[Upgrade]:
    """Every purchase open to `seat` now (free refills and free myriad copies included at 0 XP)."""
    rec = state.campaign.investigators[seat]
    if rec.status != "active":
        return []
    from engine.arkham_lcg.deckbuilding import legal_upgrades

    return legal_upgrades(board.content(state), rec)


@asks("upgrade")
def ask_upgrade(state: LcgState, frame: Frame) -> Prompt:
    """Step one of a purchase: which card to buy (each card once, at its cheapest price); step two asks which
    card leaves the deck for it, when there is a choice. Two steps keep the list short enough for a chat."""
    seat = frame.owner
    rec = state.campaign.investigators[seat]
    c = board.content(state)
    cheapest: dict[str, int] = {}
    for u in upgrades(state, seat):
        cheapest[u.add] = min(cheapest.get(u.add, u.cost), u.cost)
    opts = [Option(id=f"u:{add}", label=f"{_card_name(state, add)} — from {cost} XP",
                   detail=c.player[add].text, data=add) for add, cost in cheapest.items()]
    opts.append(Option(id=DONE, label="Done: keep the rest of your experience", data=None))
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE, private=True,
                  title=f"Spend experience on your deck ({rec.xp} XP unspent)",
                  reason="Between scenarios: buy new cards or upgrade the ones you have", options=opts,
                  default=[DONE])


def _card_name(state: LcgState, code: str) -> str:
    from engine.arkham_lcg.deckbuilding import display

    return display(board.content(state).player[code])


@answers("upgrade")
def answer_upgrade(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    add = answer.data
    if add is None:
        return
    seat = answer.seat
    push(state, "upgrade", seat, "campaign")
    ways = [u for u in upgrades(state, seat) if u.add == add]
    if len(ways) == 1:
        _buy(state, seat, ways[0], events)
    else:
        push(state, "upgrade_swap", seat, "campaign", add=add)


@asks("upgrade_swap")
def ask_upgrade_swap(state: LcgState, frame: Frame) -> Prompt:
    seat = frame.owner
    ways = [u for u in upgrades(state, seat) if u.add == frame.args["add"]]
    opts = [Option(id=f"w{n}", label=u.label, data=u) for n, u in enumerate(ways)]
    return Prompt(seq=0, seats=[seat], kind=PromptKind.ONE, private=True,
                  title=f"Buy {_card_name(state, frame.args['add'])}: which card leaves your deck?",
                  reason="A deck keeps its size: a new card takes another's place", options=opts,
                  default=[opts[0].id])


@answers("upgrade_swap")
def answer_upgrade_swap(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    _buy(state, answer.seat, answer.data, events)


def _buy(state: LcgState, seat: int, up: Upgrade, events: Events) -> None:
    from engine.arkham_lcg.deckbuilding import apply_upgrade

    camp = state.campaign
    camp.investigators[seat] = apply_upgrade(board.content(state), camp.investigators[seat], up)
    say(events, f"{state.seat_name(seat)}: {up.label}.", "upgrade", seat, "campaign")


def upgrade_lapse(state: LcgState, frame: Frame) -> bool:
    """No affordable upgrade: the question is not asked at all."""
    if frame.op not in ("upgrade", "upgrade_swap"):
        return False
    from engine.arkham_lcg.deckbuilding import can_upgrade

    return not can_upgrade(board.content(state), state.campaign.investigators[frame.owner])


