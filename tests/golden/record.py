"""Record the golden Elder Sign game again, on purpose (see tests/golden/README.md):

    python -m tests.golden.record

A complete two-player game (fixed seed, fixed Ancient One, a seeded random player for every decision; it
reaches the final battle and wins it) is
played through the GameService on a scratch SQLite file, exported in full as a moderator would
(`/gm export full:True`), and written here with what its replay reaches (`.expected.json`).
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.replay import replay
from bot.service import Actor, GameService
from bot.store import Store, migrate
from engine import api
from engine.agents import RandomAgent

HERE = Path(__file__).resolve().parent
NAME = "elder-sign-golden"
SEED = 119
AGENT_SEED = 7
OPTIONS = {"ancient_one": "shub-niggurath"}
PLAYERS = (Actor(user_id=101, name="alice"), Actor(user_id=102, name="bob"))
MODERATOR = Actor(user_id=900, name="mod", is_moderator=True)
CHANNEL, GUILD = 1, 1
MAX_ACTIONS = 5000


def expectation(doc: dict[str, Any]) -> dict[str, Any]:
    """What the export's replay reaches: checked by test_golden.py on every run."""
    result = replay(doc)
    summary = api.summary(result.state)
    return {"step": result.state.step, "result": result.state.result, "round": summary.round,
            "headline": summary.headline, "phases": result.phases}


async def play(db: Path) -> dict[str, Any]:
    url = f"sqlite+aiosqlite:///{db}"
    migrate.upgrade(url)
    store = Store(url)
    try:
        service = GameService(store, render=False)
        await service.new_game(CHANNEL, GUILD, PLAYERS[0], "elder-sign", dict(OPTIONS), seed=SEED)
        await service.join(CHANNEL, PLAYERS[1])
        await service.start(CHANNEL, PLAYERS[0])
        agent = RandomAgent(AGENT_SEED)
        by_seat = {0: PLAYERS[0], 1: PLAYERS[1]}
        for _ in range(MAX_ACTIONS):
            cards = await service.pending(CHANNEL)
            if not cards:
                break
            state, _, _, _ = await service.command_state(CHANNEL, "elder-sign", PLAYERS[0].user_id)
            action = agent.act(state, cards[0].prompt)
            await service.choose(CHANNEL, by_seat[action.seat], action.prompt, action.choice, action.amount,
                                 seat=action.seat)
        else:
            raise SystemExit(f"the game did not end within {MAX_ACTIONS} actions")
        reply = await service.gm_export(CHANNEL, MODERATOR, full=True)
        return dict(json.loads(reply.files[0].data))
    finally:
        await store.close()


def main() -> int:
    migrate_quietly()
    with tempfile.TemporaryDirectory() as scratch:
        doc = asyncio.run(play(Path(scratch) / "record.db"))
    (HERE / f"{NAME}.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    expected = expectation(doc)
    (HERE / f"{NAME}.expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")
    print(f"Recorded {NAME}: {expected['step']} steps, {expected['result']}, {expected['headline']}.")
    return 0


def migrate_quietly() -> None:
    import logging

    logging.getLogger("alembic").setLevel(logging.WARNING)


if __name__ == "__main__":
    sys.exit(main())
