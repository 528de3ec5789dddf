"""The channel reads like a game: one living message per section (a turn, or a phase), for every game.

The service keeps, in the database and in the same transaction as each step, what every section holds
(bot/service_sections.py). This module shows it:

* a section is one message: the narration in an embed (its opening line in bold), the picture of its latest
  event (the dice) in that embed, and the pending prompt's controls; it is edited as the section grows and
  frozen (no controls) when it ends, and the board as the section left it joins that message then (a second
  embed): one message per section, where a board of its own would double the channel's traffic;
* a long section continues in a second message (each holds up to `PAGE_MAX` characters of narration);
* the message mentions who the game waits for, but pings only users newly awaited (the service decides
  them): in the message itself when it is new, else in a short ping message that goes away once they have
  answered;
* several players asked at once, or a private question: the message carries one "Answer" button that
  opens each player's own controls privately (bot/play.py);
* one publisher per game at a time in this process; each pass reads what is left to show (`rev` above
  `shown_rev`) and shows all of it at once, so a burst of steps costs one edit, and a step committed while
  a pass was editing is picked up by the pass that follows. What was shown is recorded afterwards: a crash
  in between shows it again, never loses it. An edit of a message that is gone (a moderator deleted it)
  posts a new one and goes on.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.components import answer_view, extra_text, is_private, prompt_view
from bot.service_sections import shown_lines
from bot.service_text import join_names
from bot.service_types import Image, PromptCard, TableView
from bot.store.models import SectionRecord

if TYPE_CHECKING:
    from bot.service import GameService

log = logging.getLogger(__name__)

PAGE_MAX = 3900  # narration characters per message (an embed description holds 4096)
CONTENT_MAX = 2000
ROUNDS_MAX = 4  # passes per publish call; what is still left then waits for the next call
NO_PINGS = discord.AllowedMentions.none()
OPEN_COLOUR = discord.Colour(0x3B6E8F)
FROZEN_COLOUR = discord.Colour(0x4F545C)
SNOWFLAKE_MAX = 2**63 - 1
NO_PICTURE = 0  # board_message_id when the section's board could not be drawn (none is shown)


def pages(lines: list[str], limit: int = PAGE_MAX, starts: Sequence[int] = ()) -> list[list[str]]:
    """The section's lines split into messages of at most `limit` characters (a longer line is cut), and a
    new message at each of `starts` (a line index where the section continued to ping someone; an index at
    the end begins a message with no narration yet)."""
    breaks = sorted(b for b in starts if 0 < b <= len(lines))  # a break twice: two players pinged in a row
    out: list[list[str]] = [[]]
    size = 0
    for index, line in enumerate(lines):
        while breaks and breaks[0] == index:
            breaks.pop(0)
            out.append([])
            size = 0
        if len(line) > limit:
            line = line[: limit - 1] + "…"
        if out[-1] and size + 1 + len(line) > limit:
            out.append([])
            size = 0
        size += (1 if out[-1] else 0) + len(line)
        out[-1].append(line)
    for _ in breaks:  # a break after the last line: the message that pings opens with no narration
        out.append([])
    return out


def mention(users: list[int]) -> str:
    return join_names([f"<@{u}>" for u in users])


def waiting_text(cards: list[PromptCard]) -> str:
    """Who the game waits for and what for, mentioning them (the mention pings only in a new message)."""
    if not cards:
        return ""
    if len(cards) == 1:
        card = cards[0]
        prompt = card.prompt
        text = f"⏳ {mention(card.user_ids)}: {prompt.title}" + (f" ({prompt.reason})" if prompt.reason else "")
        if is_private(prompt):
            return text + "\nPress **Answer** to see your choice privately."
        extra = extra_text(prompt)
        return text + (f"\n{extra}" if extra else "")
    users = list(dict.fromkeys(u for c in cards for u in c.user_ids))
    titles = "; ".join(dict.fromkeys(c.prompt.title for c in cards))
    return (f"⏳ {mention(users)}: {titles}\n"
            "Each of you answers privately: press **Answer** to see your own choice.")


def thinking_text(names: list[str]) -> str:
    """The AI teammates the game waits for (no controls: they answer on their own, at the server's pace)."""
    if not names:
        return ""
    return f"⏳ {join_names(names)} {'is' if len(names) == 1 else 'are'} deciding…"


def controls(view: TableView, cards: list[PromptCard]) -> discord.ui.View | None:
    if not cards:
        return None
    if len(cards) == 1 and not is_private(cards[0].prompt):
        return prompt_view(view.game_id, cards[0].prompt, view.epoch)
    return answer_view(view.game_id, view.epoch)


def fit(text: str) -> str:
    return text if len(text) <= CONTENT_MAX else text[: CONTENT_MAX - 1] + "…"


class PublisherHost(Protocol):
    """What the publisher needs of the running client: the service it reads the table from."""

    @property
    def service(self) -> GameService: ...


class TablePublisher:
    """Shows games' sections in their channels (see the module docstring)."""

    def __init__(self, bot: PublisherHost, on_published: Callable[[int], None] | None = None) -> None:
        self.bot = bot
        # Told each channel whose game was just brought up to date (the AI teammates' driver looks whether
        # the game now waits for one of them).
        self.on_published = on_published
        # Weak: a game's lock lives while a publish holds or waits on it.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._shown: dict[int, str] = {}  # message id -> fingerprint of what it shows (no identical edits)
        self._picture: dict[int, str] = {}  # message id -> the filename of the picture it carries
        self._last_board: dict[int, str] = {}  # game id -> digest of the board it last showed

    async def publish(self, channel: Any, game_id: int, *, refresh: bool = False) -> None:
        """Show whatever game `game_id` has not shown yet in `channel`; with `refresh`, also edit its latest
        message even if nothing changed (a deleted message is posted again)."""
        if not isinstance(channel, discord.abc.Messageable):
            return
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        async with lock:
            try:
                await self._publish(channel, game_id, refresh)
            finally:
                if self.on_published is not None:
                    self.on_published(self._channel_id(channel))

    async def _publish(self, channel: Any, game_id: int, refresh: bool) -> None:
        for _ in range(ROUNDS_MAX):
            view = await self.bot.service.table(self._channel_id(channel), game_id)
            if view is None or not view.sections:
                return
            pending = [s for s in view.sections if s.shown_rev < s.rev]
            if refresh and view.sections[-1] not in pending:
                pending.append(view.sections[-1])
            if not pending:
                return
            for section in pending:
                latest = section is view.sections[-1]
                await self._show(channel, view, section, latest=latest, force=refresh and latest)
            refresh = False

    @staticmethod
    def _channel_id(channel: Any) -> int:
        return int(channel.id)

    async def live_message(self, channel_id: int, game_id: int, message_id: int) -> bool:
        """Whether `message_id` is one of the messages showing the game's latest section."""
        if not 0 < game_id <= SNOWFLAKE_MAX:  # a forged id: no game of ours
            return False
        section = await self.bot.service.latest_section(game_id)
        return section is not None and message_id in section.message_ids

    # ---- one section -------------------------------------------------------------------------------------

    async def _show(self, channel: Any, view: TableView, section: SectionRecord, *, latest: bool, force: bool) -> None:
        service = self.bot.service
        is_open = not section.closed
        cards = view.prompts if is_open and latest else []
        owed = [u for u, rev in section.pings if rev > section.shown_rev and u in section.awaited] if is_open else []
        picture = None
        if section.image:
            try:
                picture = await service.event_picture(view.channel_id, view.game_id, section.image)
            except Exception:
                log.exception("drawing the picture of section %s of game %s failed", section.number,
                              view.game_id)
        lines = shown_lines(section)
        starts = list(section.page_starts)
        split = pages(lines, starts=starts)
        if owed and len(split) <= len(section.message_ids):
            # Someone new is awaited and the section's last message exists: an edit would not ping them, so
            # the section continues in a new message that mentions them (nothing is posted only to be deleted).
            starts.append(len(lines))
            split = pages(lines, starts=starts)
        ids = list(section.message_ids)
        board, board_shown = await self._section_board(view, section)
        digest = hashlib.sha1(board.data).hexdigest() if board is not None else None
        if digest is not None and section.board_message_id is None and self._last_board.get(view.game_id) == digest:
            board = None  # the same picture as the board above it: not posted again
        failed = False
        for k, page in enumerate(split):
            last = k == len(split) - 1
            payload = self._payload(view, page, cards=cards if last else [], picture=picture if last else None,
                                    frozen=not (last and is_open), board=board if last else None)
            mentions = discord.AllowedMentions(users=[discord.Object(u) for u in owed]) if last and owed \
                else NO_PINGS
            message_id = ids[k] if k < len(ids) else None
            try:
                if message_id is not None:
                    if await self._edit(channel, message_id, payload, force=force and last):
                        continue
                    log.info("message %s of game %s is gone: posting it again", message_id, view.game_id)
                new_id = await self._post(channel, payload, mentions)
            except discord.HTTPException:
                log.warning("could not show section %s of game %s", section.number, view.game_id, exc_info=True)
                failed = True
                break
            if message_id is None:
                ids.append(new_id)
            else:
                ids[k] = new_id
            if last:
                owed = []  # mentioned in the new message itself
        for extra in ids[len(split):] if not failed else []:
            await self._delete(channel, extra)
        if not failed:
            ids = ids[: len(split)]
        ping_messages = await self._pings(channel, view, section, cards, owed, ids, failed)
        board_id = section.board_message_id
        if board_shown and not failed and ids:
            board_id = ids[-1] if board is not None else NO_PICTURE
            if board is not None and digest is not None:
                self._last_board[view.game_id] = digest
        # After a failure, record what exists (so nothing is posted twice) but not the rev: the next pass
        # (or the next click) tries again.
        await service.section_shown(section, rev=section.shown_rev if failed else section.rev, message_ids=ids,
                                    board_message_id=board_id, ping_messages=ping_messages,
                                    page_starts=starts if starts != section.page_starts else None)

    async def _section_board(self, view: TableView, section: SectionRecord) -> tuple[Image | None, bool]:
        """(the board as a closed section left it, whether the section shows its board): drawn for a closed
        section that wants one, unless an earlier build already posted it as a message of its own."""
        if not (section.closed and section.board and section.end_step is not None):
            return None, False
        if section.board_message_id not in (None, NO_PICTURE) and \
                section.board_message_id not in section.message_ids:
            return None, False  # a board message of its own, from before boards joined their section
        try:
            return await self.bot.service.board_picture(view.channel_id, view.game_id, section.end_step), True
        except Exception:
            log.exception("drawing the board of game %s at step %s failed", view.game_id, section.end_step)
            return None, True

    def _payload(self, view: TableView, page: list[str], *, cards: list[PromptCard], picture: Image | None,
                 frozen: bool, board: Image | None = None) -> dict[str, Any]:
        embeds: list[discord.Embed] = []
        description = "\n".join(page)
        if description or picture is not None:
            embed = discord.Embed(description=description or None,
                                  colour=FROZEN_COLOUR if frozen else OPEN_COLOUR)
            if picture is not None:
                embed.set_image(url=f"attachment://{picture.filename}")
            embeds.append(embed)
        if board is not None:
            embeds.append(discord.Embed(colour=FROZEN_COLOUR).set_image(url=f"attachment://{board.filename}"))
        waiting = waiting_text(cards) or thinking_text(view.thinking)
        if view.state_line and waiting:  # the live message opens with the game at a glance
            waiting = f"**{view.state_line}**\n{waiting}"
        content = "" if frozen else fit(waiting)
        if not content and not embeds:
            content = "…"
        pictures = [p for p in (picture, board) if p is not None]
        return {"content": content, "embeds": embeds, "pictures": pictures,
                "view": None if frozen else controls(view, cards)}

    @staticmethod
    def _fingerprint(payload: dict[str, Any]) -> str:
        view = payload["view"]
        parts = [payload["content"], repr([e.to_dict() for e in payload["embeds"]]),
                 repr(view.to_components() if view is not None else None)]
        return hashlib.sha1("\x00".join(parts).encode()).hexdigest()

    @staticmethod
    def _files(pictures: list[Image]) -> list[discord.File]:
        return [discord.File(io.BytesIO(p.data), filename=p.filename) for p in pictures]

    async def _post(self, channel: Any, payload: dict[str, Any], mentions: discord.AllowedMentions) -> int:
        kwargs: dict[str, Any] = {"content": payload["content"] or None, "allowed_mentions": mentions}
        if payload["embeds"]:
            kwargs["embeds"] = payload["embeds"]
        if payload["view"] is not None:
            kwargs["view"] = payload["view"]
        pictures: list[Image] = payload["pictures"]
        if pictures:
            kwargs["files"] = self._files(pictures)
        message = await channel.send(**kwargs)
        self._shown[message.id] = self._fingerprint(payload)
        self._picture[message.id] = "|".join(p.filename for p in pictures)
        return int(message.id)

    async def _edit(self, channel: Any, message_id: int, payload: dict[str, Any], *, force: bool) -> bool:
        """Edit the message to show `payload`; False if it no longer exists."""
        fingerprint = self._fingerprint(payload)
        pictures: list[Image] = payload["pictures"]
        wanted = "|".join(p.filename for p in pictures)
        if not force and self._shown.get(message_id) == fingerprint and self._picture.get(message_id) == wanted:
            return True
        kwargs: dict[str, Any] = {"content": payload["content"] or None, "allowed_mentions": NO_PINGS,
                                  "embeds": payload["embeds"], "view": payload["view"]}
        if force or self._picture.get(message_id) != wanted:
            kwargs["attachments"] = self._files(pictures)
        try:
            await channel.get_partial_message(message_id).edit(**kwargs)
        except discord.NotFound:
            self._forget(message_id)
            return False
        self._shown[message_id] = fingerprint
        self._picture[message_id] = wanted
        return True

    def _forget(self, message_id: int) -> None:
        self._shown.pop(message_id, None)
        self._picture.pop(message_id, None)

    async def _delete(self, channel: Any, message_id: int) -> None:
        self._forget(message_id)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            pass
        except discord.HTTPException:
            log.info("could not delete message %s", message_id)

    async def _pings(self, channel: Any, view: TableView, section: SectionRecord, cards: list[PromptCard],
                     owed: list[int], ids: list[int], failed: bool) -> list[list[Any]]:
        """Reminders (and the ping replies of earlier builds): remove those whose users have answered (or whose
        prompt passed). A user newly awaited is mentioned by the message the section continues in; `owed` is
        left only when that message could not be posted, and then a short reply pings them."""
        pending_seqs = {c.prompt.seq for c in cards}
        kept: list[list[Any]] = []
        for entry in section.ping_messages:
            message_id, users = int(entry[0]), [int(u) for u in entry[1]]
            seq = entry[2] if len(entry) > 2 else None
            answered = section.closed or not any(u in section.awaited for u in users) or \
                (seq is not None and seq not in pending_seqs)
            if answered:
                await self._delete(channel, message_id)
            else:
                kept.append(entry)
        if owed and not failed and ids:
            titles = "; ".join(dict.fromkeys(c.prompt.title for c in cards if set(c.user_ids) & set(owed)))
            text = fit(f"🔔 {mention(owed)}: your turn to decide" + (f" — {titles}" if titles else "") + " ↑")
            try:
                reference = discord.MessageReference(message_id=ids[-1], channel_id=view.channel_id,
                                                     fail_if_not_exists=False)
                message = await channel.send(text, reference=reference, mention_author=False,
                                             allowed_mentions=discord.AllowedMentions(
                                                 users=[discord.Object(u) for u in owed], replied_user=False))
                kept.append([int(message.id), owed])
            except discord.HTTPException:
                log.warning("could not ping %s for game %s", owed, view.game_id, exc_info=True)
        return kept
