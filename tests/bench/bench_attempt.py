"""Benchmark of the bare adventure attempt: one card, a fixed dice pool (the six green dice, no items, spells,
allies or clues), a greedy player (complete the best-ranked task whenever a roll allows one, else fail the roll
and discard), through the public engine API. Reports attempts per second and actions per second, so the
attempt loop itself (roll, match, discard, roll again) is measured apart from whole games.

Run: python -m tests.bench.bench_attempt [--attempts N] [--card ID] [--seed S]
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine import api
from engine.core.game import SeatSpec
from engine.core.prompt import Action, Prompt
from engine.core.rng import Rng
from engine.elder_sign.content import default_content
from engine.elder_sign.state import CardInPlay, ElderSignState

#: a two-task card of middling difficulty (Inv 7 · Lore and a Clock); any adventure id may be given instead
DEFAULT_CARD = "es.adventure.the-stele-rubbings"


def prepared(card_id: str, seed: int) -> ElderSignState:
    """A one-investigator game waiting for its first move, with `card_id` alone on the table, no Mythos, no
    locks and nothing in hand: the adventure is the card against the six green dice."""
    state, _ = api.new_game("elder-sign", [SeatSpec(seat=0, name="bench")], {"ancient_one": "cthulhu"}, seed)
    assert isinstance(state, ElderSignState)
    while state.flow.stack[-1].op != "move":  # setup choices: the defaults
        p = api.prompts(state)[0]
        state, _ = api.apply(state, Action(seat=p.seats[0], prompt=p.seq, choice=(p.default or [])[:1]),
                             in_place=True)
    state.slots = [CardInPlay(card=card_id)] + [None] * (len(state.slots) - 1)
    state.other_worlds, state.locks, state.mythos = [], [], None
    for die in state.dice.values():
        die.loc, die.holder, die.face = "supply", None, None
    investigator = state.table[0].investigator
    assert investigator is not None
    investigator.items, investigator.allies, investigator.clues = [], [], 0
    investigator.sanity = investigator.stamina = 9  # costs never stop the greedy player
    return state


def greedy(prompt: Prompt) -> Action:
    """Move to the card; roll; complete the first (best-ranked) task offered, else fail the roll; keep the
    first die offered to discard; never focus or ask for help."""
    ids = [o.id for o in prompt.options]
    if prompt.title.endswith("where to?"):
        pick = "go:slot:0"
    elif "roll" in ids:
        pick = "roll"
    elif any(i.startswith("task:") for i in ids):
        pick = next(i for i in ids if i.startswith("task:"))
    elif "fail" in ids:
        pick = "fail"
    elif "continue" in ids:
        pick = "continue"
    else:
        pick = prompt.default[0] if prompt.default else ids[0]
    return Action(seat=prompt.seats[0], prompt=prompt.seq, choice=[pick])


def attempt(state: ElderSignState) -> tuple[bool, int]:
    """Play one adventure attempt in place, from the move to the end of the Resolution phase: (won, actions)."""
    actions = 0
    started = False
    while not state.over:
        prompt = api.prompts(state)[0]
        if started and state.adventure is None:
            break  # the attempt is over: the turn moved on to the clock and the next move
        started = True
        state, events = api.apply(state, greedy(prompt), in_place=True, prompt=prompt)
        actions += 1
        for e in events:
            if e.kind in ("adventure.success", "adventure.failure"):
                return e.kind == "adventure.success", actions
    return False, actions


def run(card_id: str, attempts: int, seed: int) -> tuple[float, float, float]:
    base = prepared(card_id, seed)
    states = []
    for k in range(attempts):
        s = base.model_copy(deep=True)
        s.rng = Rng.from_seed(seed * 1_000_003 + k)
        states.append(s)
    wins = actions = 0
    t0 = time.perf_counter()
    for s in states:
        won, n = attempt(s)
        wins += won
        actions += n
    dt = time.perf_counter() - t0
    return attempts / dt, actions / dt, wins / attempts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--attempts", type=int, default=2000, help="attempts per run (default: 2000)")
    parser.add_argument("--runs", type=int, default=3, help="runs; the median is reported (default: 3)")
    parser.add_argument("--card", default=DEFAULT_CARD, help=f"adventure card id (default: {DEFAULT_CARD})")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dice (default: 1)")
    args = parser.parse_args()
    c = default_content()
    card = c.adventures.get(args.card)
    if card is None:
        raise SystemExit(f"No adventure card '{args.card}'.")
    results = [run(args.card, args.attempts, args.seed + r) for r in range(args.runs)]
    aps = statistics.median(r[0] for r in results)
    acts = statistics.median(r[1] for r in results)
    rate = statistics.median(r[2] for r in results)
    tasks = " | ".join(t.text() for t in card.tasks)
    print(f"adventure attempts on {card.name} ({tasks}), six green dice, greedy: {aps:.0f} attempts/s, "
          f"{acts:.0f} actions/s, success {rate:.0%} (median of {args.runs} runs of {args.attempts}, one core)")


if __name__ == "__main__":
    main()
