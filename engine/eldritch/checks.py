"""Skill tests (digest 4): the dice pool, the roll, the reroll decisions and the result.

Pool = skill value (printed + improvement) + the test's modifier + the single highest bonus that applies +
additional dice, at least 1 die. Each 5 or 6 is a success (Blessed: 4-6; Cursed: only 6). After the roll the
investigator may reroll one die at a time, paying 1 Clue each, or using each free reroll of their cards once;
the result after the last reroll stands. Pass = at least `need` successes.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engine.core.flow import Answer, Frame
from engine.core.prompt import Option, Prompt
from engine.eldritch.ops import (
    Events,
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
    resolve_now,
    say,
)
from engine.eldritch.possessions import condition_of, skill_value
from engine.eldritch.state import EldritchState

Effects = list[dict[str, Any]]


def start_test(state: EldritchState, seat: int, skill: str, mod: int, source: str, *, need: int = 1,
               on_pass: Effects | None = None, on_fail: Effects | None = None, per_success: Effects | None = None,
               card: str | None = None, combat: bool = False, acquire: bool = False, resist: str | None = None,
               then: str | None = None, then_args: dict[str, Any] | None = None) -> None:
    """Push a test. `then` names an op run after it with the successes (combat and Acquire read them)."""
    push(state, "test", seat, skill=skill, mod=mod, need=need, on_pass=on_pass or [], on_fail=on_fail or [],
         per_success=per_success or [], card=card, combat=combat, acquire=acquire, resist=resist, then=then,
         then_args=then_args or {}, source=source, bonus=0)


def card_test(state: EldritchState, seat: int, skill: str, mod: int, source: str, need: int, on_pass: Effects,
             on_fail: Effects, per_success: Effects, card: str | None, events: Events) -> None:
    """A card's test, rolled at once: what `start_test` then running its frame does when nothing else is
    pending above it (the effect interpreter's `test` verb)."""
    roll(state, seat, {"skill": skill, "mod": mod, "need": need, "on_pass": on_pass, "on_fail": on_fail,
                       "per_success": per_success, "card": card, "combat": False, "acquire": False, "resist": None,
                       "then": None, "then_args": {}, "source": source, "bonus": 0}, events)


def bonus_sources(state: EldritchState, seat: int, skill: str, combat: bool, acquire: bool,
                  resist: str | None) -> list[tuple[int, str]]:
    """(bonus, where from) for every bonus that applies to this test; only the highest counts (digest 4.1).
    Magical Resistance ignores bonuses from Magical possessions and Spells; Physical Resistance ignores every
    other bonus (digest 5)."""
    c = content(state)
    inv = state.investigators[seat]
    out: list[tuple[int, str]] = []
    for card in [*inv.assets, *inv.artifacts] if inv.assets or inv.artifacts else ():
        poss = c.assets.get(card) or c.artifacts.get(card)
        if poss is None:
            continue
        magical = poss.magical or card in c.artifacts and "magical" in poss.traits
        if resist == "magical" and magical or resist == "physical" and not magical:
            continue
        for b in poss.bonuses:
            if b.skill == skill and (b.during == "always" or b.during == "combat" and combat
                                     or b.during == "acquire" and acquire):
                out.append((b.value, poss.name))
    for card in inv.conditions:
        for b in c.conditions[card].bonuses:
            if b.skill == skill and (b.during == "always" or b.during == "combat" and combat):
                out.append((b.value, c.conditions[card].name))
    assert inv.card is not None
    p = c.investigators[inv.card].passive
    if p.kind == "test_bonus" and p.skill == skill and p.value and (
            p.during in (None, "always") or p.during == "combat" and combat or p.during == "acquire" and acquire):
        if resist != "physical":
            out.append((p.value, "their own talent"))
    return out


def penalty(state: EldritchState, seat: int, skill: str) -> int:
    held = state.investigators[seat].conditions
    if not held:
        return 0
    c = content(state)
    return sum(b.value for card in held for b in c.conditions[card].penalties if b.skill == skill)


#: pool_size's answers by everything they depend on: the same investigator with the same cards tests the same
#: skill again and again
_POOLS: dict[tuple[Any, ...], tuple[int, str]] = {}


def pool_size(state: EldritchState, seat: int, skill: str, mod: int, combat: bool = False, acquire: bool = False,
              resist: str | None = None, extra_bonus: int = 0) -> tuple[int, str]:
    """(dice, how the pool was made) — digest 4.1, minimum 1 die after everything."""
    inv = state.investigators[seat]
    key = (state.content_version, inv.card, skill, mod, combat, acquire, resist, extra_bonus, inv.improve.get(skill, 0),
           tuple(inv.assets), tuple(inv.artifacts), tuple(inv.conditions))
    got = _POOLS.get(key)
    if got is None:
        if len(_POOLS) > 50_000:  # a bound for long-running processes; refilling is cheap
            _POOLS.clear()
        got = _POOLS[key] = _pool_size(state, seat, skill, mod, combat, acquire, resist, extra_bonus)
    return got


def _pool_size(state: EldritchState, seat: int, skill: str, mod: int, combat: bool, acquire: bool,
               resist: str | None, extra_bonus: int) -> tuple[int, str]:
    c = content(state)
    inv = state.investigators[seat]
    assert inv.card is not None
    value = skill_value(state, seat, skill)
    bonuses = bonus_sources(state, seat, skill, combat, acquire, resist)
    if extra_bonus:
        bonuses.append((extra_bonus, "a spell"))
    best = max(bonuses, default=(0, ""))
    p = c.investigators[inv.card].passive
    extra = 1 if p.kind == "extra_die" and p.skill in (skill, None) and (
        p.during in (None, "always") or p.during == "combat" and combat) else 0
    pen = penalty(state, seat, skill)
    dice = max(1, value + mod + best[0] + extra - pen)
    how = f"{skill.title()} {value}" + (f" {mod:+d}" if mod else "") + (f" +{best[0]} ({best[1]})" if best[0] else "")
    how += " +1 die" if extra else ""
    how += f" -{pen} (conditions)" if pen else ""
    return dice, how


def success_faces(state: EldritchState, seat: int) -> tuple[int, ...]:
    if not state.investigators[seat].conditions:
        return (5, 6)
    if condition_of(state, seat, "blessed"):
        return (4, 5, 6)
    if condition_of(state, seat, "cursed"):
        return (6,)
    return (5, 6)


def count(state: EldritchState, seat: int, dice: list[int], double_sixes: bool) -> int:
    faces = success_faces(state, seat)
    got = 0
    for d in dice:
        if d in faces:
            got += 2 if double_sixes and d == 6 else 1
    return got


def double_sixes(state: EldritchState, seat: int, combat: bool) -> bool:
    inv = state.investigators[seat]
    if not combat or not inv.assets and not inv.artifacts:
        return False
    c = content(state)
    return any((c.assets.get(a) or c.artifacts.get(a)).double_sixes  # type: ignore[union-attr]
               for a in [*inv.assets, *inv.artifacts])


@auto("test")
def run_test(state: EldritchState, frame: Frame, events: Events) -> None:
    roll(state, frame.owner, frame.args, events)


def roll(state: EldritchState, seat: int, a: dict[str, Any], events: Events) -> None:
    """Roll the pool; then ask about rerolls or settle the result."""
    dice_n, how = pool_size(state, seat, a["skill"], a["mod"], a["combat"], a["acquire"], a["resist"],
                            int(a.get("bonus", 0)))
    below = state.rng.below
    dice = [below(6) + 1 for _ in range(dice_n)]
    a["dice"] = dice
    a["free_used"] = []
    a["how"] = how
    say(events, f"{name(state, seat)} tests {how}: {plural(dice_n, 'die', 'dice')} → {fmt(dice)}.", seat=seat,
        cause=a["source"], kind="dice.rolled", dice=dice, skill=a["skill"])
    next_step(state, seat, a, events)


def next_step(state: EldritchState, seat: int, a: dict[str, Any], events: Events) -> None:
    """Ask about rerolls only when one is possible (a failed die and a Clue or a free reroll to use)."""
    if _can_reroll(state, seat, a):
        push(state, "test_reroll", seat, **a)
    else:
        finish(state, seat, a, events)


def fmt(dice: list[int]) -> str:
    return " ".join(map(str, dice))


def free_rerolls(state: EldritchState, seat: int, skill: str, combat: bool) -> list[tuple[str, int, str]]:
    """(id, dice, name) of each free reroll this test may use once (cards and the investigator's passive)."""
    c = content(state)
    inv = state.investigators[seat]
    out: list[tuple[str, int, str]] = []
    for card in [*inv.assets, *inv.artifacts] if inv.assets or inv.artifacts else ():
        poss = c.assets.get(card) or c.artifacts.get(card)
        if poss is None or not poss.rerolls:
            continue
        for i, r in enumerate(poss.rerolls):
            if r.skill in (skill, "any") and (r.during == "always" or combat):
                out.append((f"{card}#{i}", r.dice, poss.name))
    assert inv.card is not None
    p = c.investigators[inv.card].passive
    if p.kind == "reroll" and p.skill in (skill, "any", None) and (p.during in (None, "always") or combat):
        out.append(("passive", p.dice or 1, "their own knack"))
    return out


def _can_reroll(state: EldritchState, seat: int, a: dict[str, Any]) -> bool:
    """Whether `_reroll_options` offers anything, without building the options."""
    faces = success_faces(state, seat)
    for d in a["dice"]:
        if d not in faces:
            break
    else:
        return False
    if state.investigators[seat].clues > 0:
        return True
    used = a["free_used"]
    return any(rid not in used for rid, _, _ in free_rerolls(state, seat, a["skill"], a["combat"]))


def _reroll_options(state: EldritchState, seat: int, a: dict[str, Any]) -> list[Option]:
    """Each way to reroll: a free reroll of its cards (once each) or 1 Clue, and which failed dice it takes. The
    player picks the dice (Rulebook, Rerolling Dice), named by their faces: one option per distinct choice, the
    lowest faces first."""
    faces = success_faces(state, seat)
    failing = sorted(d for d in a["dice"] if d not in faces)
    if not failing:
        return []
    opts: list[Option] = []
    inv = state.investigators[seat]
    for rid, n, label in free_rerolls(state, seat, a["skill"], a["combat"]):
        if rid in a["free_used"]:
            continue
        if n >= len(failing):
            opts.append(option(f"free:{rid}", label=f"Reroll {plural(len(failing), 'failed die', 'failed dice')} "
                                                    f"({label})", data=("free", rid, tuple(failing))))
            continue
        for picked in sorted(set(combinations(failing, n))):
            opts.append(option(f"free:{rid}:{'-'.join(map(str, picked))}",
                               label=f"Reroll {_the_dice(picked)} ({label})", data=("free", rid, picked)))
    if inv.clues > 0:
        for face in sorted(set(failing)):
            opts.append(option(f"clue:{face}", label=f"Spend 1 Clue: reroll the {face}", data=("clue", "", (face,))))
    return opts


def _the_dice(faces: tuple[int, ...]) -> str:
    """"the 1", "the 1 and the 3"."""
    return " and ".join(f"the {f}" for f in faces)


@asks("test_reroll")
def ask_reroll(state: EldritchState, frame: Frame) -> Prompt:
    a = frame.args
    seat = frame.owner
    got = count(state, seat, a["dice"], double_sixes(state, seat, a["combat"]))
    verdict = "passes" if got >= a["need"] else "fails"
    opts = _reroll_options(state, seat, a)
    opts.insert(0, option("keep", label=f"Keep: {plural(got, 'success', 'successes')} ({verdict})",
                          data=("keep", "", ())))
    clues = state.investigators[seat].clues
    held = f" {plural(clues, 'Clue')} held." if clues else ""
    return ask_one(frame, f"Dice: {fmt(a['dice'])}",
                   f"Testing {a['how']} for {card_name(state, a['source'])}; {a['need']} needed.{held}", opts,
                   default="keep")


@answers("test_reroll")
def answer_reroll(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    a = frame.args
    seat = frame.owner
    kind, rid, picked = answer.data
    if kind == "keep":
        finish(state, seat, a, events)
        return
    faces = success_faces(state, seat)
    dice: list[int] = list(a["dice"])
    targets: list[int] = []
    for face in picked:  # the first failed die showing each named face, each die once
        targets.append(next(i for i, d in enumerate(dice) if d == face and d not in faces and i not in targets))
    if kind == "clue":
        state.investigators[seat].clues -= 1
        how = "1 Clue"
    else:
        a["free_used"] = [*a["free_used"], rid]
        how = "a free reroll"
    before = fmt(dice)
    old = [dice[i] for i in targets]
    for i in targets:
        dice[i] = state.rng.below(6) + 1
    a["dice"] = dice
    # which dice were rolled again: "6 5 4 → 6 5 4" alone hid a reroll that came up the same
    say(events, f"{name(state, seat)} rerolls {_the_dice(tuple(old))} with {how}: {before} → {fmt(dice)}.",
        seat=seat, cause=a["source"], kind="dice.rerolled", dice=dice)
    next_step(state, seat, a, events)


def finish(state: EldritchState, seat: int, a: dict[str, Any], events: Events) -> None:
    """The result stands: say it, then push what it leads to: per-success effects, pass or fail, then `then`."""
    got = count(state, seat, a["dice"], double_sixes(state, seat, a["combat"]))
    passed = got >= a["need"]
    say(events, f"{name(state, seat)} {'passes' if passed else 'fails'} with {plural(got, 'success', 'successes')}.",
        seat=seat, cause=a["source"], kind="test.passed" if passed else "test.failed", successes=got)
    if a.get("then"):
        push(state, a["then"], seat, successes=got, passed=passed, **a["then_args"])
    if a["per_success"] and got:
        resolve(state, seat, a["on_pass"] if passed else a["on_fail"], a["source"], card=a.get("card"))
        for _ in range(got):
            resolve(state, seat, a["per_success"], a["source"], card=a.get("card"))
    else:  # the result is the last thing pushed here: it resolves next, so at once
        resolve_now(state, seat, a["on_pass"] if passed else a["on_fail"], a["source"], events, card=a.get("card"))
