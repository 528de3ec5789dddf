"""Campaigns that live in a channel: several games (scenarios) played one after another by one group, with a
record carried between them, for every game whose manifest says `campaigns` (engine/core/campaign.py). This
module knows nothing of any game: it keeps the group and the engine's record, and every game it opens is an
ordinary channel game that GameService runs (buttons, the game's own commands, pictures, undo).

The campaign is a `Campaign` row (bot/store/models.py): one open campaign per channel (the database keeps it
so), its `data` changed only through an optimistic version check. `data` holds:

    status      "lobby"    players gather (/campaign join, /campaign import); no record yet
                "playing"  a scenario game is under way (`game_id`)
                "between"  the last scenario's outcome is in the record; upgrades, joining, leaving, then next
                "over"     the campaign ended by its rules (the row is closed)
                "ended"    a moderator closed it (/gm end campaign:True; the row is closed)
    options     the campaign's options (the game's `campaign_options`: difficulty ...)
    seed        the campaign's seed; the n-th game's seed follows from it and n (`game_seed`)
    roster      {campaign seat: discord user id}: who plays each seat now (a seat whose player left is absent)
    names       {campaign seat: the name its player plays under}
    characters  {campaign seat: investigator id or None}: the lobby's choices (None: dealt at random)
    decks       {campaign seat: deck code}: decks imported in the lobby, applied when the record is made
    record      the engine's record (None in the lobby)
    base        the record the current (or last) scenario game started from
    game_id     the current (or last) scenario game; games: every scenario game opened, in order
    folded      the game whose outcome `record` holds (None while a scenario is played)

(JSON object keys are strings: seats are written as "0", "1" ...)

When a campaign's game ends by its rules, GameService calls `fold` (its `campaign_fold` hook) in the step's
own transaction: the record becomes `campaign_after(base, final state)` and the channel reads the campaign's
status in the game's last section. Nothing is ever folded twice or lost, whatever happened in between:

* every command first reconciles the data with its game (`_reconcile`, in memory, written with the command):
  a game over but not folded (a process that ran without this module) is folded then; a game people ended
  (/gm end, /game abandon) puts the campaign back between scenarios with the record it started from, so
  /campaign next plays that scenario again; a finished game that a moderator's undo reopened takes its fold
  back (and whatever was bought since with its experience) and the campaign waits for its end again;
* a scenario's game is opened and started with the campaign's data in the start's own transaction; a crash
  between opening the game and starting it leaves a lobby game, which the next /campaign next starts.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot import ai_seats
from bot.games import game_record
from bot.service import Actor, GameService, Reply, UserError
from bot.service_text import chunk_lines, join_names
from bot.store import ACTIVE, ENDED, OVER, Campaign, ChannelBusy, Game
from bot.store.repo import CampaignWrite, seat_name
from engine.core.campaign import CampaignRules, CampaignStatus, Record, campaign_rules
from engine.core.errors import IllegalAction, UnknownGame
from engine.core.events import Event
from engine.core.game import GameState, OptionSpec, SeatSpec
from engine.core.prompt import Option
from engine.core.text import plural
from engine.games import get_game, manifest

LOBBY_STATUS, PLAYING, BETWEEN, CAMPAIGN_OVER, CLOSED = "lobby", "playing", "between", "over", "ended"
CHOICES_MAX = 25  # Discord's autocomplete limit
NO_CAMPAIGN = "There is no campaign in this channel. Open one with /campaign new."
NOT_PLAYER = "You are not a player of this campaign: /campaign join first."
UNDER_WAY = "A scenario is under way: that waits until its game ends (then the campaign is between scenarios)."
IS_OVER = "This campaign is over. /campaign log shows its record; /campaign new begins another."
MODERATORS_ONLY = "Only moderators can use /gm commands."


def game_seed(campaign_seed: int, n: int) -> int:
    """The seed of a campaign's n-th game (0-based): fixed by the campaign's seed, different for each game (a
    scenario played again after its game was ended gets a new one)."""
    digest = hashlib.sha256(f"campaign:{campaign_seed}:{n}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits: the database's signed BIGINT


def _fold_text(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _seats(mapping: dict[str, Any]) -> dict[int, Any]:
    return {int(k): v for k, v in mapping.items()}


def _keys(mapping: dict[int, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in sorted(mapping.items())}


@dataclass
class Camp:
    """One campaign as a command sees it: the row as read, the data to change (a copy), and what reconciling
    it with its game found for the channel to read."""

    row: Campaign
    data: dict[str, Any]
    rules: CampaignRules
    game_name: str
    notes: list[str] = field(default_factory=list)
    changed: bool = False

    @property
    def status(self) -> str:
        return str(self.data["status"])

    @property
    def roster(self) -> dict[int, int]:
        return _seats(self.data.get("roster", {}))

    @property
    def names(self) -> dict[int, str]:
        return _seats(self.data.get("names", {}))

    @property
    def record(self) -> Record | None:
        record = self.data.get("record")
        return dict(record) if record is not None else None

    def seats_of(self, user_id: int) -> list[int]:
        return [s for s, u in sorted(self.roster.items()) if u == user_id]

    def set(self, **values: Any) -> None:
        self.data.update(values)
        self.changed = True

    def write(self, *, close: bool = False) -> CampaignWrite:
        assert self.row.id is not None
        return CampaignWrite(self.row.id, self.row.version, dict(self.data), close)


_SERVICES: weakref.WeakKeyDictionary[GameService, CampaignService] = weakref.WeakKeyDictionary()


def campaigns_for(service: GameService) -> CampaignService:
    """The campaign service over `service` (one per GameService, so its end-of-game hook is installed once)."""
    found = _SERVICES.get(service)
    if found is None:
        found = _SERVICES[service] = CampaignService(service)
    return found


class CampaignService:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store
        service.campaign_fold = self.fold

    # ================================================================ catalogue (autocomplete) ==============

    def games(self) -> list[tuple[str, str]]:
        """(id, name) of every game played as campaigns."""
        return [(gid, name) for gid, name in self.service.games() if manifest(gid).campaigns]

    def campaign_options(self, game: str) -> list[OptionSpec]:
        try:
            rules = campaign_rules(get_game(game))
        except UnknownGame:
            return []
        return rules.campaign_options() if rules is not None else []

    async def channel_game(self, channel_id: int) -> str | None:
        """The game of the channel's open campaign (for autocomplete), or None."""
        row = await self.store.open_campaign(channel_id)
        return None if row is None else row.game_type

    async def upgrade_choices(self, channel_id: int, user_id: int, current: str) -> list[tuple[str, str]]:
        """Autocomplete for /campaign upgrade: (label, value) of what the user's investigators may buy now,
        each with every typed word, at most 25. Reads only: a fold still owed is done in memory."""
        try:
            camp = await self._find(channel_id)
            if camp is None:
                return []
            await self._reconcile(camp)
            offers = self._offers(camp, user_id) if camp.status == BETWEEN else []
        except (UserError, IllegalAction):
            return []
        words = _fold_text(current).split()
        return [(label, value) for label, value, _, _ in offers
                if all(w in _fold_text(f"{label} {value}") for w in words)][:CHOICES_MAX]

    # ================================================================ finding and reconciling ===============

    def _camp(self, row: Campaign) -> Camp:
        rules = campaign_rules(get_game(row.game_type))
        if rules is None:  # the game lost its campaigns after this one began: nothing here can go on
            raise UserError(f"{row.game_type} no longer has campaigns in this build of the bot; a moderator can "
                            "close this one with /gm end campaign:True.")
        return Camp(row=row, data=dict(row.data), rules=rules, game_name=get_game(row.game_type).name)

    async def _find(self, channel_id: int, *, closed_too: bool = False) -> Camp | None:
        """The channel's open campaign, else the one whose game is open here (a moderator's undo reopened the
        last game of a finished campaign); with `closed_too`, else the channel's most recent one."""
        row = await self.store.open_campaign(channel_id)
        if row is None:
            game = await self.store.open_game(channel_id)
            if game is not None and game.campaign_id is not None:
                row = await self.store.get_campaign(game.campaign_id)
        if row is None and closed_too:
            row = await self.store.current_campaign(channel_id)
        return None if row is None else self._camp(row)

    async def _open(self, channel_id: int) -> Camp:
        camp = await self._find(channel_id)
        if camp is None:
            last = await self.store.current_campaign(channel_id)
            raise UserError(NO_CAMPAIGN if last is None else IS_OVER)
        await self._reconcile(camp)
        return camp

    async def _reconcile(self, camp: Camp) -> None:
        """Bring the data in line with its scenario game (see the module docstring); changes stay in memory
        until the command writes them."""
        game_id = camp.data.get("game_id")
        if game_id is None or camp.status in (LOBBY_STATUS, CLOSED):
            return
        game = await self.store.get_game(int(game_id))
        if game is None:
            return
        if camp.status == PLAYING and game.status == OVER and camp.data.get("folded") != game.id:
            state = await self.service.game_state(game)
            assert state is not None
            status = self._fold_into(camp, state, game)
            camp.notes += self._after_lines(camp, status)
        elif camp.status == PLAYING and game.status == ENDED:
            camp.set(status=BETWEEN, record=camp.data.get("base"), folded=None)
            camp.notes.append(f"Scenario game #{game.id} was ended before its end: its outcome does not count. "
                              "/campaign next plays the scenario again.")
        elif camp.status in (BETWEEN, CAMPAIGN_OVER) and game.status == ACTIVE:
            camp.set(status=PLAYING, record=camp.data.get("base"), folded=None)
            camp.notes.append(f"A moderator reopened scenario game #{game.id}: the campaign waits for its end "
                              "again (what was bought with its experience is taken back).")

    def _fold_into(self, camp: Camp, state: GameState, game: Game) -> CampaignStatus:
        base = camp.data.get("base")
        assert base is not None
        record = camp.rules.campaign_after(dict(base), state)
        status = camp.rules.campaign_status(record)
        if not status.over:
            record = self._ai_purchases(camp, record, status)
        camp.set(record=record, folded=game.id, status=CAMPAIGN_OVER if status.over else BETWEEN)
        return status

    def _ai_purchases(self, camp: Camp, record: Record, status: CampaignStatus) -> Record:
        """The AI teammates spend their experience as soon as a scenario is in the record: each buys the first
        purchase the game ranks (the smart agent's habit: refills, then upgrades of cards it holds) until none
        is open, stopping after four free purchases in a row. What each bought is said with the campaign's
        status."""
        for seat, user in sorted(camp.roster.items()):
            if not ai_seats.is_ai(user) or seat not in status.seats:
                continue
            bought: list[str] = []
            free_in_a_row = 0
            for _ in range(ai_seats.MAX_PURCHASES):
                offers = camp.rules.campaign_upgrades(record, seat)
                if not offers or free_in_a_row >= 4:
                    break
                xp = camp.rules.campaign_status(record).experience.get(seat, 0)
                record = camp.rules.campaign_upgrade(record, seat, offers[0].id)
                spent = xp - camp.rules.campaign_status(record).experience.get(seat, 0)
                free_in_a_row = free_in_a_row + 1 if spent == 0 else 0
                bought.append(offers[0].label)
            if bought:
                camp.notes.append(f"{camp.names.get(seat, ai_seats.AI_MARK)} spends its experience: "
                                  f"{join_names(bought)}.")
        return record

    async def _save(self, camp: Camp, *, close: bool = False) -> None:
        assert camp.row.id is not None
        camp.row.version = await self.store.save_campaign(camp.row.id, dict(camp.data), close=close,
                                                          expected_version=camp.row.version)
        camp.changed = False

    async def _settle(self, channel_id: int) -> list[str]:
        """Reconcile the channel's campaign with its game and write what changed, in a step of its own (no
        interaction recorded): a command that then fails has changed nothing itself. The lines for the channel."""
        async def work() -> Reply:
            camp = await self._find(channel_id)
            if camp is None:
                return Reply()
            await self._reconcile(camp)
            if camp.changed:
                await self._save(camp, close=camp.status == CAMPAIGN_OVER and camp.row.closed_at is None)
            return Reply(public=list(camp.notes))
        return (await self.service.exclusive(channel_id, None, work)).public

    async def _command(self, channel_id: int, actor: Actor, work: Callable[[], Awaitable[Reply]],
                       notes: list[str]) -> Reply:
        """Settle the campaign, then run `work` through the service's pipeline. `notes` receives what settling
        found (a command that starts a game puts it in the game's first section; others say it first). If the
        command is refused, those lines still reach the channel, the refusal only its caller."""
        notes[:] = await self._settle(channel_id)
        try:
            reply = await self.service.exclusive(channel_id, actor, work)
        except UserError as exc:
            if not notes:
                raise
            return Reply(public=list(notes), ephemeral=[str(exc)])
        if not reply.narrated:
            reply.public = [*notes, *reply.public]
        return reply

    # ================================================================ the end of a scenario (the hook) =======

    async def fold(self, game: Game, state: GameState) -> tuple[CampaignWrite | None, list[Event]]:
        """GameService's `campaign_fold`: campaign `game.campaign_id`'s data with the scenario `state` folded
        in, to write in the game's last step, and what the channel reads about the campaign after it."""
        if game.campaign_id is None:
            return None, []
        row = await self.store.get_campaign(game.campaign_id)
        if row is None or row.data.get("game_id") != game.id:
            return None, []  # not the campaign's current scenario: nothing of the record depends on it
        camp = self._camp(row)
        status = self._fold_into(camp, state, game)
        events = [Event(kind="campaign.status", text=line, cause="campaign")
                  for line in [*self._after_lines(camp, status), *camp.notes]]
        return camp.write(close=status.over), events

    def _after_lines(self, camp: Camp, status: CampaignStatus) -> list[str]:
        """What the channel reads when a scenario's outcome is in the record."""
        if status.over:
            verdict = "won" if status.result == "win" else "lost"
            return [f"The campaign is over ({verdict}) after {status.played} of {status.total} scenarios. "
                    "/campaign log shows its record; /campaign new begins another."]
        lines = [f"Campaign: {status.played} of {status.total} scenarios played; next: {status.next}. Between "
                 "scenarios: /campaign log, /campaign upgrade, /campaign deck, /campaign join or leave; then "
                 "/campaign next."]
        names = camp.names
        out = [names[s] for s in camp.roster if s not in status.seats]
        if out:
            lines.append(f"Out of the campaign: the investigator of {join_names(out)}. A new one comes in with "
                         "/campaign join investigator:<name>.")
        return lines

    # ================================================================ the lobby =============================

    async def new(self, channel_id: int, guild_id: int, actor: Actor, game: str, difficulty: str | None = None,
                  character: str | None = None, *, seed: int | None = None) -> Reply:
        """Open a campaign lobby in the channel; its creator takes the first seat."""
        notes: list[str] = []

        async def work() -> Reply:
            try:
                rules = get_game(game)
            except UnknownGame as exc:
                known = ", ".join(gid for gid, _ in self.games()) or "none"
                raise UserError(f"There is no game called '{game[:40]}'. Games with campaigns: {known}.") from exc
            camp_rules = campaign_rules(rules)
            if not manifest(game).campaigns or camp_rules is None:
                known = ", ".join(gid for gid, _ in self.games()) or "none"
                raise UserError(f"{rules.name} is not played as campaigns: start a game of it with /game new. "
                                f"Games with campaigns: {known}.")
            enabled = (await self.store.guild_settings(guild_id)).enabled_games
            if enabled and game not in enabled:
                raise UserError(f"{rules.name} is not enabled on this server. Enabled: {', '.join(enabled)}.")
            existing = await self.store.open_campaign(channel_id)
            if existing is not None:
                raise UserError(f"This channel already has a campaign ({existing.name}, "
                                f"{existing.data.get('status', '?')}): /campaign log shows it. A moderator can "
                                "close it with /gm end campaign:True.")
            if await self.store.open_game(channel_id) is not None:
                raise UserError("This channel has a game in progress: finish it first (or /game abandon).")
            self._check_character(rules.characters(), character, {})
            options = _validate(camp_rules.campaign_options(),
                                {"difficulty": difficulty} if difficulty is not None else {})
            data = {"status": LOBBY_STATUS, "options": options,
                    "seed": secrets.randbits(63) if seed is None else seed,
                    "roster": {"0": actor.user_id}, "names": {"0": actor.name}, "characters": {"0": character},
                    "decks": {}, "record": None, "base": None, "game_id": None, "games": [], "folded": None}
            try:
                row = await self.store.campaign(guild_id=guild_id, channel_id=channel_id, game_type=game,
                                                name=rules.name, data=data)
            except ChannelBusy as exc:
                raise UserError("This channel already has a campaign: /campaign log shows it.") from exc
            opts = ", ".join(f"{k}={v}" for k, v in options.items())
            camp = self._camp(row)
            return Reply(public=[f"{actor.name} opened a campaign of {rules.name} (campaign #{row.id}"
                                 f"{'; ' + opts if opts else ''}). {self._lobby_seats(camp)} Join with /campaign "
                                 "join [investigator:]; begin with /campaign start."])
        return await self._command(channel_id, actor, work, notes)

    @staticmethod
    def _check_character(characters: list[Option], character: str | None, taken: dict[int, str | None]) -> None:
        if character is None:
            return
        known = {o.id: o.label for o in characters}
        if character not in known:
            raise UserError(f"There is no investigator '{character[:40]}'. Choose one of: {', '.join(known)}.")
        if character in taken.values():
            raise UserError(f"{known[character]} is already in this campaign.")

    def _lobby_seats(self, camp: Camp) -> str:
        labels = {o.id: o.label for o in get_game(camp.row.game_type).characters()}
        chosen = _seats(camp.data.get("characters", {}))
        parts = [f"{s + 1}. {name}" + (f": {labels.get(chosen[s], chosen[s])}" if chosen.get(s) else "")
                 for s, name in sorted(camp.names.items())]
        return ("Seats: " + "; ".join(parts) + ".") if parts else "No one is seated."

    async def join(self, channel_id: int, actor: Actor, character: str | None = None, *, ai: bool = False,
                   replace: int | None = None) -> Reply:
        """Take a seat: in the lobby a new one; between scenarios your seat whose investigator is out, else a
        seat whose player left, else a new seat (a new investigator). `ai`: seat an AI teammate instead (a
        player of the campaign may): it plays its scenarios, keeps its deck, spends its experience between
        scenarios as the smart agent ranks the purchases, and suffers trauma like anyone. `replace` (1-based):
        take over that AI teammate's seat, with its investigator, deck, experience and trauma."""
        notes: list[str] = []

        async def work() -> Reply:
            camp = await self._open(channel_id)
            if replace is not None:
                text = self._take_over(camp, actor, replace)
                await self._save(camp)
                return Reply(public=[*camp.notes, text])
            if ai and not camp.seats_of(actor.user_id):
                raise UserError("Only a player of this campaign can seat an AI teammate: /campaign join first.")
            who = Actor(user_id=ai_seats.next_ai_id_of(camp.roster.values()), name="") if ai else actor
            if camp.status == LOBBY_STATUS:
                text = self._join_lobby(camp, who, character)
            elif camp.status == BETWEEN:
                text = self._join_between(camp, who, character)
            elif camp.status == PLAYING:
                raise UserError(UNDER_WAY)
            else:
                raise UserError(IS_OVER)
            await self._save(camp)
            return Reply(public=[*camp.notes, text])
        return await self._command(channel_id, actor, work, notes)

    def _ai_seat(self, camp: Camp, number: int) -> int:
        """The seat of AI teammate number `number` (1-based, as the lobby and the log count seats), when a seat
        may change hands now (in the lobby or between scenarios)."""
        if camp.status == PLAYING:
            raise UserError(UNDER_WAY)
        if camp.status != LOBBY_STATUS and camp.status != BETWEEN:
            raise UserError(IS_OVER)
        seat = number - 1
        if not ai_seats.is_ai(camp.roster.get(seat)):
            ai = [f"{camp.names.get(s, '?')} (seat {s + 1})" for s, u in camp.roster.items() if ai_seats.is_ai(u)]
            listed = f" AI teammates here: {join_names(ai)}." if ai else " This campaign has no AI teammate."
            raise UserError(f"Seat {number} is not an AI teammate's.{listed}")
        return seat

    def _take_over(self, camp: Camp, actor: Actor, number: int) -> str:
        """A person takes an AI teammate's seat: the investigator, its deck and its record stay the seat's."""
        seat = self._ai_seat(camp, number)
        roster, names = camp.roster, camp.names
        old = names.get(seat, ai_seats.AI_MARK)
        name = seat_name(actor.name, len(camp.seats_of(actor.user_id)) + 1)
        camp.set(roster=_keys({**roster, seat: actor.user_id}), names=_keys({**names, seat: name}))
        if camp.record is not None:
            investigator = camp.rules.campaign_status(camp.record).seats.get(seat)
        else:
            labels = {o.id: o.label for o in get_game(camp.row.game_type).characters()}
            investigator = labels.get(_seats(camp.data.get("characters", {})).get(seat) or "")
        what = f" and {investigator}" if investigator else ""
        return f"{name} takes over seat {seat + 1}{what} from the AI teammate {old}."

    def _join_lobby(self, camp: Camp, actor: Actor, character: str | None) -> str:
        rules = get_game(camp.row.game_type)
        roster = camp.roster
        if len(roster) >= rules.max_players:
            raise UserError(f"{rules.name} seats at most {rules.max_players}; the campaign is full.")
        chosen = _seats(camp.data.get("characters", {}))
        self._check_character(rules.characters(), character, chosen)
        seat = len(roster)
        if ai_seats.is_ai(actor.user_id):
            options = [(o.id, o.label) for o in rules.characters()]
            if character is None:
                character = ai_seats.pick_character(options, set(chosen.values()), int(camp.data["seed"]) + seat)[0]
            name = ai_seats.ai_name(dict(options)[character])
        else:
            name = seat_name(actor.name, len(camp.seats_of(actor.user_id)) + 1)
        camp.set(roster=_keys({**roster, seat: actor.user_id}), names=_keys({**camp.names, seat: name}),
                 characters=_keys({**chosen, seat: character}))
        return f"{name} joins the campaign. {self._lobby_seats(camp)}"

    def _join_between(self, camp: Camp, actor: Actor, character: str | None) -> str:
        record = camp.record
        assert record is not None
        status = camp.rules.campaign_status(record)
        roster, names = camp.roster, camp.names
        mine = camp.seats_of(actor.user_id)
        out_mine = [s for s in mine if s not in status.seats]
        unplayed = [s for s in sorted(status.seats) if s not in roster]
        if character is None and ai_seats.is_ai(actor.user_id) and not unplayed:
            # a new investigator for an AI teammate: one the campaign does not have yet
            options = [(o.id, o.label) for o in get_game(camp.row.game_type).characters()]
            labels = set(status.seats.values())
            free = [o for o in options if ai_seats.ai_name(o[1])[2:] not in labels]
            character = ai_seats.pick_character(free or options, set(), int(camp.data["seed"]) + len(roster))[0]
        if out_mine:
            seat = out_mine[0]
        elif unplayed:
            seat = unplayed[0]
        else:
            rules = get_game(camp.row.game_type)
            if len(status.seats) >= rules.max_players:
                raise UserError(f"{rules.name} seats at most {rules.max_players}; the campaign is full.")
            seat = max([*roster, *status.seats, -1]) + 1
        before = status.seats.get(seat)
        record = camp.rules.campaign_seat(record, seat, character)
        now = camp.rules.campaign_status(record).seats[seat]
        if ai_seats.is_ai(actor.user_id):
            name = ai_seats.ai_name(now)
        else:
            name = names[seat] if seat in mine else seat_name(actor.name, len(mine) + 1)
        camp.set(record=record, roster=_keys({**roster, seat: actor.user_id}), names=_keys({**names, seat: name}))
        if before == now:
            return f"{name} takes over {now} (seat {seat + 1})."
        instead = f" in place of {before}" if before else ""
        return f"{name} joins the campaign with {now} (seat {seat + 1}){instead}."

    async def leave(self, channel_id: int, actor: Actor, retire: bool = False, *, ai_seat: int | None = None) -> Reply:
        """Give up your last seat: in the lobby it goes; between scenarios its investigator waits for another
        player (or, with `retire`, leaves the campaign too). `ai_seat` (1-based): that AI teammate leaves
        instead, the same way (a player of the campaign or a moderator may)."""
        notes: list[str] = []

        async def work() -> Reply:
            camp = await self._open(channel_id)
            if ai_seat is not None:
                seat = self._ai_seat(camp, ai_seat)
                if not camp.seats_of(actor.user_id) and not actor.is_moderator:
                    raise UserError("Only a player of this campaign or a moderator can remove an AI teammate.")
                return await self._leave_seat(camp, seat, retire, f"{actor.name} removes the AI teammate")
            mine = camp.seats_of(actor.user_id)
            if camp.status in (PLAYING,):
                raise UserError(UNDER_WAY + " A moderator can hand your seat to someone with /gm replace.")
            if camp.status in (CAMPAIGN_OVER, CLOSED):
                raise UserError(IS_OVER)
            if not mine:
                raise UserError(NOT_PLAYER)
            return await self._leave_seat(camp, mine[-1], retire, None)
        return await self._command(channel_id, actor, work, notes)

    async def _leave_seat(self, camp: Camp, seat: int, retire: bool, removed_by: str | None) -> Reply:
        """Seat `seat` leaves (its player, or, `removed_by` someone, an AI teammate)."""
        names = camp.names
        if camp.status == LOBBY_STATUS:
            return await self._leave_lobby(camp, seat, removed_by)
        roster = {s: u for s, u in camp.roster.items() if s != seat}
        record = camp.record
        assert record is not None
        investigator = camp.rules.campaign_status(record).seats.get(seat)
        who = names[seat] if removed_by is None else f"{removed_by} {names[seat]}"
        leaves = "leaves the campaign" if removed_by is None else "from the campaign"
        if retire and investigator is not None:
            record = camp.rules.campaign_leave(record, seat)
            text = f"{who} {leaves}, and {investigator} with them."
        elif investigator is not None:
            text = (f"{who} {leaves}. {investigator} (seat {seat + 1}) waits for a player: "
                    "/campaign join takes them over.")
        else:
            text = f"{who} {leaves}."
        camp.set(record=record, roster=_keys(roster), names=_keys({s: n for s, n in names.items() if s != seat}))
        await self._save(camp)
        return Reply(public=[*camp.notes, text])

    async def _leave_lobby(self, camp: Camp, seat: int, removed_by: str | None) -> Reply:
        """A lobby's seats stay numbered 1..n; the last player out closes the lobby."""
        def without(mapping: dict[int, Any]) -> dict[str, Any]:
            kept = [v for s, v in sorted(mapping.items()) if s != seat]
            return {str(n): v for n, v in enumerate(kept)}

        names = camp.names
        decks = _seats(camp.data.get("decks", {}))
        shifted = {s - (s > seat): code for s, code in decks.items() if s != seat}
        camp.set(roster=without(camp.roster), names=without(camp.names),
                 characters=without(_seats(camp.data.get("characters", {}))), decks=_keys(shifted))
        name = names.get(seat, "?")
        if not camp.data["roster"]:
            camp.set(status=CLOSED)
            await self._save(camp, close=True)
            return Reply(public=[f"{name} leaves; the campaign lobby is empty and closes."])
        await self._save(camp)
        what = f"{name} leaves a seat." if removed_by is None else f"{removed_by} {name}."
        return Reply(public=[f"{what} {self._lobby_seats(camp)}"])

    def _lobby_record(self, camp: Camp) -> Record:
        """The record /campaign start makes of the lobby as it is now (dealt by the campaign's seed), with the
        decks imported so far."""
        characters = _seats(camp.data.get("characters", {}))
        seats = [SeatSpec(seat=s, name=name, character=characters.get(s)) for s, name in sorted(camp.names.items())]
        record = camp.rules.new_campaign(seats, dict(camp.data.get("options", {})), int(camp.data["seed"]))
        for seat, code in sorted(_seats(camp.data.get("decks", {})).items()):
            try:
                record = camp.rules.campaign_import_deck(record, seat, code)
            except IllegalAction as exc:
                raise UserError(f"The deck {camp.names.get(seat, f'seat {seat + 1}')} imported no longer fits "
                                f"(the table changed since): {exc} /campaign deck shows the deck you would get; "
                                "import again.") from exc
        return record

    async def start(self, channel_id: int, actor: Actor) -> Reply:
        """Make the campaign's record and open and start its first scenario's game."""
        notes: list[str] = []

        async def work() -> Reply:
            camp = await self._open(channel_id)
            if camp.status != LOBBY_STATUS:
                raise UserError("This campaign has begun already: between scenarios, /campaign next plays on.")
            if not camp.seats_of(actor.user_id):
                raise UserError("Only a player of this campaign can start it: /campaign join first.")
            return await self._launch(channel_id, camp, actor, self._lobby_record(camp), notes)
        return await self._command(channel_id, actor, work, notes)

    # ================================================================ between scenarios =====================

    async def next(self, channel_id: int, actor: Actor) -> Reply:
        """Open and start the next scenario's game (every investigator still in the campaign needs a player)."""
        notes: list[str] = []

        async def work() -> Reply:
            camp = await self._open(channel_id)
            if camp.status == LOBBY_STATUS:
                raise UserError("The campaign has not begun: /campaign start plays its first scenario.")
            if camp.status == PLAYING:
                raise UserError(UNDER_WAY)
            if camp.status != BETWEEN:
                raise UserError(IS_OVER)
            if not camp.seats_of(actor.user_id):
                raise UserError(NOT_PLAYER)
            record = camp.record
            assert record is not None
            status = camp.rules.campaign_status(record)
            missing = [f"{inv} (seat {s + 1})" for s, inv in sorted(status.seats.items()) if s not in camp.roster]
            if missing:
                raise UserError(f"Every investigator still in the campaign needs a player before the next scenario; "
                                f"{join_names(missing)} {'has' if len(missing) == 1 else 'have'} none. Someone "
                                "takes them over with /campaign join (or brings a new investigator there), or their "
                                "player retires them first with /campaign leave retire:True.")
            return await self._launch(channel_id, camp, actor, record, notes)
        return await self._command(channel_id, actor, work, notes)

    async def _launch(self, channel_id: int, camp: Camp, actor: Actor, record: Record, notes: list[str]) -> Reply:
        """Open and start the game of the record's next scenario, the campaign's data in the same transaction;
        `notes` (what settling the campaign found) open the game's first section."""
        status = camp.rules.campaign_status(record)
        order = sorted(status.seats)
        names, roster = camp.names, camp.roster
        games = list(camp.data.get("games", []))
        seed = game_seed(int(camp.data["seed"]), len(games))
        specs = [SeatSpec(seat=s, name=names[s]) for s in order]
        state, events = camp.rules.campaign_game(record, specs, seed)
        seats = [(roster[s], names[s], status.seats[s]) for s in order]
        lead = [*notes, *camp.notes, f"{camp.game_name} campaign, scenario {status.played + 1} of {status.total}: "
                             f"{status.next}, with {join_names([names[s] for s in order])}."]

        def data_with(game_id: int) -> CampaignWrite:
            camp.set(status=PLAYING, record=record, base=record, game_id=game_id, folded=None,
                     games=[*games, game_id])
            return camp.write()

        _, reply = await self.service.open_campaign_game(
            channel_id=channel_id, guild_id=camp.row.guild_id, actor=actor, game_type=camp.row.game_type,
            campaign_id=camp.row.id or 0, seed=seed, seats=seats, state=state, events=events, lead=lead,
            campaign=data_with)
        return reply

    async def log(self, channel_id: int, actor: Actor) -> Reply:
        """The campaign's record as players read it (public). In a channel with no campaign, the record the
        channel's game keeps of its own (one scenario of the card game played on its own has one too)."""
        notes: list[str] = []
        if await self._find(channel_id, closed_too=True) is None:
            record = await game_record(self.service, channel_id, actor)
            if record is not None:
                return record

        async def work() -> Reply:
            camp = await self._find(channel_id, closed_too=True)
            if camp is None:
                raise UserError(NO_CAMPAIGN)
            await self._reconcile(camp)  # (settled just before: only a change since then shows here)
            return Reply(public=chunk_lines([*camp.notes, *self._log_lines(camp)]))
        return await self._command(channel_id, actor, work, notes)

    def _log_lines(self, camp: Camp) -> list[str]:
        head = f"Campaign #{camp.row.id}: {camp.game_name}"
        record = camp.record
        if record is None:
            opts = ", ".join(f"{k}={v}" for k, v in camp.data.get("options", {}).items())
            state = "closed before it began" if camp.status == CLOSED else "gathering players"
            return [f"{head} ({opts}), {state}. {self._lobby_seats(camp)}",
                    "/campaign join [investigator:] to sit down, /campaign deck and /campaign import for your deck, "
                    "/campaign start to begin."]
        status = camp.rules.campaign_status(record)
        lines = [head, *status.lines]
        names = camp.names
        seats = sorted(set(status.seats) | set(names))
        lines.append("Players: " + "; ".join(
            f"seat {s + 1} {status.seats.get(s, 'no investigator')} — {names.get(s, 'no player')}" for s in seats)
            + ".")
        if camp.status == PLAYING:
            lines.append(f"Now: scenario {status.played + 1} of {status.total}, {status.next}, is under way "
                         f"(game #{camp.data.get('game_id')}).")
        elif camp.status == BETWEEN:
            lines.append(f"Next: {status.next}. /campaign upgrade, /campaign join or leave, then /campaign next.")
        elif camp.status == CLOSED:
            lines.append("A moderator closed this campaign.")
        else:
            lines.append(f"The campaign is over ({'won' if status.result == 'win' else 'lost'}).")
        return lines

    def _offers(self, camp: Camp, user_id: int) -> list[tuple[str, str, int, Option]]:
        """(label, value, seat, option) of what each of the user's investigators may buy now. A value names
        the seat and the option (`seat/option id`), so a player with several investigators buys for the one
        they picked."""
        record = camp.record
        assert record is not None
        status = camp.rules.campaign_status(record)
        mine = [s for s in camp.seats_of(user_id) if s in status.seats]
        out: list[tuple[str, str, int, Option]] = []
        for seat in mine:
            for option in camp.rules.campaign_upgrades(record, seat):
                label = f"{status.seats[seat]}: {option.label}" if len(mine) > 1 else option.label
                out.append((label[:100], f"{seat + 1}/{option.id}"[:100], seat, option))
        return out

    async def upgrade(self, channel_id: int, actor: Actor, card: str | None) -> Reply:
        """Spend experience: `card` is an offer's value (from autocomplete), its option id, or its words. No
        card: what is open to you now, with its cost and the experience you have (nothing is bought)."""
        notes: list[str] = []

        async def work() -> Reply:
            camp = await self._open(channel_id)
            self._between(camp, "Upgrades are bought between scenarios")
            if not camp.seats_of(actor.user_id):
                raise UserError(NOT_PLAYER)
            offers = self._offers(camp, actor.user_id)
            if not card or not card.strip():
                return Reply(ephemeral=chunk_lines(self._offer_lines(camp, actor.user_id, offers)))
            if not offers:
                raise UserError("Nothing is open to you to buy now (not enough experience, or your investigator "
                                "is out of the campaign).")
            label, seat, option = self._pick(offers, card)
            record = camp.record
            assert record is not None
            camp.set(record=camp.rules.campaign_upgrade(record, seat, option.id))
            await self._save(camp)
            return Reply(public=list(camp.notes), ephemeral=[f"Bought: {label}. /campaign deck shows your deck's "
                                                             "new code."])
        return await self._command(channel_id, actor, work, notes)

    def _offer_lines(self, camp: Camp, user_id: int, offers: list[tuple[str, str, int, Option]]) -> list[str]:
        """What each of the user's investigators may buy now, under their experience to spend."""
        record = camp.record
        assert record is not None
        status = camp.rules.campaign_status(record)
        lines: list[str] = []
        for seat in [s for s in camp.seats_of(user_id) if s in status.seats]:
            xp = status.experience.get(seat, 0)
            mine = [o[3].label for o in offers if o[2] == seat]
            lines.append(f"**{status.seats[seat]}**: {plural(xp, 'experience point')} to spend; "
                         + (f"{plural(len(mine), 'purchase')} open now:" if mine else "nothing open to buy now."))
            lines += [f"- {label}" for label in mine]
        if not lines:
            lines.append("Your investigator is out of the campaign: nothing to buy.")
        lines.append("Buy one with /campaign upgrade card: (start typing to pick it).")
        return lines

    @staticmethod
    def _pick(offers: list[tuple[str, str, int, Option]], typed: str) -> tuple[str, int, Option]:
        text = typed.strip()
        folded = _fold_text(text)
        exact = [o for o in offers if text in (o[1], o[3].id) or folded == _fold_text(o[0])]
        found = exact or [o for o in offers if folded and all(w in _fold_text(o[0]) for w in folded.split())]
        if len(found) == 1 or (found and len({(o[2], o[3].id) for o in found}) == 1):
            label, _, seat, option = found[0]
            return label, seat, option
        shown = text if len(text) <= 40 else text[:39] + "…"
        if found:
            raise UserError(f"'{shown}' could be: {'; '.join(o[0] for o in found[:8])}. Pick one from the list.")
        raise UserError(f"'{shown}' is not something you can buy now (not enough experience, or it would make the "
                        "deck illegal). Start typing in card: to see what is open to you.")

    @staticmethod
    def _between(camp: Camp, what: str) -> None:
        if camp.status == LOBBY_STATUS:
            raise UserError(f"{what}; this campaign has not begun.")
        if camp.status == PLAYING:
            raise UserError(f"{what}: a scenario is under way.")
        if camp.status != BETWEEN:
            raise UserError(IS_OVER)

    async def deck(self, channel_id: int, actor: Actor) -> Reply:
        """Your investigators' deck codes (private); in the lobby, the starter deck you would get now."""
        notes: list[str] = []

        async def work() -> Reply:
            camp = await self._find(channel_id, closed_too=True)
            if camp is None:
                raise UserError(NO_CAMPAIGN)
            await self._reconcile(camp)
            mine = camp.seats_of(actor.user_id)
            if not mine:
                raise UserError(NOT_PLAYER)
            lobby = camp.status == LOBBY_STATUS
            record = self._lobby_record(camp) if lobby else camp.record
            assert record is not None
            status = camp.rules.campaign_status(record)
            lines = []
            for seat in mine:
                inv = status.seats.get(seat, "no investigator still in the campaign")
                xp = status.experience.get(seat)
                spend = f" ({plural(xp, 'experience point')} to spend)" if xp else ""
                lines.append(f"**Seat {seat + 1}, {inv}**{spend}")
                lines += camp.rules.campaign_deck_lines(record, seat)
                lines.append(f"Deck code: {camp.rules.campaign_deck_code(record, seat)}")
            if lobby:
                lines.append("This is the deck /campaign start would deal you now (who joins still changes it). "
                             "A deck of your own (legal for your investigator, with the weakness you were dealt) "
                             "comes in with /campaign import before the campaign starts.")
            return Reply(ephemeral=chunk_lines(lines))
        return await self._command(channel_id, actor, work, notes)

    async def import_deck(self, channel_id: int, actor: Actor, code: str) -> Reply:
        """Bring your own deck (a deck code) before the first scenario; it goes to the first of your seats
        whose investigator it fits."""
        notes: list[str] = []

        async def work() -> Reply:
            camp = await self._open(channel_id)
            if camp.status == PLAYING:
                raise UserError(UNDER_WAY)
            if camp.status in (CAMPAIGN_OVER, CLOSED):
                raise UserError(IS_OVER)
            mine = camp.seats_of(actor.user_id)
            if not mine:
                raise UserError(NOT_PLAYER)
            first_error: IllegalAction | None = None
            for seat in mine:
                try:
                    if camp.status == LOBBY_STATUS:
                        preview = self._lobby_record(camp)
                        camp.rules.campaign_import_deck(preview, seat, code)  # refused here, not at /campaign start
                        camp.set(decks=_keys({**_seats(camp.data.get("decks", {})), seat: code.strip()}))
                    else:
                        record = camp.record
                        assert record is not None
                        camp.set(record=camp.rules.campaign_import_deck(record, seat, code))
                except IllegalAction as exc:
                    first_error = first_error or exc
                    continue
                await self._save(camp)
                return Reply(public=list(camp.notes),
                             ephemeral=[f"Your deck for seat {seat + 1} is imported."])
            assert first_error is not None
            raise first_error
        return await self._command(channel_id, actor, work, notes)

    # ================================================================ moderators ============================

    async def gm_end(self, channel_id: int, actor: Actor) -> list[Reply]:
        """/gm end campaign:True: end the campaign's running game (as /gm end does) and close the campaign."""
        if not actor.is_moderator:
            raise UserError(MODERATORS_ONLY)
        camp = await self._find(channel_id)
        if camp is None:
            raise UserError("There is no open campaign in this channel (/gm end alone ends a game).")
        replies: list[Reply] = []
        interaction_actor = actor
        game = await self.store.open_game(channel_id)
        if game is not None and game.campaign_id == camp.row.id:
            replies.append(await self.service.gm_end(channel_id, actor))
            # That command was recorded under this interaction; closing the campaign is the same command's rest.
            interaction_actor = Actor(user_id=actor.user_id, name=actor.name, is_moderator=True)

        async def work() -> Reply:
            found = await self._find(channel_id)
            if found is None:
                return Reply(ephemeral=["The campaign was closed already."])
            found.set(status=CLOSED)
            await self._save(found, close=True)
            await self.store.add_audit(guild_id=found.row.guild_id, channel_id=channel_id,
                                       moderator_id=actor.user_id, command="campaign-end",
                                       detail={"campaign_id": found.row.id}, game_id=found.data.get("game_id"))
            return Reply(public=[f"Moderator {actor.name} closed the campaign (campaign #{found.row.id}). "
                                 "/campaign log still shows its record."])
        replies.append(await self.service.exclusive(channel_id, interaction_actor, work))
        return replies


def _validate(specs: list[OptionSpec], given: dict[str, Any]) -> dict[str, Any]:
    """A campaign's options: every spec's value (given or its default), checked; a refusal names the choices."""
    known = {s.id: s for s in specs}
    unknown = [k for k in given if k not in known]
    if unknown:
        names = ", ".join(known) or "none"
        raise UserError(f"This game's campaigns have no option '{unknown[0]}'. Options: {names}.")
    out: dict[str, Any] = {}
    for spec in specs:
        value = given.get(spec.id, spec.default)
        if spec.kind == "choice":
            ids = [c.id for c in spec.choices]
            folded = {_fold_text(c.id): c.id for c in spec.choices} | {_fold_text(c.label): c.id for c in spec.choices}
            if _fold_text(str(value)) not in folded:
                raise UserError(f"{spec.label} must be one of: {', '.join(ids)}.")
            value = folded[_fold_text(str(value))]
        elif spec.kind == "int":
            try:
                value = int(value)
            except (TypeError, ValueError) as exc:
                raise UserError(f"{spec.label} must be a whole number.") from exc
            if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
                raise UserError(f"{spec.label} must be from {spec.min} to {spec.max}.")
        elif spec.kind == "bool":
            value = str(value).lower() in ("true", "yes", "on", "1")
        out[spec.id] = value
    return out

