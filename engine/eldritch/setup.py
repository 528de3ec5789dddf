"""Setup in the rulebook's order (digest 2) and the round's frame (digest 3).

Optional rules (digest 10) are game options: the mythos difficulty (normal, easy, hard, insane, staged) and
the starting rumor.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.core.deck import Deck, Reshuffle
from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.flow import Frame
from engine.core.game import SeatSpec
from engine.core.rng import Rng
from engine.core.text import table_notes
from engine.eldritch import possessions as P
from engine.eldritch import world as W
from engine.eldritch.board import reference
from engine.eldritch.content import EldritchContent, content_of, default_content
from engine.eldritch.encounters import set_expedition
from engine.eldritch.ops import Events, auto, content, name, push, push_seq, resolve, say, seats_from_lead
from engine.eldritch.state import EldritchState, Investigator, Ongoing

#: what this table does differently from a physical one (docs/eldritch.md, "Not implemented"); players read it in
#: `/help game:eldritch` (docs/howto/eldritch.md, "This edition"), to which setup points
NOTICES = (
    "Expansion rules (side boards, Focus, Resources, Preludes, Adventures, Personal Stories) are not offered.",
    "Held Clues are anonymous tokens: a spent Clue goes back to the pool's discard.",
)


def build_mythos(c: EldritchContent, ao_id: str, difficulty: str, rng: Rng) -> list[str]:
    """Stage I on top, then II, then III; each stage the Ancient One's colour counts drawn at random from the
    shuffled colour piles, then shuffled together; never shuffled again (setup step 8, digest 10 for the
    difficulty filters). Returns the draw pile (top = end)."""
    ao = c.ancient_ones[ao_id]
    allowed = {"normal": ("easy", "normal", "hard"), "easy": ("easy", "normal"), "hard": ("normal", "hard"),
               "insane": ("hard",)}
    piles: dict[str, list[str]] = {}
    for colour in ("green", "yellow", "blue"):
        piles[colour] = sorted(m.id for m in c.mythos.values() if m.color == colour)
        rng.shuffle(piles[colour])
    stages: list[list[str]] = []
    for i, mix in enumerate(ao.stages):
        want = ("easy",) if difficulty == "staged" and i == 0 else ("normal",) if difficulty == "staged" and i == 1 \
            else ("hard",) if difficulty == "staged" else allowed[difficulty]
        stage: list[str] = []
        for colour, n in (("green", mix.green), ("yellow", mix.yellow), ("blue", mix.blue)):
            fit = [m for m in piles[colour] if c.mythos[m].difficulty in want]
            if len(fit) < n:  # not enough of the difficulty: fill from the rest (digest 10 "may need expansions")
                fit += [m for m in piles[colour] if m not in fit]
            chosen = fit[:n]
            for m in chosen:
                piles[colour].remove(m)
            stage += chosen
        rng.shuffle(stage)
        stages.append(stage)
    return stages[2] + stages[1] + stages[0]


@cache
def _ids(version: str) -> dict[str, tuple[str, ...]]:
    """Every deck's card ids in sorted order, by deck (per Ancient One where a deck is its own): the order
    shuffling starts from, worked out once per content version rather than for every game."""
    c = content_of(version)
    out: dict[str, tuple[str, ...]] = {
        "gates": tuple(sorted(s.id for s in c.spaces.values() if s.gate)), "spaces": tuple(sorted(c.spaces)),
        **{t: tuple(sorted(getattr(c, t))) for t in ("other_worlds", "expeditions", "assets", "artifacts", "spells",
                                                     "conditions")},
        **{d: tuple(sorted(k for k, v in c.locations.items() if v.deck == d))
           for d in ("general", "america", "europe", "asia_australia")},
    }
    for ao in c.ancient_ones:
        for table in ("research", "specials", "mysteries"):
            out[f"{table}:{ao}"] = tuple(sorted(k for k, v in getattr(c, table).items() if v.ao == ao))
    return out


def new_game(rules_id: str, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> tuple[EldritchState,
                                                                                                 list[Event]]:
    c = default_content()
    rng = Rng.from_seed(seed)
    events: Events = []
    ao_opt = options.get("ancient_one", "random")
    ao_id = rng.choice(sorted(c.ancient_ones)) if ao_opt == "random" else f"eh.ao.{ao_opt}"
    if ao_id not in c.ancient_ones:
        raise IllegalAction(f"There is no Ancient One called '{ao_opt}'.")
    chosen = [_investigator_id(c, s.character) for s in seats if s.character]
    if len(set(chosen)) != len(chosen):
        raise IllegalAction("Two seats chose the same investigator; each investigator can be played once.")
    state = EldritchState(game=rules_id, content_version=c.version, seed=seed, options=options, seats=seats, rng=rng,
                          ao=ao_id, players=len(seats))
    ao = c.ancient_ones[ao_id]
    # step 2: the Gate stack and the Clue pool, face down
    ids = _ids(c.version)
    state.gate_stack = list(ids["gates"])
    rng.shuffle(state.gate_stack)
    state.clue_pool = list(ids["spaces"])
    rng.shuffle(state.clue_pool)
    # step 7 (decks before investigators take their possessions from them)
    for deck in ("general", "america", "europe", "asia_australia"):
        state.decks[deck] = Deck.shuffled(deck, list(ids[deck]), rng, Reshuffle.WHEN_EMPTY)
    state.decks["research"] = Deck.shuffled("research", list(ids["research:" + ao_id]), rng, Reshuffle.WHEN_EMPTY)
    state.decks["other_world"] = Deck.shuffled("other_world", list(ids["other_worlds"]), rng, Reshuffle.WHEN_EMPTY)
    state.decks["expedition"] = Deck.shuffled("expedition", list(ids["expeditions"]), rng, Reshuffle.WHEN_EMPTY)
    if ao.special_deck:
        state.decks["special"] = Deck.shuffled("special", list(ids["specials:" + ao_id]), rng, Reshuffle.WHEN_EMPTY)
    state.decks["mystery"] = Deck.shuffled("mystery", list(ids["mysteries:" + ao_id]), rng)
    state.decks["asset"] = Deck.shuffled("asset", list(ids["assets"]), rng, Reshuffle.WHEN_EMPTY)
    state.decks["artifact"] = Deck.shuffled("artifact", list(ids["artifacts"]), rng)
    state.decks["spell"] = Deck.shuffled("spell", list(ids["spells"]), rng)
    state.decks["condition"] = Deck.shuffled("condition", list(ids["conditions"]), rng)
    # step 3: the Lead, then investigators from the Lead clockwise
    state.lead = rng.below(len(seats))
    state.investigators = [Investigator() for _ in seats]
    # setup is a phase of its own: its narration and its board are one section, whatever it spawns
    say(events, f"The Ancient One: {ao.name}. {ao.text}".strip(), cause=ao_id, kind="phase.started")
    pool = [i for i in sorted(c.investigators) if i not in chosen]
    for seat in seats_from_lead(state):
        spec = seats[seat]
        iid = _investigator_id(c, spec.character) if spec.character else pool.pop(rng.below(len(pool)))
        start_investigator(state, seat, iid, events)
    say(events, f"{name(state, state.lead)} is the Lead Investigator.", seat=state.lead, kind="setup.lead")
    # step 5-6: the Ancient One's setup, the Monster cup
    state.doom = ao.doom
    state.omen = 0
    state.omen_tokens = dict(ao.omen_tokens)
    set_aside = dict(ao.set_aside)
    for m in sorted(c.monsters.values(), key=lambda m: m.id):
        if m.epic:
            continue
        keep = set_aside.get(m.id, 0)
        for i in range(m.count):
            (state.set_aside if i < keep else state.cup).append(m.id)
    # step 8: the Mythos deck by stages
    difficulty = options.get("mythos", "normal")
    state.decks["mythos"] = Deck(name="mythos", draw_pile=build_mythos(c, ao_id, difficulty, rng))
    # step 9: reference, doom, omen, reserve, then on the stack: gates (each with a Monster, whose spawn effect
    # resolves before the next Gate opens), expedition, clues, the first Mystery
    gates, _, _ = reference(len(seats))
    P.refill_reserve(state, events)
    steps: list[tuple[str, int | None, dict[str, Any]]] = [("setup_gate", None, {}) for _ in range(gates)]
    steps.append(("setup_clues", None, {}))
    if options.get("starting_rumor"):
        steps.append(("starting_rumor", None, {}))
    steps += [("setup_done", None, {}), ("round_start", None, {})]
    push_seq(state, steps)
    return state, events


@auto("setup_gate")
def setup_gate(state: EldritchState, frame: Frame, events: Events) -> None:
    """One of setup's Gates and its Monster; a frame of its own, so that the Monster's spawn effect (pushed
    above what is left of setup) resolves at once, as any spawn effect does (Rulebook, Spawning Monsters)."""
    W.spawn_gate(state, events, "setup")


@auto("setup_clues")
def setup_clues(state: EldritchState, frame: Frame, events: Events) -> None:
    """The rest of setup step 9: the expedition, the Clues, the table notes and the first Mystery (whose "enters
    play" effect resolves next)."""
    set_expedition(state)
    for _ in range(reference(state.players)[2]):
        W.spawn_clue(state, events, "setup")
    state.notices = list(NOTICES)
    say(events, table_notes(state.game), kind="setup.notice")
    W.next_mystery(state, events)


@auto("setup_done")
def setup_done(state: EldritchState, frame: Frame, events: Events) -> None:
    """The end of setup, once the first Mystery's and the starting rumor's effects have resolved: the table
    sees one setup message and one board, not a second message for what the Mystery put in play."""
    ao = content(state).ancient_ones[state.ao]
    say(events, f"Doom stands at {state.doom}. Solve {ao.mysteries} Mysteries before it reaches 0.",
        kind="setup.done")
    events[-1].render = True


def _investigator_id(c: EldritchContent, character: str | None) -> str:
    cid = character or ""
    if not cid.startswith("eh.investigator."):
        cid = f"eh.investigator.{cid}"
    if cid not in c.investigators:
        raise IllegalAction(f"There is no investigator called '{character}'.")
    return cid


def start_investigator(state: EldritchState, seat: int, iid: str, events: Events, replacement: bool = False) -> None:
    """Setup steps 3-4: the investigator on their starting space with full Health and Sanity and their
    starting possessions, taken from the decks (a replacement gets only what the decks still hold)."""
    c = content(state)
    sheet = c.investigators[iid]
    inv = state.investigators[seat]
    inv.card = iid
    inv.space = sheet.start
    inv.health, inv.sanity = sheet.health, sheet.sanity
    inv.improve = {}
    inv.actions_used = []
    say(events, f"{state.seats[seat].name} plays {sheet.name}, {sheet.occupation}, starting at "
                f"{W.space_name(state, sheet.start)}.", seat=seat, cause=iid, kind="setup.investigator")
    s = sheet.starting
    for a in s.assets:
        if state.decks["asset"].take(a):
            inv.assets.append(a)
        elif a in state.reserve:
            state.reserve.remove(a)
            inv.assets.append(a)
    for a in s.artifacts:
        if state.decks["artifact"].take(a):
            inv.artifacts.append(a)
    for spell_name in s.spells:
        P.gain_spell(state, seat, "any", iid, events, spell_name=spell_name)
    for kind in s.conditions:
        P.gain_condition(state, seat, kind, iid, events)
    inv.clues += s.clues
    for t in s.tickets:
        P.gain_ticket(state, seat, t, iid, events)


# ------------------------------------------------------------------ the round


@auto("round_start")
def round_start(state: EldritchState, frame: Frame, events: Events) -> None:
    state.round += 1
    state.phase = "action"
    state.used_components.clear()
    for inv in state.investigators:
        inv.actions_used.clear()
    say(events, f"Round {state.round}: Action Phase.", kind="phase.started")
    steps: list[tuple[str, int | None, dict[str, Any]]] = [("turn", s, {}) for s in seats_from_lead(state)]
    steps.append(("encounter_phase", None, {}))
    push_seq(state, steps)


@auto("encounter_phase")
def encounter_phase(state: EldritchState, frame: Frame, events: Events) -> None:
    # the board after the Action phase (digest 3: a picture after every phase): the last turn's section ends
    say(events, "The Action Phase ends.", kind="phase.ended")
    events[-1].render = True
    state.phase = "encounter"
    say(events, f"Round {state.round}: Encounter Phase.", kind="phase.started")
    events[-1].render = True
    steps: list[tuple[str, int | None, dict[str, Any]]] = [("encounter_turn", s, {}) for s in seats_from_lead(state)]
    steps.append(("mythos_phase", None, {}))
    push_seq(state, steps)


@auto("round_end")
def round_end(state: EldritchState, frame: Frame, events: Events) -> None:
    say(events, f"Round {state.round} ends. Doom {state.doom}.", kind="phase.ended")
    events[-1].render = True
    push(state, "round_start")


@auto("starting_rumor")
def starting_rumor(state: EldritchState, frame: Frame, events: Events) -> None:
    """Optional rule (digest 10): a Rumor from the unused Mythos cards enters play, its enters-play effect and
    its Rumor token resolve, its Spawn Clues icon does not."""
    c = content(state)
    in_deck = set(state.decks["mythos"].draw_pile)
    rumors = sorted(m.id for m in c.mythos.values() if m.rumor is not None and m.id not in in_deck)
    if not rumors:
        return
    card = rumors[state.rng.below(len(rumors))]
    m = c.mythos[card]
    assert m.rumor is not None
    state.ongoing.append(Ongoing(card=card, tokens=m.tokens))
    state.rumors[card] = m.rumor.space
    say(events, f"A rumor spreads from the start: {m.name}.", cause=card, kind="rumor.started", space=m.rumor.space)
    resolve(state, None, m.effects, card, card=card)
