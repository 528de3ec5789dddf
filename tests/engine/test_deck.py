"""Decks (engine/core/deck.py): the top of the draw pile is the end of the list; views hide the order."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engine.core.deck import Deck, Reshuffle
from engine.core.rng import Rng


def deck(cards: list[str], **kw: object) -> Deck:
    return Deck(name="test", draw_pile=list(cards), **kw)  # type: ignore[arg-type]


def test_draw_takes_from_the_end_of_the_list() -> None:
    d = deck(["bottom", "middle", "top"])
    rng = Rng.from_seed(0)
    assert [d.draw(rng), d.draw(rng), d.draw(rng)] == ["top", "middle", "bottom"]
    assert d.draw(rng) is None
    assert len(d) == 0


def test_draw_does_not_use_the_rng_when_no_reshuffle_happens() -> None:
    rng = Rng.from_seed(5)
    before = rng.state
    deck(["a", "b"]).draw(rng)
    assert rng.state == before


def test_put_top_is_drawn_next_and_put_bottom_last() -> None:
    d = deck(["a", "b"])
    rng = Rng.from_seed(0)
    d.put_top("T")
    d.put_bottom("B")
    assert d.draw_pile == ["B", "a", "b", "T"]
    assert [d.draw(rng) for _ in range(4)] == ["T", "b", "a", "B"]


def test_peek_shows_top_first_and_removes_nothing() -> None:
    d = deck(["a", "b", "c", "d"])
    assert d.peek() == ["d"]
    assert d.peek(3) == ["d", "c", "b"]
    assert d.peek(10) == ["d", "c", "b", "a"]
    assert d.peek(0) == []
    assert d.peek(-2) == []
    assert d.draw_pile == ["a", "b", "c", "d"]
    assert d.draw(Rng()) == "d"


def test_take_removes_a_named_card_only_from_the_draw_pile() -> None:
    d = deck(["a", "b", "c"], discard_pile=["x"])
    assert d.take("b") is True
    assert d.draw_pile == ["a", "c"]
    assert d.take("b") is False
    assert d.take("x") is False  # a search looks through the draw pile, not the discards
    assert d.discard_pile == ["x"]
    assert d.draw_pile == ["a", "c"]


def test_reshuffle_never_leaves_an_empty_pile_empty() -> None:
    d = deck([], discard_pile=["a", "b", "c"], reshuffle=Reshuffle.NEVER)
    rng = Rng.from_seed(1)
    state = rng.state
    assert d.draw(rng) is None
    assert d.discard_pile == ["a", "b", "c"] and d.draw_pile == []
    assert rng.state == state


def test_reshuffle_when_empty_shuffles_the_discards_into_a_new_pile() -> None:
    cards = [f"c{i}" for i in range(10)]
    d = deck([], discard_pile=list(cards), reshuffle=Reshuffle.WHEN_EMPTY)
    rng = Rng.from_seed(1)
    first = d.draw(rng)
    assert first in cards
    assert d.discard_pile == []
    assert Counter(d.draw_pile + [first]) == Counter(cards)
    # the new pile is the discards shuffled by the same RNG: reproducible from the seed
    expect = list(cards)
    Rng.from_seed(1).shuffle(expect)
    assert d.draw_pile + [first] == expect


def test_reshuffle_when_empty_only_when_the_pile_is_empty() -> None:
    d = deck(["a"], discard_pile=["x", "y"], reshuffle=Reshuffle.WHEN_EMPTY)
    rng = Rng.from_seed(2)
    assert d.draw(rng) == "a"
    assert d.discard_pile == ["x", "y"]
    assert d.draw(rng) in ("x", "y")
    assert d.discard_pile == []


def test_reshuffle_when_empty_with_nothing_anywhere() -> None:
    d = deck([], reshuffle=Reshuffle.WHEN_EMPTY)
    assert d.draw(Rng.from_seed(0)) is None


@given(seed=st.integers(0, 2**64 - 1), n=st.integers(0, 30), reshuffle=st.sampled_from(list(Reshuffle)))
def test_cards_are_conserved(seed: int, n: int, reshuffle: Reshuffle) -> None:
    cards = [f"c{i}" for i in range(n)]
    rng = Rng.from_seed(seed)
    d = Deck.shuffled("d", cards, rng, reshuffle)
    assert Counter(d.draw_pile) == Counter(cards)
    hand: list[str] = []
    for _ in range(n):
        c = d.draw(rng)
        assert c is not None
        hand.append(c)
        if len(hand) % 3 == 0:
            d.discard(hand.pop(0))
        if len(hand) % 5 == 0:
            d.to_box(hand.pop())
    assert Counter(d.cards() + hand) == Counter(cards)


def test_shuffled_is_deterministic_and_keeps_the_input() -> None:
    cards = [f"c{i}" for i in range(20)]
    a = Deck.shuffled("a", cards, Rng.from_seed(9))
    b = Deck.shuffled("a", cards, Rng.from_seed(9))
    assert a.draw_pile == b.draw_pile
    assert a.draw_pile != cards  # 20! orders; the identity is vanishingly unlikely for this seed
    assert cards == [f"c{i}" for i in range(20)]


def test_public_view_hides_the_order_and_faces() -> None:
    a = deck(["a", "b", "c"], discard_pile=["x", "y"])
    b = deck(["c", "a", "b"], discard_pile=["x", "y"])
    assert a.public_view() == b.public_view()
    v = a.public_view()
    assert v == {"name": "test", "draw": 3, "discard": 2, "discard_top": "y"}
    assert not {"a", "b", "c"} & {str(x) for x in v.values()}


def test_public_view_of_an_empty_discard() -> None:
    assert deck(["a"]).public_view()["discard_top"] is None


def test_json_round_trip() -> None:
    d = deck(["a", "b"], discard_pile=["c"], box=["z"], reshuffle=Reshuffle.WHEN_EMPTY)
    again = Deck.model_validate_json(d.model_dump_json())
    assert again == d
    assert again.reshuffle is Reshuffle.WHEN_EMPTY
