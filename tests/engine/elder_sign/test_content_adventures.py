"""The Adventure, Other World and monster decks of the Elder Sign pack.

Each deck file states its intended mix; these tests recompute that mix from the cards and compare, check the
component counts (48 adventures, 8 Other Worlds, 22 monsters + 5 masks, digest 1.1), validate every card with
the engine's models, and check that the trophy values follow the difficulty of the tasks.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.elder_sign.content import ASSETS, AdventureCard, Monster
from engine.elder_sign.tasks import Task

DECKS = ("adventures", "other_worlds", "monsters")
PREFIX = {"adventures": "es.adventure.", "other_worlds": "es.otherworld.", "monsters": "es.monster."}
DRAWS = ("common", "unique", "spell", "ally")


def _load(deck: str) -> dict[str, Any]:
    data = yaml.safe_load(Path(ASSETS, f"{deck}.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict) and data.get("deck") == deck, f"{deck}.yaml: bad header"
    assert isinstance(data.get("cards"), list) and isinstance(data.get("mix"), dict)
    return data


@functools.cache
def _raw(deck: str) -> tuple[dict[str, Any], ...]:
    return tuple(_load(deck)["cards"])


@functools.cache
def _cards(deck: str) -> tuple[Any, ...]:
    out = []
    for raw in _raw(deck):
        raw = dict(raw)
        if deck == "monsters":
            out.append(Monster.model_validate(raw))
        else:
            if deck == "other_worlds":
                raw["other_world"] = True
            out.append(AdventureCard.model_validate(raw))
    return tuple(out)


def _verbs(effects: list[dict[str, Any]]) -> Counter[str]:
    c: Counter[str] = Counter()
    for eff in effects:
        ((verb, arg),) = eff.items()
        c[verb] += arg if isinstance(arg, int) and not isinstance(arg, bool) else 1
    return c


def _has(effects: list[dict[str, Any]], verb: str) -> bool:
    return any(verb in eff for eff in effects)


def _inv(task: Task) -> list[int]:
    return [int(s[4:]) for s in task.symbols if s.startswith("inv:")]


def _nz(c: Counter[Any]) -> dict[Any, int]:
    return {k: v for k, v in sorted(c.items()) if v}


def adventure_mix(cards: tuple[AdventureCard, ...]) -> dict[str, Any]:
    """The mix of an Adventure or Other World deck, in the vocabulary of the files' `mix` headers."""
    slot_tasks = [t.slot for c in cards for t in c.tasks if t.slot != "none"]
    terror_kinds: Counter[str] = Counter()
    draws: Counter[str] = Counter()
    for c in cards:
        terror_kinds.update({v for e in c.terror for v in e})
        r = _verbs(c.rewards)
        draws.update({d: r[d] for d in DRAWS})
    return {
        "cards": len(cards),
        "trophy": _nz(Counter(c.trophy for c in cards)),
        "tasks_per_card": _nz(Counter(len(c.tasks) for c in cards)),
        "ordered": sum(c.ordered for c in cards),
        "monster_slots": sum(any(t.slot != "none" for t in c.tasks) for c in cards),
        "slot_types": _nz(Counter(slot_tasks)),
        "locks": sum(bool(c.locks) for c in cards),
        "lock_colors": _nz(Counter(col for c in cards for col in c.locks)),
        "clock_costs": sum(any(t.clock for t in c.tasks) for c in cards),
        "health_costs": sum(any(t.sanity or t.stamina for t in c.tasks) for c in cards),
        "elder_sign_rewards": sum(_has(c.rewards, "elder_signs") for c in cards),
        "elder_signs_total": sum(_verbs(c.rewards)["elder_signs"] for c in cards),
        "gate_rewards": sum(_has(c.rewards, "gate") for c in cards),
        "doom_penalties": sum(_has(c.penalties, "doom") for c in cards),
        "monster_penalties": sum(_has(c.penalties, "monsters") for c in cards),
        "max_penalties": sum(_has(c.penalties, "max_sanity") or _has(c.penalties, "max_stamina")
                             for c in cards),
        "midnight": sum(bool(c.midnight) for c in cards),
        "terror": sum(bool(c.terror) for c in cards),
        "terror_kinds": _nz(terror_kinds),
        "reward_draws": _nz(draws),
        "clue_rewards": sum(_has(c.rewards, "clues") for c in cards),
    }


def monster_mix(cards: tuple[Monster, ...]) -> dict[str, Any]:
    normal = [m for m in cards if not m.mask]
    return {
        "cards": len(cards),
        "normal": len(normal),
        "masks": len(cards) - len(normal),
        "trophy": _nz(Counter(m.trophy for m in cards)),
        "normal_trophy": _nz(Counter(m.trophy for m in normal)),
        "locks": sum(m.lock is not None for m in cards),
        "lock_colors": _nz(Counter(m.lock for m in cards if m.lock)),
        "on_defeat": sum(bool(m.on_defeat) for m in cards),
        "task_costs": sum(bool(m.task.sanity or m.task.stamina or m.task.clock) for m in cards),
    }


# ---------------------------------------------------------------------------------------------- loading


@pytest.mark.parametrize("deck", DECKS)
def test_every_card_validates_with_the_engine_models(deck):
    assert len(_cards(deck)) == len(_raw(deck))


def test_component_counts():
    assert len(_cards("adventures")) == 48
    assert len(_cards("other_worlds")) == 8
    monsters = _cards("monsters")
    assert sum(not m.mask for m in monsters) == 22
    assert sum(m.mask for m in monsters) == 5


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")


def test_ids_and_names_are_unique_and_well_formed():
    ids: list[str] = []
    names: list[str] = []
    for deck in DECKS:
        for c in _cards(deck):
            assert c.id == PREFIX[deck] + _slug(c.name), f"{c.id}: id does not match the name '{c.name}'"
            ids.append(c.id)
            names.append(c.name.lower())
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    assert len(names) == len(set(names)), [i for i, n in Counter(names).items() if n > 1]


def test_every_card_has_short_flavour_text():
    for deck in DECKS:
        for c in _cards(deck):
            text = re.sub(r"\b(Mr|Mrs|Dr|St)\. ", r"\1 ", c.text)
            sentences = re.findall(r"[.!?](?:\s|$)", text)
            assert c.text and 1 <= len(sentences) <= 2, f"{c.id}: flavour should be one or two sentences"
            assert len(c.text) <= 260, f"{c.id}: flavour is too long"


# ---------------------------------------------------------------------------------------------- the mixes


def test_adventure_mix_matches_the_declared_mix():
    assert adventure_mix(_cards("adventures")) == _load("adventures")["mix"]


def test_other_world_mix_matches_the_declared_mix():
    assert adventure_mix(_cards("other_worlds")) == _load("other_worlds")["mix"]


def test_monster_mix_matches_the_declared_mix():
    assert monster_mix(_cards("monsters")) == _load("monsters")["mix"]


# ---------------------------------------------------------------------------------------------- card shapes


@pytest.mark.parametrize("deck", ("adventures", "other_worlds"))
def test_adventure_shapes(deck):
    low, high = (2, 8) if deck == "adventures" else (4, 10)
    for c in _cards(deck):
        assert 2 <= len(c.tasks) <= 4, c.id
        assert c.terror, f"{c.id}: every card has a terror effect"
        assert c.rewards and c.penalties, c.id
        assert sum(t.slot != "none" for t in c.tasks) <= 1, f"{c.id}: at most one monster task"
        for t in c.tasks:
            for v in _inv(t):
                assert low <= v <= high, f"{c.id}: investigation {v} outside {low}-{high}"
            assert len(_inv(t)) <= 1, f"{c.id}: one investigation symbol per task"
            if t.slot == "empty":
                assert not (t.clock or t.sanity or t.stamina), f"{c.id}: an empty slot carries no cost"
        if deck == "adventures":
            assert 1 <= c.trophy <= 3, c.id
        else:
            assert c.other_world and 2 <= c.trophy <= 3, c.id
            assert _has(c.rewards, "elder_signs"), f"{c.id}: an Other World pays in Elder Signs"


def test_monster_shapes():
    for m in _cards("monsters"):
        assert m.task.slot == "none" and m.task.symbols, m.id
        if m.mask:
            assert m.trophy == 2 and 2 <= len(m.task.symbols) <= 3, m.id
        else:
            assert 1 <= m.trophy <= 2 and 1 <= len(m.task.symbols) <= 2, m.id
        assert m.lock in (None, "yellow", "red"), m.id


def test_every_monster_fits_every_monster_slot():
    slots = [t for deck in ("adventures", "other_worlds") for c in _cards(deck) for t in c.tasks
             if t.slot != "none"]
    for m in _cards("monsters"):
        for t in slots:
            merged = t.with_monster(m.task)
            assert merged.symbols and merged.slot == "none"
            assert m.task.symbols[0] in merged.symbols


# ---------------------------------------------------------------------------------------------- difficulty

_GREEN = ("inv1", "inv2", "inv3", "lore", "peril", "terror")


def _dice_needed(symbols: tuple[str, ...], faces: tuple[str, ...]) -> int | None:
    """The fewest rolled green dice that complete a task, or None."""
    have = Counter(faces)
    need: Counter[str] = Counter(s for s in symbols if not s.startswith("inv:") and "/" not in s)
    splits = [s.split("/") for s in symbols if "/" in s]
    if not any(all(need[f] + ch.count(f) <= have[f] for f in ("lore", "peril", "terror"))
               for ch in itertools.product(*splits)):
        return None
    used = sum(need.values()) + len(splits)
    values = sorted((int(f[3:]) for f in faces if f.startswith("inv")), reverse=True)
    for target in (int(s[4:]) for s in symbols if s.startswith("inv:")):
        total = 0
        while total < target:
            if not values:
                return None
            total += values.pop(0)
            used += 1
    return used


@functools.cache
def _rolls(n: int) -> tuple[tuple[tuple[str, ...], float], ...]:
    counts = Counter(tuple(sorted(r)) for r in itertools.product(_GREEN, repeat=n))
    return tuple((k, v / 6 ** n) for k, v in counts.items())


def success_chance(card: AdventureCard) -> float:
    """Chance that one investigator with the six green dice, no clues, items or focus, and no monster on the
    card, completes it (one task per roll; a failed roll discards a die)."""
    tasks = [tuple(t.symbols) for t in card.tasks if t.slot != "empty"]

    @functools.cache
    def p(n: int, left: tuple[int, ...]) -> float:
        if not left:
            return 1.0
        if n == 0:
            return 0.0
        total = 0.0
        for faces, weight in _rolls(n):
            best = p(n - 1, left)
            for i in left[:1] if card.ordered else left:
                used = _dice_needed(tasks[i], faces)
                if used is not None and (n - used > 0 or len(left) == 1):
                    best = max(best, p(n - used, tuple(j for j in left if j != i)))
            total += weight * best
        return total

    return p(6, tuple(range(len(tasks))))


def test_trophy_values_follow_difficulty():
    chances: dict[int, list[float]] = {1: [], 2: [], 3: []}
    for c in _cards("adventures"):
        chance = success_chance(c)
        assert 0.005 < chance < 0.995, f"{c.id}: success chance {chance:.3f} is degenerate"
        chances[c.trophy].append(chance)
    mean = {k: sum(v) / len(v) for k, v in chances.items()}
    assert mean[1] > 0.6 > mean[2] > 0.15 > mean[3] > 0.02, mean
    assert min(chances[1]) > max(chances[3])
    worlds = [success_chance(c) for c in _cards("other_worlds")]
    assert sum(worlds) / len(worlds) < mean[2], "Other Worlds are harder than the museum's adventures"
