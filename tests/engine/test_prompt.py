"""Prompts (engine/core/prompt.py): `validate_action` rejects every malformed answer with a readable sentence,
and `answers()` lists exactly the answers that validate."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import IllegalAction
from engine.core.prompt import Action, Option, Prompt, PromptKind


def opts(*ids: str) -> list[Option]:
    return [Option(id=i, label=i.title()) for i in ids]


def prompt(kind: PromptKind = PromptKind.ONE, ids: tuple[str, ...] = ("a", "b", "c"), **kw: object) -> Prompt:
    return Prompt(seq=7, seats=[1], kind=kind, title="Pick", options=opts(*ids), **kw)  # type: ignore[arg-type]


def act(choice: list[str] | None = None, amount: int | None = None, seat: int = 1, seq: int = 7) -> Action:
    return Action(seat=seat, prompt=seq, choice=choice or [], amount=amount)


def rejects(p: Prompt, a: Action, match: str) -> str:
    with pytest.raises(IllegalAction, match=match) as info:
        p.validate_action(a)
    message = str(info.value)
    # a sentence a player reads: starts with a capital letter or a quote, ends with a full stop
    assert message[0].isupper() or message[0] == "'", message
    assert message.endswith("."), message
    assert "Traceback" not in message and "None" not in message
    return message


# ---------------------------------------------------------------- rejections, one by one


@pytest.mark.parametrize("seq", [6, 8, 0, -1])
def test_wrong_seq_is_stale(seq: int) -> None:
    rejects(prompt(), act(["a"], seq=seq), "moved on")


def test_stale_is_checked_before_anything_else() -> None:
    rejects(prompt(), act(["nope", "nope"], seq=1, seat=9), "moved on")


@pytest.mark.parametrize("seat", [0, 2, -1, 99])
def test_wrong_seat(seat: int) -> None:
    rejects(prompt(), act(["a"], seat=seat), "not yours")


def test_any_listed_seat_may_answer() -> None:
    p = Prompt(seq=3, seats=[0, 2], kind=PromptKind.ONE, title="t", options=opts("a"))
    p.validate_action(Action(seat=0, prompt=3, choice=["a"]))
    p.validate_action(Action(seat=2, prompt=3, choice=["a"]))
    with pytest.raises(IllegalAction):
        p.validate_action(Action(seat=1, prompt=3, choice=["a"]))


def test_unknown_option_is_named() -> None:
    msg = rejects(prompt(), act(["zzz"]), "not one of the options")
    assert "zzz" in msg


def test_duplicate_choice() -> None:
    rejects(prompt(PromptKind.MANY, max_choices=3), act(["a", "a"]), "twice")
    rejects(prompt(PromptKind.ORDER), act(["a", "b", "a"]), "twice")


@pytest.mark.parametrize("choice", [[], ["a", "b"], ["a", "b", "c"]])
def test_one_needs_exactly_one(choice: list[str]) -> None:
    rejects(prompt(PromptKind.ONE), act(choice), "exactly one")


@pytest.mark.parametrize("choice", [[], ["yes", "no"]])
def test_confirm_needs_exactly_one(choice: list[str]) -> None:
    p = prompt(PromptKind.CONFIRM, ids=("yes", "no"))
    rejects(p, act(choice), "exactly one")
    p.validate_action(act(["yes"]))
    p.validate_action(act(["no"]))


def test_many_counts() -> None:
    p = prompt(PromptKind.MANY, ids=("a", "b", "c", "d"), min_choices=2, max_choices=3)
    for bad in ([], ["a"], ["a", "b", "c", "d"]):
        msg = rejects(p, act(bad), "from 2 to 3")
        assert "options" in msg
    for good in (["a", "b"], ["d", "a", "c"]):
        p.validate_action(act(good))


def test_many_exact_count_message() -> None:
    p = prompt(PromptKind.MANY, ids=("a", "b", "c"), min_choices=2, max_choices=2)
    rejects(p, act(["a"]), "exactly 2")
    p.validate_action(act(["c", "a"]))


def test_many_with_zero_minimum_allows_an_empty_answer() -> None:
    p = prompt(PromptKind.MANY, min_choices=0, max_choices=2)
    p.validate_action(act([]))


@pytest.mark.parametrize("amount", [None, 1, 6, -3])
def test_amount_out_of_range(amount: int | None) -> None:
    p = prompt(PromptKind.AMOUNT, ids=(), min_amount=2, max_amount=5)
    msg = rejects(p, act(amount=amount), "from 2 to 5")
    assert msg == "Choose a number from 2 to 5."


def test_amount_bounds_are_inclusive() -> None:
    p = prompt(PromptKind.AMOUNT, ids=(), min_amount=2, max_amount=5)
    for a in (2, 3, 4, 5):
        p.validate_action(act(amount=a))


@pytest.mark.parametrize("choice", [["a"], ["a", "b"], [], ["c", "a"]])
def test_order_needs_every_option(choice: list[str]) -> None:
    rejects(prompt(PromptKind.ORDER), act(choice), "every option")


def test_order_accepts_any_permutation() -> None:
    p = prompt(PromptKind.ORDER)
    p.validate_action(act(["c", "a", "b"]))
    p.validate_action(act(["a", "b", "c"]))


def test_validation_changes_nothing() -> None:
    p = prompt(PromptKind.MANY, max_choices=2)
    before = p.model_dump_json()
    with pytest.raises(IllegalAction):
        p.validate_action(act(["a", "b", "c"]))
    p.validate_action(act(["a"]))
    assert p.model_dump_json() == before


# ---------------------------------------------------------------- answers() == the legal answers


@st.composite
def prompts(draw: st.DrawFn) -> Prompt:
    kind = draw(st.sampled_from(list(PromptKind)))
    n = draw(st.integers(0, 4))
    ids = [f"o{i}" for i in range(n)]
    if kind is PromptKind.CONFIRM:
        ids = ["yes", "no"]
    lo = draw(st.integers(0, 5))
    hi = draw(st.integers(lo, 5))
    a_lo = draw(st.integers(-3, 3))
    a_hi = draw(st.integers(a_lo, a_lo + 6))
    seats = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
    return Prompt(seq=draw(st.integers(1, 50)), seats=seats, kind=kind, title="t", options=opts(*ids),
                  min_choices=lo, max_choices=hi, min_amount=a_lo, max_amount=a_hi)


def universe(p: Prompt, seat: int) -> list[Action]:
    """Every candidate answer worth trying: each sequence (with repeats) of up to 4 option ids plus a bogus
    id, and each amount from well below to well above the range, all for the right seq, plus stale ones."""
    ids = [o.id for o in p.options] + ["bogus"]
    out: list[Action] = []
    if p.kind is PromptKind.AMOUNT:
        out += [Action(seat=seat, prompt=p.seq, amount=a) for a in range(p.min_amount - 3, p.max_amount + 4)]
        out.append(Action(seat=seat, prompt=p.seq, amount=None))
    else:
        for k in range(5):
            out += [Action(seat=seat, prompt=p.seq, choice=list(c)) for c in product(ids, repeat=k)]
    out.append(Action(seat=seat, prompt=p.seq + 1, choice=[o.id for o in p.options[:1]], amount=p.min_amount))
    return out


def validates(p: Prompt, a: Action) -> bool:
    try:
        p.validate_action(a)
    except IllegalAction:
        return False
    return True


def key(p: Prompt, a: Action) -> tuple:
    """An answer's identity. A MANY answer is a set: ["b", "a"] is the same answer as ["a", "b"]."""
    choice = tuple(sorted(a.choice)) if p.kind is PromptKind.MANY else tuple(a.choice)
    return (a.seat, a.prompt, choice, a.amount)


@given(prompts(), st.integers(0, 4))
def test_answers_are_exactly_the_legal_answers(p: Prompt, seat: int) -> None:
    answers = p.answers(seat)
    keys = [key(p, a) for a in answers]
    assert len(keys) == len(set(keys)), "answers() lists an answer twice"
    for a in answers:
        p.validate_action(a)  # every listed answer is legal
    if seat not in p.seats:
        assert answers == []
    tried = {key(p, a) for a in universe(p, seat)}
    legal = {key(p, a) for a in universe(p, seat) if validates(p, a)}
    assert legal <= set(keys), f"legal but not listed: {sorted(legal - set(keys))[:5]}"
    assert legal == set(keys) & tried


@given(prompts(), st.integers(0, 4))
def test_non_answers_do_not_validate(p: Prompt, seat: int) -> None:
    listed = {key(p, a) for a in p.answers(seat)}
    assert len(listed) == len(p.answers(seat))
    for a in universe(p, seat):
        if key(p, a) not in listed:
            with pytest.raises(IllegalAction):
                p.validate_action(a)


def test_answers_for_each_kind() -> None:
    def choices(p: Prompt) -> list[list[str]]:
        return [a.choice for a in p.answers(1)]

    assert choices(prompt(PromptKind.ONE)) == [["a"], ["b"], ["c"]]
    assert choices(prompt(PromptKind.CONFIRM, ids=("yes", "no"))) == [["yes"], ["no"]]
    assert choices(prompt(PromptKind.MANY, min_choices=1, max_choices=2)) == [
        ["a"], ["b"], ["c"], ["a", "b"], ["a", "c"], ["b", "c"]]
    assert len(choices(prompt(PromptKind.ORDER))) == 6
    assert [a.amount for a in prompt(PromptKind.AMOUNT, ids=(), min_amount=1, max_amount=3).answers(1)] == [1, 2, 3]
    assert all(a.prompt == 7 and a.seat == 1 for a in prompt().answers(1))
    assert prompt().answers(0) == []


def test_answers_respects_the_limit() -> None:
    p = prompt(PromptKind.ORDER, ids=tuple("abcdefg"))  # 5040 orders
    assert len(p.answers(1)) == 4096
    assert len(p.answers(1, limit=10)) == 10
    m = prompt(PromptKind.MANY, ids=tuple("abcdefghijklm"), min_choices=0, max_choices=13)  # 8192 subsets
    got = m.answers(1, limit=100)
    assert len(got) == 100
    for a in got:
        m.validate_action(a)


def test_option_lookup() -> None:
    p = prompt()
    assert p.option("b") is not None and p.option("b").label == "B"  # type: ignore[union-attr]
    assert p.option("zzz") is None
