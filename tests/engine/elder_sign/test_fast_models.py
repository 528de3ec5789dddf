"""Speed work of issue 8 ("no validated model construction on the hot path"): the prompts, options, events
and answers Elder Sign and the kernel build without validating them again are the very models validation
would build (same fields, same JSON, equal), and a field added to one of those models later is filled in
with its default rather than missing."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field

from engine.core.events import Event
from engine.core.prompt import Action, Option, Prompt, PromptKind
from engine.core.trusted import defaults, trusted
from engine.elder_sign.choices import Go
from engine.elder_sign.ops import event, option, prompt


def test_fast_options_events_and_prompts_equal_validated_ones() -> None:
    fast = option(id="go:entrance", label="Go to the Entrance", data=Go("entrance"), detail="x")
    slow = Option(id="go:entrance", label="Go to the Entrance", data=Go("entrance"), detail="x")
    assert fast == slow and fast.model_dump_json() == slow.model_dump_json() and fast.data == slow.data
    e = event(kind="dice.rolled", text="a rolls", seat=1, cause="c", data={"dice": {"g1": "lore"}}, render=True)
    v = Event(kind="dice.rolled", text="a rolls", seat=1, cause="c", data={"dice": {"g1": "lore"}}, render=True)
    assert e == v and e.model_dump_json() == v.model_dump_json()
    assert event(kind="k", text="t").data == {} and event(kind="k", text="t").data is not event(kind="k", text="t").data
    p = prompt(seq=3, seats=[0], kind=PromptKind.ONE, title="t", reason="r", options=[fast], default=["go:entrance"])
    q = Prompt(seq=3, seats=[0], kind=PromptKind.ONE, title="t", reason="r", options=[slow], default=["go:entrance"])
    assert p == q and p.model_dump_json() == q.model_dump_json()
    assert Prompt.model_validate_json(p.model_dump_json()).model_dump_json() == q.model_dump_json()


def test_fast_answers_equal_validated_ones() -> None:
    ops = [Option(id=str(i), label=f"o{i}") for i in range(3)]
    one = Prompt(seq=5, seats=[1], kind=PromptKind.ONE, title="t", options=ops)
    assert one.answers(1) == [Action(seat=1, prompt=5, choice=[o.id]) for o in ops]
    many = Prompt(seq=5, seats=[1], kind=PromptKind.MANY, title="t", options=ops, min_choices=1, max_choices=2)
    assert [a.choice for a in many.answers(1)] == [["0"], ["1"], ["2"], ["0", "1"], ["0", "2"], ["1", "2"]]
    amount = Prompt(seq=5, seats=[1], kind=PromptKind.AMOUNT, title="t", min_amount=1, max_amount=2)
    assert amount.answers(1) == [Action(seat=1, prompt=5, amount=1), Action(seat=1, prompt=5, amount=2)]
    assert all(a.model_dump_json() == Action.model_validate_json(a.model_dump_json()).model_dump_json()
               for a in one.answers(1))


def test_a_field_added_later_gets_its_default_on_the_fast_path() -> None:
    class Later(BaseModel):
        a: int
        b: str = "x"
        c: list[int] = Field(default_factory=list)
        d: dict[str, int] = {"k": 1}

    template, factories = defaults(Later, {"a"})
    assert template == {"a": None, "b": "x", "c": None, "d": None}
    values = dict(template, a=1)
    for name, make in factories:
        values[name] = make()
    built = trusted(Later, values)
    assert built == Later(a=1) and built.d is not Later.model_fields["d"].default
    with pytest.raises(TypeError, match="Later.a has no default"):
        defaults(Later, set())
