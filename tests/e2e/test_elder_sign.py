"""A complete two-player game of Elder Sign through Discord: /game new to a win or a loss, played with
`/es` slash commands (moves, entrance actions) and with buttons and select menus (every other decision),
with a table image after every turn and a dice image after every roll."""

from __future__ import annotations

import pytest

from bot.components import CUSTOM_ID_MAX, OPTION_TEXT_MAX, button_id, option_token, select_id
from engine import api
from engine.agents import RandomAgent
from engine.core.prompt import PromptKind
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.fakediscord.interactions import FakeInteraction
from tests.e2e.harness import RunningBot, Table, prompt_ids

pytestmark = pytest.mark.e2e
SEED = 5


async def _state(running: RunningBot, game_id: int):  # noqa: ANN202
    snap = await running.bot.service.store.latest_snapshot(game_id)
    assert snap is not None
    return api.from_json(snap.state)


async def test_elder_sign_two_players_to_the_end(fake: FakeDiscord, table: Table, running: RunningBot) -> None:
    alice, bob = fake.alice, fake.bob
    offered = await fake.choices("game new", "investigator", "ada", user=alice, channel=table.channel,
                                 game="elder-sign")
    assert [c["value"] for c in offered] == ["ada-whitcombe"]
    opened = await table.command("game new", alice, game="elder-sign", options="ancient_one=dagon",
                                 investigator="ada-whitcombe")
    assert "Elder Sign" in opened.text()
    names = await fake.choices("game join", "investigator", "marg", user=bob, channel=table.channel)
    assert "margarethe-vogel" in [c["value"] for c in names]
    await table.command("game join", bob, investigator="margarethe-vogel")
    started = await table.command("game start", alice)
    assert len(started.images) == 1 and started.images[0].filename.endswith(".png")

    agent = RandomAgent(SEED)
    turns_ended = 0
    tables = dice = slash_moves = clicks = 0
    game_id, _ = prompt_ids(await table.current_prompt())
    first = await _state(running, game_id)
    assert [s.investigator.card for s in first.table] == ["es.inv.ada-whitcombe", "es.inv.margarethe-vogel"]
    for _ in range(3000):
        message = await table.current_prompt()
        game_id, seq = prompt_ids(message)
        state = await _state(running, game_id)
        # several seats may be asked at once (an attack's choice): each has its own message; answer this one
        prompt = next((p for p in api.prompts(state) if p.seq == seq), None)
        assert prompt is not None, "the message shows one of the game's pending prompts"
        action = agent.act(state, prompt)
        user = {0: alice, 1: bob}[action.seat]
        assert f"<@{user.id}>" in message.content  # the awaited player is mentioned
        op = state.flow.stack[-1].op
        if op == "move" and action.choice[0].startswith("go:"):
            if action.choice[0] != "go:entrance":  # autocomplete offers exactly the pending moves
                offered = await fake.choices("es move", "place", "", user=user, channel=table.channel)
                assert action.choice[0] in [c["value"] for c in offered]
            ix = await fake.slash("es move", user=user, channel=table.channel, place=action.choice[0])
            slash_moves += 1
        elif op == "entrance":
            ix = await fake.slash("es entrance", user=user, channel=table.channel, action=action.choice[0])
            slash_moves += 1
        elif prompt.kind is PromptKind.MANY:
            tokens = [option_token(prompt, [o.id for o in prompt.options].index(c), OPTION_TEXT_MAX)
                      for c in action.choice]
            ix = await fake.select(select_id(game_id, seq, 0), tokens, message, user=user)
            clicks += 1
        else:
            index = [o.id for o in prompt.options].index(action.choice[0])
            if len(prompt.options) <= 25:
                room = CUSTOM_ID_MAX - len(button_id(game_id, seq, ""))
                ix = await fake.click(button_id(game_id, seq, option_token(prompt, index, room)), message,
                                      user=user)
            else:
                token = option_token(prompt, index, OPTION_TEXT_MAX)
                ix = await fake.select(select_id(game_id, seq, index // 25), [token], message, user=user)
            clicks += 1
        await fake.expect_callback(ix, timeout=10)

        def moved_on(ix: FakeInteraction = ix, seq: int = seq) -> bool:
            # the bot posts narration and images first, then the next prompt; a refusal is private
            if any(m.ephemeral for m in [*ix.followups, *([ix.original] if ix.original else [])]):
                return True
            live = table.prompt_messages()
            return not live or prompt_ids(live[-1])[1] != seq

        await fake.wait_until(moved_on, "the bot to move on", timeout=20)
        await fake.settle(quiet=0.05)
        sent = [*ix.followups]
        if ix.original is not None:
            sent.append(ix.original)
        refused = [m.text() for m in sent if m.ephemeral]
        assert not refused, (op, action, refused)
        for m in sent:
            for image in m.images:
                if "dice-" in image.filename:
                    dice += 1
                else:
                    tables += 1
        new_state = await _state(running, game_id)
        if 1 <= state.turn_number < new_state.turn_number:  # type: ignore[attr-defined]
            turns_ended += 1
            assert any("dice-" not in i.filename for m in sent for i in m.images), (op, action)
        if new_state.over:
            break
    final = await _state(running, game_id)
    assert final.over and final.result in ("win", "loss")
    assert table.prompt_messages() == [], "no live prompt after the game ended"
    assert tables >= turns_ended > 0
    assert dice > 0 and slash_moves > 0 and clicks > 0, (dice, slash_moves, clicks)
    status = await table.command("game status", bob)
    assert "over" in status.text().lower() or final.result in status.text().lower()
