"""Skill tests (digest 5): dice = skill + focus + cards (at most 2 hand icons) + abilities + modifiers,
never fewer than 1; 5s and 6s succeed (blessed: 4s too; cursed: only 6s); rerolls by spending a focus token
(of any skill) or a clue, one die each, and an investigator's own free reroll; then the card's pass or fail
branch, or the rule that asked for the test (`cont`).
"""

from __future__ import annotations

from typing import Any

from engine.arkham3 import board
from engine.arkham3.board import content, has_inv, inv, who
from engine.arkham3.effects import run_effects
from engine.arkham3.ops import Events, answers, asks, auto, push, say
from engine.arkham3.state import ArkhamState, Roll
from engine.core.flow import Answer, Frame
from engine.core.prompt import Option, Prompt, PromptKind
from engine.core.text import plural


def start_test(state: ArkhamState, seat: int, skill: str, mod: int, purpose: str, source: str,
               cont: str = "", cont_args: dict[str, Any] | None = None) -> None:
    """A test for a rule (attack, evade, research, ward, a spell...): `cont` gets `successes` when it ends."""
    push(state, "test", seat, source, skill=skill, mod=mod, purpose=purpose, cont=cont, cont_args=cont_args or {})


def min_face(state: ArkhamState, seat: int) -> int:
    faces = set(inv(state, seat).conditions.values())
    if "cursed" in faces:
        return 6
    if "blessed" in faces:
        return 4
    return 5


def dice_for(state: ArkhamState, seat: int, skill: str, mod: int, purpose: str) -> tuple[int, list[str]]:
    base = board.skill_value(state, seat, skill)
    bonus, cards = board.test_bonus(state, seat, skill, purpose)
    ab = content(state).investigators[inv(state, seat).card].ability
    extra = 0
    if ab.kind == "test_bonus" and ab.param("skill") == skill and ab.param("purpose") in (purpose, "any"):
        extra = ab.param("dice")
    return max(1, base + bonus + extra + mod), cards


@auto("test")
def run_test(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    if not has_inv(state, seat):
        return
    a = frame.args
    n, cards = dice_for(state, seat, a["skill"], a["mod"], a["purpose"])
    dice = [state.rng.below(6) + 1 for _ in range(n)]
    ab = content(state).investigators[inv(state, seat).card].ability
    roll = Roll(seat=seat, skill=a["skill"], purpose=a["purpose"], dice=dice, source=frame.source,
                free_reroll=ab.kind == "free_reroll" and ab.param("skill") == a["skill"],
                min_face=min_face(state, seat))
    state.rolls.append(roll)
    using = f" with {', '.join(cards)}" if cards else ""
    say(events, f"{who(state, seat)} tests {board.SKILL_NAMES[a['skill']]}{using}: {plural(n, 'die')}, rolled "
        f"{' '.join(map(str, dice))} ({plural(successes(roll), 'success')}).", "test.rolled", seat, frame.source,
        dice=dice, skill=a["skill"])
    push(state, "test_finish", seat, frame.source, **a)
    push(state, "test_offer", seat, frame.source)


def successes(roll: Roll) -> int:
    return sum(1 for d in roll.dice if d >= roll.min_face)


def reroll_options(state: ArkhamState, seat: int) -> list[Option]:
    roll = state.rolls[-1]
    if all(d >= roll.min_face for d in roll.dice):
        return []
    i = inv(state, seat)
    opts = []
    if roll.free_reroll:
        opts.append(Option(id="free", label="Use your ability: reroll a failed die", data=("free", "")))
    for s in i.focus:
        opts.append(Option(id=f"focus-{s}", label=f"Spend your {board.SKILL_NAMES[s]} focus: reroll a failed die",
                           data=("focus", s)))
    if i.clues:
        opts.append(Option(id="clue", label=f"Spend a clue ({i.clues}): reroll a failed die", data=("clue", "")))
    return opts


@auto("test_offer")
def run_test_offer(state: ArkhamState, frame: Frame, events: Events) -> None:
    if has_inv(state, frame.owner) and state.rolls and reroll_options(state, frame.owner):
        push(state, "test_reroll", frame.owner, frame.source)


@asks("test_reroll")
def ask_reroll(state: ArkhamState, frame: Frame) -> Prompt:
    roll = state.rolls[-1]
    opts = [Option(id="keep", label=f"Keep {plural(successes(roll), 'success')}", data=None),
            *reroll_options(state, frame.owner)]
    return Prompt(seq=0, seats=[frame.owner], kind=PromptKind.ONE,
                  title=f"{board.SKILL_NAMES[roll.skill]} test: {' '.join(map(str, roll.dice))}",
                  reason=f"{plural(successes(roll), 'success')} so far; reroll?", options=opts, default=["keep"])


@answers("test_reroll")
def answer_reroll(state: ArkhamState, frame: Frame, answer: Answer, events: Events) -> None:
    if answer.data is None:
        return
    seat = frame.owner
    roll = state.rolls[-1]
    how, skill = answer.data
    i = inv(state, seat)
    if how == "free":
        roll.free_reroll = False
        paid = "their ability"
    elif how == "focus":
        i.focus.remove(skill)
        paid = f"a {board.SKILL_NAMES[skill]} focus"
    else:
        i.clues -= 1
        paid = "a clue"
    k = min(range(len(roll.dice)), key=lambda j: roll.dice[j])  # the lowest failed die
    old = roll.dice[k]
    roll.dice[k] = state.rng.below(6) + 1
    say(events, f"{who(state, seat)} spends {paid} to reroll a {old}: {roll.dice[k]} "
        f"({plural(successes(roll), 'success')}).", "test.reroll", seat, frame.source, dice=list(roll.dice))
    push(state, "test_offer", seat, frame.source)


@auto("test_finish")
def run_test_finish(state: ArkhamState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    if not state.rolls or state.rolls[-1].seat != seat:
        return
    roll = state.rolls.pop()
    hits = successes(roll)
    a = frame.args
    if a.get("cont"):
        push(state, a["cont"], seat, frame.source, **{**a["cont_args"], "successes": hits})
        return
    spec, ctx = a.get("spec") or {}, a.get("ctx") or {}
    if hits:
        if spec.get("pass_text"):
            say(events, spec["pass_text"], "test.passed", seat, frame.source)
        else:
            say(events, f"{who(state, seat)} passes.", "test.passed", seat, frame.source)
        run_effects(state, spec.get("pass") or [], ctx, frame.source)  # after the per-success effects
        for _ in range(hits):
            run_effects(state, spec.get("per_success") or [], ctx, frame.source)
    else:
        say(events, spec.get("fail_text") or f"{who(state, seat)} fails.", "test.failed", seat, frame.source)
        run_effects(state, spec.get("fail") or [], ctx, frame.source)
