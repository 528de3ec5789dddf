"""Every shape of decision as Discord components, answered through them, checked against what the engine
received: select menus for many options, a multi-select, amount buttons, typed forms for large amounts,
orders and long lists, yes/no buttons, and option ids too long for a custom_id."""

from __future__ import annotations

import pytest

from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, FakeMessage
from tests.e2e.games import LONG
from tests.e2e.harness import Table, open_table

pytestmark = pytest.mark.e2e


async def answered(fake: FakeDiscord, ix: FakeInteraction, stage: int) -> tuple[str, FakeMessage | None]:
    """The narrated answer of `stage` (in the channel's section message) and the next prompt (None after the
    last stage)."""
    line = f"Stage {stage} answered: "
    channel = fake.world.channel(ix.channel_id)
    assert channel is not None
    said = await fake.wait_until(lambda: next((m for m in fake.channel_messages(channel) if line in m.text()),
                                              None), f"the narration of stage {stage}")
    answer = said.text().split(line, 1)[1].split("\n", 1)[0]
    if stage == 8:
        return answer, None
    prompt = await fake.wait_until(
        lambda: next((m for m in fake.channel_messages(channel)
                      if m.custom_ids() and m.created_at > ix.dispatched_at), None),
        f"the prompt after stage {stage}")
    return answer, prompt


async def form(fake: FakeDiscord, prompt: FakeMessage, text: str) -> FakeInteraction:
    opened = await fake.click(prompt.button("Answer…"), prompt, user=fake.alice)
    assert (await fake.expect_callback(opened)).type == 9  # a modal
    return await fake.submit_modal(opened, [text])


async def test_every_prompt_shape(fake: FakeDiscord, table: Table) -> None:
    alice = fake.alice
    prompt = await open_table(table, [alice], game="sampler")

    # 30 options: two select menus of 25 and 5.
    selects = prompt.selects()
    assert [len(s["options"]) for s in selects] == [25, 5] and prompt.buttons() == []
    ix = await fake.select(selects[1]["custom_id"], [selects[1]["options"][2]["value"]], prompt, user=alice)
    answer, prompt = await answered(fake, ix, 1)
    assert answer == "opt-27"

    # Choose one to three: one multi-select.
    (select,) = prompt.selects()
    assert (select["min_values"], select["max_values"]) == (1, 3)
    values = [o["value"] for o in select["options"] if o["label"] in ("green", "gold")]
    answer, prompt = await answered(fake, await fake.select(select["custom_id"], values, prompt, user=alice), 2)
    assert answer == "green,gold"

    # A small amount: one button per value, five to a row.
    assert [b["label"] for b in prompt.buttons()] == ["0", "1", "2", "3", "4", "5"]
    assert [len(r["components"]) for r in prompt.components] == [5, 1]
    answer, prompt = await answered(fake, await table.choose(prompt, "4"), 3)
    assert answer == "4"

    # A large amount: a form. A wrong entry is refused privately and the prompt stays.
    bad = await form(fake, prompt, "lots")
    refusal = await fake.expect_followup(bad)
    assert refusal.ephemeral and "number" in refusal.content
    answer, prompt = await answered(fake, await form(fake, prompt, "42"), 4)
    assert answer == "42"

    # An order: the numbered options are in the message, the form takes the numbers.
    assert "1. first" in prompt.content and "3. third" in prompt.content
    answer, prompt = await answered(fake, await form(fake, prompt, "3 1 2"), 5)
    assert answer == "third,first,second"

    # Yes / no.
    assert [(b["label"], b["style"]) for b in prompt.buttons()] == [("Yes", 3), ("No", 4)]
    answer, prompt = await answered(fake, await table.choose(prompt, "Yes"), 6)
    assert answer == "yes"

    # Option ids too long for a custom_id travel as the option's index.
    assert all(len(cid) <= 100 and LONG not in cid for cid in prompt.custom_ids())
    answer, prompt = await answered(fake, await table.choose(prompt, "Long B"), 7)
    assert answer == f"{LONG}-1"

    # Choose two of thirty: too many for one select, so a form with the numbered list.
    assert "30. Many 29" in prompt.content
    answer, _ = await answered(fake, await form(fake, prompt, "6, 8"), 8)
    assert answer == "many-05,many-07"
    assert table.prompt_messages() == []
