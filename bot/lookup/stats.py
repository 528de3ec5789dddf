"""`/game history` and `/stats` in words: the store's records of finished games (bot/store/repo.py, SQL on
either database) with names from each game's cards, and each game's own words from its manifest."""

from __future__ import annotations

from bot.games.manifest import StatsKeys, bot_games
from bot.lookup.cards import by_id
from bot.lookup.help import game_name
from bot.service_text import result_sentence
from bot.store.repo import FactPaths, FinishedGame, Tally

#: most played investigators listed
TOP_CHARACTERS = 5

RESULT_SHORT = {"win": "won", "loss": "lost", "ended": "ended by a moderator", "abandoned": "abandoned"}


def fact_paths() -> dict[str, FactPaths]:
    """Each registered game's fact paths, as the store's queries take them."""
    return {gid: FactPaths(g.stats.scenario, g.stats.rounds, g.stats.characters)
            for gid, g in bot_games().items() if g.stats is not None}


def keys(game_type: str) -> StatsKeys | None:
    game = bot_games().get(game_type)
    return game.stats if game is not None else None


def card_name(game_type: str, card_id: str | None) -> str:
    """A card's name from its game's cards; an unknown id as readable words."""
    if not card_id:
        return "unknown"
    entry = by_id(game_type, card_id)
    if entry is not None:
        return entry.name
    return card_id.rsplit(".", 1)[-1].replace("-", " ").title()


def _number(value: float) -> str:
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def _length(game_type: str, rounds: float | None, steps: float) -> str:
    k = keys(game_type)
    word = k.round_word if k is not None else "round"
    shown = f"{_number(rounds)} {word}{'s' if rounds != 1 else ''}, " if rounds is not None else ""
    return f"{shown}{_number(steps)} step{'s' if steps != 1 else ''}"


def history_lines(games: list[FinishedGame], page: int, pages: int) -> list[str]:
    lines = [f"Finished games in this channel, page {page}/{pages} (newest first):"]
    for g in games:
        game = g.game
        against = f" against {card_name(game.game_type, g.scenario)}" if g.scenario else ""
        when = f"{game.ended_at:%Y-%m-%d}" if game.ended_at else "?"
        players = ", ".join(g.players) or "nobody"
        result = RESULT_SHORT.get(game.result or "", result_sentence(game.result))
        lines.append(f"• #{game.id} {when} — {game_name(game.game_type)}{against}: **{result}**, "
                     f"{_length(game.game_type, g.rounds, game.state_step)}. Players: {players}.")
    return lines


def _record(t: Tally) -> str:
    other = t.games - t.wins - t.losses
    rest = f", {other} unfinished" if other else ""
    return f"{t.games} game{'s' if t.games != 1 else ''}: {t.wins} won, {t.losses} lost{rest}"


def stats_lines(who: str, by_game: list[Tally], by_scenario: list[Tally],
                characters: list[tuple[str, str, int]],
                ai_split: dict[bool, tuple[int, int]] | None = None) -> list[str]:
    if not by_game:
        return [f"No finished games for {who} yet."]
    total = sum(t.games for t in by_game)
    won = sum(t.wins for t in by_game)
    lines = [f"**Record of {who}**: {total} finished game{'s' if total != 1 else ''}, {won} won."]
    if ai_split and True in ai_split:
        (n, w), (m, v) = ai_split[True], ai_split.get(False, (0, 0))
        lines.append(f"  With AI teammates: {n} game{'s' if n != 1 else ''}, {w} won; "
                     f"without: {m} game{'s' if m != 1 else ''}, {v} won.")
    for t in by_game:
        k = keys(t.game_type)
        average = _length(t.game_type, t.rounds, t.steps)
        lines.append(f"**{game_name(t.game_type)}** — {_record(t)}; on average {average}.")
        scenarios = [s for s in by_scenario if s.game_type == t.game_type and s.scenario]
        if scenarios and k is not None:
            lines.append(f"  By {k.scenario_word}: " + "; ".join(
                f"{card_name(t.game_type, s.scenario)} {s.wins}–{s.losses}"
                + (f" ({s.games - s.wins - s.losses} unfinished)" if s.games - s.wins - s.losses else "")
                for s in scenarios) + " (won–lost).")
        played = [(card, n) for gt, card, n in characters if gt == t.game_type][:TOP_CHARACTERS]
        if played:
            lines.append("  Most played: " + ", ".join(f"{card_name(t.game_type, card)} ({n})" for card, n in played)
                         + ".")
    return lines
