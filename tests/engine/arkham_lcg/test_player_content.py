"""The shipped player cards (assets/arkham_lcg/investigators.yaml and player/): five investigators, one per class,
each with a legal 30-card starter deck; about a hundred player cards across the classes, level 0 and upgrades;
signature cards; eight basic weaknesses.

Most checks read the YAML directly and validate it with the card models, so they do not need the scenario files;
the last test loads the whole pack through `load_content()` when the campaign is there to load."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.arkham_lcg.content import ASSETS, DeckOption, Investigator, PlayerCard
from engine.arkham_lcg.vocab import (
    CONDITIONS,
    COUNTS,
    DURING,
    PERMISSIONS,
    RESTRICTIONS,
    SKILLS,
    STATS,
    VERBS,
    WHICH,
    WINDOW_EVENTS,
    walk,
)

CLASSES = ("guardian", "seeker", "rogue", "mystic", "survivor")
PLAYER_FILES = (*CLASSES, "neutral", "signatures", "weaknesses")


def _cards(path: Path) -> list[dict[str, Any]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict) and isinstance(data.get("cards"), list), path
    cards: list[dict[str, Any]] = data["cards"]
    return cards


RAW_PLAYER: dict[str, list[dict[str, Any]]] = {f: _cards(ASSETS / "player" / f"{f}.yaml") for f in PLAYER_FILES}
PLAYER: dict[str, PlayerCard] = {}
FILE_OF: dict[str, str] = {}
for _file, _raw in RAW_PLAYER.items():
    for _entry in _raw:
        _card = PlayerCard.model_validate(_entry)
        assert _card.id not in PLAYER, f"duplicate id {_card.id}"
        PLAYER[_card.id] = _card
        FILE_OF[_card.id] = _file
INVESTIGATORS: dict[str, Investigator] = {
    i.id: i for i in (Investigator.model_validate(e) for e in _cards(ASSETS / "investigators.yaml"))}
POOL = [c for c in PLAYER.values() if c.weakness is None and c.signature_of is None]


def _fits(option: DeckOption, card: PlayerCard) -> bool:
    level = card.level if card.level is not None else -1
    if not option.min_level <= level <= option.max_level:
        return False
    return card.cls in option.classes or any(t in option.traits for t in card.traits)


# ---------------------------------------------------------------- files and ids

def test_the_pack_has_its_version_and_files() -> None:
    assert (ASSETS / "VERSION").read_text(encoding="utf-8").strip() == "1"
    assert sorted(p.stem for p in (ASSETS / "player").glob("*.yaml")) == sorted(PLAYER_FILES)


def test_ids_are_unique_named_by_kind_and_each_card_sits_in_its_class_file() -> None:
    assert not set(PLAYER) & set(INVESTIGATORS)
    assert all(i.startswith("inv.") for i in INVESTIGATORS)
    assert all(c.id.startswith("p.") for c in PLAYER.values())
    for c in POOL:
        assert FILE_OF[c.id] == c.cls, f"{c.id} is a {c.cls} card in {FILE_OF[c.id]}.yaml"
    assert all(FILE_OF[c.id] == "signatures" for c in PLAYER.values() if c.signature_of)
    assert all(FILE_OF[c.id] == "weaknesses" for c in PLAYER.values() if c.weakness == "basic")


def test_every_card_id_referenced_exists() -> None:
    for inv in INVESTIGATORS.values():
        for cid in [*inv.starter_deck, *inv.signatures, inv.signature_weakness]:
            assert cid in PLAYER, f"{inv.id} names unknown card {cid}"
    for c in PLAYER.values():
        if c.signature_of is not None:
            assert c.signature_of in INVESTIGATORS, f"{c.id}: signature of unknown {c.signature_of}"


# ---------------------------------------------------------------- the pool

def test_about_a_hundred_cards_across_the_classes() -> None:
    assert 95 <= len(POOL) <= 115
    for cls in CLASSES:
        mine = [c for c in POOL if c.cls == cls]
        level0 = [c for c in mine if c.level == 0]
        upgrades = [c for c in mine if (c.level or 0) > 0]
        assert 13 <= len(level0) <= 17, cls
        assert 3 <= len(upgrades) <= 6, cls
        kinds = Counter(c.type for c in level0)
        assert kinds["asset"] >= 4 and kinds["event"] >= 4 and kinds["skill"] >= 3, (cls, kinds)
        # a class's allies soak both damage and horror
        assert any("ally" in c.slots and c.health and c.sanity for c in level0), cls
        assert any(c.type == "event" and c.fast for c in level0), cls
        assert any(c.type == "skill" and (c.on_success or c.on_fail) for c in level0), cls
    neutral = [c for c in POOL if c.cls == "neutral"]
    assert 8 <= len(neutral) <= 12


def test_class_styles() -> None:
    def has(cls: str, test: Any) -> bool:
        return any(test(c) for c in POOL if c.cls == cls)

    def verbs(c: PlayerCard) -> set[str]:
        lists = [c.play, c.on_success, c.on_fail, *(a.effects for a in c.abilities)]
        return {v for effects in lists for v, _ in walk(effects)}

    # guardian: weapons with ammo, and cancelling an attack
    assert has("guardian", lambda c: c.uses is not None and c.uses.kind == "ammo" and "Weapon" in c.traits)
    assert has("guardian", lambda c: c.play_window == "when:enemy.attack" and "cancel" in verbs(c))
    # seeker: investigating and drawing
    assert has("seeker", lambda c: "investigate" in verbs(c)) and has("seeker", lambda c: "draw" in verbs(c))
    # rogue: money and evasion
    assert has("rogue", lambda c: "resources" in verbs(c)) and has("rogue", lambda c: "evade_enemy" in verbs(c))
    # mystic: spells with charges that test willpower
    spells = [c for c in POOL if c.cls == "mystic" and c.uses is not None and c.uses.kind == "charges"]
    assert len(spells) >= 3
    assert all(any(v in ("fight", "evade", "investigate") and arg.get("skill") == "willpower"
                   for a in c.abilities for v, arg in walk(a.effects)) for c in spells)
    # survivor: rewarded for failing
    assert sum(1 for c in POOL if c.cls == "survivor" and (c.on_fail or any(
        a.window == "after:test.failed" for a in c.abilities) or c.play_window == "after:test.failed")) >= 5


def test_upgrades_exceptional_myriad_permanent_and_subtitles() -> None:
    for cls in CLASSES:
        ups = [c for c in POOL if c.cls == cls and (c.level or 0) > 0]
        assert any(c.exceptional for c in ups), cls
        assert any(c.myriad for c in ups), cls
        assert any(c.permanent for c in ups), cls
        level0_names = {c.name for c in POOL if c.cls == cls and c.level == 0}
        assert any(c.name in level0_names for c in ups), f"{cls}: no higher level of a level-0 title"
    by_name: dict[str, list[PlayerCard]] = {}
    for c in POOL:
        by_name.setdefault(c.name, []).append(c)
    for name, versions in by_name.items():
        if len(versions) > 1:
            assert len({c.level for c in versions}) == len(versions), name
            assert len({c.subtitle for c in versions}) == len(versions), f"{name}: subtitles must tell them apart"
            base = next(c for c in versions if c.level == 0)
            for c in versions:
                if c is not base:
                    assert c.id == f"{base.id}-{c.level}" and c.subtitle, c.id
    for c in POOL:
        if c.permanent:
            assert c.type == "asset" and not c.slots and (c.level or 0) > 0, c.id
        if c.exceptional:
            assert c.deck_limit == 1 and c.xp == 2 * (c.level or 0), c.id
        if c.myriad:
            assert c.deck_limit == 3, c.id


def test_costs_and_soak() -> None:
    for c in POOL:
        if c.type in ("asset", "event"):
            assert c.cost is not None and 0 <= c.cost <= 5, c.id
        if c.type == "skill":
            assert c.cost is None and sum(c.icons.model_dump().values()) >= 1, c.id
        if c.uses is not None:
            assert 1 <= c.uses.count <= 5, c.id
    assert Counter(c.cost for c in POOL if c.cost is not None and c.level == 0).most_common(1)[0][0] in (1, 2)


def test_cards_say_what_they_do() -> None:
    for c in PLAYER.values():
        assert c.text.strip() and "TODO" not in c.text, c.id
        for a in c.abilities:
            assert a.text.strip(), f"{c.id}:{a.id}"
        if c.uses is not None:
            assert f"Uses ({c.uses.count} " in c.text, c.id
        if c.fast and c.type == "event":
            assert "Fast." in c.text, c.id
        for word, flag in (("Myriad", c.myriad), ("Exceptional", c.exceptional), ("Permanent", c.permanent),
                           ("Unique", c.unique and c.signature_of is None and c.weakness is None)):
            if flag:
                assert word in c.text, f"{c.id} should say {word}"
        if c.type == "event":
            assert c.play, c.id
        if c.action is not None:  # the action designator is written out: "Fight. ..."
            assert f"{c.action.capitalize()}." in c.text, c.id


def test_no_card_needs_a_python_op() -> None:
    ops = [c.id for c in [*PLAYER.values(), *INVESTIGATORS.values()]
           for effects in [getattr(c, "play", []), getattr(c, "on_success", []), getattr(c, "on_fail", []),
                           getattr(c, "revelation", []), *(a.effects for a in c.abilities)]
           for v, _ in walk(effects) if v == "op"]
    assert ops == []


def test_modifiers_use_stats_the_engine_applies_to_investigators() -> None:
    # damage_dealt, clues_discovered, enemy_fight and enemy_evade are read from an enemy's own card only (board.py),
    # so a player card that names them would print a bonus nothing applies
    applied = {*SKILLS, "health", "sanity", "hand_size", "actions", "shroud"}
    for c in [*PLAYER.values(), *INVESTIGATORS.values()]:
        for m in c.modifiers:
            assert m["stat"] in applied, f"{c.id}: {m['stat']}"


# ---------------------------------------------------------------- investigators and their decks

def test_five_investigators_one_per_class() -> None:
    assert sorted(i.cls for i in INVESTIGATORS.values()) == sorted(CLASSES)
    for inv in INVESTIGATORS.values():
        assert sum((inv.willpower, inv.intellect, inv.combat, inv.agility)) == 12, inv.id
        assert all(1 <= inv.skill(s) <= 5 for s in SKILLS), inv.id
        assert 14 <= inv.health + inv.sanity <= 16, inv.id
        assert len(inv.abilities) == 1, inv.id
        ab = inv.abilities[0]
        assert ab.kind in ("reaction", "fast") and ab.limit is not None and ab.limit.per == "round", inv.id
        assert inv.text and ab.text and inv.elder_sign.text, inv.id
        assert inv.elder_sign.modifier >= 1 and (inv.elder_sign.effects or inv.elder_sign.on_success), inv.id


def test_deckbuilding_options() -> None:
    for inv in INVESTIGATORS.values():
        opts = inv.deck_options
        assert DeckOption(classes=[inv.cls], max_level=5) in opts, inv.id
        assert DeckOption(classes=["neutral"], max_level=5) in opts, inv.id
        others = [o for o in opts if o.classes not in ([inv.cls], ["neutral"])]
        assert len(others) == 1, inv.id
        extra = others[0]
        assert extra.max_level <= 2 and extra.min_level == 0, inv.id
        assert (len(extra.classes) == 1 and extra.classes[0] not in (inv.cls, "neutral")) or \
            (extra.traits and not extra.classes), inv.id
    assert any(o.traits for inv in INVESTIGATORS.values() for o in inv.deck_options)


def test_signatures() -> None:
    for inv in INVESTIGATORS.values():
        assert 1 <= len(inv.signatures) <= 2, inv.id
        for sid in inv.signatures:
            card = PLAYER[sid]
            assert card.signature_of == inv.id and card.level is None and card.weakness is None, sid
        weak = PLAYER[inv.signature_weakness]
        assert weak.weakness == "signature" and weak.signature_of == inv.id and weak.level is None
        owned = {c.id for c in PLAYER.values() if c.signature_of == inv.id}
        assert owned == {*inv.signatures, inv.signature_weakness}, inv.id


@pytest.mark.parametrize("inv_id", sorted(INVESTIGATORS))
def test_starter_deck_is_legal(inv_id: str) -> None:
    inv = INVESTIGATORS[inv_id]
    deck = inv.starter_deck
    assert sum(deck.values()) == inv.deck_size == 30
    titles: Counter[str] = Counter()
    for cid, n in deck.items():
        card = PLAYER[cid]
        assert n >= 1 and card.level == 0, cid
        assert card.weakness is None and card.signature_of is None, f"{cid}: signatures and weaknesses come apart"
        assert not card.permanent, cid
        assert any(_fits(o, card) for o in inv.deck_options), f"{inv_id} may not take {cid}"
        titles[card.name] += n
    assert max(titles.values()) <= 2
    for name, n in titles.items():
        limit = min(PLAYER[cid].deck_limit for cid in deck if PLAYER[cid].name == name)
        assert n <= limit, f"{inv_id}: {n} copies of {name}, its limit is {limit}"
    # most of a starter deck is the investigator's own class
    own = sum(n for cid, n in deck.items() if PLAYER[cid].cls == inv.cls)
    assert own >= 20, inv_id


# ---------------------------------------------------------------- weaknesses

def test_basic_weaknesses() -> None:
    basic = [c for c in PLAYER.values() if c.weakness == "basic"]
    assert len(basic) == 8
    for c in basic:
        assert c.type in ("treachery", "enemy") and c.cost is None and c.level == 0, c.id
        assert c.revelation or c.type == "enemy", c.id
    stays = [c for c in basic if {"threat_area": True} in c.revelation]
    assert len(stays) in (1, 2, 3)
    for c in stays:
        assert any(a.kind == "action" and {"discard_self": True} in a.effects for a in c.abilities), c.id
    enemies = [c for c in basic if c.type == "enemy"]
    assert len(enemies) == 1
    e = enemies[0]
    assert e.fight is not None and e.evade is not None and e.health and (e.damage or e.horror)


def test_signature_weaknesses_do_something() -> None:
    for inv in INVESTIGATORS.values():
        c = PLAYER[inv.signature_weakness]
        if c.type == "enemy":
            assert c.fight is not None and c.evade is not None and c.health, c.id
        else:
            assert c.revelation, c.id
            if {"threat_area": True} in c.revelation:
                assert any(a.kind == "action" and {"discard_self": True} in a.effects for a in c.abilities), c.id


# ---------------------------------------------------------------- the whole pack, through the loader

@pytest.mark.skipif(not (ASSETS / "campaign.yaml").exists(), reason="the campaign files are not in place yet")
def test_the_whole_pack_loads_and_each_starter_deck_is_legal_with_each_weakness() -> None:
    from engine.arkham_lcg.content import load_content
    from engine.arkham_lcg.deckbuilding import deck_errors, starting_deck

    c = load_content()
    assert set(c.investigators) == set(INVESTIGATORS) and set(c.player) == set(PLAYER)
    assert len(c.basic_weaknesses()) == 8
    for inv in c.investigators.values():
        for weakness in c.basic_weaknesses():
            deck = starting_deck(c, inv.id, weakness)
            assert deck_errors(c, inv.id, deck, dealt={weakness: 1}) == [], (inv.id, weakness)


# ---------------------------------------------------------------- the format reference

def test_the_format_reference_names_every_word_of_the_vocabulary() -> None:
    doc = (ASSETS.parents[1] / "docs" / "arkham_lcg_content.md").read_text(encoding="utf-8")
    words = [*VERBS, *CONDITIONS, *COUNTS, *STATS, *WINDOW_EVENTS, *DURING, *WHICH, *RESTRICTIONS, *PERMISSIONS]
    missing = [w for w in words if f"`{w}`" not in doc and f"`{w}," not in doc and f", `{w}`" not in doc]
    assert missing == []
    for verb in VERBS:  # each verb has a one-line example
        assert f"`{{{verb}: " in doc, verb
