"""Deckbuilding, experience and deck codes (engine/arkham_lcg/deckbuilding.py).

Each test names its source: a section of the official FAQ or §14 (deckbuilding) of our rules summary, whose
rulings docs/arkham_lcg.md writes out. The cards are built here, not loaded from a pack, so the tests do not
depend on content other people are writing.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arkham_lcg.content import Campaign, Content, ElderSign, Investigator, PlayerCard
from engine.arkham_lcg.deckbuilding import (
    Upgrade,
    apply_upgrade,
    deck_code,
    deck_count,
    deck_errors,
    is_upgrade,
    legal_upgrades,
    parse_deck_code,
    purchase_cost,
    starting_deck,
    upgrade_cost,
)
from engine.arkham_lcg.state import InvestigatorRecord
from engine.core.errors import IllegalAction


def asset(cid: str, name: str, cls: str = "guardian", level: int | None = 0, **extra: Any) -> PlayerCard:
    return PlayerCard.model_validate({"id": cid, "name": name, "type": "asset", "class": cls, "level": level,
                                      "cost": 2, **extra})


def weakness(cid: str, name: str, kind: str = "basic", owner: str | None = None, cls: str = "neutral") -> PlayerCard:
    return PlayerCard.model_validate({"id": cid, "name": name, "type": "treachery", "class": cls, "level": None,
                                      "weakness": kind, "signature_of": owner, "revelation": [{"horror": 1}]})


CARDS = [
    asset("p.lamp", "Harbour Lamp"),
    asset("p.lamp-2", "Harbour Lamp", level=2),
    asset("p.hammer", "Quarry Hammer"),
    asset("p.whistle", "Tin Whistle", cls="neutral"),
    asset("p.barometer", "Pocket Barometer", cls="neutral"),
    asset("p.chalk", "Chalk Sigil"),
    asset("p.dredge", "Dredging Hook", level=1),
    asset("p.relic", "Drowned Reliquary"),
    asset("p.relic-3", "Drowned Reliquary", level=3, exceptional=True),
    asset("p.salt", "Salt Line", myriad=True),
    asset("p.salt-2", "Salt Line", level=2, myriad=True),
    asset("p.brine", "Brine Jar", myriad=True),
    asset("p.cord", "Knotted Cord", level=1, permanent=True),
    asset("p.cord-0", "Lucky Pebble", permanent=True),
    asset("p.psalter", "Tidewater Psalter", traits=["Tome"]),
    asset("p.bound", "Bound Sermons", traits=["Tome"]),  # a guardian Tome: the guardian line takes it
    asset("p.chart", "Fog Chart", cls="seeker", traits=["Tome"]),
    asset("p.logbook", "Keeper's Logbook", cls="seeker", traits=["Tome"]),
    asset("p.gazetteer", "Shoreline Gazetteer", cls="mystic", traits=["Tome"]),
    asset("p.almanac", "Tide Almanac", cls="seeker", level=3, traits=["Tome"]),
    asset("p.grinder", "Grinding Lens", cls="seeker"),
    asset("p.grinder-1", "Grinding Lens", cls="seeker", level=1),
    asset("p.compass-plain", "Brass Compass", cls="neutral"),
    # signature cards
    asset("p.compass", "Brass Compass", cls="guardian", level=None, signature_of="inv.odile"),
    weakness("p.debt", "Debt to the Tide Clerk", kind="signature", owner="inv.odile"),
    asset("p.ledger", "Crane's Ledger", cls="seeker", level=None, signature_of="inv.tobias"),
    weakness("p.doubt", "Creeping Doubt", kind="signature", owner="inv.tobias"),
    # basic weaknesses (one of another class: weaknesses are exempt from the options)
    weakness("p.cough", "Wet Cough"),
    weakness("p.gull", "Carrion Gull", cls="mystic"),
]

ODILE_STARTER = {"p.lamp": 2, "p.hammer": 2, "p.whistle": 2, "p.barometer": 2, "p.chalk": 2}
TOBIAS_STARTER = {"p.chart": 2, "p.logbook": 2, "p.grinder": 2, "p.whistle": 2, "p.barometer": 2}


def investigator(cid: str, name: str, cls: str, options: list[dict[str, Any]], signatures: list[str],
                 sig_weakness: str, starter: dict[str, int]) -> Investigator:
    return Investigator.model_validate({
        "id": cid, "name": name, "class": cls, "willpower": 3, "intellect": 3, "combat": 3, "agility": 3,
        "health": 8, "sanity": 8, "elder_sign": ElderSign(modifier=1, text="+1."), "deck_size": 10,
        "deck_options": options, "signatures": signatures, "signature_weakness": sig_weakness,
        "starter_deck": starter})


@pytest.fixture(scope="module")
def content() -> Content:
    odile = investigator("inv.odile", "Odile Vance", "guardian",
                         [{"classes": ["guardian", "neutral"]}, {"traits": ["Tome"], "max_level": 2, "limit": 2}],
                         ["p.compass"], "p.debt", ODILE_STARTER)
    tobias = investigator("inv.tobias", "Tobias Crane", "seeker",
                          [{"classes": ["seeker", "neutral"]}, {"classes": ["guardian"], "max_level": 0, "limit": 1},
                           {"classes": ["guardian", "mystic"], "max_level": 0, "limit": 1}],
                          ["p.ledger", "p.ledger"], "p.doubt", TOBIAS_STARTER)
    bag = ["0", "-1", "auto_fail", "elder_sign"]
    campaign = Campaign(id="c", name="Tests", intro="Deckbuilding tests.", scenarios=["s"],
                        chaos_bag={"easy": bag, "standard": bag, "hard": bag, "expert": bag})
    return Content(version="deckbuilding-test", investigators={i.id: i for i in (odile, tobias)},
                   player={c.id: c for c in CARDS}, encounter_sets={}, enemies={}, treacheries={}, locations={},
                   acts={}, agendas={}, scenarios={}, campaign=campaign)


def odile_deck(content: Content, **changes: int) -> dict[str, int]:
    deck = starting_deck(content, "inv.odile", "p.cough")
    for key, n in changes.items():
        cid = "p." + key.replace("_", "-")
        deck[cid] = deck.get(cid, 0) + n
        if deck[cid] == 0:
            del deck[cid]
    return deck


def record(deck: dict[str, int], xp: int, code: str = "inv.odile") -> InvestigatorRecord:
    return InvestigatorRecord(seat=0, code=code, deck=deck, xp=xp, xp_earned=xp)


def labels(ups: list[Upgrade]) -> list[str]:
    return [u.label for u in ups]


# ---------------------------------------------------------------- starting decks and the deck frame

def test_starting_deck_is_starter_plus_requirements_and_is_legal(content: Content) -> None:
    # Definitions: signature cards (exact counts) and digest §14 "plus one random basic weakness"
    deck = starting_deck(content, "inv.tobias", "p.gull")
    assert deck == {**TOBIAS_STARTER, "p.ledger": 2, "p.doubt": 1, "p.gull": 1}
    assert list(deck) == sorted(deck)
    assert deck_errors(content, "inv.tobias", deck) == []
    assert deck_errors(content, "inv.odile", odile_deck(content)) == []


def test_starting_deck_refuses_a_weakness_that_is_not_basic(content: Content) -> None:
    with pytest.raises(IllegalAction, match="not a basic weakness"):
        starting_deck(content, "inv.odile", "p.debt")
    with pytest.raises(IllegalAction, match="no investigator"):
        starting_deck(content, "inv.nobody", "p.cough")


def test_size_excludes_signatures_weaknesses_and_permanent_cards(content: Content) -> None:
    # digest §14 deck frame; FAQ Q (Charon's Obol): permanent cards do not count toward deck size
    deck = odile_deck(content, cord=1, gull=1)
    assert deck_count(content, "inv.odile", deck) == 10
    assert deck_errors(content, "inv.odile", deck) == []


def test_size_must_be_exact(content: Content) -> None:
    # digest §14 deck frame: exactly the investigator's deck size
    short = deck_errors(content, "inv.odile", odile_deck(content, chalk=-1))
    assert short == ["The deck has 9 cards that count toward its size; Odile Vance needs exactly 10 (signature "
                     "cards, weaknesses and permanent cards are not counted)."]
    long = deck_errors(content, "inv.odile", odile_deck(content, dredge=1))
    assert len(long) == 1 and "has 11 cards" in long[0]


def test_unknown_card_and_unknown_investigator(content: Content) -> None:
    errors = deck_errors(content, "inv.odile", odile_deck(content, chalk=-1) | {"p.nothing": 1})
    assert "The deck names 'p.nothing', which is not a player card in this content." in errors
    assert deck_errors(content, "inv.nobody", {}) == ["There is no investigator 'inv.nobody' in this content."]


# ---------------------------------------------------------------- deckbuilding options

def test_card_outside_every_option_is_refused(content: Content) -> None:
    # digest §14: every card must fit one of the investigator's deckbuilding options
    errors = deck_errors(content, "inv.odile", odile_deck(content, chalk=-1, grinder=1))
    assert errors == ["Grinding Lens is not a card Odile Vance may take (allowed: guardian or neutral cards "
                      "(levels 0–5); cards with the trait Tome (levels 0–2, up to 2))."]


def test_option_level_range(content: Content) -> None:
    # FAQ §1.15: an option gives a class or trait within a level range; a level-3 Tome is outside "0–2"
    errors = deck_errors(content, "inv.odile", odile_deck(content, chalk=-1, almanac=1))
    assert len(errors) == 1 and errors[0].startswith("Tide Almanac (level 3) is not a card Odile Vance may take")


def test_limited_option_caps_the_cards_it_supplies(content: Content) -> None:
    # FAQ §1.15: "up to N other" cards; copies count
    ok = odile_deck(content, chalk=-2, chart=2)
    assert deck_errors(content, "inv.odile", ok) == []
    over = odile_deck(content, chalk=-2, hammer=-1, chart=2, gazetteer=1)
    errors = deck_errors(content, "inv.odile", over)
    assert len(errors) == 1
    assert errors[0].startswith("Too many cards from Odile Vance's limited options")
    assert "do not fit:" in errors[0]


def test_other_line_only_takes_cards_no_unlimited_line_takes(content: Content) -> None:
    # FAQ §1.15: a guardian Tome falls into the unlimited guardian line, not the limited "other Tome" line
    deck = odile_deck(content, chalk=-2, hammer=-2, chart=2, bound=2)
    assert deck_errors(content, "inv.odile", deck) == []


def test_several_limited_lines_are_shared_out(content: Content) -> None:
    # FAQ §1.15/§1.16: a card uses one limited slot; Tobias has 1 guardian slot and 1 guardian-or-mystic slot
    base = starting_deck(content, "inv.tobias", "p.cough")
    two_guardian = base | {"p.barometer": 0, "p.hammer": 1, "p.lamp": 1}
    del two_guardian["p.barometer"]
    two_guardian["p.whistle"] = 2
    assert deck_count(content, "inv.tobias", two_guardian) == 10
    assert deck_errors(content, "inv.tobias", two_guardian) == []  # one in each line
    three = dict(two_guardian)
    three["p.whistle"] = 1
    three["p.gazetteer"] = 1  # a mystic card: only the second line, which a guardian card then needs
    errors = deck_errors(content, "inv.tobias", three)
    assert len(errors) == 1 and "limited options" in errors[0]


# ---------------------------------------------------------------- copies by title

def test_copies_count_by_title_across_levels(content: Content) -> None:
    # FAQ §2.3: limits count copies by title (a level-2 copy shares the limit with level-0 copies)
    deck = odile_deck(content, chalk=-1, lamp_2=1)
    assert deck_errors(content, "inv.odile", deck) == [
        "The deck holds 3 copies of Harbour Lamp; a deck may hold at most 2 copies of Harbour Lamp (copies at "
        "every level count together)."]


def test_exceptional_one_copy_per_title(content: Content) -> None:
    # digest §14 "Exceptional": limit 1 per deck
    deck = odile_deck(content, chalk=-2, relic=1, relic_3=1)
    assert deck_errors(content, "inv.odile", deck) == [
        "The deck holds 2 copies of Drowned Reliquary; Drowned Reliquary is exceptional: a deck may hold only 1 "
        "copy of its title."]
    assert deck_errors(content, "inv.odile", odile_deck(content, chalk=-1, relic_3=1)) == []


def test_myriad_three_copies(content: Content) -> None:
    # FAQ §1.20 / digest §14 "Myriad": copy limit 3
    assert deck_errors(content, "inv.odile", odile_deck(content, chalk=-2, hammer=-1, salt=2, salt_2=1)) == []
    four = odile_deck(content, chalk=-2, hammer=-2, salt=2, salt_2=2)
    assert deck_errors(content, "inv.odile", four) == [
        "The deck holds 4 copies of Salt Line; Salt Line is myriad: a deck may hold at most 3 copies of its title."]


# ---------------------------------------------------------------- signature cards and weaknesses

def test_signature_cards_in_exact_counts(content: Content) -> None:
    # Definitions: signature cards — the listed count is the required count, no more and no fewer
    deck = starting_deck(content, "inv.tobias", "p.cough")
    deck["p.ledger"] = 1
    assert deck_errors(content, "inv.tobias", deck) == [
        "Tobias Crane's deck must hold exactly 2 copies of Crane's Ledger (their signature card); it holds 1."]
    deck["p.ledger"] = 3
    assert len(deck_errors(content, "inv.tobias", deck)) == 1


def test_signature_weakness_required(content: Content) -> None:
    # Definitions: signature cards include the non-basic weaknesses of the deckbuilding requirements
    deck = odile_deck(content, debt=-1)
    assert deck_errors(content, "inv.odile", deck) == [
        "Odile Vance's deck must hold exactly 1 copy of Debt to the Tide Clerk (their signature weakness); it "
        "holds 0."]


def test_no_other_investigators_signature_cards(content: Content) -> None:
    # Definitions: signature cards — only their own investigator's deck may hold them
    deck = odile_deck(content, ledger=1, doubt=1)
    errors = deck_errors(content, "inv.odile", deck)
    assert "Crane's Ledger is Tobias Crane's signature card; no other investigator's deck may hold it." in errors
    assert "Creeping Doubt is Tobias Crane's signature card; no other investigator's deck may hold it." in errors
    assert len(errors) == 2  # neither counts toward size or needs an option


def test_signature_cards_do_not_count_toward_title_limits(content: Content) -> None:
    # Definitions: signature cards — a signature card is left out of the copy limit of a title it shares with
    # ordinary cards: Odile's Brass Compass plus two ordinary ones
    deck = odile_deck(content, chalk=-2, compass_plain=2)
    assert deck_errors(content, "inv.odile", deck) == []


def test_basic_weaknesses_exempt_from_options_but_never_beyond_those_dealt(content: Content) -> None:
    # digest §13: basic weaknesses are dealt from the pool; a mystic-class weakness is fine in a guardian deck
    deck = odile_deck(content, gull=1)
    assert deck_errors(content, "inv.odile", deck) == []
    assert deck_errors(content, "inv.odile", deck, dealt={"p.cough": 1, "p.gull": 1}) == []
    assert deck_errors(content, "inv.odile", deck, dealt={"p.cough": 1}) == [
        "The deck holds 1 copy of the basic weakness Carrion Gull, but only 0 were dealt; basic weaknesses are "
        "dealt, never chosen."]


# ---------------------------------------------------------------- experience costs

def test_new_card_costs_its_level(content: Content) -> None:
    # FAQ §1.8: the card's own experience; the minimum of 1 is a purchase rule (purchase_cost)
    assert upgrade_cost(content, None, "p.lamp") == 0
    assert upgrade_cost(content, None, "p.lamp-2") == 2
    deck = odile_deck(content)
    assert purchase_cost(content, "inv.odile", deck, "p.whistle", "p.chalk") == 1  # FAQ §1.8 minimum 1


def test_upgrade_costs_the_difference(content: Content) -> None:
    # digest §14 Experience: an upgrade costs the level difference
    assert upgrade_cost(content, "p.lamp", "p.lamp-2") == 2
    assert upgrade_cost(content, "p.grinder", "p.grinder-1") == 1
    with pytest.raises(IllegalAction, match="not a higher-level version"):
        upgrade_cost(content, "p.lamp-2", "p.lamp")
    with pytest.raises(IllegalAction, match="not a higher-level version"):
        upgrade_cost(content, "p.hammer", "p.lamp-2")


def test_exceptional_costs_double(content: Content) -> None:
    # digest §14 Exceptional: double experience, for a new card and for an upgrade alike
    assert upgrade_cost(content, None, "p.relic-3") == 6
    assert upgrade_cost(content, "p.relic", "p.relic-3") == 6


def test_myriad_further_copy_is_free(content: Content) -> None:
    # FAQ §1.20 myriad: the experience of one copy; a further copy already owned at that level costs 0
    assert upgrade_cost(content, None, "p.salt-2") == 2
    assert upgrade_cost(content, None, "p.salt-2", owned={"p.salt-2": 1}) == 0
    assert upgrade_cost(content, "p.salt", "p.salt-2", owned={"p.salt": 2, "p.salt-2": 1}) == 0
    assert upgrade_cost(content, "p.salt", "p.salt-2", owned={"p.salt": 3}) == 2


def test_weaknesses_and_signatures_cannot_be_bought(content: Content) -> None:
    # digest §13: basic weaknesses are dealt, not chosen; Definitions: signature cards are requirements
    with pytest.raises(IllegalAction, match="cannot be bought"):
        upgrade_cost(content, None, "p.cough")
    with pytest.raises(IllegalAction, match="cannot be bought"):
        upgrade_cost(content, None, "p.compass")


# ---------------------------------------------------------------- legal upgrades

def test_upgrade_in_place_is_offered(content: Content) -> None:
    # digest §14 Experience: swap a level-0 copy for its higher level
    ups = legal_upgrades(content, record(odile_deck(content), xp=2))
    assert "Swap Harbour Lamp for Harbour Lamp (level 2) — 2 XP" in labels(ups)
    assert ups[0].label == "Swap Harbour Lamp for Harbour Lamp (level 2) — 2 XP"  # upgrades come before swaps


def test_level_zero_swap_costs_one(content: Content) -> None:
    # FAQ §1.8: minimum purchase cost 1 — a level-0 card for a level-0 card costs 1 XP
    ups = legal_upgrades(content, record(odile_deck(content), xp=1))
    assert "Swap Chalk Sigil for Brass Compass — 1 XP" in labels(ups)
    assert "Swap Chalk Sigil for Dredging Hook (level 1) — 1 XP" in labels(ups)
    assert all(u.cost == 1 for u in ups)
    assert legal_upgrades(content, record(odile_deck(content), xp=0)) == []


def test_requirements_weaknesses_and_permanents_are_never_swapped_out(content: Content) -> None:
    # Q (Charon's Obol): permanent cards cannot be swapped; signature cards and weaknesses stay
    deck = odile_deck(content, cord=1, gull=1)
    ups = legal_upgrades(content, record(deck, xp=10))
    removed = {u.remove for u in ups}
    assert removed.isdisjoint({"p.cord", "p.compass", "p.debt", "p.cough", "p.gull"})
    assert not {u.add for u in ups} & {"p.cough", "p.gull", "p.compass", "p.ledger", "p.debt"}
    with pytest.raises(IllegalAction, match="permanent; once in a deck it cannot be swapped out"):
        apply_upgrade(content, record(deck, xp=10), Upgrade(add="p.hammer", remove="p.cord", cost=1, label="x"))
    with pytest.raises(IllegalAction, match="signature card; it stays"):
        apply_upgrade(content, record(deck, xp=10), Upgrade(add="p.hammer", remove="p.compass", cost=1, label="x"))


def test_permanent_card_is_added_without_a_removal(content: Content) -> None:
    # FAQ Q: permanent cards do not count toward deck size, so buying one removes nothing (minimum 1, FAQ §1.8)
    ups = legal_upgrades(content, record(odile_deck(content), xp=1))
    assert Upgrade(add="p.cord-0", remove=None, cost=1, label="Add Lucky Pebble — 1 XP") in ups
    assert Upgrade(add="p.cord", remove=None, cost=1, label="Add Knotted Cord (level 1) — 1 XP") in ups
    assert not [u for u in ups if u.add in ("p.cord", "p.cord-0") and u.remove is not None]


def test_refill_after_forced_removal_is_free(content: Content) -> None:
    # FAQ §1.18: after a forced removal, level-0 cards are bought at 0 experience until the deck is legal again
    short = odile_deck(content, chalk=-2)
    ups = legal_upgrades(content, record(short, xp=0))
    assert Upgrade(add="p.chalk", remove=None, cost=0, label="Add Chalk Sigil — 0 XP") in ups
    assert all(u.cost == 0 and u.remove is None for u in ups)
    assert "p.dredge" not in {u.add for u in ups}  # level 1: not free, and there is no XP
    rec = record(short, xp=3)
    rec = apply_upgrade(content, rec, Upgrade(add="p.chalk", cost=0, label="Add Chalk Sigil — 0 XP"))
    assert rec.xp == 3 and deck_count(content, "inv.odile", rec.deck) == 9
    higher = [u for u in legal_upgrades(content, rec) if u.add == "p.dredge" and u.remove is None]
    assert higher and higher[0].cost == 1  # only level-0 cards are free
    rec = apply_upgrade(content, rec, Upgrade(add="p.chalk", cost=0, label="Add Chalk Sigil — 0 XP"))
    assert deck_errors(content, "inv.odile", rec.deck) == []
    assert not [u for u in legal_upgrades(content, rec) if u.remove is None and u.add != "p.cord"
                and u.add != "p.cord-0"]  # full again: additions need a removal


def test_myriad_copies_after_the_first_are_free(content: Content) -> None:
    # §1.20 myriad: the first level-2 copy costs 2, the next copies nothing
    deck = odile_deck(content, chalk=-2, hammer=-1, salt=3)
    rec = record(deck, xp=2)
    first = [u for u in legal_upgrades(content, rec) if u.add == "p.salt-2" and u.remove == "p.salt"]
    assert first == [Upgrade(add="p.salt-2", remove="p.salt", cost=2,
                             label="Swap Salt Line for Salt Line (level 2) — 2 XP")]
    rec = apply_upgrade(content, rec, first[0])
    assert rec.xp == 0
    again = [u for u in legal_upgrades(content, rec) if u.add == "p.salt-2"]
    assert again == [Upgrade(add="p.salt-2", remove="p.salt", cost=0,
                             label="Swap Salt Line for Salt Line (level 2) — 0 XP")]


def test_free_moves_never_go_round_in_circles(content: Content) -> None:
    # §1.20 myriad: a free copy must not be paid for by a copy that could itself be bought back free
    deck = odile_deck(content, chalk=-2, hammer=-1, salt=2, brine=1)
    ups = legal_upgrades(content, record(deck, xp=0))
    assert ("p.brine", "p.salt") not in {(u.add, u.remove) for u in ups}
    assert ("p.brine", "p.hammer") in {(u.add, u.remove) for u in ups}
    # following free moves always ends
    rec = record(deck, xp=0)
    for _ in range(50):
        ups = legal_upgrades(content, rec)
        if not ups:
            break
        rec = apply_upgrade(content, rec, ups[0])
    else:
        pytest.fail("free moves did not run out")


def test_every_offered_upgrade_keeps_the_deck_legal(content: Content) -> None:
    # FAQ §1.8 / §1.15 / §2.3: whatever is offered, applying it leaves a legal deck and spends exactly its cost
    rec = record(odile_deck(content, chalk=-2, chart=2), xp=4)
    ups = legal_upgrades(content, rec)
    assert len(ups) > 20
    for up in ups:
        after = apply_upgrade(content, rec, up)
        assert deck_errors(content, "inv.odile", after.deck) == [], up.label
        assert after.xp == rec.xp - up.cost and up.cost <= rec.xp
    # the limited Tome line is full: a third Tome of another class is never offered
    assert not [u for u in ups if u.add in ("p.logbook", "p.gazetteer") and u.remove not in ("p.chart",)]


def test_upgrades_are_sorted_and_deterministic(content: Content) -> None:
    rec = record(odile_deck(content), xp=6)
    first = legal_upgrades(content, rec)
    shuffled = record(dict(reversed(list(rec.deck.items()))), xp=6)
    assert legal_upgrades(content, shuffled) == first
    # a full deck: upgrades of held cards first, then other purchases, each dearest first
    groups = [(0 if u.remove and is_upgrade(content.player[u.remove], content.player[u.add]) else 1, -u.cost)
              for u in first]
    assert groups == sorted(groups)
    assert groups[0][0] == 0 and groups[-1][0] == 1


def test_apply_upgrade_returns_a_copy_and_checks_cost(content: Content) -> None:
    rec = record(odile_deck(content), xp=2)
    up = Upgrade(add="p.lamp-2", remove="p.lamp", cost=2, label="Swap Harbour Lamp for Harbour Lamp (level 2) — 2 XP")
    after = apply_upgrade(content, rec, up)
    assert after.deck["p.lamp"] == 1 and after.deck["p.lamp-2"] == 1 and after.xp == 0 and after.xp_earned == 2
    assert rec.deck["p.lamp"] == 2 and "p.lamp-2" not in rec.deck and rec.xp == 2
    with pytest.raises(IllegalAction, match="costs 2 XP; Odile Vance has 1 XP"):
        apply_upgrade(content, record(odile_deck(content), xp=1), up)
    with pytest.raises(IllegalAction, match="now costs 2 XP, not 1"):
        apply_upgrade(content, rec, up.model_copy(update={"cost": 1}))
    with pytest.raises(IllegalAction, match="too large"):
        apply_upgrade(content, rec, Upgrade(add="p.hammer", cost=1, label="x"))
    with pytest.raises(IllegalAction, match="not a card Odile Vance may take"):
        apply_upgrade(content, rec, Upgrade(add="p.grinder", remove="p.chalk", cost=1, label="x"))
    with pytest.raises(IllegalAction, match="no copy of 'p.relic'"):
        apply_upgrade(content, rec, Upgrade(add="p.relic-3", remove="p.relic", cost=6, label="x"))
    dead = rec.model_copy(update={"status": "killed"})
    assert legal_upgrades(content, dead) == []
    with pytest.raises(IllegalAction, match="active investigator"):
        apply_upgrade(content, dead, up)


# ---------------------------------------------------------------- deck codes

def test_deck_code_shape_and_round_trip(content: Content) -> None:
    deck = odile_deck(content)
    code = deck_code(deck)
    assert code.startswith("L1.") and all(ch.isalnum() or ch in "-_." for ch in code)
    assert deck_code(dict(reversed(list(deck.items())))) == code  # deterministic whatever the dict order
    assert parse_deck_code(code) == deck
    assert parse_deck_code("  " + code + "\n") == deck
    assert parse_deck_code(deck_code({})) == {}


@pytest.mark.parametrize("garbage", [
    "", "L1.", "hello", "L2.eJzLSsxLyUzOzytJzSsBAB8+BVQ", "L1.!!!!", "L1.eJzLSsxLyUzOzytJzSsBAB8+BVQ",
    "L1." + "A" * 9000, "L1.eJwrzi9KSS0qBgAQ6QNm",  # "sorry": valid zlib, not a deck
])
def test_parse_deck_code_refuses_garbage(garbage: str) -> None:
    with pytest.raises(IllegalAction, match="not a deck code"):
        parse_deck_code(garbage)


def test_parse_deck_code_refuses_a_code_that_is_not_canonical() -> None:
    import base64
    import zlib

    for plain in (b"p.b:1,p.a:1", b"p.a:01", b"p.a:0", b"p.a:1,p.a:2", b"p.a", b"p a:1"):
        code = "L1." + base64.urlsafe_b64encode(zlib.compress(plain)).decode().rstrip("=")
        with pytest.raises(IllegalAction):
            parse_deck_code(code)


def test_deck_code_refuses_what_it_cannot_write() -> None:
    with pytest.raises(IllegalAction):
        deck_code({"p.a,b": 1})
    with pytest.raises(IllegalAction):
        deck_code({"p.a": 0})


IDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789.-_", min_size=1, max_size=24)


@settings(max_examples=50, deadline=None)
@given(st.dictionaries(IDS, st.integers(min_value=1, max_value=99), max_size=40))
def test_deck_codes_round_trip(deck: dict[str, int]) -> None:
    code = deck_code(deck)
    assert parse_deck_code(code) == deck
    assert deck_code(parse_deck_code(code)) == code
