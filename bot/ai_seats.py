"""AI teammates: seats the bot plays with the game's smart agent (issue 32).

An AI seat is a seat row whose user id is negative: -1, -2 … within its game, so the seat table, the action log
and every query stay as they are (no migration), and no Discord id is ever negative. The seat's name is
"🤖 <investigator>", the way it shows everywhere.

The service answers an AI seat's prompt one decision at a time (`GameService.ai_step`), each a step committed
like a click, with the agent's reason in the narration and kept in the action row (`payload["why"]`, which the
engine's Action ignores) for `/game why`. `AiDriver` is what calls it: after any step of a channel's game, one
task per channel answers the AI seats' prompts in turn, waiting the server's pace between decisions, until the
game waits for a person (or is over). The front end shows each reply as it shows a click's.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from bot.service_types import Reply, UserError
from engine.agents import Agent, Reasoning, get_agent, reasoning
from engine.core.errors import IllegalAction
from engine.core.game import GameState
from engine.core.prompt import Action, Prompt, PromptKind

if TYPE_CHECKING:
    from bot.store.models import Seat

log = logging.getLogger(__name__)

AI_MARK = "🤖"
AI_AGENT = "smart"
#: the pace a server gets unless a moderator sets another (/gm settings ai_pace)
DEFAULT_PACE_MS = 1000
MAX_PACE_MS = 10_000
#: a busy database or a conflict: how long the driver waits before it asks again, and how often
RETRY_SECONDS = 2.0
RETRIES = 5
#: purchases an AI teammate makes between two scenarios at most (a campaign's experience buys far fewer)
MAX_PURCHASES = 40
#: characters of a chosen option's label in an AI decision's narration line
LABEL_MAX = 48


def is_ai(user_id: int | None) -> bool:
    return user_id is not None and user_id < 0


def ai_name(character_label: str) -> str:
    """ "🤖 Mae Colquitt" from a character's label ("Mae Colquitt, the scholar (5 health)")."""
    return f"{AI_MARK} {character_label.split(',')[0].split('(')[0].strip()}"


def next_ai_id(seats: Sequence[Seat]) -> int:
    """The first negative id no seat of the game uses yet."""
    return next_ai_id_of([s.user_id for s in seats])


def next_ai_id_of(user_ids: Iterable[int]) -> int:
    taken = set(user_ids)
    return next(i for i in range(-1, -len(taken) - 2, -1) if i not in taken)


def pick_character(options: Sequence[tuple[str, str]], taken: set[str | None], seed: int) -> tuple[str, str]:
    """A character for an AI seat nobody named one for: one not yet at the table, chosen by the game's seed (so a
    replayed lobby seats the same), or any when all are taken."""
    free = [o for o in options if o[0] not in taken] or list(options)
    return random.Random(seed).choice(free)


def agent_for(game_type: str, seed: int) -> Agent:
    """The game's smart agent (the random one where a game has none), with its own RNG from the game's seed."""
    try:
        return get_agent(game_type, AI_AGENT, seed)
    except ValueError:
        return get_agent(game_type, "random", seed)


def ai_answer(agent: Agent, state: GameState, prompt: Prompt, seat: int) -> tuple[Action, Reasoning | None]:
    """The agent's answer for `seat` (the prompt narrowed to that seat, so a shared question is answered for
    it alone), checked against the rules. An agent that fails or answers outside the rules never stalls the
    table: the prompt's default answers instead, else its first legal answer (no reason given then)."""
    asked = prompt if list(prompt.seats) == [seat] else prompt.model_copy(update={"seats": [seat]})
    try:
        action = agent.act(state, asked)
        if action.seat != seat or action.prompt != prompt.seq:
            raise IllegalAction("the agent answered another question")
        prompt.validate_action(action)
        return action, reasoning(agent)
    except Exception:
        log.exception("the AI of seat %s could not decide prompt %s; it takes the default", seat, prompt.seq)
    return fallback(prompt, seat), None


def fallback(prompt: Prompt, seat: int) -> Action:
    """The prompt's default (what a moderator's skip gives), else its first legal answer."""
    if prompt.kind is PromptKind.AMOUNT and prompt.default_amount is not None:
        return Action(seat=seat, prompt=prompt.seq, amount=prompt.default_amount)
    if prompt.kind is not PromptKind.AMOUNT and prompt.default is not None:
        return Action(seat=seat, prompt=prompt.seq, choice=list(prompt.default))
    return prompt.answers(seat, limit=1)[0]


def chosen_labels(prompt: Prompt, action: Action) -> str:
    """What the answer chose, as the players read the options ("Research", "Rome and Istanbul")."""
    labels = {o.id: o.label for o in prompt.options}
    names = [short_label(labels.get(c, "")) for c in action.choice or ()]
    text = ", ".join(n for n in names if n)
    if action.amount is not None:
        text = f"{text} ({action.amount})" if text else str(action.amount)
    return text


def short_label(label: str, limit: int = LABEL_MAX) -> str:
    """An option's label short enough for a narration line: a label that carries a card's whole text ("Lucky
    Penny: After you fail a test, …") keeps the name before its colon (or before its parenthesis, its dash);
    any other long label is cut at a word."""
    if len(label) <= limit:
        return label
    for mark in (": ", " (", " — "):
        head, found, _ = label.partition(mark)
        if found and 0 < len(head) <= limit:
            return head
    return label[: limit - 1].rsplit(" ", 1)[0] + "…"


def why_payload(reason: Reasoning | None, chosen: str, seat_name: str) -> dict[str, Any]:
    """What the action row keeps for /game why."""
    out: dict[str, Any] = {"seat": seat_name, "chose": chosen}
    if reason is not None:
        out["line"], out["detail"] = reason.line, list(reason.detail)
    return out


def narration(seat_name: str, chosen: str, reason: Reasoning | None) -> str | None:
    """The line the channel reads before an AI decision's events: only a decision with a reason gets one (the
    events already say what happened)."""
    if reason is None:
        return None
    return f"{seat_name}: {chosen} — {reason.line}" if chosen else f"{seat_name} — {reason.line}"


def why_lines(why: dict[str, Any], step: int) -> list[str]:
    """/game why: the last AI decision, its reason and what else it weighed."""
    head = f"{why.get('seat', AI_MARK)} chose {why['chose']}" if why.get("chose") else \
        f"{why.get('seat', AI_MARK)} answered"
    lines = [f"{head} (step {step})."]
    if why.get("line"):
        lines.append(f"Why: {why['line']}.")
        lines += [f"• {d}" for d in why.get("detail", [])]
    else:
        lines.append("It was a routine answer: nothing to weigh.")
    return lines


Show = Callable[[int, Reply], Awaitable[None]]
Pace = Callable[[int], Awaitable[float]]


class AiService(Protocol):
    """What the driver needs of GameService."""

    def awaits_ai(self, channel_id: int) -> bool: ...

    async def ai_step(self, channel_id: int) -> Reply | None: ...


class AiDriver:
    """Plays the AI seats of every channel: `poke(channel)` after any change of its game; one task per channel
    answers the AI seats' prompts, one decision at a time, `pace(channel)` seconds apart, showing each reply
    with `show`, until the game waits for a person. A person's click meanwhile is just another step: the next
    AI decision is taken from whatever the game then is."""

    def __init__(self, service: AiService, show: Show, pace: Pace) -> None:
        self.service, self.show, self.pace = service, show, pace
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._resuming: asyncio.Task[None] | None = None
        self._closing = False

    def resume(self, channels: Callable[[], Awaitable[list[int]]]) -> None:
        """After a start: poke every channel `channels()` names (the games a restart interrupted)."""
        async def run() -> None:
            for channel_id in await channels():
                self.poke(channel_id)
        if not self._closing:
            self._resuming = asyncio.create_task(run(), name="ai-seats-resume")

    def poke(self, channel_id: int) -> None:
        if self._closing:
            return
        task = self._tasks.get(channel_id)
        if task is not None and not task.done():
            self._again.add(channel_id)  # the running task looks again before it stops
            return
        self._tasks[channel_id] = asyncio.create_task(self._run(channel_id), name=f"ai-seats-{channel_id}")

    async def idle(self) -> None:
        """Wait until no channel has AI decisions in progress (tests, the console, shutdown)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def stop(self, timeout: float = 5.0) -> None:
        """Let each channel finish the decision it is taking (a step half-written to the database must not
        outlive the process's event loop), then stop; whatever takes longer than `timeout` is cancelled."""
        self._closing = True
        tasks = [t for t in [*self._tasks.values(), self._resuming] if t is not None and not t.done()]
        if not tasks:
            return
        _, late = await asyncio.wait(tasks, timeout=timeout)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)

    async def _run(self, channel_id: int) -> None:
        failures = 0
        while not self._closing:
            self._again.discard(channel_id)
            if not self.service.awaits_ai(channel_id):
                if channel_id in self._again:
                    continue
                return
            delay = await self.pace(channel_id)
            if delay > 0:
                await asyncio.sleep(delay)
            if self._closing:
                return
            try:
                reply = await self.service.ai_step(channel_id)
            except UserError as exc:  # busy: try again a little later; anything else is the log's
                failures += 1
                if failures > RETRIES:
                    log.warning("channel %s: AI seats gave up for now: %s", channel_id, exc)
                    return
                await asyncio.sleep(RETRY_SECONDS)
                continue
            except Exception:
                log.exception("channel %s: an AI decision failed", channel_id)
                return
            failures = 0
            if reply is None:
                return
            try:
                await self.show(channel_id, reply)
            except Exception:
                log.exception("channel %s: an AI decision could not be shown", channel_id)
