"""The card game as a campaign of separate games (engine/core/campaign.py): each scenario is one game; the
record between them is the `CampaignState`, with the campaign's own seats.

Decisions (docs/arkham_lcg.md, "Campaigns in a channel"):
* A scenario game holds the investigators still in the campaign, renumbered 0..n-1 in campaign-seat order;
  `campaign_after` maps them back.
* A player who joins between scenarios, or replaces an investigator who was killed, driven insane or whose
  player left, takes a new investigator with its starter deck, a random basic weakness from the shared pool,
  and as much unspent experience as the most experienced investigator of the group has earned [decision: a
  newcomer is not left far behind the group's decks].
* A deck code may be imported only before the campaign's first scenario (after that, a deck changes only by
  spending experience); the imported deck must be legal for the investigator and hold its dealt weakness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.arkham_lcg.content import Content, content_of, default_content
from engine.arkham_lcg.state import CampaignState, InvestigatorRecord, LcgState
from engine.core.campaign import CampaignStatus, Record
from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.game import GameState, OptionSpec, SeatSpec
from engine.core.prompt import Option
from engine.core.rng import Rng
from engine.core.text import plural

if TYPE_CHECKING:
    from engine.arkham_lcg.deckbuilding import Upgrade


def new_record(c: Content, camp: CampaignState, seat: int, code: str, rng: Rng) -> InvestigatorRecord:
    from engine.arkham_lcg.deckbuilding import starting_deck

    if not camp.weakness_pool:  # more investigators than basic weaknesses: a second copy of each [decision]
        camp.weakness_pool = c.basic_weaknesses()
    weakness = camp.weakness_pool.pop(rng.below(len(camp.weakness_pool)))
    return InvestigatorRecord(seat=seat, code=code, deck=starting_deck(c, code, weakness))


def _content(camp: CampaignState) -> Content:
    return content_of(camp.content_version) if camp.content_version else default_content()


class CampaignMixin:
    """`CampaignRules` for the card game (mixed into its rules object)."""

    id: str
    if TYPE_CHECKING:  # supplied by the rules class this is mixed into (engine/arkham_lcg/rules.py)
        def option_specs(self) -> list[OptionSpec]: ...

        def build_campaign(self, seats: list[SeatSpec], options: dict[str, Any], rng: Rng) -> CampaignState: ...

        def start(self, camp: CampaignState, seats: list[SeatSpec], options: dict[str, Any], seed: int,
                  rng: Rng) -> tuple[GameState, list[Event]]: ...

        def _investigator_id(self, character: str) -> str: ...

    # ---------------------------------------------------------------- the contract

    def campaign_options(self) -> list[OptionSpec]:
        return [s for s in self.option_specs() if s.id == "difficulty"]

    def new_campaign(self, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> Record:
        camp = self.build_campaign(seats, options, Rng.from_seed(seed))
        return camp.model_dump(mode="json")

    def campaign_game(self, record: Record, seats: list[SeatSpec], seed: int) -> tuple[GameState, list[Event]]:
        camp = CampaignState.model_validate(record)
        c = _content(camp)
        if camp.scenario_index >= len(c.campaign.scenarios):
            raise IllegalAction("This campaign is over: there is no next scenario.")
        active = [r for r in camp.investigators if r.status == "active"]
        if not active:
            raise IllegalAction("Every investigator of this campaign is out of it.")
        present = {s.seat: s for s in seats}
        missing = [r.seat for r in active if r.seat not in present]
        if missing:
            raise IllegalAction("Every investigator still in the campaign needs a player before the next scenario.")
        # the game's own seats: the active investigators, renumbered in campaign-seat order
        order = sorted(r.seat for r in active)
        game = camp.model_copy(deep=True)
        game.investigators = []
        for n, cs in enumerate(order):
            rec = next(r for r in camp.investigators if r.seat == cs).model_copy(deep=True)
            rec.seat = n
            game.investigators.append(rec)
        game.stop_after = camp.scenario_index
        game_seats = [SeatSpec(seat=n, name=present[cs].name, character=None) for n, cs in enumerate(order)]
        options = {"difficulty": camp.difficulty, "play": c.campaign.scenarios[camp.scenario_index],
                   "campaign_seats": order}
        return self.start(game, game_seats, options, seed, Rng.from_seed(seed))

    def campaign_after(self, record: Record, state: GameState) -> Record:
        assert isinstance(state, LcgState)
        if not state.over:
            raise IllegalAction("The scenario is not over yet.")
        camp = CampaignState.model_validate(record)
        played = state.campaign
        order: list[int] = list(state.options.get("campaign_seats", range(len(played.investigators))))
        for n, cs in enumerate(order):
            after = played.investigators[n].model_copy(deep=True)
            after.seat = cs
            camp.investigators = [after if r.seat == cs else r for r in camp.investigators]
        for field in ("log", "crossed_out", "bag", "results", "weakness_pool", "scenario_index"):
            setattr(camp, field, getattr(played, field))
        camp.stop_after = None
        return camp.model_dump(mode="json")

    def campaign_status(self, record: Record) -> CampaignStatus:
        camp = CampaignState.model_validate(record)
        c = _content(camp)
        total = len(c.campaign.scenarios)
        active = [r for r in camp.investigators if r.status == "active"]
        over = camp.scenario_index >= total or (not active and bool(camp.results))
        result = None
        if over:
            last = camp.results[-1].split(":")[-1] if camp.results else "loss"
            result = "win" if active and last == "win" and camp.scenario_index >= total else "loss"
        lines = [f"{c.campaign.name} ({camp.difficulty}): {len(camp.results)} of {total} scenarios played."]
        for played in camp.results:
            sid, which, outcome = played.split(":")
            said = "no resolution" if which == "none" else f"resolution {which[1:]}"
            lines.append(f"{c.scenarios[sid].name}: {said} ({outcome})")
        lines += [f"Log: {entry}" + (" (crossed out)" if entry in camp.crossed_out else "") for entry in camp.log]
        for r in camp.investigators:
            inv = c.investigators[r.code]
            lines.append(f"{inv.name} (seat {r.seat + 1}): {r.status}, {r.xp} XP unspent ({r.xp_earned} earned), "
                         f"trauma {r.physical_trauma} physical / {r.mental_trauma} mental")
        nxt = "" if over else c.scenarios[c.campaign.scenarios[camp.scenario_index]].name
        return CampaignStatus(over=over, result=result, played=len(camp.results), total=total, next=nxt,
                              lines=lines, seats={r.seat: c.investigators[r.code].name for r in active},
                              experience={r.seat: r.xp for r in active})

    def campaign_seat(self, record: Record, seat: int, character: str | None) -> Record:
        camp = CampaignState.model_validate(record)
        c = _content(camp)
        current = next((r for r in camp.investigators if r.seat == seat), None)
        if character is None:
            if current is None or current.status != "active":
                raise IllegalAction("Choose an investigator: this seat has none still in the campaign.")
            return record
        code = self._investigator_id(character)
        taken = [r.seat for r in camp.investigators if r.code == code and r.status == "active" and r.seat != seat]
        if taken:
            raise IllegalAction(f"{c.investigators[code].name} is already in this campaign.")
        if current is not None and current.status == "active" and current.code == code:
            return record
        rng = Rng.from_seed(len(camp.log) * 7919 + seat * 104729 + len(camp.results))
        rec = new_record(c, camp, seat, code, rng)
        rec.xp = max((r.xp_earned for r in camp.investigators), default=0)
        rec.xp_earned = rec.xp
        camp.investigators = [r for r in camp.investigators if r.seat != seat]
        if current is not None:  # the old investigator's record stays in the log under a retired seat number
            current.seat = -1 - seat - 100 * len(camp.results)
            if current.status == "active":
                current.status = "retired"
            camp.investigators.append(current)
        camp.investigators.append(rec)
        camp.investigators.sort(key=lambda r: r.seat)
        return camp.model_dump(mode="json")

    def campaign_leave(self, record: Record, seat: int) -> Record:
        camp = CampaignState.model_validate(record)
        for r in camp.investigators:
            if r.seat == seat and r.status == "active":
                r.status = "retired"
                return camp.model_dump(mode="json")
        raise IllegalAction("No investigator of this campaign sits there.")

    def _upgrade_list(self, camp: CampaignState, seat: int) -> list[Upgrade]:
        from engine.arkham_lcg.deckbuilding import legal_upgrades

        rec = next((r for r in camp.investigators if r.seat == seat and r.status == "active"), None)
        if rec is None:
            raise IllegalAction("No investigator of this campaign sits there.")
        return legal_upgrades(_content(camp), rec)

    def campaign_upgrades(self, record: Record, seat: int) -> list[Option]:
        camp = CampaignState.model_validate(record)
        return [Option(id=f"{u.add}>{u.remove or ''}", label=u.label, data=u)
                for u in self._upgrade_list(camp, seat)]

    def campaign_upgrade(self, record: Record, seat: int, option_id: str) -> Record:
        from engine.arkham_lcg.deckbuilding import apply_upgrade

        camp = CampaignState.model_validate(record)
        ups = {f"{u.add}>{u.remove or ''}": u for u in self._upgrade_list(camp, seat)}
        up = ups.get(option_id)
        if up is None:
            raise IllegalAction("That purchase is not open to you now (not enough experience, or it would make "
                                "the deck illegal).")
        camp.investigators = [apply_upgrade(_content(camp), r, up) if r.seat == seat and r.status == "active" else r
                              for r in camp.investigators]
        return camp.model_dump(mode="json")

    def campaign_deck_code(self, record: Record, seat: int) -> str:
        from engine.arkham_lcg.deckbuilding import deck_code

        camp = CampaignState.model_validate(record)
        rec = next((r for r in camp.investigators if r.seat == seat), None)
        if rec is None:
            raise IllegalAction("No investigator of this campaign sits there.")
        return deck_code(rec.deck)

    def campaign_deck_lines(self, record: Record, seat: int) -> list[str]:
        """Assets, events, skills, then weaknesses: `2× Name` (with its level when above 0), names sorted; the
        card count of the deck (weaknesses included, as it is shuffled) first."""
        camp = CampaignState.model_validate(record)
        rec = next((r for r in camp.investigators if r.seat == seat), None)
        if rec is None:
            raise IllegalAction("No investigator of this campaign sits there.")
        c = _content(camp)
        groups: dict[str, list[tuple[str, int]]] = {}
        for cid, copies in rec.deck.items():
            card = c.player.get(cid)
            if card is None:  # a card this build no longer has: named by its id rather than dropped
                groups.setdefault("other", []).append((cid, copies))
                continue
            kind = "weakness" if card.weakness is not None or card.type in ("treachery", "enemy") else card.type
            name = card.name + (f" (level {card.level})" if card.level else "")
            groups.setdefault(kind, []).append((name, copies))
        lines = [f"{plural(sum(rec.deck.values()), 'card')}:"]
        for kind, title in (("asset", "Assets"), ("event", "Events"), ("skill", "Skills"),
                            ("weakness", "Weaknesses"), ("other", "Other")):
            cards = sorted(groups.get(kind, []))
            if cards:
                count = sum(n for _, n in cards)
                lines.append(f"{title} ({count}): " + ", ".join(f"{n}× {name}" for name, n in cards))
        return lines

    def campaign_import_deck(self, record: Record, seat: int, code: str) -> Record:
        from engine.arkham_lcg.deckbuilding import deck_errors, parse_deck_code

        camp = CampaignState.model_validate(record)
        if camp.results:
            raise IllegalAction("A deck can be imported only before the campaign's first scenario; after that it "
                                "changes by spending experience.")
        rec = next((r for r in camp.investigators if r.seat == seat and r.status == "active"), None)
        if rec is None:
            raise IllegalAction("No investigator of this campaign sits there.")
        deck = parse_deck_code(code)
        c = _content(camp)
        dealt = {cid: n for cid, n in rec.deck.items() if c.player[cid].weakness == "basic"}
        missing = [cid for cid in dealt if cid not in deck]
        if missing:
            raise IllegalAction(f"The deck must keep the weakness you were dealt ({c.player[missing[0]].name}).")
        xp_cards = [cid for cid in deck if cid in c.player and (c.player[cid].level or 0) > 0]
        if xp_cards:
            raise IllegalAction("A new campaign's deck holds level 0 cards only (buy upgrades with experience).")
        errors = deck_errors(c, rec.code, deck, dealt=dealt)
        if errors:
            raise IllegalAction("That deck is not legal: " + " ".join(errors[:3]))
        rec.deck = dict(deck)
        return camp.model_dump(mode="json")
