"""The purchase list is checked once per deck (issue 29, item 4): each candidate purchase looks only at what one
added and one removed card can change, and the list it gives is exactly the list a check of the whole deck
after each purchase gives (the rules: the deckbuilding module's docstring, FAQ §1.15 options, §2.3 copies by
title, §1.18 refills, §1.20 myriad).
"""

from __future__ import annotations

import random
import time

import pytest

from engine.arkham_lcg import deckbuilding
from engine.arkham_lcg.content import Content, default_content
from engine.arkham_lcg.deckbuilding import (
    Upgrade,
    _every_purchase,
    _investigator,
    _move_error,
    _removable,
    apply_upgrade,
    counts_toward_size,
    deck_count,
    legal_upgrades,
    ranked_upgrade,
    starting_deck,
)
from engine.arkham_lcg.state import InvestigatorRecord
from tests.engine.arkham_lcg.test_deckbuilding import content as synthetic_content  # noqa: F401 (a fixture)
from tests.engine.arkham_lcg.test_deckbuilding import odile_deck


def whole_deck_list(content: Content, code: str, deck: dict[str, int]) -> list[Upgrade]:
    """Every purchase checked against the whole deck after it (the check `apply_upgrade` makes), in the
    list's order: what the quicker list must equal."""
    inv = _investigator(content, code)
    short = deck_count(content, code, deck) < inv.deck_size
    removes: list[str | None] = [None, *(cid for cid in sorted(deck) if deck[cid] > 0 and
                                         _removable(inv, cid, content.player[cid]) is None)]
    ranked = []
    for add in sorted(content.player):
        for remove in removes:
            cost, _, why = _move_error(content, inv, deck, add, remove)
            if why is not None:
                continue
            if remove is None and counts_toward_size(inv, add, content.player[add]):
                assert short  # a card added with nothing out fits only a short deck
            ranked.append(ranked_upgrade(content, inv, add, remove, cost))
    ranked.sort(key=lambda pair: pair[0])
    return [up for _, up in ranked]


def walk(content: Content, code: str, deck: dict[str, int], seed: int, steps: int) -> list[dict[str, int]]:
    """Decks a campaign could reach: random purchases one after another (plus one forced removal, which
    leaves the deck short of its size)."""
    rng = random.Random(seed)
    decks = [dict(deck)]
    record = InvestigatorRecord(seat=0, code=code, deck=dict(deck), xp=60, xp_earned=60)
    for n in range(steps):
        ups = legal_upgrades(content, record)
        if not ups:
            break
        record = apply_upgrade(content, record, rng.choice(ups)).model_copy(update={"xp": 60})
        decks.append(dict(record.deck))
        if n == steps // 2:
            inv = _investigator(content, code)
            out = next(cid for cid in sorted(record.deck) if _removable(inv, cid, content.player[cid]) is None)
            short = dict(record.deck)
            short[out] -= 1
            decks.append({cid: k for cid, k in short.items() if k > 0})
    return decks


@pytest.mark.parametrize("code", sorted(default_content().investigators))
def test_the_shipped_investigators_lists_equal_the_whole_deck_check(code: str) -> None:
    content = default_content()
    inv = content.investigators[code]
    weakness = next(cid for cid in sorted(content.player) if content.player[cid].weakness == "basic")
    # two purchases deep (and the short deck after the first): the whole-deck check this compares with is the slow
    # one the list replaced; the synthetic decks below walk eight purchases deep
    for deck in walk(content, inv.id, starting_deck(content, inv.id, weakness), seed=len(code), steps=2):
        assert list(_every_purchase(content, inv.id, tuple(sorted(deck.items())))) == \
            whole_deck_list(content, inv.id, deck), deck


def test_limited_lines_exceptional_and_myriad_cards_list_the_same(synthetic_content: Content) -> None:  # noqa: F811
    """The deckbuilding tests' own cards: limited option lines shared out by a matching, exceptional and myriad
    titles, permanent cards and a short deck."""
    for code, deck in (("inv.odile", odile_deck(synthetic_content)),
                       ("inv.odile", odile_deck(synthetic_content, psalter=1, bound=1, hammer=-1, chalk=-1)),
                       ("inv.odile", odile_deck(synthetic_content, lamp=-1)),
                       ("inv.tobias", starting_deck(synthetic_content, "inv.tobias", "p.cough"))):
        for reached in walk(synthetic_content, code, deck, seed=3, steps=8):
            assert list(_every_purchase(synthetic_content, code, tuple(sorted(reached.items())))) == \
                whole_deck_list(synthetic_content, code, reached), reached


def test_a_purchase_list_is_many_times_quicker_than_checking_every_purchase_whole() -> None:
    """Issue 29: the purchase list of a shipped investigator's deck took ~0.2 s when every candidate was checked
    against the whole deck; now each looks at what it changes (tests/bench/bench_arkham_lcg.py --purchases
    prints the time: within 20 ms). Compared with the whole-deck check in the same run, so a busy machine does
    not decide it."""
    content = default_content()
    code = sorted(content.investigators)[0]
    weakness = next(cid for cid in sorted(content.player) if content.player[cid].weakness == "basic")
    deck = starting_deck(content, code, weakness)
    quick = []
    for _ in range(3):
        deckbuilding._PURCHASES.clear()
        started = time.process_time()
        _every_purchase(content, code, tuple(sorted(deck.items())))
        quick.append(time.process_time() - started)
    started = time.process_time()
    whole_deck_list(content, code, deck)
    whole = time.process_time() - started
    assert whole / min(quick) > 4, (whole, quick)
