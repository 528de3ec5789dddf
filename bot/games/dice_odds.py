"""A skill test's chances, for the games that roll a pool of dice against a face (Eldritch Horror, Arkham
Horror 3e): `/eh odds` and `/ah odds` read them, as `/es odds` and `/lcg odds` read their own games'.

With `rerolls` single-die rerolls of failed dice (a clue or a focus token each), needing `k` successes from
`n` dice is the same as needing `k` from `n + rerolls` rolls: a reroll is spent only on a failed die and only
while fewer than `k` dice succeed (so there is always a failed die to reroll when k <= n).
"""

from __future__ import annotations

from math import comb

from bot.games.lookup import listing


def chance(dice: int, need: int, faces: int, rerolls: int = 0) -> float:
    """P(at least `need` successes) with `dice` six-sided dice succeeding on `faces` of the six faces, each of
    `rerolls` rerolling one failed die."""
    if need <= 0:
        return 1.0
    if need > dice:
        return 0.0
    rolls = dice + rerolls
    p = faces / 6
    return sum(comb(rolls, s) * p**s * (1 - p) ** (rolls - s) for s in range(need, rolls + 1))


def percent(p: float) -> str:
    """A chance as players read it: whole percents, never a false 0% or 100%."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{round(p * 100)}%"


def skill_lines(skills: dict[str, int], names: dict[str, str], faces: int, rerolls: int, spend: str) -> list[str]:
    """One line a skill: its dice and the chance of 1, 2 or 3 successes, then with the rerolls spent."""
    lines = []
    for skill, dice in skills.items():
        dice = max(1, dice)
        plain = ", ".join(f"{n}+: {percent(chance(dice, n, faces))}" for n in (1, 2, 3) if n <= dice)
        line = f"**{names.get(skill, skill.title())}** ({dice} {'die' if dice == 1 else 'dice'}): {plain}"
        if rerolls:
            line += f"; spending {spend}: 1+: {percent(chance(dice, 1, faces, rerolls))}"
        lines.append(line)
    return lines


def faces_line(faces: int, why: list[str]) -> str:
    shown = {1: "6s", 2: "5s and 6s", 3: "4s, 5s and 6s"}.get(faces, f"{faces} faces")
    return f"Dice succeed on {shown}" + (f" ({listing(why)})" if why else "") + "."
