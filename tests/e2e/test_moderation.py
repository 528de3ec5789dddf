"""/gm: hidden from members without Manage Channels, refused at run time when an admin shows it to them
anyway, usable with Manage Channels or the configured moderator role, and written to the audit log."""

from __future__ import annotations

import pytest

from tests.e2e.fakediscord import ClientRefused, FakeDiscord, FakeMessage, FakeUser, snapshot
from tests.e2e.harness import Table, open_table, prompt_ids

pytestmark = pytest.mark.e2e

GM_CALLS: list[tuple[str, dict]] = [
    ("gm end", {}), ("gm undo", {}), ("gm kick", {"player": "bob"}),
    ("gm replace", {"player": "bob", "replacement": "erin"}),
    ("gm skip", {}), ("gm settings", {"reminder_hours": 6}), ("gm export", {}), ("gm audit", {}),
]


def _opts(fake: FakeDiscord, options: dict) -> dict:
    return {k: getattr(fake, v) if k in ("player", "replacement") else v for k, v in options.items()}


async def test_gm_group_is_declared_for_manage_channels(fake: FakeDiscord, table: Table) -> None:
    gm = fake.catalog.global_commands["gm"]
    assert int(gm["default_member_permissions"]) == 1 << 4  # MANAGE_CHANNELS
    assert fake.catalog.global_commands["game"]["default_member_permissions"] is None
    with pytest.raises(ClientRefused):
        await fake.slash("gm skip", user=fake.dave, channel=table.channel)  # Discord hides it from dave


async def test_every_gm_command_refused_without_rights(fake: FakeDiscord, table: Table) -> None:
    await open_table(table, [fake.alice, fake.bob])
    guild = fake.guild("Arkham")
    fake.allow_command(guild, "gm", role_ids={guild.id})  # an admin shows /gm to @everyone
    before = (await table.command("game status", fake.alice)).text()
    for path, options in GM_CALLS:
        text = await table.refused(path, fake.dave, **_opts(fake, options))
        assert "moderator" in text.lower() or "manage channels" in text.lower(), (path, text)
    assert (await table.command("game status", fake.alice)).text() == before
    audit = await table.command("gm audit", fake.morgan)
    assert "skip" not in audit.text().lower()


async def awaiting(table: Table, user: FakeUser) -> FakeMessage:
    """The live prompt message once it waits for `user`."""
    def found() -> FakeMessage | None:
        live = table.prompt_messages()
        return live[-1] if live and table.awaited(live[-1]) == [user] else None
    return await table.fake.wait_until(found, f"a prompt for {user.name}")


async def test_moderator_commands_work_and_are_audited(fake: FakeDiscord, table: Table) -> None:
    first = await open_table(table, [fake.alice, fake.bob])
    # Skip answers Alice's prompt with its default (take 1): the game moves to Bob. The moderator is answered
    # privately; the channel's turn message says what the moderator did, and is frozen.
    skipped = await table.command("gm skip", fake.morgan)
    assert skipped.ephemeral
    await fake.wait_until(lambda: not fake.messages[first.id].components, "the skipped prompt's buttons gone")
    assert "Moderator Morgan skipped Alice" in fake.messages[first.id].text()
    prompt = await awaiting(table, fake.bob)
    # Undo: the open turn message shows the undo; Alice is awaited again, so the turn continues in a new
    # message that mentions her (an edit would not ping) and carries her prompt (one live prompt per game).
    await table.command("gm undo", fake.morgan)
    again = await awaiting(table, fake.alice)
    assert "↩ Moderator Morgan undid 1 step." in fake.messages[prompt.id].text()
    assert again.id != prompt.id and fake.alice.id in again.pinged and not fake.messages[prompt.id].components
    assert len(table.prompt_messages()) == 1
    export = await table.command("gm export", fake.morgan)
    assert export.ephemeral and export.files, "the export is a file for the moderator"
    live = await table.current_prompt()
    await table.command("gm end", fake.morgan)
    # the ended game's last prompt message loses its buttons at once
    await fake.wait_until(lambda: not fake.messages[live.id].components, "the ended game's prompt withdrawn")
    assert "A moderator ended the game." in fake.messages[live.id].text()
    assert table.prompt_messages() == []
    audit = (await table.command("gm audit", fake.morgan)).text().lower()
    for word in ("skip", "undo", "export", "end"):
        assert word in audit


async def test_configured_moderator_role(fake: FakeDiscord, table: Table) -> None:
    await open_table(table, [fake.alice])
    guild = fake.guild("Arkham")
    keepers = guild.role("Keepers")
    fake.allow_command(guild, "gm", role_ids={keepers.id})  # admins let the Keepers see /gm …
    text = await table.refused("gm skip", fake.rowan)  # … but until the role is configured, rowan is refused
    assert "moderator" in text.lower()
    await table.command("gm settings", fake.morgan, mod_role=keepers)
    skipped = await table.command("gm skip", fake.rowan)
    assert skipped.ephemeral  # what the moderator did shows in the turn's message
    audit = (await table.command("gm audit", fake.rowan)).text().lower()
    assert "settings" in audit and "skip" in audit


async def test_replace_and_kick_hand_seats_over(fake: FakeDiscord, table: Table) -> None:
    prompt = await open_table(table, [fake.alice, fake.bob])
    replaced = await table.command("gm replace", fake.morgan, player=fake.bob, replacement=fake.erin)
    assert not replaced.ephemeral and "Erin" in replaced.text()
    await table.outcome(await table.choose(prompt, "Take 1"))
    prompt = await table.current_prompt()
    assert table.awaited(prompt) == [fake.erin], "Erin now plays Bob's seat"
    kicked = await table.command("gm kick", fake.morgan, player=fake.erin)
    assert not kicked.ephemeral
    await fake.settle()
    prompt = await table.current_prompt()
    assert table.awaited(prompt) == [fake.alice], "Alice inherits the kicked player's seat"
    text = await table.refused("gm kick", fake.morgan, player=fake.dave)
    assert "not seated" in text
    audit = (await table.command("gm audit", fake.morgan)).text()
    assert "replace" in audit and "kick" in audit


async def test_a_button_from_before_an_undo_cannot_answer_the_replayed_prompt(fake: FakeDiscord,
                                                                             table: Table) -> None:
    """After /gm undo the game hands out the undone prompts' numbers again; a button posted before the undo
    (seen by a client that never refreshed) is refused, even though its number matches the new prompt."""
    first = await open_table(table, [fake.alice, fake.bob])
    await table.outcome(await table.choose(first, "Take 1"))
    bobs = await table.current_prompt()
    old_bob = snapshot(bobs)
    await table.command("gm undo", fake.morgan)
    again = await awaiting(table, fake.alice)  # the turn's message now carries Alice's prompt again
    assert len(table.prompt_messages()) == 1
    await table.outcome(await table.choose(again, "Take 2"))
    new_bob = await table.current_prompt()
    assert prompt_ids(new_bob)[1] != prompt_ids(old_bob)[1]  # same engine number, another epoch
    stale = await fake.click(old_bob.button("Take 1"), old_bob, user=fake.bob)
    passed = await fake.expect_followup(stale)
    assert passed.ephemeral and passed.content == "This choice has passed."
    status = await table.command("game status", fake.alice)
    assert "8" in status.text()  # 10 - 2: the stale click changed nothing
