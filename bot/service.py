"""GameService: the ONE path by which anything (Discord cogs, the console, tests) reads or changes a game.

Every mutating call runs the same pipeline (DESIGN.md, "The bot contract"):

    per-channel asyncio.Lock → load (cache by game id + version) → authorize → engine.api.apply (a copy)
    → Store.commit_step (one transaction, optimistic version check) → Reply (narration, prompts)
    → render the table image in a worker thread when an event asks for it.

Nothing is reported as done before it is committed. A UserError means nothing changed; AppliedButFailed
means the change was committed and only what followed (a reply, a picture) failed.

Every command that changes something records its interaction id in the same transaction (Store.scope), so
a repeated interaction is a no-op for every command. Memory and disk stay bounded: the game cache drops
finished and idle games (LRU beyond `cache_size`), and a game keeps its latest snapshot plus keepers (the
start, phase ends at least `BOARD_SNAPSHOT_GAP` steps apart, every `snapshot_every` steps) within
`SNAPSHOT_WINDOW` steps; any other step is rebuilt by replaying the action log from the nearest earlier
snapshot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot import ai_seats, games
from bot.render import Size, plain, render_event, render_table
from bot.service_sections import SectionChange, SectionWriter
from bot.service_text import (
    chunk_lines,
    format_view,
    join_names,
    prompt_text,
    result_sentence,
    state_line,
)
from bot.service_types import Actor, AppliedButFailed, CommandStep, Image, PromptCard, Reply, TableView, UserError
from bot.store import (
    ACTIVE,
    ENDED,
    LOBBY,
    OVER,
    ActionRecord,
    ChannelBusy,
    DuplicateInteraction,
    Game,
    GuildSettings,
    Seat,
    SectionRecord,
    Store,
    StoreBusy,
    VersionConflict,
)
from bot.store.models import as_utc, utcnow
from bot.store.repo import CampaignWrite, seat_name
from engine import api
from engine.core.errors import IllegalAction, UnknownGame
from engine.core.events import Event
from engine.core.game import GameState, OptionSpec, SeatSpec
from engine.core.prompt import Action, Prompt, PromptKind
from engine.games import game_ids, get_game

__all__ = ["Actor", "AppliedButFailed", "GameService", "Image", "PromptCard", "Reply", "TableView", "UserError"]

log = logging.getLogger(__name__)

ALREADY_APPLIED = "That was already done (this click or command was applied once already)."
NO_GAME = "There is no game in this channel. Start one with /game new."
LOG_PAGE_SIZE = 20
AUDIT_PAGE_SIZE = 15
HISTORY_PAGE_SIZE = 10  # /game history
MAX_REMINDER_HOURS = 720  # 30 days; the /gm settings option allows the same range
CONFLICT_RETRIES = 3  # another process changed the game under us: reload and decide again
BUSY = "The game is busy right now; please try again."
PICTURE_FAILED = "(The picture of the table could not be drawn this time; the move itself was applied.)"
PAGE_MAX = 10_000  # /game log and /gm audit pages, in every front end
SNOWFLAKE_MAX = 2**63 - 1  # Discord ids are 64-bit; the database columns are signed BIGINT
FULL_EXPORT = "export-full"  # the audit command of an export with the seed; such a game is never undone
CACHE_SIZE = 512  # games kept in memory; the least recently used go first
CACHE_IDLE_SECONDS = 1800.0  # a game nobody touched for this long is dropped from memory
SNAPSHOT_EVERY = 20  # a kept snapshot at least every N steps (besides phase ends), so undo replays little
#: a step that ends a section with a board keeps its snapshot (the board of that step is then drawn without
#: replaying) only this many steps after the last one kept: in a game where nearly every step ends a section
#: (the card game), a snapshot every step was a fifth statement on half the clicks
BOARD_SNAPSHOT_GAP = 4
SNAPSHOT_WINDOW = 200  # kept snapshots older than this many steps go (an undo that deep replays from step 0)
INTERACTION_MEMORY = timedelta(days=1)  # Discord never redelivers an interaction that late
HOUSEKEEPING_SECONDS = 3600.0
PICTURE_CACHE = 32  # pictures drawn lately (a board, the dice), kept for the front end that shows them

#: bot/campaigns.py's hook: (a campaign's scenario game, its final state) -> the campaign's data with the scenario
#: folded in, written in the same transaction as the game's last step, and what the channel reads about it
CampaignFold = Callable[[Game, GameState], Awaitable[tuple[CampaignWrite | None, list[Event]]]]


@dataclass
class Loaded:
    """One game as the pipeline sees it. The cache shares `seats` and `state`: never mutate them, except a click
    that took the state for its own (`GameService._click_state`)."""

    game: Game
    seats: list[Seat]
    state: GameState | None  # None while in the lobby
    section: SectionRecord | None = None  # the latest channel section (bot/service_sections.py), once started
    changes: list[SectionChange] = field(default_factory=list)  # what the step just committed did to them
    added: list[Event] = field(default_factory=list)  # events the commit added to the step's (a campaign's fold)
    #: the prompts `state` waits for, computed once per step (`prompts()`) and shared by the cache's copies
    pending: list[Prompt] | None = field(default=None, repr=False)
    head: str | None = None  # `state` as JSON (as committed or read), when known: a copy of the state parses it
    kept_step: int | None = None  # the latest step this process kept a snapshot of (None: not known)
    #: the cache's entry only: `state` was handed to something that may still read it after the channel's lock
    #: is let go (a command's reader, a picture drawn outside a step), so the next click works on a copy
    shared: bool = False

    def prompts(self) -> list[Prompt]:
        """What the step waits for. Every part of one click reads it from here: the engine builds a step's
        prompts once, not in each helper."""
        if self.pending is None:
            self.pending = [] if self.state is None else api.prompts(self.state)
        return self.pending

    def working_state(self) -> GameState:
        """A private copy of `state`: parsed from its JSON, which is exact and costs less than copying the
        objects (engine.api.apply's default)."""
        assert self.state is not None
        if self.head is None:
            self.head = api.to_json(self.state)
        return api.from_json(self.head, self.state.game)

    def user_seats(self, user_id: int) -> list[int]:
        return [s.seat for s in self.seats if s.user_id == user_id]

    def user_of(self, seat: int) -> int | None:
        return self.seats[seat].user_id if 0 <= seat < len(self.seats) else None

    def seat_label(self, seat: int) -> str:
        return self.seats[seat].name if 0 <= seat < len(self.seats) else f"seat {seat + 1}"

    def users(self) -> list[int]:
        return list(dict.fromkeys(s.user_id for s in self.seats))

    def people(self) -> list[int]:
        """The users seated, AI seats left out."""
        return [u for u in self.users() if not ai_seats.is_ai(u)]

    def is_ai_seat(self, seat: int) -> bool:
        return ai_seats.is_ai(self.user_of(seat))


async def restore(store: Store, game_id: int, step: int, *, head: bool = True) -> tuple[GameState, str | None]:
    """The game's state at `step` as the database holds it: the stored state of that step (the game's head,
    or a kept snapshot), else the nearest earlier one with the log replayed on top. Also the state's JSON
    when it was read as it is (no replay on top). `head=False`: the game's row has no head (the caller read it).
    """
    base = await store.replay_base(game_id, step, head=head)
    if base is None:
        raise RuntimeError(f"game {game_id} has no snapshot at or before step {step}")
    base_step, text, payloads = base
    state = api.from_json(text)
    if base_step == step:
        return state, text
    for payload in payloads:
        state, _ = api.apply(state, Action.model_validate(payload), in_place=True)
    return state, None


async def latest_state(store: Store, game_id: int) -> GameState | None:
    """The game's latest committed state, read from the database past any service's memory (None in the
    lobby): what a restarted bot would load."""
    game = await store.get_game(game_id)
    if game is None or game.status == LOBBY:
        return None
    if game.head is not None:
        return api.from_json(game.head)
    return (await restore(store, game_id, game.state_step, head=False))[0]


def action_row(loaded: Loaded, actor: Actor, action: Action, kind: str) -> ActionRecord:
    """The log row of an action to commit; `Store.commit_step` numbers it (`seq`) inside the step's transaction."""
    assert loaded.game.id is not None
    return ActionRecord(game_id=loaded.game.id, actor_id=actor.user_id, seat=action.seat, kind=kind,
                        payload=action.model_dump(mode="json"), interaction_id=actor.interaction_id)


def in_range(name: str, value: int, low: int, high: int) -> int:
    """`value` if low <= value <= high, else a UserError naming the argument (every front end's numbers)."""
    if not low <= value <= high:
        raise UserError(f"{name} must be a whole number from {low:,} to {high:,}.")
    return value


class GameService:
    def __init__(self, store: Store, *, render: bool = True, clock: Callable[[], datetime] = utcnow,
                 cache_size: int = CACHE_SIZE, cache_idle_seconds: float = CACHE_IDLE_SECONDS,
                 snapshot_every: int = SNAPSHOT_EVERY, ticker: Callable[[], float] = time.monotonic,
                 step_images: bool = True) -> None:
        self.store = store
        self.render = render
        # Whether a step's reply carries its pictures (the console, tests). The Discord front end shows a
        # step by editing the turn's message first and asks for the pictures afterwards (`board_picture`,
        # `event_picture`), so a player sees the result of a click before any picture is drawn.
        self.step_images = step_images
        self._pictures_drawn: OrderedDict[tuple[Any, ...], Image | None] = OrderedDict()
        self.clock = clock
        self.cache_size, self.cache_idle_seconds = cache_size, cache_idle_seconds
        self.snapshot_every = max(1, snapshot_every)
        self._ticker = ticker
        # Least recently used first; `_last_used` holds each entry's ticker time.
        self._cache: OrderedDict[int, Loaded] = OrderedDict()
        self._last_used: dict[int, float] = {}
        self._open_in: dict[int, int] = {}  # channel id -> the id of its open game in `_cache`
        self._housekept_at: float | None = None
        # Weak: a channel's lock lives while some call holds or waits on it, and is then forgotten.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Set by bot/campaigns.py: a campaign's record follows its scenario game's end in the same transaction.
        self.campaign_fold: CampaignFold | None = None
        self._agents: dict[int, ai_seats.Agent] = {}  # game id -> the agent playing its AI seats

    # ================================================================ catalogue (autocomplete) ==============

    def games(self) -> list[tuple[str, str]]:
        """(id, name) of every game that loads. A game whose module is broken is logged and left out."""
        out: list[tuple[str, str]] = []
        for game_id in game_ids():
            try:
                out.append((game_id, get_game(game_id).name))
            except Exception:  # a half-written game must not take /game new down for the others
                log.exception("game %s failed to load", game_id)
        return out

    def characters(self, game: str) -> list[tuple[str, str]]:
        try:
            return [(o.id, o.label) for o in get_game(game).characters()]
        except UnknownGame:
            return []

    def option_specs(self, game: str) -> list[OptionSpec]:
        try:
            return get_game(game).option_specs()
        except UnknownGame:
            return []

    # ================================================================ the pipeline ==========================

    @asynccontextmanager
    async def _channel(self, channel_id: int) -> AsyncIterator[None]:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        async with lock:
            try:
                yield
            except (UserError, VersionConflict):
                raise
            except BaseException:
                self._forget_channel(channel_id)  # we no longer know what is true: reload next time
                raise

    def _forget_channel(self, channel_id: int) -> None:
        for gid in [gid for gid, c in self._cache.items() if c.game.channel_id == channel_id]:
            self._drop(gid)

    async def _mutate(self, channel_id: int, actor: Actor | None, work: Callable[[], Awaitable[Reply]]) -> Reply:
        """Run `work` under the channel lock, with idempotency, engine-error translation and conflict retry.

        The actor's interaction id is recorded with the first write (a repeat is a no-op for every command);
        a failure after that write raises AppliedButFailed, never an error that implies nothing changed.
        """
        async def checked(_memory: bool) -> Reply:
            return await work()

        return await self._mutate_step(channel_id, actor, checked, from_memory=False)

    async def _mutate_step(self, channel_id: int, actor: Actor | None, work: Callable[[bool], Awaitable[Reply]],
                           *, from_memory: bool) -> Reply:
        """`_mutate` for a command whose only write is a game step with its action row (a click).

        With `from_memory`, the first attempt reads nothing before it writes: `work(True)` may take the
        channel's game as this process last left it, and neither the game's row nor the interaction is read
        first. What that skips is still enforced by the step's own statements: the version bump fails if
        anybody else wrote the game since (VersionConflict: retried on fresh data), and the action row refuses
        an interaction already processed (DuplicateInteraction). A command refused on what memory says is
        decided again the ordinary way (the repeat check and the game read), so a refusal is never based on
        data another process may have changed, and a repeated interaction still answers as one.
        """
        async with self._channel(channel_id):
            await self._housekeeping()
            interaction = actor.interaction_id if actor is not None else None
            with self.store.scope(interaction) as scope:
                memory = from_memory
                attempts = CONFLICT_RETRIES + (1 if from_memory else 0)
                for _attempt in range(attempts):
                    if not memory and interaction is not None and await self.store.interaction_seen(interaction):
                        return Reply(ephemeral=[ALREADY_APPLIED])
                    try:
                        reply = await work(memory)
                    except DuplicateInteraction:
                        return Reply(ephemeral=[ALREADY_APPLIED])
                    except VersionConflict as exc:
                        if scope.committed:
                            raise AppliedButFailed("a later write of an applied command conflicted") from exc
                        # Another bot process wrote first. Forget what we knew and decide again on fresh data.
                        self._forget_channel(channel_id)
                        memory = False
                        continue
                    except Exception as exc:
                        if scope.committed:
                            raise AppliedButFailed("the command was applied, then failed") from exc
                        translated = self._user_error(exc)
                        if memory and (isinstance(exc, UserError) or translated is not exc):
                            memory = False  # refused on memory alone: check again on what the database holds
                            continue
                        if translated is exc:
                            raise
                        raise translated from exc
                    reply.applied = scope.committed
                    return reply
            raise UserError(BUSY)

    @staticmethod
    def _user_error(exc: Exception) -> Exception:
        """The sentence for an expected failure of a command that changed nothing (else `exc` itself)."""
        if isinstance(exc, IllegalAction | UnknownGame):
            return UserError(str(exc))
        if isinstance(exc, ChannelBusy):
            return UserError("This channel already has a game. Finish it first (or /game abandon).")
        if isinstance(exc, StoreBusy):
            return UserError(BUSY)
        return exc

    async def _housekeeping(self) -> None:
        """Now and then: forget interactions too old to be redelivered (bounded disk)."""
        now = self._ticker()
        if self._housekept_at is not None and now - self._housekept_at < HOUSEKEEPING_SECONDS:
            return
        self._housekept_at = now
        try:
            await self.store.prune_interactions(self.clock() - INTERACTION_MEMORY)
        except StoreBusy:
            self._housekept_at = None  # the database is busy: try again on the next command

    # ---- the game cache: bounded, least recently used first ------------------------------------------------

    def _drop(self, game_id: int) -> None:
        self._agents.pop(game_id, None)
        loaded = self._cache.pop(game_id, None)
        self._last_used.pop(game_id, None)
        if loaded is not None and self._open_in.get(loaded.game.channel_id) == game_id:
            del self._open_in[loaded.game.channel_id]

    def _touch(self, game_id: int) -> None:
        self._cache.move_to_end(game_id)
        self._last_used[game_id] = self._ticker()

    def _evict(self) -> None:
        now = self._ticker()
        while self._cache:
            oldest = next(iter(self._cache))
            idle = now - self._last_used.get(oldest, now)
            if len(self._cache) <= self.cache_size and idle <= self.cache_idle_seconds:
                break
            self._drop(oldest)

    async def _load_game(self, game: Game) -> Loaded:
        cached = self._cache.get(game.id or 0)
        if cached is not None and cached.game.version == game.version:
            self._touch(game.id or 0)
            return Loaded(game=game, seats=cached.seats, state=cached.state, section=cached.section,
                          pending=cached.prompts(), head=cached.head, kept_step=cached.kept_step)
        assert game.id is not None
        seats = await self.store.seats(game.id)
        if game.status == LOBBY:
            state, head = None, None
        elif game.head is not None:
            state, head = api.from_json(game.head), game.head  # the row just read carries its latest state
        else:
            state, head = await restore(self.store, game.id, game.state_step, head=False)
        section = None if game.status == LOBBY else await self.store.current_section(game.id)
        loaded = Loaded(game=game, seats=seats, state=state, section=section, head=head)
        self._remember(loaded)
        return loaded

    async def _restore(self, game_id: int, step: int) -> GameState:
        """The state at `step`: its snapshot, or the nearest earlier one with the log replayed on top."""
        return (await restore(self.store, game_id, step))[0]

    async def _open(self, channel_id: int, *, from_memory: bool = False) -> Loaded:
        """The channel's open game. `from_memory`: as this process last committed or read it, without reading
        the database, when it is in memory (see `_mutate_step` for what makes that safe)."""
        if from_memory:
            remembered = self._remembered_open(channel_id)
            if remembered is not None:
                return remembered
        game = await self.store.open_game(channel_id)
        if game is None:
            raise UserError(NO_GAME)
        return await self._load_game(game)

    async def _current(self, channel_id: int) -> Loaded:
        """The open game, else the channel's last one (read-only commands still work after the end)."""
        game = await self.store.current_game(channel_id)
        if game is None:
            raise UserError(NO_GAME)
        return await self._load_game(game)

    def _remembered_open(self, channel_id: int) -> Loaded | None:
        game_id = self._open_in.get(channel_id)
        cached = None if game_id is None else self._cache.get(game_id)
        if cached is None or cached.game.active_channel_id != channel_id:
            return None
        self._touch(cached.game.id or 0)
        # The game row is shared with the cache's entry: only a committed step changes it (`_commit`), and
        # that step's Loaded then replaces the entry.
        return Loaded(game=cached.game, seats=cached.seats, state=cached.state, section=cached.section,
                      pending=cached.prompts(), head=cached.head, kept_step=cached.kept_step)

    def _share(self, loaded: Loaded) -> GameState | None:
        """`loaded.state`, for a reader that may still hold it once the channel's lock is let go (a reader in a
        worker thread, a picture drawn outside a step): the cache's entry is marked, so the next click applies
        its step to a copy and never changes the state under that reader."""
        cached = self._cache.get(loaded.game.id or 0)
        if cached is not None and cached.state is loaded.state:
            cached.shared = True
        return loaded.state

    def _click_state(self, loaded: Loaded) -> GameState:
        """The state a click applies its step to, in place. The cache's own state when nothing else may hold
        it (no reader was handed it since its step was committed: `_share`): then the entry leaves the cache
        until the step is committed (`_commit` puts the new one back), so no other command reads a step that
        is not committed yet, and a step that fails half-way is never seen (the next command reads the
        database). Otherwise a private copy (`Loaded.working_state`)."""
        game_id = loaded.game.id or 0
        cached = self._cache.get(game_id)
        if cached is None or loaded.state is None or cached.state is not loaded.state or cached.shared:
            return loaded.working_state()
        del self._cache[game_id]
        self._last_used.pop(game_id, None)
        return loaded.state

    def _remember(self, loaded: Loaded) -> None:
        """Cache a game that is still open; a finished one is dropped (reads of it reload, rarely)."""
        game_id = loaded.game.id
        assert game_id is not None
        if loaded.game.status in (OVER, ENDED):
            self._drop(game_id)
            return
        self._cache[game_id] = loaded
        if loaded.game.active_channel_id is not None:
            self._open_in[loaded.game.active_channel_id] = game_id
        self._touch(game_id)
        self._evict()

    def _keeper(self, state: GameState, events: Sequence[Event], closing: bool, kept_step: int | None) -> bool:
        """Whether the snapshot of this step is kept once later steps exist (else only while it is the head):
        the start, every `snapshot_every` steps, a game's end, and a step that ends a section with a board, when
        the last snapshot kept is `BOARD_SNAPSHOT_GAP` steps back or more (or not known)."""
        if state.step == 0 or state.step % self.snapshot_every == 0 or closing:
            return True
        recent = kept_step is not None and 0 <= state.step - kept_step < BOARD_SNAPSHOT_GAP
        return not recent and any(e.render for e in events)

    async def _commit(
        self, loaded: Loaded, state: GameState | None, events: Sequence[Event], *,
        action: ActionRecord | None = None, new_status: str | None = None, result: str | None = None,
        write_state: bool = True, lead: Sequence[str] = (), campaign: CampaignWrite | None = None,
    ) -> Loaded:
        """Commit one step and return the game as it now is (the cache follows). `lead`: lines the channel
        shows before the step's events (who started the game, which moderator answered for whom). `campaign`:
        the game's campaign data to write with the step (a scenario's start); a step that ends a campaign's game
        by the rules writes its campaign's fold (`campaign_fold`)."""
        game = loaded.game
        assert game.id is not None
        if state is not None and state.over and game.status == ACTIVE and new_status is None:
            new_status, result = OVER, state.result
        fold = campaign
        added: list[Event] = []
        if new_status == OVER and state is not None and game.campaign_id is not None and self.campaign_fold:
            fold, added = await self.campaign_fold(game, state)
            events = [*events, *added]
        now = self.clock()
        step = state.step if state is not None else game.state_step
        still_open = (new_status or game.status) in (LOBBY, ACTIVE)
        writer = None
        pending = api.prompts(state) if state is not None and (new_status or game.status) != LOBBY else None
        if state is not None and (new_status or game.status) != LOBBY:
            writer = SectionWriter(game.id, loaded.section)
            for text in lead:
                writer.line(step, text)
            for event in events:
                writer.event(step, event)
            status_after = new_status or game.status
            over = result_sentence(result or game.result) if status_after in (OVER, ENDED) else None
            awaited = self._awaited(loaded, pending or []) if status_after == ACTIVE else []
            writer.finish(step, awaited, over_line=over)
        prompt_seq = state.prompt_seq if state is not None and still_open else None
        # a game that ends at a step whose state is in no row yet (no head, no snapshot) writes it all the same
        writing = state is not None and (write_state or game.head is None)
        keep = writing and state is not None and self._keeper(state, events, not still_open, loaded.kept_step)
        prune_below, keeps_start = None, True
        if new_status == ENDED:
            prune_below, keeps_start = step, False  # people ended it: no undo can reopen it, only the end matters
        elif keep and step > SNAPSHOT_WINDOW:
            prune_below = step - SNAPSHOT_WINDOW
        # The state is written only with a kept snapshot: at any other step the head is cleared and a restore
        # replays the log from the latest snapshot (never more than `snapshot_every` steps back)
        head = api.to_json(state) if keep and state is not None else None
        version = await self.store.commit_step(
            game.id, game.version, action, head,
            events, new_status, result, step=step, prompt_seq=prompt_seq, clear_head=writing and head is None,
            content_version=state.content_version if state is not None else None, now=now,
            keep_snapshot=keep, prune_snapshots_below=prune_below, prune_keeps_start=keeps_start,
            sections=writer.changed if writer is not None else (), campaign=fold, new_step=action is not None,
        )
        # Update our detached copy exactly as the UPDATE did, instead of re-reading it: a re-read could
        # already see a later version written by another process, which our cached state is not.
        game.version, game.state_step, game.updated_at = version, step, now
        if writing:
            game.head = head
        if game.prompt_seq != prompt_seq:
            game.waiting_since = now
        game.prompt_seq = prompt_seq
        if result is not None:
            game.result = result
        if new_status is not None:
            game.status = new_status
            if new_status in (OVER, ENDED):
                game.active_channel_id, game.ended_at = None, now
            elif game.started_at is None:
                game.started_at = now
        after = Loaded(game=game, seats=loaded.seats, state=state,
                       section=writer.latest_after() if writer is not None else loaded.section,
                       changes=writer.summary() if writer is not None else [], added=added, pending=pending,
                       head=head if writing else loaded.head,
                       kept_step=step if keep else loaded.kept_step)
        self._remember(after)
        return after

    @staticmethod
    def _awaited(loaded: Loaded, prompts: Sequence[Prompt]) -> list[int]:
        """The users `prompts` wait for (each once, whatever their number of seats)."""
        users = (loaded.user_of(seat) for p in prompts for seat in p.seats)
        return list(dict.fromkeys(u for u in users if u is not None and not ai_seats.is_ai(u)))

    async def _lobby_changed(self, loaded: Loaded) -> Loaded:
        """Reload after a seat change (the store bumped the version)."""
        assert loaded.game.id is not None
        self._drop(loaded.game.id)
        game = await self.store.get_game(loaded.game.id)
        assert game is not None
        return await self._load_game(game)

    # ================================================================ building replies ======================

    def _cards(self, loaded: Loaded) -> list[PromptCard]:
        if loaded.state is None or loaded.game.status != ACTIVE:
            return []
        assert loaded.game.id is not None
        cards = []
        for prompt in loaded.prompts():
            users = list(dict.fromkeys(u for u in (loaded.user_of(s) for s in prompt.seats)
                                       if u is not None and not ai_seats.is_ai(u)))
            if not users:
                continue  # an AI seat's question: it answers on its own (`ai_step`), nobody clicks it
            names = [loaded.seat_label(s) for s in prompt.seats]
            cards.append(PromptCard(game_id=loaded.game.id, prompt=prompt, user_ids=users,
                                    text=prompt_text(prompt, names), epoch=loaded.game.undo_epoch))
        return cards

    async def _image(self, loaded: Loaded, size: Size = "inline", *, in_step: bool = False) -> Image | None:
        """The board at the loaded step: "inline" is the channel's (laid out to be read where Discord shows
        it, about 550 px wide), "full" the detailed one a player asks for. `in_step`: drawn by the step's own
        reply, under the channel's lock (else the state is shared: its view is drawn in a worker thread)."""
        if loaded.state is None:
            return None
        assert loaded.game.id is not None
        key = ("board", size, loaded.game.id, loaded.state.step)
        if key in self._pictures_drawn:
            return self._pictures_drawn[key]
        if not in_step:
            self._share(loaded)
        view = api.view(loaded.state, None)  # a spectator's view: nothing hidden may reach the channel
        data = await asyncio.to_thread(render_table, loaded.game.game_type, view, size)
        suffix = "" if size == "inline" else f"-{size}"
        image = None if data is None else Image(
            filename=f"{loaded.game.game_type}-{loaded.game.id}-step{loaded.state.step}{suffix}.png", data=data)
        self._keep_picture(key, image)
        return image

    def _keep_picture(self, key: tuple[Any, ...], image: Image | None) -> None:
        self._pictures_drawn[key] = image
        self._pictures_drawn.move_to_end(key)
        while len(self._pictures_drawn) > PICTURE_CACHE:
            self._pictures_drawn.popitem(last=False)

    async def _step_reply(self, loaded: Loaded, events: Sequence[Event], actor: Actor | None,
                          lead: Sequence[str] = (), posted: frozenset[int] = frozenset()) -> Reply:
        """The reply to a step. `posted`: prompts that were already pending (several seats asked at once) and
        so already shown; only the new ones are listed.

        `public` is the step's narration as lines of text (the console prints it); `table` names the game
        whose channel sections changed, which the Discord front end shows by editing the turn's message.
        """
        mine = set(loaded.user_seats(actor.user_id)) if actor is not None else set()
        events = [*events, *loaded.added]
        public = list(lead) + [e.text for e in events if e.private_to is None]
        private = [e.text for e in events if e.private_to is not None and e.private_to in mine]
        closed = None
        if loaded.game.status in (OVER, ENDED):
            public.append(result_sentence(loaded.game.result))
            closed = loaded.game.id
        cards = [c for c in self._cards(loaded) if c.prompt.seq not in posted]
        reply = Reply(public=chunk_lines(public), ephemeral=chunk_lines(private), prompts=cards,
                      closed_game_id=closed, sections=list(loaded.changes))
        if loaded.changes:
            reply.table, reply.narrated = loaded.game.id, True
        if self.render and self.step_images:
            reply.images += await self._pictures(reply, self._event_images(loaded, events))
            if any(e.render for e in events):
                reply.images += await self._pictures(reply, self._table_images(loaded))
        return reply

    async def _table_images(self, loaded: Loaded) -> list[Image]:
        image = await self._image(loaded, in_step=True)
        return [] if image is None else [image]

    async def _pictures(self, reply: Reply, drawing: Awaitable[list[Image]]) -> list[Image]:
        """Pictures drawn after a commit: a failure costs the picture, never the (applied) move's reply."""
        try:
            return await drawing
        except Exception:
            log.exception("drawing a picture after a committed step failed")
            if PICTURE_FAILED not in reply.public:
                reply.public.append(PICTURE_FAILED)
            return []

    async def _event_images(self, loaded: Loaded, events: Sequence[Event]) -> list[Image]:
        """Pictures of single public events a game knows how to draw (e.g. a roll of the dice)."""
        game_type, step = loaded.game.game_type, loaded.game.state_step
        wanted = [(i, e) for i, e in enumerate(events) if e.private_to is None and e.data]
        if not wanted:
            return []

        view = api.view(loaded.state, None) if loaded.state is not None else None  # public: nothing hidden

        def draw() -> list[Image]:
            out = []
            for i, e in wanted:
                data = render_event(game_type, e.kind, e.data, view)
                if data is not None:
                    kind = e.kind.replace(".", "-")
                    out.append(Image(filename=f"{game_type}-{loaded.game.id}-step{step}-{i}-{kind}.png", data=data))
            return out

        return await asyncio.to_thread(draw)

    # ================================================================ the channel's sections ================

    async def table(self, channel_id: int, game_id: int) -> TableView | None:
        """What the channel must show of game `game_id`: the sections with changes not shown yet and the
        latest one, with the prompts pending now; read under the channel's lock, so the sections and the
        prompts are of the same step. None when the game is not (or no longer) this channel's."""
        async with self._channel(channel_id):
            game = await self.store.get_game(game_id)
            if game is None or game.channel_id != channel_id or game.status == LOBBY:
                return None
            loaded = await self._load_game(game)
            sections = await self.store.sections_to_show(game_id)
            return TableView(game_id=game_id, channel_id=channel_id, game_type=game.game_type,
                             epoch=game.undo_epoch, sections=sections, prompts=self._cards(loaded),
                             names={u: self._user_name(loaded, u) for u in loaded.users()},
                             state_line=self._state_line(loaded), thinking=self._thinking(loaded))

    def _thinking(self, loaded: Loaded) -> list[str]:
        """The AI seats the game waits for (their questions have no controls: they answer on their own)."""
        if loaded.game.status != ACTIVE:
            return []
        asked = (s for p in loaded.prompts() if self._ai_asked(loaded, p) for s in p.seats)
        return list(dict.fromkeys(loaded.seat_label(s) for s in asked))

    @staticmethod
    def _state_line(loaded: Loaded) -> str:
        """The game at a glance, in the words its bot manifest declares (empty outside play)."""
        if loaded.state is None or loaded.game.status != ACTIVE:
            return ""
        from bot.games.manifest import bot_games

        manifest = bot_games().get(loaded.game.game_type)
        round_word = manifest.stats.round_word if manifest is not None and manifest.stats else "round"
        phase_word = manifest.phase_word if manifest is not None else "phase"
        return state_line(api.summary(loaded.state), round_word=round_word, phase_word=phase_word)

    async def section_shown(self, section: SectionRecord, *, rev: int, message_ids: list[int],
                            board_message_id: int | None, ping_messages: list[list[Any]],
                            page_starts: list[int] | None = None) -> None:
        """The front end showed `section` up to `rev` in these messages."""
        assert section.id is not None
        await self.store.section_shown(section.id, rev, message_ids=message_ids,
                                       board_message_id=board_message_id, ping_messages=ping_messages,
                                       page_starts=page_starts)

    async def board_picture(self, channel_id: int, game_id: int, step: int) -> Image | None:
        """The board as it was at `step` (the end of a section), for the message that follows the section."""
        key = ("board", game_id, step)
        if key in self._pictures_drawn:
            return self._pictures_drawn[key]
        if not self.render:
            return None
        async with self._channel(channel_id):
            game = await self.store.get_game(game_id)
            if game is None or game.status == LOBBY:
                return None
            loaded = await self._load_game(game)
            # shared here, under the lock: a click after it lets go must not change what is drawn
            state = self._share(loaded) if loaded.state is not None and loaded.state.step == step else \
                await self._restore(game_id, step)
        return await self._image(Loaded(game=game, seats=loaded.seats, state=state))

    async def event_picture(self, channel_id: int, game_id: int, image: dict[str, Any]) -> Image | None:
        """The picture of a section's latest event the game can draw (the dice as they now lie), drawn with the
        table as it is now (a spectator's view). `image` is the section's record of its events with data."""
        events = sorted((dict(e, kind=kind) for kind, e in (image.get("events") or {}).items()),
                        key=lambda e: -int(e.get("n", 0)))
        loaded: Loaded | None = None
        for entry in events:
            key = ("event", game_id, entry.get("step"), entry.get("n"), entry["kind"])
            if key not in self._pictures_drawn:
                if not self.render:
                    return None
                if loaded is None:
                    async with self._channel(channel_id):
                        game = await self.store.get_game(game_id)
                        if game is None or game.status == LOBBY:
                            return None
                        loaded = await self._load_game(game)
                        self._share(loaded)  # its view is drawn after the lock
                view = api.view(loaded.state, None) if loaded.state is not None else None
                kind, data = str(entry["kind"]), dict(entry.get("data") or {})
                game_type = loaded.game.game_type
                png = await asyncio.to_thread(render_event, game_type, kind, data, view)
                self._keep_picture(key, None if png is None else Image(
                    filename=f"{game_type}-{game_id}-step{entry.get('step')}-{entry.get('n')}-"
                             f"{kind.replace('.', '-')}.png", data=png))
            if self._pictures_drawn[key] is not None:
                return self._pictures_drawn[key]
        return None

    async def latest_section(self, game_id: int) -> SectionRecord | None:
        return await self.store.current_section(game_id)

    async def add_ping_message(self, section: SectionRecord, message_id: int, user_ids: list[int], seq: int) -> None:
        """A reminder for prompt `seq` was posted for `section`; it is removed once the prompt is answered."""
        assert section.id is not None
        await self.store.add_ping_message(section.id, message_id, user_ids, seq)

    async def _sections_follow_seats(self, loaded: Loaded) -> Loaded:
        """Seats changed hands in play: the section's awaited users (and mentions) follow."""
        if loaded.state is None or loaded.game.status != ACTIVE or loaded.game.id is None:
            return loaded
        writer = SectionWriter(loaded.game.id, loaded.section)
        changed = writer.finish(loaded.state.step, self._awaited(loaded, loaded.prompts()))
        if changed:
            await self.store.save_sections(changed)
        loaded.section = writer.latest_after()
        loaded.changes = writer.summary()
        self._remember(loaded)
        return loaded

    # ================================================================ lobby =================================

    async def new_game(self, channel_id: int, guild_id: int, actor: Actor, game: str, options: dict[str, str],
                       *, seed: int | None = None, character: str | None = None) -> Reply:
        """Open a lobby in the channel; the creator takes the first seat (with `character`, if given)."""
        async def work() -> Reply:
            rules = get_game(game)
            if character is not None and character not in dict(self.characters(game)):
                known = ", ".join(dict(self.characters(game)))
                raise UserError(f"There is no character '{character}'. Choose one of: {known}.")
            enabled = (await self.store.guild_settings(guild_id)).enabled_games
            if enabled and game not in enabled:
                raise UserError(f"{rules.name} is not enabled on this server. Enabled: {', '.join(enabled)}.")
            checked = rules.validate_options(dict(options))
            row = await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, game_type=game, options=checked,
                seed=secrets.randbits(63) if seed is None else seed, created_by=actor.user_id,
                creator_name=actor.name, creator_character=character)
            loaded = await self._load_game(row)
            opts = ", ".join(f"{k}={v}" for k, v in checked.items())
            return Reply(public=[f"{actor.name} opened a game of {rules.name} (game #{row.id}"
                                 f"{'; ' + opts if opts else ''}). {self._seat_list(loaded)} "
                                 f"Join with /game join; start with /game start."])
        return await self._mutate(channel_id, actor, work)

    def _seat_list(self, loaded: Loaded) -> str:
        if not loaded.seats:
            return "No one is seated."
        labels = dict(self.characters(loaded.game.game_type))

        def seat(s: Seat) -> str:
            who = labels.get(s.character or "", s.character or "")
            who = who.split(",")[0].split("(")[0].strip()
            return f"{s.seat + 1}. {s.name}" + (f" ({who})" if who and who not in s.name else "")
        seats = "; ".join(seat(s) for s in loaded.seats)
        return f"Seats: {seats}."

    async def join(self, channel_id: int, actor: Actor, character: str | None = None, *, ai: bool = False,
                   replace: int | None = None) -> Reply:
        """Take a seat (again, for multi-handed play) in the lobby. `ai`: seat an AI teammate instead (anyone
        seated may, while the table is open). `replace`: take over AI seat number `replace` (1-based) while
        the game runs (or in the lobby)."""
        if replace is not None:
            return await self._take_over(channel_id, actor, replace)

        async def work() -> Reply:
            loaded = await self._open(channel_id)
            if loaded.game.status != LOBBY:
                if ai:
                    raise UserError("The game has already started; a moderator can hand a seat to an AI "
                                    "teammate with /gm replace bot:True.")
                raise UserError("The game has already started; a moderator can /gm replace a player, and "
                                "/game join replace:<seat> takes over an AI teammate.")
            if ai and not loaded.user_seats(actor.user_id):
                raise UserError("Only someone seated at the table can add an AI teammate; /game join first.")
            rules = get_game(loaded.game.game_type)
            if len(loaded.seats) >= rules.max_players:
                raise UserError(f"{rules.name} seats at most {rules.max_players}; the table is full.")
            chosen = character
            if chosen is not None:
                known = dict(self.characters(loaded.game.game_type))
                if chosen not in known:
                    raise UserError(f"There is no character '{chosen}'. Choose one of: {', '.join(known)}.")
                if any(s.character == chosen for s in loaded.seats):
                    raise UserError(f"{known[chosen]} is already at the table.")
            assert loaded.game.id is not None
            if ai:
                known_characters = self.characters(loaded.game.game_type)
                if chosen is None and known_characters:
                    chosen = ai_seats.pick_character(known_characters, {s.character for s in loaded.seats},
                                                     loaded.game.seed + len(loaded.seats))[0]
                label = dict(known_characters).get(chosen or "", "AI teammate")
                user_id, name = ai_seats.next_ai_id(loaded.seats), ai_seats.ai_name(label)
            else:
                user_id, name = actor.user_id, seat_name(actor.name, len(loaded.user_seats(actor.user_id)) + 1)
            await self.store.add_seat(loaded.game.id, loaded.game.version, user_id=user_id, name=name,
                                      character=chosen)
            loaded = await self._lobby_changed(loaded)
            said = f"{actor.name} seats an AI teammate, {name}." if ai else f"{name} joins the table."
            return Reply(public=[f"{said} {self._seat_list(loaded)}"])
        return await self._mutate(channel_id, actor, work)

    async def _take_over(self, channel_id: int, actor: Actor, number: int) -> Reply:
        """A person takes over an AI seat (1-based `number`): the game goes on from the same state, and the log
        keeps who played each step (the action rows' actors)."""
        async def work() -> Reply:
            loaded = await self._open(channel_id)
            seat = number - 1
            if not 0 <= seat < len(loaded.seats):
                raise UserError(f"There is no seat {number}. {self._seat_list(loaded)}")
            if not loaded.is_ai_seat(seat):
                raise UserError(f"Seat {number} is {loaded.seat_label(seat)}'s, not an AI teammate's.")
            assert loaded.game.id is not None
            old = loaded.seat_label(seat)
            name = seat_name(actor.name, len(loaded.user_seats(actor.user_id)) + 1)
            await self.store.hand_seats(loaded.game.id, loaded.game.version, [(seat, actor.user_id, name)])
            loaded = await self._sections_follow_seats(await self._lobby_changed(loaded))
            return self._seats_reply(loaded, f"{name} takes over seat {number} from {old}.")
        return await self._mutate(channel_id, actor, work)

    async def leave(self, channel_id: int, actor: Actor, *, ai_seat: int | None = None) -> Reply:
        """Give up your last seat, in the lobby only. `ai_seat` (1-based): remove that AI teammate instead (the
        table's creator or a moderator may)."""
        async def work() -> Reply:
            loaded = await self._open(channel_id)
            if loaded.game.status != LOBBY:
                if ai_seat is not None:
                    raise UserError("The game has started: a person can take the AI's seat with "
                                    "/game join replace:<seat>.")
                raise UserError("The game has started: you cannot leave now (try /game abandon).")
            if ai_seat is not None:
                return await self._remove_ai(loaded, actor, ai_seat)
            if not loaded.user_seats(actor.user_id):
                raise UserError("You are not seated at this table.")
            assert loaded.game.id is not None
            await self.store.remove_seats(loaded.game.id, loaded.game.version, actor.user_id, only_last=True)
            loaded = await self._lobby_changed(loaded)
            return Reply(public=[f"{actor.name} leaves a seat. {self._seat_list(loaded)}"])
        return await self._mutate(channel_id, actor, work)

    async def _remove_ai(self, loaded: Loaded, actor: Actor, number: int) -> Reply:
        seat = number - 1
        if not 0 <= seat < len(loaded.seats) or not loaded.is_ai_seat(seat):
            raise UserError(f"Seat {number} is not an AI teammate. {self._seat_list(loaded)}")
        if actor.user_id != loaded.game.created_by and not actor.is_moderator:
            raise UserError("Only the table's creator or a moderator can remove an AI teammate.")
        assert loaded.game.id is not None
        name = loaded.seat_label(seat)
        await self.store.remove_seats(loaded.game.id, loaded.game.version, loaded.seats[seat].user_id,
                                      only_last=True)
        loaded = await self._lobby_changed(loaded)
        return Reply(public=[f"{actor.name} removes the AI teammate {name}. {self._seat_list(loaded)}"])

    async def start(self, channel_id: int, actor: Actor) -> Reply:
        async def work() -> Reply:
            loaded = await self._open(channel_id)
            if loaded.game.status != LOBBY:
                raise UserError("The game has already started.")
            if not loaded.user_seats(actor.user_id):
                raise UserError("Only someone seated at the table can start the game; /game join first.")
            game = loaded.game
            specs = [SeatSpec(seat=s.seat, name=s.name, character=s.character) for s in loaded.seats]
            state, events = api.new_game(game.game_type, specs, game.options, game.seed)
            name = get_game(game.game_type).name
            lead = [f"{name} begins with {join_names([s.name for s in loaded.seats])}."]
            loaded = await self._commit(loaded, state, events, new_status=ACTIVE, lead=lead)
            return await self._step_reply(loaded, events, actor, lead)
        return await self._mutate(channel_id, actor, work)

    async def abandon(self, channel_id: int, actor: Actor) -> Reply:
        """Vote to abandon; the game ends once every seated user has asked."""
        async def work() -> Reply:
            loaded = await self._open(channel_id)
            users = loaded.people()  # AI teammates have no vote
            if users and actor.user_id not in users:
                raise UserError("Only players seated at this table can vote to abandon it.")
            votes = list(dict.fromkeys([*loaded.game.abandon_votes, actor.user_id]))
            missing = [u for u in users if u not in votes]
            assert loaded.game.id is not None
            if missing:
                await self.store.set_abandon_votes(loaded.game.id, loaded.game.version, votes)
                await self._lobby_changed(loaded)
                waiting = join_names([self._user_name(loaded, u) for u in missing])
                return Reply(public=[f"{actor.name} votes to abandon the game "
                                     f"({len(users) - len(missing)}/{len(users)}). Waiting for: {waiting}."])
            event = Event(kind="game.abandoned", text="Every player agreed to abandon the game.")
            loaded = await self._commit(loaded, loaded.state, [event], new_status=ENDED, result="abandoned",
                                        write_state=False)
            return await self._step_reply(loaded, [event], actor)
        return await self._mutate(channel_id, actor, work)

    # ================================================================ campaigns (bot/campaigns.py) ==========

    async def exclusive(self, channel_id: int, actor: Actor | None, work: Callable[[], Awaitable[Reply]]) -> Reply:
        """Run a campaign command through this pipeline: the channel's lock (one with its games), the
        interaction's idempotency, engine refusals as sentences, retries on a version conflict."""
        return await self._mutate(channel_id, actor, work)

    async def open_campaign_game(self, *, channel_id: int, guild_id: int, actor: Actor, game_type: str,
                                 campaign_id: int, seed: int, seats: Sequence[tuple[int, str, str | None]],
                                 state: GameState, events: list[Event], lead: Sequence[str],
                                 campaign: Callable[[int], CampaignWrite]) -> tuple[int, Reply]:
        """Inside `exclusive`: open a game of campaign `campaign_id` with `seats` ((user id, name, character)
        in the game's seat order) and start it at once from `state`, the scenario its campaign's record set up
        (a campaign's game is not made by `api.new_game`); `campaign(game id)` is the campaign's data written in
        the same transaction as the start. Returns the game's id and the start's reply.

        A lobby game of the same campaign left in the channel (a start cut short by a crash between opening the
        game and starting it) is started instead, if it seats the same players."""
        wanted = [(user, name) for user, name, _ in seats]
        row = await self.store.open_game(channel_id)
        # (Its seed is this one: a campaign's game seeds follow from the campaign's, by the count of its games.)
        left_over = row is not None and row.campaign_id == campaign_id and row.status == LOBBY and \
            row.id is not None and [(s.user_id, s.name) for s in await self.store.seats(row.id)] == wanted
        if row is None or not left_over:
            (first_user, first_name, first_character), *others = seats
            options = {k: v for k, v in state.options.items() if isinstance(v, str | int | bool)}
            row = await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, game_type=game_type, seed=seed, options=options,
                created_by=first_user, creator_name=first_name, creator_character=first_character,
                campaign_id=campaign_id, more_seats=others)
        assert row.id is not None
        loaded = await self._commit(await self._load_game(row), state, events, new_status=ACTIVE, lead=lead,
                                    campaign=campaign(row.id))
        return row.id, await self._step_reply(loaded, events, actor, lead)

    async def game_state(self, game: Game) -> GameState | None:
        """A game's latest state (None in the lobby), through the cache. The caller may keep it: no click
        changes it afterwards."""
        return self._share(await self._load_game(game))

    @staticmethod
    def _user_name(loaded: Loaded, user_id: int) -> str:
        for s in loaded.seats:
            if s.user_id == user_id:
                return s.name
        return str(user_id)

    # ================================================================ play ==================================

    async def choose(self, channel_id: int, actor: Actor, prompt_seq: int, choice: list[str],
                     amount: int | None = None, seat: int | None = None, *, game_id: int | None = None,
                     epoch: int | None = None) -> Reply:
        """Answer prompt `prompt_seq`, as a button click does.

        `seat` picks which of your seats answers (default: the first of yours that is asked); `game_id` and
        `epoch`, when the front end knows them (a button carries both), refuse a click on an earlier game's
        prompt, or on a prompt posted before a moderator's undo.
        """
        async def work(from_memory: bool) -> Reply:
            loaded = await self._open(channel_id, from_memory=from_memory)
            if game_id is not None and game_id != loaded.game.id:
                raise UserError("This choice has passed.")
            if epoch is not None and epoch != loaded.game.undo_epoch:
                raise UserError("This choice has passed.")
            self._playing(loaded)
            prompt = next((p for p in loaded.prompts() if p.seq == prompt_seq), None)
            if prompt is None:
                raise UserError("This choice has passed.")
            answering = self._answering_seat(loaded, prompt, actor, seat)
            action = Action(seat=answering, prompt=prompt_seq, choice=list(choice), amount=amount)
            posted = frozenset(p.seq for p in loaded.prompts() if p.seq != prompt_seq)
            # the prompt was built from this very step, so the engine need not rebuild it
            new_state, events = api.apply(self._click_state(loaded), action, in_place=True, prompt=prompt)
            row = action_row(loaded, actor, action, "play")
            loaded = await self._commit(loaded, new_state, events, action=row)
            return await self._step_reply(loaded, events, actor, posted=posted)
        return await self._mutate_step(channel_id, actor, work, from_memory=True)

    @staticmethod
    def _playing(loaded: Loaded) -> GameState:
        if loaded.game.status == LOBBY or loaded.state is None:
            raise UserError("The game has not started yet: /game start.")
        if loaded.game.status != ACTIVE or loaded.state.over:
            raise UserError("This game is over.")
        return loaded.state

    @staticmethod
    def _answering_seat(loaded: Loaded, prompt: Prompt, actor: Actor, seat: int | None) -> int:
        """Which of the actor's seats answers: a user holding several seats answers for whichever is asked."""
        mine = [s for s in prompt.seats if loaded.user_of(s) == actor.user_id]
        if seat is not None:
            if seat not in mine:
                raise UserError(f"Seat {seat + 1} is not yours to answer for here.")
            return seat
        if not mine:
            waiting = join_names([loaded.seat_label(s) for s in prompt.seats])
            raise UserError(f"This decision is not yours: waiting for {waiting}.")
        return mine[0]

    # ================================================================ AI teammates (bot/ai_seats.py) =======

    def awaits_ai(self, channel_id: int) -> bool:
        """Whether the channel's game may be waiting for an AI seat, from memory (True when it is not in memory:
        `ai_step` then reads the database and decides)."""
        loaded = self._remembered_open(channel_id)
        if loaded is None:
            return True
        if loaded.game.status != ACTIVE or loaded.state is None or loaded.state.over:
            return False
        return any(self._ai_asked(loaded, p) for p in loaded.prompts())

    @staticmethod
    def _ai_asked(loaded: Loaded, prompt: Prompt) -> bool:
        """A question only AI seats are asked. One a person is asked too (a group's choice of who goes next)
        is theirs to answer: the AI never decides over a person's head."""
        return all(loaded.is_ai_seat(s) for s in prompt.seats)

    async def ai_step(self, channel_id: int) -> Reply | None:
        """One decision of an AI seat the channel's game waits for, committed as a step of its own with the
        agent's reason in the narration and in its action row (None: the game waits for no AI seat). The agent
        thinks in a worker thread, on a copy of the state: other channels go on meanwhile."""
        async def work(from_memory: bool) -> Reply:
            loaded = self._remembered_open(channel_id) if from_memory else None
            if loaded is None:
                game = await self.store.open_game(channel_id)
                if game is None:
                    return Reply()  # over, or ended by a moderator meanwhile
                loaded = await self._load_game(game)
            if loaded.game.status != ACTIVE or loaded.state is None or loaded.state.over:
                return Reply()
            prompt = next((p for p in loaded.prompts() if self._ai_asked(loaded, p)), None)
            if prompt is None:
                return Reply()
            seat = prompt.seats[0]
            agent = self._agent(loaded)
            state = loaded.working_state()
            action, reason = await asyncio.to_thread(ai_seats.ai_answer, agent, state, prompt, seat)
            posted = frozenset(p.seq for p in loaded.prompts() if p.seq != prompt.seq)
            new_state, events = api.apply(self._click_state(loaded), action, in_place=True, prompt=prompt)
            name = loaded.seat_label(seat)
            chosen = ai_seats.chosen_labels(prompt, action)
            ai_actor = Actor(user_id=loaded.seats[seat].user_id, name=name)
            row = action_row(loaded, ai_actor, action, "ai")
            row.payload = {**row.payload, "why": ai_seats.why_payload(reason, chosen, name)}
            said = ai_seats.narration(name, chosen, reason)
            lead = [said] if said else []
            loaded = await self._commit(loaded, new_state, events, action=row, lead=lead)
            return await self._step_reply(loaded, events, None, lead, posted=posted)

        reply = await self._mutate_step(channel_id, None, work, from_memory=True)
        return reply if reply.applied else None

    def _agent(self, loaded: Loaded) -> ai_seats.Agent:
        """The game's agent, kept while the game is in memory (an agent remembers a little between decisions,
        such as the monster it went after); a new one after a restart decides from the state alone."""
        assert loaded.game.id is not None
        agent = self._agents.get(loaded.game.id)
        if agent is None:
            agent = self._agents[loaded.game.id] = ai_seats.agent_for(loaded.game.game_type, loaded.game.seed)
        return agent

    async def why(self, channel_id: int, actor: Actor) -> Reply:
        """The last AI decision of the channel's game, its reason and what else it weighed (privately)."""
        loaded = await self._current(channel_id)
        assert loaded.game.id is not None
        row = await self.store.last_action(loaded.game.id, kind="ai")
        if row is None or "why" not in row.payload:
            if not any(loaded.is_ai_seat(s.seat) for s in loaded.seats):
                raise UserError("This table has no AI teammate. /game join bot:True seats one.")
            return Reply(ephemeral=["No AI teammate has decided anything yet in this game."])
        return Reply(ephemeral=chunk_lines(ai_seats.why_lines(row.payload["why"], row.seq)))

    async def game_command(self, channel_id: int, actor: Actor, group: str, name: str,
                           args: dict[str, str]) -> Reply:
        """A game's own commands (`/es roll ...`), routed to bot.games (which answers prompts via `choose`)."""
        from bot.games import game_command  # late: it imports the games' content, which this module need not

        return await game_command(self, channel_id, actor, group, name, args)

    # ================================================================ reading ===============================

    async def command_state(self, channel_id: int, game_type: str,
                            user_id: int) -> tuple[GameState, list[int], int, int]:
        """For a game's own commands: the channel's game state (through the cache), the user's seats, and the
        game id and undo count an answer must carry (as a button does)."""
        step = await self.command_step(channel_id, game_type, user_id)
        return step.state, step.seats, step.game_id, step.epoch

    async def command_step(self, channel_id: int, game_type: str | None, user_id: int) -> CommandStep:
        """`command_state` with the step's pending prompts, as the service already holds them (`game_type`
        None: whichever game the channel has)."""
        loaded = await self._current(channel_id)
        if game_type is not None and loaded.game.game_type != game_type:
            raise UserError(f"This channel's game is {loaded.game.game_type}, not {game_type}.")
        if loaded.state is None:
            raise UserError("The game has not started yet: /game start.")
        assert loaded.game.id is not None
        state = self._share(loaded)  # a game's commands read it in worker threads
        assert state is not None
        return CommandStep(state=state, prompts=loaded.prompts(), seats=loaded.user_seats(user_id),
                           game_id=loaded.game.id, epoch=loaded.game.undo_epoch)

    async def pending(self, channel_id: int) -> list[PromptCard]:
        """The prompts the channel's game waits for now (empty when there is none)."""
        game = await self.store.open_game(channel_id)
        return [] if game is None else self._cards(await self._load_game(game))

    def remembered_prompts(self, channel_id: int, game_id: int) -> tuple[int, list[Prompt]] | None:
        """The undo count and the pending prompts of the channel's game `game_id` from memory alone (none once it
        is over); None when the game is not in memory. For a front end that must answer before it may read the
        database (an answer form opens at once)."""
        loaded = self._cache.get(game_id)
        if loaded is None or loaded.game.channel_id != channel_id:
            return None
        return loaded.game.undo_epoch, loaded.prompts() if loaded.game.status == ACTIVE else []

    async def pending_prompt(self, channel_id: int, game_id: int, seq: int,
                             epoch: int | None = None) -> Prompt | None:
        """The prompt `seq` of game `game_id` if the channel's game still waits for it, else None. With
        `epoch` (from a button), a prompt posted before a later undo no longer counts."""
        return next((c.prompt for c in await self.pending(channel_id)
                     if c.game_id == game_id and c.prompt.seq == seq and epoch in (None, c.epoch)), None)

    async def channel_game(self, channel_id: int) -> str | None:
        """The game type of the channel's open game (for autocomplete), or None."""
        game = await self.store.open_game(channel_id)
        return None if game is None else game.game_type

    async def mod_role_id(self, guild_id: int) -> int | None:
        """The guild's configured moderator role, if any (Manage Channels always counts too)."""
        return (await self.store.guild_settings(guild_id)).mod_role_id

    async def status(self, channel_id: int, actor: Actor) -> Reply:
        loaded = await self._current(channel_id)
        game = loaded.game
        name = get_game(game.game_type).name
        if game.status == LOBBY:
            return Reply(ephemeral=[f"{name} (game #{game.id}) is in the lobby. {self._seat_list(loaded)} "
                                    f"/game join to sit down, /game start to begin."])
        assert loaded.state is not None
        summary = api.summary(loaded.state)
        if game.status == ACTIVE:
            lines = [f"**{self._state_line(loaded)}**", f"{name} (game #{game.id}): {summary.headline}."]
        else:
            lines = [f"{name} (game #{game.id}) is over: {summary.headline}."]
        if game.status == ACTIVE:
            waiting = join_names([loaded.seat_label(s) for s in summary.waiting_for])
            lines.append(f"Waiting for: {waiting}.")
        else:
            lines.append(result_sentence(game.result))
        # The turn's message is shown again if it was lost (deleted, or the bot died before showing the last
        # step): `refresh` has the front end check it; a finished game's message is frozen the same way.
        closed = game.id if game.status in (OVER, ENDED) else None
        # Privately: the table is in the channel already, and its live message carries the same state line.
        return Reply(ephemeral=chunk_lines(lines), prompts=self._cards(loaded), closed_game_id=closed,
                     table=game.id, refresh=True)

    async def board(self, channel_id: int, actor: Actor) -> Reply:
        loaded = await self._current(channel_id)
        if loaded.state is None:
            raise UserError("The game has not started yet: there is no board to show.")
        image = await self._image(loaded, "full")
        if image is None:
            raise UserError("This game has no board picture.")
        # Privately: the channel has the board laid out to be read at a glance; this one holds every detail.
        return Reply(ephemeral=["The full board, with every detail (open it to read it at full size)."],
                     files=[image])

    async def log(self, channel_id: int, actor: Actor, page: int = 1) -> Reply:
        """The narrated events, newest page first; another seat's private events stay hidden."""
        in_range("page", page, 1, PAGE_MAX)
        loaded = await self._current(channel_id)
        assert loaded.game.id is not None
        rows, pages = await self.store.events(loaded.game.id, page=page, per_page=LOG_PAGE_SIZE,
                                              visible_to=loaded.user_seats(actor.user_id))
        if page > pages or page < 1:
            raise UserError(f"The log has {pages} page{'s' if pages != 1 else ''}.")
        if not rows:
            return Reply(ephemeral=["Nothing has happened yet."])
        lines = [f"Game #{loaded.game.id} log, page {page}/{pages} (page 1 is the latest):"]
        lines += [("🔒 " if r.private_to is not None else "• ") + r.text for r in rows]
        return Reply(ephemeral=chunk_lines(lines))

    async def me(self, channel_id: int, actor: Actor) -> Reply:
        """What only you may see, for each of your seats."""
        loaded = await self._current(channel_id)
        mine = loaded.user_seats(actor.user_id)
        if not mine:
            raise UserError("You are not seated at this table.")
        if loaded.state is None:
            names = "; ".join(loaded.seat_label(s) for s in mine)
            return Reply(ephemeral=[f"You hold {len(mine)} seat{'s' if len(mine) != 1 else ''}: {names}. "
                                    f"The game has not started yet."])
        messages: list[str] = []
        for s in mine:
            seat_row = loaded.seats[s]
            head = f"{seat_row.name} (seat {s + 1}" + (f", {seat_row.character})" if seat_row.character else ")")
            view = api.view(loaded.state, s)
            lines = games.seat_text(loaded.game.game_type, view, s) or format_view(plain(view))
            messages += chunk_lines([head, *lines])
        cards = [c for c in self._cards(loaded) if actor.user_id in c.user_ids]
        return Reply(ephemeral=messages, prompts=cards)

    async def due_reminders(self, now: datetime) -> list[tuple[int, PromptCard]]:
        """Prompts idle longer than their guild's reminder_hours and not yet reminded; marks them reminded."""
        now = as_utc(now)
        hours_by_guild: dict[int, int] = {}
        due: list[tuple[int, PromptCard]] = []
        for game in await self.store.reminder_candidates(now - timedelta(hours=1)):
            if game.guild_id not in hours_by_guild:
                hours_by_guild[game.guild_id] = (await self.store.guild_settings(game.guild_id)).reminder_hours
            hours = hours_by_guild[game.guild_id]
            if hours <= 0 or game.waiting_since is None or game.waiting_since > now - timedelta(hours=hours):
                continue
            assert game.id is not None and game.prompt_seq is not None
            cards = self._cards(await self._load_game(game))
            # The conditional UPDATE is the claim: two bot processes never both remind the same prompt.
            if cards and await self.store.mark_reminded(game.id, game.prompt_seq):
                due += [(game.channel_id, card) for card in cards]
        return due

    # ================================================================ moderators ============================

    @staticmethod
    def _require_mod(actor: Actor) -> None:
        if not actor.is_moderator:
            raise UserError("Only moderators can use /gm commands.")

    async def _audit(self, loaded: Loaded, actor: Actor, command: str, detail: dict[str, Any]) -> None:
        await self.store.add_audit(guild_id=loaded.game.guild_id, channel_id=loaded.game.channel_id,
                                   moderator_id=actor.user_id, command=command, detail=detail,
                                   game_id=loaded.game.id)

    async def gm_end(self, channel_id: int, actor: Actor) -> Reply:
        self._require_mod(actor)

        async def work() -> Reply:
            loaded = await self._open(channel_id)
            event = Event(kind="game.ended", text=f"Moderator {actor.name} ended the game.")
            loaded = await self._commit(loaded, loaded.state, [event], new_status=ENDED, result="ended",
                                        write_state=False)
            await self._audit(loaded, actor, "end", {})
            return await self._step_reply(loaded, [event], actor)
        return await self._mutate(channel_id, actor, work)

    async def gm_undo(self, channel_id: int, actor: Actor, steps: int = 1) -> Reply:
        """Go back `steps` actions to the exact earlier state (a finished game is reopened)."""
        self._require_mod(actor)

        async def work() -> Reply:
            loaded = await self._current(channel_id)
            if loaded.game.status not in (ACTIVE, OVER) or loaded.state is None:
                raise UserError("Only a game in play (or just finished by the rules) can be undone.")
            if steps < 1:
                raise UserError("Undo at least 1 step.")
            target = loaded.state.step - steps
            if target < 0:
                raise UserError(f"Cannot undo past the start of the game: {loaded.state.step} step"
                                f"{'s' if loaded.state.step != 1 else ''} played so far.")
            game = loaded.game
            assert game.id is not None
            if await self.store.audited(game.id, FULL_EXPORT):
                raise UserError("This game's full record (with its seed) was exported, so it can no longer be "
                                "undone: whoever read it would know what comes next.")
            state = await self._restore(game.id, target)
            event = Event(kind="gm.undo", text=f"Moderator {actor.name} undid {steps} step"
                                               f"{'s' if steps != 1 else ''}.")
            reopen = game.status == OVER
            now = self.clock()
            writer = SectionWriter(game.id, loaded.section)
            writer.undo(target, event.text)
            pending = api.prompts(state)
            writer.finish(target, self._awaited(loaded, pending))
            head = api.to_json(state)
            version = await self.store.truncate_after(
                game.id, game.version, target, state_json=head, events=[event],
                new_status=ACTIVE if reopen else None, prompt_seq=state.prompt_seq, now=now,
                sections=writer.changed)
            game.version, game.state_step, game.prompt_seq, game.head = version, target, state.prompt_seq, head
            game.undo_epoch += 1
            game.waiting_since, game.reminded_seq = now, None
            if reopen:
                game.status, game.result, game.active_channel_id, game.ended_at = ACTIVE, None, channel_id, None
            loaded = Loaded(game=game, seats=loaded.seats, state=state, section=writer.latest_after(),
                            changes=writer.summary(), pending=pending, head=head)
            self._remember(loaded)
            await self._audit(loaded, actor, "undo", {"steps": steps, "to_step": target})
            reply = await self._step_reply(loaded, [event], actor)
            if self.render and self.step_images:
                reply.images += await self._pictures(reply, self._table_images(loaded))
            return reply
        return await self._mutate(channel_id, actor, work)

    async def gm_skip(self, channel_id: int, actor: Actor, user_id: int | None = None) -> Reply:
        """Answer a pending prompt with its default, for an idle player. When several players are asked at
        once, `user_id` names whose question to skip (required then: skipping someone else's would be wrong)."""
        self._require_mod(actor)

        async def work() -> Reply:
            loaded = await self._open(channel_id)
            state = self._playing(loaded)
            pending = loaded.prompts()
            if user_id is not None:
                pending = [p for p in pending if any(loaded.user_of(s) == user_id for s in p.seats)]
                if not pending:
                    raise UserError("The game is not waiting for that player.")
            if not pending:
                raise UserError("The game is not waiting for anyone.")
            if len(pending) > 1 and len({loaded.user_of(p.seats[0]) for p in pending}) > 1:
                waiting = join_names([loaded.seat_label(p.seats[0]) for p in pending])
                raise UserError(f"Several players are being asked at once ({waiting}): name the one to skip "
                                "with /gm skip player:@name.")
            prompt = pending[0]
            posted = frozenset(p.seq for p in loaded.prompts() if p.seq != prompt.seq)
            if prompt.kind is PromptKind.AMOUNT:
                if prompt.default_amount is None:
                    raise UserError("This decision has no safe default; it cannot be skipped.")
                action = Action(seat=self._skipped_seat(loaded, prompt, user_id), prompt=prompt.seq,
                                amount=prompt.default_amount)
            else:
                if prompt.default is None:
                    raise UserError("This decision has no safe default; it cannot be skipped.")
                action = Action(seat=self._skipped_seat(loaded, prompt, user_id), prompt=prompt.seq,
                                choice=list(prompt.default))
            new_state, events = api.apply(state, action, prompt=prompt)
            row = action_row(loaded, actor, action, "gm")
            skipped = loaded.seat_label(action.seat)
            lead = [f"Moderator {actor.name} skipped {skipped}: {prompt.title} → default answer."]
            loaded = await self._commit(loaded, new_state, events, action=row, lead=lead)
            await self._audit(loaded, actor, "skip", {"prompt": prompt.seq, "seat": action.seat,
                                                      "answer": action.model_dump(mode="json")})
            return await self._step_reply(loaded, events, actor, lead, posted=posted)
        return await self._mutate(channel_id, actor, work)

    @staticmethod
    def _skipped_seat(loaded: Loaded, prompt: Prompt, user_id: int | None) -> int:
        if user_id is not None:
            return next(s for s in prompt.seats if loaded.user_of(s) == user_id)
        return prompt.seats[0]

    async def gm_kick(self, channel_id: int, actor: Actor, player: int | None, *, seat: int | None = None) -> Reply:
        """Remove a user (or, by `seat` number, whoever holds that seat: an AI teammate, say): in the lobby their
        seats go; in play they pass to the next other person."""
        self._require_mod(actor)
        if (player is None) == (seat is None):
            raise UserError("Name the player to remove (player:) or their seat's number (seat:).")

        async def work() -> Reply:
            loaded = await self._open(channel_id)
            user_id = player
            if seat is not None:
                if not 0 < seat <= len(loaded.seats):
                    raise UserError(f"There is no seat {seat}. {self._seat_list(loaded)}")
                user_id = loaded.seats[seat - 1].user_id
            assert user_id is not None
            if user_id not in loaded.users():
                raise UserError("That user is not seated at this table.")
            kicked = self._user_name(loaded, user_id)
            game = loaded.game
            assert game.id is not None
            if game.status == LOBBY:
                await self.store.remove_seats(game.id, game.version, user_id, only_last=False)
                text = f"Moderator {actor.name} removed {kicked} from the table."
            else:
                heirs = [u for u in loaded.people() if u != user_id]
                if not heirs:
                    raise UserError(f"{kicked} is the only player; use /gm end or /gm replace instead.")
                heir = self._user_name(loaded, heirs[0])
                await self.store.reassign_seats(game.id, game.version, user_id, heirs[0], heir)
                text = f"Moderator {actor.name} removed {kicked}; {heir} now plays their seats."
            loaded = await self._sections_follow_seats(await self._lobby_changed(loaded))
            await self._audit(loaded, actor, "kick", {"user_id": user_id})
            return self._seats_reply(loaded, text)
        return await self._mutate(channel_id, actor, work)

    async def gm_replace(self, channel_id: int, actor: Actor, user_id: int | None, other: Actor | None = None,
                         *, ai: bool = False, seat: int | None = None) -> Reply:
        """Give every seat of `user_id` to `other`, or (`ai`) each to an AI teammate; or give seat number
        `seat` (1-based, an AI teammate's or anyone's) to `other`."""
        self._require_mod(actor)
        if (other is None) == (not ai) or (user_id is None) == (seat is None):
            raise UserError("Name the player who leaves (player:) or a seat (seat:), and who takes over "
                            "(replacement:, or bot:True for an AI teammate).")

        async def work() -> Reply:
            loaded = await self._open(channel_id)
            assert loaded.game.id is not None
            if seat is not None:
                if not 0 < seat <= len(loaded.seats):
                    raise UserError(f"There is no seat {seat}. {self._seat_list(loaded)}")
                leaving = [seat - 1]
                old = loaded.seat_label(seat - 1)
            else:
                if user_id not in loaded.users():
                    raise UserError("That user is not seated at this table.")
                leaving = loaded.user_seats(user_id)
                old = self._user_name(loaded, user_id)
            if other is not None and all(loaded.user_of(s) == other.user_id for s in leaving):
                raise UserError("A player cannot replace themselves.")
            changes: list[tuple[int, int, str]] = []
            if ai:
                taken = list(loaded.seats)
                labels = dict(self.characters(loaded.game.game_type))
                for s in leaving:
                    row = loaded.seats[s]
                    if ai_seats.is_ai(row.user_id):
                        continue
                    new_id = ai_seats.next_ai_id(taken)
                    taken.append(Seat(game_id=loaded.game.id, seat=-1, user_id=new_id, name=""))
                    label = labels.get(row.character or "", row.name)
                    changes.append((s, new_id, ai_seats.ai_name(label)))
                if not changes:
                    raise UserError(f"{old} is an AI teammate already.")
                staying = {loaded.seats[n].user_id for n in range(len(loaded.seats)) if n not in leaving}
                if not any(not ai_seats.is_ai(u) for u in staying):
                    raise UserError("At least one person stays at the table: AI teammates do not play alone "
                                    "(/gm end ends the game).")
                to_name = "an AI teammate" if len(changes) == 1 else "AI teammates"
            else:
                assert other is not None
                held = len(loaded.user_seats(other.user_id))
                for n, s in enumerate(leaving, start=1):
                    changes.append((s, other.user_id, seat_name(other.name, held + n)))
                to_name = other.name
            await self.store.hand_seats(loaded.game.id, loaded.game.version, changes)
            loaded = await self._sections_follow_seats(await self._lobby_changed(loaded))
            await self._audit(loaded, actor, "replace", {"user_id": user_id, "seat": seat,
                                                         "by": None if other is None else other.user_id,
                                                         "ai": ai, "seats": [c[0] for c in changes]})
            return self._seats_reply(loaded, f"Moderator {actor.name}: {to_name} takes over from {old}.")
        return await self._mutate(channel_id, actor, work)

    def _seats_reply(self, loaded: Loaded, text: str) -> Reply:
        """A seat changed hands: said in the channel; in play, the turn's message mentions whoever the game
        now waits for (a new user is pinged there)."""
        reply = Reply(public=[text], prompts=self._cards(loaded), sections=list(loaded.changes))
        if loaded.game.status == ACTIVE:
            reply.table, reply.refresh = loaded.game.id, True
        return reply

    async def gm_export(self, channel_id: int, actor: Actor, *, full: bool = False) -> Reply:
        """The game as a JSON file, redacted like every view: the public state and the public log, nothing a
        spectator could not see (no seed, no deck order, no private events or answers).

        `full` (for bug reports) adds the seed and every action, from which the whole game, its future
        included, can be rebuilt: it works only on a finished game, which can then never be undone.
        """
        self._require_mod(actor)

        async def work() -> Reply:
            loaded = await self._current(channel_id)
            game = loaded.game
            assert game.id is not None
            if full:
                if game.status not in (OVER, ENDED):
                    raise UserError("A full export contains the seed, from which every future draw and roll can "
                                    "be rebuilt: it works only on a finished game. End it first (/gm end), or "
                                    "export without full.")
                doc, summary = await self._full_export(loaded)
                await self._audit(loaded, actor, FULL_EXPORT, {"actions": len(doc["actions"])})
                name = f"{game.game_type}-{game.id}-full.json"
            else:
                doc, summary = await self._public_export(loaded)
                await self._audit(loaded, actor, "export", {"events": len(doc["log"])})
                name = f"{game.game_type}-{game.id}.json"
            if game.campaign_id is not None:
                doc["campaign"] = await self._campaign_export(game.campaign_id, full=full)
            data = json.dumps(doc, indent=2, ensure_ascii=False).encode()
            return Reply(ephemeral=[f"Game #{game.id}: {summary}."], files=[Image(filename=name, data=data)])
        return await self._mutate(channel_id, actor, work)

    def _export_head(self, loaded: Loaded) -> dict[str, Any]:
        game = loaded.game
        return {"game": game.game_type, "game_id": game.id, "content_version": game.content_version,
                "options": game.options, "status": game.status, "result": game.result,
                "step": loaded.state.step if loaded.state is not None else 0,
                "seats": [{"name": s.name, "character": s.character} for s in loaded.seats]}

    async def _public_export(self, loaded: Loaded) -> tuple[dict[str, Any], str]:
        assert loaded.game.id is not None
        events = await self.store.public_events(loaded.game.id)
        doc = self._export_head(loaded) | {
            "state": plain(api.view(loaded.state, None)) if loaded.state is not None else None,
            "log": [{"step": e.step, "kind": e.kind, "text": e.text, "cause": e.cause} for e in events],
        }
        return doc, f"the public state and {len(events)} public log entries exported"

    async def _campaign_export(self, campaign_id: int, *, full: bool) -> dict[str, Any] | None:
        """The game's campaign (bot/campaigns.py): its record, players and status; its seed, from which every
        later scenario's seed follows, only in a full export."""
        row = await self.store.get_campaign(campaign_id)
        if row is None:
            return None
        data = {k: v for k, v in row.data.items() if full or k != "seed"}
        return {"campaign_id": row.id, "name": row.name, "closed": row.closed_at is not None, **data}

    async def _full_export(self, loaded: Loaded) -> tuple[dict[str, Any], str]:
        assert loaded.game.id is not None
        actions = await self.store.actions(loaded.game.id)
        doc = self._export_head(loaded) | {
            "seed": loaded.game.seed, "actions": [{"seq": a.seq, "kind": a.kind, **a.payload} for a in actions],
        }
        return doc, f"full record with the seed and {len(actions)} actions exported (it can no longer be undone)"

    async def gm_settings(self, channel_id: int, actor: Actor, guild_id: int, *, mod_role_id: int | None = None,
                          enabled_games: list[str] | None = None, reminder_hours: int | None = None,
                          ai_pace: float | None = None) -> Reply:
        """Change the server's settings (only those given; an empty `enabled_games` = every game, a
        `mod_role_id` of 0 clears the role; `ai_pace` in seconds between two AI decisions); with none given,
        show them."""
        self._require_mod(actor)
        changes: dict[str, Any] = {}
        if mod_role_id is not None:
            changes["mod_role_id"] = in_range("mod_role", mod_role_id, 0, SNOWFLAKE_MAX) or None  # 0 clears it
        if enabled_games is not None:
            known = dict(self.games())
            unknown = [g for g in enabled_games if g not in known]
            if unknown:
                raise UserError(f"There is no game called '{unknown[0]}'. Games: {', '.join(known)}.")
            changes["enabled_games"] = enabled_games
        if reminder_hours is not None:
            if not 0 <= reminder_hours <= MAX_REMINDER_HOURS:
                raise UserError(f"Reminders must be from 0 (off) to {MAX_REMINDER_HOURS} hours.")
            changes["reminder_hours"] = reminder_hours
        if ai_pace is not None:
            if not 0 <= ai_pace * 1000 <= ai_seats.MAX_PACE_MS:
                raise UserError(f"The AI pace must be from 0 to {ai_seats.MAX_PACE_MS // 1000} seconds.")
            changes["ai_pace_ms"] = round(ai_pace * 1000)
        if not changes:
            return self._settings_reply(await self.store.guild_settings(guild_id), saved=False)

        async def work() -> Reply:
            settings = await self.store.set_guild_settings(guild_id, **changes)
            await self.store.add_audit(guild_id=guild_id, channel_id=channel_id, moderator_id=actor.user_id,
                                       command="settings", detail=changes)
            return self._settings_reply(settings, saved=True)
        return await self._mutate(channel_id, actor, work)

    @staticmethod
    def _settings_reply(settings: GuildSettings, *, saved: bool) -> Reply:
        games = ", ".join(settings.enabled_games) or "all"
        role = f"<@&{settings.mod_role_id}>" if settings.mod_role_id else "none (Manage Channels only)"
        hours = f"{settings.reminder_hours} h" if settings.reminder_hours else "off"
        verb = "Settings saved" if saved else "Settings"
        pace = f"{settings.ai_pace_ms / 1000:g} s"
        return Reply(ephemeral=[f"{verb}: moderator role {role}; games {games}; reminders {hours}; "
                                f"AI teammates wait {pace} between decisions."])

    async def ai_pace(self, channel_id: int) -> float:
        """Seconds between two AI decisions in the channel's server (its /gm settings)."""
        loaded = self._remembered_open(channel_id)
        game = loaded.game if loaded is not None else await self.store.open_game(channel_id)
        if game is None:
            return 0.0
        return (await self.store.guild_settings(game.guild_id)).ai_pace_ms / 1000

    async def gm_audit(self, channel_id: int, actor: Actor, page: int = 1, *, guild_id: int | None = None) -> Reply:
        """The server's moderator actions, newest first. The guild is the channel's unless given."""
        self._require_mod(actor)
        in_range("page", page, 1, PAGE_MAX)
        if guild_id is None:
            guild_id = await self.store.guild_of_channel(channel_id)
            if guild_id is None:
                return Reply(ephemeral=["No moderator actions yet."])
        rows, pages = await self.store.audit(guild_id, page=page, per_page=AUDIT_PAGE_SIZE)
        if page < 1 or page > pages:
            raise UserError(f"The audit log has {pages} page{'s' if pages != 1 else ''}.")
        if not rows:
            return Reply(ephemeral=["No moderator actions yet."])
        lines = [f"Moderator actions, page {page}/{pages} (newest first):"]
        for r in rows:
            detail = ", ".join(f"{k}={v}" for k, v in r.detail.items())
            where = f" game #{r.game_id}" if r.game_id else ""
            lines.append(f"{r.created_at:%Y-%m-%d %H:%M} <@{r.moderator_id}> {r.command}{where}"
                         + (f" ({detail})" if detail else ""))
        return Reply(ephemeral=chunk_lines(lines))

    # ================================================================ around the table (issue 16) ===========
    # Reading, never changing: the rules notes, the cards, the bot's help, the channel's and the server's
    # record. Every answer is private. The words come from bot/lookup; every game is known by its manifest.

    def lookup_games(self, feature: str) -> list[tuple[str, str]]:
        """(id, name) of the games that have `feature` ("rules", "cards", "help")."""
        from bot.games.manifest import bot_games
        from bot.lookup.help import game_name

        has = {"rules": lambda g: bool(g.rules_docs), "cards": lambda g: g.cards is not None,
               "help": lambda g: True}[feature]
        return [(gid, game_name(gid)) for gid, g in sorted(bot_games().items()) if has(g)]

    async def lookup_game(self, channel_id: int, game: str | None, feature: str) -> str:
        """The game a lookup is about: `game` (an id or a name) when given, else the channel's (open or last)
        game, else the only game there is."""
        from bot.lookup.cards import fold

        known = self.lookup_games(feature)
        names = ", ".join(gid for gid, _ in known) or "none yet"
        what = {"rules": "rules notes", "cards": "cards", "help": "quick start"}[feature]
        if game:
            typed = fold(game)
            found = [gid for gid, name in known if typed in (fold(gid), fold(name))]
            if not found:
                raise UserError(f"No game with {what} is called '{game[:40]}'. Say game: with one of: {names}.")
            return found[0]
        current = await self.store.current_game(channel_id)
        if current is not None and current.game_type in dict(known):
            return current.game_type
        if len(known) == 1:
            return known[0][0]
        raise UserError(f"Which game? This channel has no game with {what}: add game: with one of: {names}.")

    async def rules(self, channel_id: int, query: str, game: str | None = None) -> Reply:
        """The passages of our rules notes that best answer `query`, for the channel's game or `game`."""
        from bot.lookup.rules import answer, rules_index

        game_id = await self.lookup_game(channel_id, game, "rules")
        if not query.strip():
            raise UserError("Say what to look up: /rules query:<a few words>, e.g. query:focus.")
        found = rules_index().search(game_id, query)
        if not found:
            raise UserError(f"Nothing in our {game_id} rules notes matches '{query[:40]}'. Try other words "
                            f"(a rule's name, e.g. 'midnight' or 'combat'), or /help for the basics.")
        return Reply(ephemeral=chunk_lines(answer(found, query[:80])))

    async def card_choices(self, channel_id: int, game: str | None, current: str) -> list[tuple[str, str]]:
        """Autocomplete for /card: (label, card id) of the cards `current` names best."""
        from bot.lookup.cards import suggest

        try:
            game_id = await self.lookup_game(channel_id, game, "cards")
        except UserError:
            return []  # the command itself will say which game to name
        return suggest(game_id, current)

    async def card(self, channel_id: int, actor: Actor, name: str, game: str | None = None) -> Reply:
        """A card's text and picture; in this channel's running game, where the card is now when that is
        public (read from the spectator's view, so nothing hidden is told)."""
        from bot.lookup.cards import book, resolve
        from bot.lookup.help import game_name

        game_id = await self.lookup_game(channel_id, game, "cards")
        cards = book(game_id)
        assert cards is not None
        try:
            entry = resolve(game_id, name)
        except IllegalAction as exc:
            raise UserError(str(exc)) from exc
        state: GameState | None = None
        seat: int | None = None
        current = await self.store.current_game(channel_id)
        if current is not None and current.game_type == game_id and current.status == ACTIVE:
            loaded = await self._load_game(current)
            state = self._share(loaded)  # read in a worker thread
            mine = loaded.user_seats(actor.user_id)
            seat = mine[0] if mine else None
        try:
            text = await asyncio.to_thread(cards.text, entry.id, state, seat)
        except IllegalAction as exc:
            raise UserError(str(exc)) from exc
        lines = text.splitlines()
        if state is not None:
            where = cards.where(entry.id, api.view(state, None))
            lines.append(f"In this game: {where}." if where else "In this game: not in play.")
        files: list[Image] = []
        if self.render:
            from bot.render.card import render_card

            png = await asyncio.to_thread(render_card, entry.name, entry.kind, game_name(game_id), text)
            files.append(Image(filename=f"card-{entry.id.replace('.', '-')}.png", data=png))
        return Reply(ephemeral=chunk_lines(lines), files=files)

    async def help(self, channel_id: int, game: str | None = None) -> Reply:
        """How the bot works and each game's quick start (`game`: that game's only)."""
        from bot.lookup.help import help_lines

        only = await self.lookup_game(channel_id, game, "help") if game else None
        return Reply(ephemeral=chunk_lines(help_lines(only)))

    async def history(self, channel_id: int, page: int = 1) -> Reply:
        """The channel's finished games with their results, newest first."""
        from bot.lookup.stats import fact_paths, history_lines
        from bot.store.repo import finished_games

        in_range("page", page, 1, PAGE_MAX)
        games, pages = await finished_games(self.store, channel_id, fact_paths(), page=page,
                                            per_page=HISTORY_PAGE_SIZE)
        if not games:
            if page > 1:
                raise UserError(f"The history has {pages} page{'s' if pages != 1 else ''}.")
            return Reply(ephemeral=["No game has finished in this channel yet. /game new opens one."])
        return Reply(ephemeral=chunk_lines(history_lines(games, page, pages)))

    async def stats(self, channel_id: int, guild_id: int | None, user_id: int | None = None,
                    user_name: str | None = None) -> Reply:
        """The server's record of finished games, or one player's: by game, by scenario, length, and the most
        played investigators."""
        from bot.lookup.stats import fact_paths, stats_lines
        from bot.store.repo import characters_played, tallies, with_ai_teammates

        if guild_id is None:
            guild_id = await self.store.guild_of_channel(channel_id)
            if guild_id is None:
                return Reply(ephemeral=["No finished games on this server yet."])
        paths = fact_paths()
        by_game = await tallies(self.store, paths, guild_id=guild_id, user_id=user_id)
        by_scenario = await tallies(self.store, paths, guild_id=guild_id, user_id=user_id, by_scenario=True)
        played = await characters_played(self.store, paths, guild_id=guild_id, user_id=user_id)
        who = (user_name or "that player") if user_id is not None else "this server"
        split = await with_ai_teammates(self.store, guild_id=guild_id, user_id=user_id)
        return Reply(ephemeral=chunk_lines(stats_lines(who, by_game, by_scenario, played, split)))
