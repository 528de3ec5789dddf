"""The shipped player cards (assets/arkham_lcg/): five investigators, one per class, each with a legal 30-card
starter deck; a pool of about a hundred player cards across the classes with level-0 cards and upgrades
(exceptional, myriad, permanent among them); eight basic weaknesses; every card's text written out."""

from __future__ import annotations

from collections import Counter

from engine.arkham_lcg.content import default_content
from engine.arkham_lcg.deckbuilding import deck_errors, starting_deck


def test_five_investigators_one_per_class_with_legal_starter_decks() -> None:
    c = default_content()
    assert sorted(i.cls for i in c.investigators.values()) == ["guardian", "mystic", "rogue", "seeker", "survivor"]
    for inv in c.investigators.values():
        assert sum(inv.starter_deck.values()) == 30 and max(inv.starter_deck.values()) <= 2
        assert sum((inv.willpower, inv.intellect, inv.combat, inv.agility)) == 12
        assert 14 <= inv.health + inv.sanity <= 16
        for weakness in c.basic_weaknesses():
            deck = starting_deck(c, inv.id, weakness)
            assert deck_errors(c, inv.id, deck, dealt={weakness: 1}) == [], inv.id


def test_the_card_pool() -> None:
    c = default_content()
    pool = [p for p in c.player.values() if p.weakness is None and p.signature_of is None]
    by_class = Counter(p.cls for p in pool)
    assert len(pool) >= 70 and len(c.player) >= 90
    for cls in ("guardian", "seeker", "rogue", "mystic", "survivor"):
        assert by_class[cls] >= 12
        assert any(p.cls == cls and (p.level or 0) > 0 for p in pool), f"{cls} has no upgrade"
    assert any(p.exceptional for p in pool) and any(p.myriad for p in pool) and any(p.permanent for p in pool)
    assert len(c.basic_weaknesses()) == 8
    assert all(p.text for p in c.player.values())
