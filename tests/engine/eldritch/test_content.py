"""The shipped Eldritch Horror pack: every deck at the base game's counts (rulebook component list), every
declared mix true of its cards, every card loadable and cross-referenced (engine/eldritch/content.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.errors import ContentError
from engine.eldritch.content import ASSETS, default_content, load_pack

BASE_COUNTS = {  # the base game's component list
    "ancient_ones": 4, "mysteries": 16, "research": 32, "locations": 36, "other_worlds": 24, "expeditions": 18,
    "specials": 12, "mythos": 51, "investigators": 12, "assets": 40, "artifacts": 14, "spells": 20,
    "conditions": 36,
}


def test_decks_have_the_base_game_counts() -> None:
    c = default_content()
    assert {k: len(getattr(c, k)) for k in BASE_COUNTS} == BASE_COUNTS
    monsters = [m for m in c.monsters.values() if not m.epic]
    assert sum(m.count for m in monsters) == 34 and sum(1 for m in c.monsters.values() if m.epic) == 9
    assert len(c.spaces) == 36 and len(c.paths) == 58 and sum(1 for s in c.spaces.values() if s.gate) == 9


def test_mythos_colours_and_difficulties() -> None:
    """51 Mythos cards: green 5/8/5, yellow 5/11/5, blue 4/4/4 (easy/normal/hard)."""
    c = default_content()
    got = Counter((m.color, m.difficulty) for m in c.mythos.values())
    want = {("green", "easy"): 5, ("green", "normal"): 8, ("green", "hard"): 5, ("yellow", "easy"): 5,
            ("yellow", "normal"): 11, ("yellow", "hard"): 5, ("blue", "easy"): 4, ("blue", "normal"): 4,
            ("blue", "hard"): 4}
    assert dict(got) == want


def test_each_ancient_one_has_its_decks() -> None:
    c = default_content()
    for ao in c.ancient_ones.values():
        assert sum(1 for m in c.mysteries.values() if m.ao == ao.id) == 4
        assert sum(1 for r in c.research.values() if r.ao == ao.id) == 8
        if ao.special_deck:
            assert sum(1 for s in c.specials.values() if s.ao == ao.id) == 6
        total = sum(s.green + s.yellow + s.blue for s in ao.stages)
        assert total <= 16


def test_declared_card_counts_match() -> None:
    """Each deck file's mix names its card count (`cards`) where it has one; it matches the file."""
    c = default_content()
    per_file = {"locations": len(c.locations), "other_worlds": len(c.other_worlds),
                "expeditions": len(c.expeditions), "conditions": len(c.conditions)}
    for stem, n in per_file.items():
        declared = c.mixes.get(stem, {}).get("cards")
        if declared is not None:
            assert declared == n, stem


def test_condition_kinds_share_a_front_and_differ_in_backs() -> None:
    c = default_content()
    by_kind: dict[str, list] = {}
    for cond in c.conditions.values():
        by_kind.setdefault(cond.kind, []).append(cond)
    for kind, cards in by_kind.items():
        assert len({x.name for x in cards}) == 1, kind
        assert len({str(x.back) for x in cards}) == len(cards), kind


def test_a_broken_card_names_file_line_and_id(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "map.yaml").write_text((ASSETS / "map.yaml").read_text())
    (tmp_path / "other_worlds.yaml").write_text(
        "deck: other_worlds\ncards:\n  - id: eh.ow.bad\n    name: Bad\n    effects:\n"
        "      - test: {skill: lore, pas: []}\n")
    with pytest.raises(ContentError, match=r"other_worlds.yaml:3 \(eh.ow.bad\).*unknown pas"):
        load_pack(tmp_path)


def test_a_spawn_text_names_its_monster() -> None:
    """Issue 30 item 12: a Monster's spawn text is read right after other spawns ("Mummy appears at Arkham.",
    "Skeleton appears at Arkham."), so "It shuffles back…" could be either: every spawn text that speaks of the
    Monster names it instead of "It"."""
    from engine.eldritch.content import default_content

    for monster in default_content().monsters.values():
        for effect in monster.spawn:
            said = effect.get("say") if isinstance(effect, dict) else None
            if said:
                assert said.split()[0] not in ("It", "It's", "Its"), (monster.name, said)
