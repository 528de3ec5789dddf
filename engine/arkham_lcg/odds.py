"""Chances in a skill test, exactly: what one reveal from the chaos bag does to a test (digest A.3 ST.3-ST.4),
for `/lcg bag` and for the smart agent's choices.

A token that draws again (bless, curse, a scenario symbol that reveals another) is out of the bag while the
next is drawn, as the engine pops it, and adds its own modifier to the next one's; an auto-fail anywhere in the
chain fails; an elder sign whose effect makes the test succeed succeeds; an empty bag gives 0 (the engine's
stand-in token).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

from engine.arkham_lcg import board
from engine.arkham_lcg.state import LcgState
from engine.arkham_lcg.vocab import NUMBERS, SYMBOLS


@dataclass(frozen=True)
class TokenRule:
    """What one chaos token does to a test (engine/arkham_lcg/skilltest.py `resolve_token`)."""

    modifier: int = 0
    fails: bool = False  # the auto-fail, or a symbol that fails the test
    passes: bool = False  # an elder sign that makes the test succeed
    again: bool = False  # bless, curse and "reveal another" symbols: another token is revealed too


@dataclass(frozen=True)
class Outcomes:
    """A token draw's results: the probability of each total modifier, and of an automatic result."""

    modifiers: dict[int, Fraction]
    fail: Fraction
    succeed: Fraction

    def pass_chance(self, margin: int) -> Fraction:
        """P(the test passes) when the skill value before the token beats the difficulty by `margin` (negative:
        falls short), for a difficulty of at least 1 (a difficulty of 0 passes on anything but a failure)."""
        return self.succeed + sum((p for mod, p in self.modifiers.items() if mod >= -margin), Fraction(0))


def outcomes(bag: Mapping[str, int], rules: Mapping[str, TokenRule]) -> Outcomes:
    """The exact distribution of one reveal from `bag`, by recursion: a token that draws again (bless, curse, a
    "reveal another" symbol) is out of the bag while the next is drawn, as the engine pops it, and adds its own
    modifier to the next one's; an auto-fail anywhere in the chain fails. An empty bag gives 0 (the engine's
    stand-in token)."""

    @cache
    def draw(counts: tuple[tuple[str, int], ...]) -> dict[int | str, Fraction]:
        total = sum(n for _, n in counts)
        if total == 0:
            return {0: Fraction(1)}
        out: dict[int | str, Fraction] = defaultdict(Fraction)
        for index, (token, n) in enumerate(counts):
            p = Fraction(n, total)
            rule = rules.get(token, TokenRule())
            if rule.fails:
                out["fail"] += p
            elif rule.passes:
                out["succeed"] += p
            elif rule.again:
                rest = tuple((t, m - 1 if i == index else m) for i, (t, m) in enumerate(counts)
                             if i != index or m > 1)
                for result, q in draw(rest).items():
                    out[result + rule.modifier if isinstance(result, int) else result] += p * q
            else:
                out[rule.modifier] += p
        return dict(out)

    result = draw(tuple(sorted((t, n) for t, n in bag.items() if n > 0)))
    mods = {k: v for k, v in result.items() if isinstance(k, int)}
    return Outcomes(modifiers=dict(sorted(mods.items())), fail=result.get("fail", Fraction(0)),
                    succeed=result.get("succeed", Fraction(0)))


def token_rules(state: LcgState, seat: int) -> dict[str, TokenRule]:
    """Each token's effect on `seat`'s tests now: numbers, the scenario's symbols at the campaign's difficulty
    (a "-X" counted for this investigator now), this investigator's elder sign, bless and curse."""
    rules = {t: TokenRule(modifier=int(t)) for t in NUMBERS}
    rules["auto_fail"] = TokenRule(fails=True)
    rules["bless"] = TokenRule(modifier=2, again=True)
    rules["curse"] = TokenRule(modifier=-2, again=True)
    es = board.idef(state, seat).elder_sign
    rules["elder_sign"] = TokenRule(modifier=es.modifier, passes=any("auto_succeed" in e for e in es.effects))
    if state.scenario is not None:
        scenario = board.content(state).scenarios[state.scenario.id]
        for symbol in SYMBOLS:
            te = scenario.token_effect(symbol, state.campaign.difficulty)
            if te is None:
                continue
            minus = board.count(state, seat, te.minus) if te.minus else 0
            rules[symbol] = TokenRule(modifier=te.modifier - minus, fails=te.auto_fail, again=te.reveal_another)
    return rules


def pass_chance(state: LcgState, seat: int, value: int, difficulty: int) -> float:
    """The chance that `seat` passes a test of `value` (before the token) against `difficulty` now."""
    bag = tuple(sorted(Counter(state.bag).items()))
    rules = tuple(sorted(token_rules(state, seat).items()))
    return _chances(bag, rules).get(value - difficulty, _edge(bag, rules, value - difficulty))


@lru_cache(maxsize=4096)
def _chances(bag: tuple[tuple[str, int], ...], rules: tuple[tuple[str, TokenRule], ...]) -> dict[int, float]:
    """P(pass) by margin for one bag and one investigator's token rules, for the margins tests usually have
    (the agent asks many times a turn; the bag changes rarely)."""
    o = outcomes(dict(bag), dict(rules))
    return {margin: float(o.pass_chance(margin)) for margin in range(-8, 9)}


def _edge(bag: tuple[tuple[str, int], ...], rules: tuple[tuple[str, TokenRule], ...], margin: int) -> float:
    return float(outcomes(dict(bag), dict(rules)).pass_chance(margin))
