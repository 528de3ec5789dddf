"""The hand-written Elder Sign decks: Ancient Ones, investigators, items, spells, allies, Mythos, entrance.

Each deck file states its intended `mix`; these tests recompute the mix from the cards, check the component
counts of the published game, and check that the content stays faithful (limits, doom tracks, ability kinds,
modifiers) and that every card's words mention what its effects do.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from engine.elder_sign.content import (
    ABILITY_KINDS,
    ASSETS,
    MODIFIERS,
    AncientOne,
    Entrance,
    Investigator,
    ItemCard,
    Mythos,
    load_content,
)
from engine.elder_sign.effects_schema import USE_VERBS, VERBS

# deck file -> (model, item kind, published count, id prefix)
DECKS: dict[str, tuple[type, str | None, int, str]] = {
    "ancient_ones": (AncientOne, None, 8, "es.ao."),
    "investigators": (Investigator, None, 16, "es.inv."),
    "common_items": (ItemCard, "common", 12, "es.common."),
    "unique_items": (ItemCard, "unique", 12, "es.unique."),
    "spells": (ItemCard, "spell", 12, "es.spell."),
    "allies": (ItemCard, "ally", 8, "es.ally."),
    "mythos": (Mythos, None, 32, "es.mythos."),
}

ANCIENT_ONES = {"Azathoth", "Cthulhu", "Hastur", "Nyarlathotep", "Shub-Niggurath", "Yog-Sothoth", "Dagon",
                "Ghatanothoa"}

# the publisher's own investigators: never ours
PUBLISHER_NAMES = ["Mandy Thompson", "Bob Jenkins", "Harvey Walters", "Gloria Goldberg", "Jenny Barnes",
                   "Sister Mary", "Amanda Sharpe", "Ashcan Pete", "Carolyn Fern", "Darrell Simmons",
                   "Dexter Drake", "Joe Diamond", "Kate Winthrop", "Michael McGlen", "Monterey Jack",
                   "Vincent Lee", "Zoey Samaras", "Mark Harrigan", "Agnes Baker", "Lily Chen"]


def _raw(deck: str) -> dict[str, Any]:
    return yaml.safe_load((ASSETS / f"{deck}.yaml").read_text(encoding="utf-8"))


def _cards(deck: str) -> list[Any]:
    model, kind, _, _ = DECKS[deck]
    return [model.model_validate(dict(c, kind=kind) if kind else c) for c in _raw(deck)["cards"]]


def _walk(effects: list[dict[str, Any]]) -> Iterator[tuple[str, Any]]:
    """Every (verb, argument) in an effect list, nested ones included."""
    for eff in effects:
        ((verb, arg),) = eff.items()
        yield verb, arg
        if VERBS[verb] == "effects":
            yield from _walk(arg)
        elif VERBS[verb] == "branches":
            for branch in arg:
                yield from _walk(branch)


def _has(effects: list[dict[str, Any]], verb: str, test: Any = None) -> bool:
    return any(v == verb and (test is None or test(a)) for v, a in _walk(effects))


def _pos(a: Any) -> bool:
    return a > 0


def _neg(a: Any) -> bool:
    return a < 0


# --------------------------------------------------------------------------- mixes, recomputed per deck

def _mix_ancient_ones(cards: list[AncientOne]) -> Counter:
    m: Counter = Counter(cards=len(cards))
    for c in cards:
        m["elder_signs_total"] += c.elder_signs
        m["doom_spaces_total"] += len(c.doom_track)
        m["monster_spaces_total"] += c.doom_track.count("monster")
        m["with_masks"] += c.masks
        m["with_modifiers"] += bool(c.modifiers)
        m["with_at_start"] += bool(c.at_start)
        m["with_at_midnight"] += bool(c.at_midnight)
        m["with_on_terror"] += bool(c.on_terror)
        m["with_on_fail"] += bool(c.on_fail)
        m["attack_devours"] += _has(c.attack, "devoured")
        m["attack_adds_doom"] += any("doom" in e and e["doom"] > 0 for e in c.attack)
    return m


def _mix_investigators(cards: list[Investigator]) -> Counter:
    m: Counter = Counter(cards=len(cards))
    for c in cards:
        m[c.ability.kind] += 1
        for k, n in c.start.items():
            m[f"start_{k}"] += n
    return m


def _item_tags(c: ItemCard) -> set[str]:
    u = c.use
    tags = {
        "add_die_yellow": _has(u, "add_die", lambda a: a == "yellow"),
        "add_die_red": _has(u, "add_die", lambda a: a == "red"),
        "heal_stamina": _has(u, "stamina", _pos),
        "heal_sanity": _has(u, "sanity", _pos),
        "lose_stamina": _has(u, "stamina", _neg),
        "lose_sanity": _has(u, "sanity", _neg),
        "clues": _has(u, "clues", _pos),
        "secure": _has(u, "secure"),
        "secure_2": _has(u, "secure", lambda a: a >= 2),
        "reroll": _has(u, "reroll"),
        "set_face": _has(u, "set_face"),
        "defeat_monster": _has(u, "defeat_monster"),
        "unlock": _has(u, "unlock"),
        "elder_signs": _has(u, "elder_signs", _pos),
    }
    return {k for k, v in tags.items() if v}


def _mix_items(cards: list[ItemCard]) -> Counter:
    m: Counter = Counter(cards=len(cards))
    for c in cards:
        m.update(_item_tags(c))
    return m


def _mix_allies(cards: list[ItemCard]) -> Counter:
    return Counter(cards=len(cards), ability=sum(bool(c.ability) for c in cards),
                   use=sum(bool(c.use) for c in cards))


def _immediate_kind(c: Mythos) -> str:
    i = c.immediate
    if not i:
        return "no_immediate"
    if _has(i, "doom", _pos):
        return "immediate_doom"
    if _has(i, "monsters"):
        return "immediate_monsters"
    if _has(i, "gate"):
        return "immediate_gate"
    if _has(i, "sanity", _neg) or _has(i, "stamina", _neg) or _has(i, "discard_items"):
        return "immediate_harm"
    if _has(i, "sanity", _pos) or _has(i, "stamina", _pos) or _has(i, "clues", _pos):
        return "immediate_help"
    return "immediate_other"


def _mix_mythos(cards: list[Mythos]) -> Counter:
    m: Counter = Counter(cards=len(cards))
    for c in cards:
        m[_immediate_kind(c)] += 1
        m["terror"] += bool(c.terror)
        m["modifiers"] += bool(c.modifiers)
        m["locks"] += bool(c.locks)
        m["next_midnight"] += bool(c.next_midnight)
    return m


MIXES = {"ancient_ones": _mix_ancient_ones, "investigators": _mix_investigators, "common_items": _mix_items,
         "unique_items": _mix_items, "spells": _mix_items, "allies": _mix_allies, "mythos": _mix_mythos}


# --------------------------------------------------------------------------- structure

@pytest.mark.parametrize("deck", list(DECKS))
def test_deck_file_shape_and_count(deck):
    raw = _raw(deck)
    assert raw["deck"] == deck
    assert isinstance(raw["mix"], dict) and raw["mix"]
    cards = _cards(deck)
    assert len(cards) == DECKS[deck][2], f"{deck}: the published game has {DECKS[deck][2]} of these"


@pytest.mark.parametrize("deck", list(DECKS))
def test_mix_matches_cards(deck):
    stated = {k: v for k, v in _raw(deck)["mix"].items()}
    computed = {k: v for k, v in MIXES[deck](_cards(deck)).items() if v}
    assert computed == stated, f"{deck}: mix says {stated}, the cards add up to {computed}"


def test_ids_and_names_unique_and_well_formed():
    ids: set[str] = set()
    names: set[str] = set()
    for deck, (_, _, _, prefix) in DECKS.items():
        for c in _cards(deck):
            assert re.fullmatch(re.escape(prefix) + r"[a-z0-9]+(-[a-z0-9]+)*", c.id), c.id
            assert c.id not in ids, f"duplicate id {c.id}"
            assert c.name not in names, f"duplicate name {c.name}"
            assert c.text.strip(), f"{c.id} has no text"
            ids.add(c.id)
            names.add(c.name)


def test_no_publisher_investigators():
    blob = "\n".join((ASSETS / f"{d}.yaml").read_text(encoding="utf-8") for d in DECKS).lower()
    for name in PUBLISHER_NAMES:
        assert name.lower() not in blob, name


def test_version_file():
    assert (ASSETS / "VERSION").read_text().strip() == "1"


# --------------------------------------------------------------------------- Ancient Ones

def test_ancient_ones_faithful():
    aos = {c.name: c for c in _cards("ancient_ones")}
    assert set(aos) == ANCIENT_ONES
    for c in aos.values():
        assert 10 <= c.elder_signs <= 14, c.name
        assert 8 <= len(c.doom_track) <= 12, f"{c.name}: the game has only 12 doom tokens"
        assert 2 <= c.doom_track.count("monster") <= 4, c.name
        assert c.doom_track[-1] == "doom", f"{c.name}: a monster on the last space could never appear"
        special = c.modifiers or c.at_start or c.at_midnight or c.on_terror or c.on_fail or c.masks
        assert special, f"{c.name} has no special ability in data"
        assert c.special_text and c.attack_text and c.attack
    assert aos["Azathoth"].elder_signs == 14 == max(c.elder_signs for c in aos.values())
    assert aos["Cthulhu"].elder_signs == 13
    # a higher Elder Sign limit never comes with a shorter doom track
    by_limit = sorted(aos.values(), key=lambda c: (c.elder_signs, len(c.doom_track)))
    tracks = [len(c.doom_track) for c in by_limit]
    assert tracks == sorted(tracks)
    assert [c.name for c in aos.values() if c.masks] == ["Nyarlathotep"]
    assert aos["Cthulhu"].attack == [{"all": [{"choose": [[{"max_sanity": -1}], [{"max_stamina": -1}]]}]},
                                     {"doom": 1}]
    assert aos["Azathoth"].attack == [{"all": [{"devoured": True}]}]
    for c in aos.values():
        # every attack wears something down for good (a lowered maximum, or devouring) whatever the players
        # choose, or a lone investigator who heals every turn could hold the battle in a stalemate forever
        assert _permanent(c.attack), c.name
    assert aos["Hastur"].on_terror
    assert _has(aos["Shub-Niggurath"].at_midnight, "monsters")
    assert aos["Yog-Sothoth"].modifiers.get("clue_cost") == 2


# --------------------------------------------------------------------------- investigators

def test_investigators_faithful():
    invs = _cards("investigators")
    kinds = Counter(c.ability.kind for c in invs)
    assert set(kinds) == set(ABILITY_KINDS), f"unused ability kinds: {set(ABILITY_KINDS) - set(kinds)}"
    unlock = [c for c in invs if c.ability.kind == "unlock_die"]
    assert len(unlock) == 1 and unlock[0].ability.params()["per"] == "day"
    adders = {(c.ability.params()["color"], c.ability.params()["per"]) for c in invs
              if c.ability.kind == "add_die"}
    assert {color for color, _ in adders} == {"yellow", "red"}
    assert {"turn", "day"} <= {per for _, per in adders}
    heals = {c.ability.params()["what"] for c in invs if c.ability.kind == "heal"}
    assert heals == {"stamina", "sanity"}
    occupations = [c.occupation for c in invs]
    assert len(set(occupations)) == len(occupations)
    for c in invs:
        assert 3 <= c.max_sanity <= 7 and 3 <= c.max_stamina <= 7, c.name
        assert 9 <= c.max_sanity + c.max_stamina <= 11, c.name
        held = sum(n for k, n in c.start.items() if k != "clues")
        assert 1 <= held <= 2, f"{c.name} starts with {held} cards"
        assert sum(c.start.values()) <= 3, c.name


_FACE_WORDS = {"inv1": "investigation 1", "inv2": "investigation 2", "inv3": "investigation 3",
               "inv4": "investigation 4", "lore": "lore", "peril": "peril", "terror": "terror"}


def _ability_words(kind: str, p: dict[str, Any]) -> list[str]:
    words = {
        "free_reroll": ["reroll", str(p.get("dice")), "without spending a clue"],
        "add_die": [f"{p.get('color')} die"],
        "unlock_die": ["locked die"],
        "heal": [f"{p.get('amount')} {p.get('what')}"],
        "ward": [f"{p.get('what')}", "terror", "less"],
        "extra_focus": ["focus", str(p.get("dice"))],
        "clue_bonus": ["clue", "complete an adventure"],
        "trophy_discount": ["troph", str(p.get("amount"))],
        "turn_face": [_FACE_WORDS[f] for f in p.get("from", [])] + [_FACE_WORDS.get(p.get("to"), "?")],
    }[kind]
    if "per" in p:
        words.append(f"once per {p['per']}")
    elif kind == "free_reroll":
        words.append("once per roll")
    return words


def test_ability_text_matches_ability():
    allies = [c for c in _cards("allies") if c.ability]
    for c in [*_cards("investigators"), *allies]:
        text = (c.ability_text if isinstance(c, Investigator) else c.text).lower()
        for word in _ability_words(c.ability.kind, c.ability.params()):
            assert word in text, f"{c.id}: the text should mention '{word}'"


# --------------------------------------------------------------------------- items, spells, allies

def test_item_decks_faithful():
    commons, uniques = _cards("common_items"), _cards("unique_items")
    spells, allies = _cards("spells"), _cards("allies")
    for c in [*commons, *uniques, *spells, *allies]:
        assert all(v in USE_VERBS for v, _ in _walk(c.use)), c.id
    assert sum("add_die_yellow" in _item_tags(c) for c in commons) >= 7
    assert not any("add_die_red" in _item_tags(c) for c in commons)
    assert sum("add_die_red" in _item_tags(c) for c in uniques) >= 5
    relics = [c for c in [*commons, *uniques, *spells, *allies] if "elder_signs" in _item_tags(c)]
    assert [c.kind for c in relics] == ["unique"], "exactly one rare relic is worth an Elder Sign"
    assert sum("secure" in _item_tags(c) for c in spells) >= 6
    assert all(a <= 2 for c in spells for v, a in _walk(c.use) if v == "secure")
    assert not any(_has(c.use, "secure") for c in [*commons, *uniques, *allies]), "only spells secure dice"
    with_ability = [c for c in allies if c.ability]
    assert 3 <= len(with_ability) <= 5


_VERB_WORDS: dict[str, Any] = {
    "doom": "doom", "monsters": "monster", "gate": "other world", "clues": "clue", "sanity": "sanity",
    "stamina": "stamina", "max_sanity": "maximum sanity", "max_stamina": "maximum stamina",
    "common": "common", "unique": "unique", "spell": "spell", "ally": "ally", "discard_items": "discard",
    "secure": "hold", "reroll": "reroll", "set_face": "turn", "defeat_monster": "defeat",
    "unlock": "locked die", "elder_signs": "elder sign", "devoured": "devoured",
}
_MODIFIER_WORDS = {"no_focus": "focus", "no_assist": "assist", "no_first_aid": "first aid",
                   "no_souvenirs": "souvenir", "no_lost_and_found": "lost & found",
                   "no_other_worlds": "other world", "clue_cost": "2 clues", "no_spells": "spell"}


def _effect_words(effects: list[dict[str, Any]]) -> list[str]:
    words = []
    for verb, arg in _walk(effects):
        if verb == "add_die":
            words.append(f"{arg} die")
        elif verb == "set_face":
            words.append(_FACE_WORDS[arg])
        elif verb in _VERB_WORDS:
            words.append(_VERB_WORDS[verb])
    return words


def test_card_text_mentions_what_the_card_does():
    for deck in ("common_items", "unique_items", "spells", "allies", "mythos"):
        for c in _cards(deck):
            text = c.text.lower()
            words = _effect_words(getattr(c, "use", []) or getattr(c, "immediate", []))
            if isinstance(c, Mythos):
                words += _effect_words(c.terror) + _effect_words(c.next_midnight)
                words += [_MODIFIER_WORDS[k] for k in c.modifiers]
                words += (["lingering terror"] if c.terror else []) + (["next midnight"] if c.next_midnight else [])
                words += [f"lock {'a' if color == 'green' else 'the'} {color} die" for color in c.locks]
            for word in words:
                assert word in text, f"{c.id}: the text should mention '{word}'"


def test_ancient_one_text_mentions_what_it_does():
    for c in _cards("ancient_ones"):
        attack = c.attack_text.lower()
        for word in _effect_words(c.attack):
            assert word in attack, f"{c.id}: attack_text should mention '{word}'"
        special = c.special_text.lower()
        hooks = c.at_start + c.at_midnight + c.on_terror + c.on_fail
        words = _effect_words(hooks) + [_MODIFIER_WORDS[k] for k in c.modifiers]
        words += (["mask"] if c.masks else []) + (["midnight"] if c.at_midnight else [])
        words += (["terror"] if c.on_terror else []) + (["fails"] if c.on_fail else [])
        words += (["setup"] if c.at_start else [])
        for word in words:
            assert word in special, f"{c.id}: special_text should mention '{word}'"


# --------------------------------------------------------------------------- Mythos

def test_mythos_faithful():
    cards = _cards("mythos")
    used = {k for c in cards for k in c.modifiers}
    assert used == set(MODIFIERS), f"modifiers never used by a Mythos card: {set(MODIFIERS) - used}"
    mix = _mix_mythos(cards)
    assert 8 <= mix["immediate_doom"] <= 12
    assert 5 <= mix["immediate_monsters"] <= 8
    assert mix["immediate_help"] >= 3
    assert 8 <= mix["terror"] <= 12 and 8 <= mix["modifiers"] <= 12
    assert 5 <= mix["locks"] <= 8 and 4 <= mix["next_midnight"] <= 7
    assert {color for c in cards for color in c.locks} == {"green", "yellow", "red"}
    for c in cards:
        assert c.immediate or c.terror or c.modifiers or c.locks, f"{c.id} does nothing"
        # a Mythos card happens to the whole table: investigator effects go through `all`
        for eff in c.immediate + c.next_midnight:
            ((verb, _),) = eff.items()
            assert verb in ("doom", "monsters", "gate", "all", "elder_signs"), f"{c.id}: {verb} needs `all`"


# --------------------------------------------------------------------------- entrance

def test_entrance():
    raw = yaml.safe_load((ASSETS / "entrance.yaml").read_text(encoding="utf-8"))
    e = Entrance.model_validate(raw)
    assert set(e.lost_and_found_text) == set(e.lost_and_found)
    good = [f for f, effs in e.lost_and_found.items()
            if not any(isinstance(a, int) and a < 0 for _, a in _walk(effs))]
    assert 3 <= len(good) <= 5, "Lost & Found should mix good and bad outcomes"
    assert all(f in good for f in ("inv1", "inv2", "inv3")), "investigation faces find something"
    terror = e.lost_and_found["terror"]
    assert _has(terror, "sanity", _neg) or _has(terror, "stamina", _neg), "the Terror face hurts"
    for face, effs in e.lost_and_found.items():
        text = e.lost_and_found_text[face].lower()
        for word in _effect_words(effs):
            assert word in text, f"lost_and_found_text.{face} should mention '{word}'"
    prices = {s.id: s.cost for s in e.souvenirs}
    assert len(prices) == len(e.souvenirs)
    assert prices["clue"] == 1
    assert prices["elder_sign"] == max(prices.values()) >= 8
    assert prices["common"] < prices["unique"] <= prices["ally"]


# --------------------------------------------------------------------------- the whole pack

def test_decks_load_through_the_loader(tmp_path):
    """Our files go through `load_content` (kinds, ids, line numbers), with stand-in decks for the
    adventure, other world and monster files when those are not written yet."""
    stand_ins = {
        "adventures.yaml": {"deck": "adventures", "cards": [
            {"id": "es.adventure.stand-in", "name": "Stand-in", "trophy": 1, "tasks": ["inv3"]}]},
        "other_worlds.yaml": {"deck": "other_worlds", "cards": [
            {"id": "es.ow.stand-in", "name": "Stand-in World", "trophy": 2, "tasks": ["lore"]}]},
        "monsters.yaml": {"deck": "monsters", "cards": [
            {"id": "es.monster.stand-in", "name": "Stand-in Monster", "trophy": 1, "task": "peril"}]},
    }
    for f in ASSETS.iterdir():
        if f.suffix == ".yaml" or f.name == "VERSION":
            (tmp_path / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    for name, data in stand_ins.items():
        if not (tmp_path / name).exists():
            (tmp_path / name).write_text(yaml.safe_dump(data), encoding="utf-8")
    content = load_content(tmp_path)
    assert content.version == "1"
    assert len(content.ancient_ones) == 8 and len(content.investigators) == 16
    assert len(content.mythos) == 32
    assert Counter(c.kind for c in content.items.values()) == {"common": 12, "unique": 12, "spell": 12,
                                                                 "ally": 8}
    assert content.mixes["mythos"] == _raw("mythos")["mix"]


def test_whole_pack_loads_when_complete():
    others = ("adventures.yaml", "other_worlds.yaml", "monsters.yaml")
    if not all((ASSETS / f).exists() for f in others):
        pytest.skip("the adventure, other world and monster decks are not written yet")
    content = load_content()
    assert content.version == "1"
    assert len(content.ancient_ones) == 8 and len(content.investigators) == 16
    assert len(content.mythos) == 32
    assert Counter(c.kind for c in content.items.values()) == {"common": 12, "unique": 12, "spell": 12,
                                                                 "ally": 8}


# --------------------------------------------------------------------------- docs/content-format.md

DOC = ASSETS.parents[1] / "docs" / "content-format.md"


def _doc_rows(first_header: str) -> dict[str, list[str]]:
    """The rows of the doc table whose header starts with `| first_header |`, keyed by the first cell."""
    rows: dict[str, list[str]] = {}
    inside = False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"| {first_header} |"):
            inside = True
            continue
        if inside and not line.startswith("|"):
            break
        if inside and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            key = re.match(r"`([^`]+)`", cells[0])
            assert key, line
            rows[key.group(1)] = cells
    return rows


def _example(cells: list[str]) -> Any:
    m = re.fullmatch(r"`(.+)`", cells[-1])
    assert m, f"no example in {cells}"
    return yaml.safe_load(m.group(1))


def test_doc_lists_every_verb_with_a_valid_example():
    from engine.elder_sign.effects_schema import check_effects

    rows = _doc_rows("verb")
    assert set(rows) == set(VERBS)
    for verb, cells in rows.items():
        example = _example(cells)
        assert list(example) == [verb]
        check_effects([example], verb)
        assert ("✋" in cells[0]) == (verb in USE_VERBS), f"{verb}: the hand mark is wrong"
        assert cells[1] == VERBS[verb], verb


def test_doc_lists_every_modifier_and_ability_kind():
    from engine.elder_sign.content import Ability, check_modifiers

    mods = _doc_rows("modifier")
    assert set(mods) == set(MODIFIERS)
    for name, cells in mods.items():
        assert list(check_modifiers(_example(cells))) == [name]
    kinds = _doc_rows("kind")
    assert set(kinds) == set(ABILITY_KINDS)
    for kind, cells in kinds.items():
        assert Ability.model_validate(_example(cells)).kind == kind


def test_doc_task_examples_parse():
    from engine.elder_sign.tasks import parse_task

    rows = _doc_rows("token")
    assert len(rows) == 6
    for cells in rows.values():
        parse_task(re.fullmatch(r"`(.+)`", cells[-1]).group(1))
    text = DOC.read_text(encoding="utf-8")
    more = re.search(r"More examples: (.+?)\.\s+Monster", text, re.S).group(1)
    for t in re.findall(r'`"([^"]*)"`', more):
        parse_task(t)


def test_doc_yaml_examples_validate():
    from engine.elder_sign.content import AdventureCard, Monster

    models = {"es.ao": AncientOne, "es.inv": Investigator, "es.adventure": AdventureCard, "es.ow": AdventureCard,
              "es.monster": Monster, "es.mythos": Mythos}
    blocks = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 7
    for block in blocks:
        data = yaml.safe_load(block)
        if isinstance(data, list):
            for card in data:
                prefix, kind = card["id"].rsplit(".", 1)[0], card["id"].split(".")[1]
                model = models.get(prefix, ItemCard)
                model.model_validate(dict(card, kind=kind) if model is ItemCard else card)
        elif "lost_and_found" in data:
            data["lost_and_found_text"] = {face: "..." for face in data["lost_and_found"]}
            Entrance.model_validate(data)
        else:
            assert set(data) == {"deck", "mix", "cards"}


# --------------------------------------------------------------------------- every card, played by the engine

def _engine_table(seed: int = 5) -> Any:
    """A one-player game (Hastur: no setup prompts) waiting for the first move, with an empty hand."""
    from tests.engine.elder_sign.support import clear_hands, new_game, settle

    state = settle(new_game(1, "hastur", seed=seed, characters=["lionel-ashdown"]))
    clear_hands(state)
    return state


def _answer_until(state: Any, want: str, limit: int = 400) -> tuple[Any, list[Any]]:
    """Answer prompts with their defaults, picking option `want` whenever it is offered; stop once it was
    picked and the game waits at the next move again."""
    from tests.engine.elder_sign.support import answer, op, prompt

    events: list[Any] = []
    picked = False
    for _ in range(limit):
        if state.over or (picked and op(state) == "move"):
            break
        p = prompt(state)
        ids = [o.id for o in p.options]
        if not picked and want in ids:
            choice, picked = [want], True
        elif op(state) == "move":
            choice = ["go:slot:0"]
        else:
            choice = [c for c in (p.default or ids[:1]) if c != "abandon"] or [i for i in ids if i != "abandon"][:1]
        state, more = answer(state, *choice, amount=p.min_amount if p.kind == "amount" else None)
        events += more
    return state, events


@pytest.mark.parametrize("card_id", [c.id for d in ("common_items", "unique_items", "spells", "allies")
                                     for c in _cards(d) if c.use])
def test_every_item_is_offered_and_resolves(card_id):
    from engine.elder_sign import board
    from engine.elder_sign.ops import push
    from engine.elder_sign.rules import run

    state = _engine_table()
    kind = DECKS[next(d for d, spec in DECKS.items() if card_id.startswith(spec[3]))][1]
    assert state.decks[kind].take(card_id)
    i = board.inv(state, state.current)
    i.items.append(card_id)
    i.sanity, i.stamina = i.max_sanity - 1, i.max_stamina - 1  # room to heal
    board.lock_die(state, "green", state.mythos, "mythos", [])  # something to unlock
    push(state, "monster", None, source="test")  # something to defeat
    run(state, [])
    state, events = _answer_until(state, f"item:{card_id}")
    assert any(e.kind == "item.used" and e.cause == card_id for e in events), f"{card_id} was never offered"


@pytest.mark.parametrize("card_id", [c.id for c in _cards("mythos")])
def test_every_mythos_card_resolves(card_id):
    from engine.elder_sign import board
    from engine.elder_sign.rules import run
    from engine.elder_sign.turn import draw_mythos
    from tests.engine.elder_sign.support import settle

    state = _engine_table()
    if state.mythos == card_id:
        state = _engine_table(seed=6)
    assert state.decks["mythos"].take(card_id)
    state.decks["mythos"].put_top(card_id)
    doom = state.doom
    events: list[Any] = []
    draw_mythos(state, events)
    run(state, events)
    state = settle(state)
    assert state.mythos == card_id
    card = next(c for c in _cards("mythos") if c.id == card_id)
    if _has(card.immediate, "doom", _pos):
        assert state.doom > doom
    for key, value in card.modifiers.items():
        assert board.modifier(state, key) == value
    locked_here = [lk for lk in state.locks if lk.source == card_id]
    assert sorted(lk.color for lk in locked_here) == sorted(card.locks)


def _permanent(effects: list) -> bool:
    """True if the effect list lowers a maximum or devours on every branch a player could choose."""
    for e in effects:
        ((verb, arg),) = e.items()
        if verb in ("max_sanity", "max_stamina") and arg < 0 or verb == "devoured":
            return True
        if verb in ("all", "here", "others") and _permanent(arg):
            return True
        if verb == "choose" and all(_permanent(branch) for branch in arg):
            return True
    return False
