"""/game history and /stats (issue 16, item 4): the record of finished games, computed by SQL from the store on
SQLite and (marked postgres, through the `service` fixture) PostgreSQL. The facts come from each game's final
state as its bot manifest points to them (Elder Sign: `ao`, `day`, `table[*].investigator.card`; Eldritch
Horror: `ao`, `round`, `investigators[*].card`); every figure is checked against the engine's own states."""

from __future__ import annotations

from collections import Counter

import pytest
from sqlalchemy.dialects import postgresql, sqlite

from bot.lookup.stats import fact_paths
from bot.service import Actor, GameService, UserError
from bot.store import OVER
from bot.store.models import Snapshot
from bot.store.repo import FactPaths, characters_played, finished_games, json_path, json_text, tallies
from engine import api
from engine.agents import RandomAgent
from engine.core.game import GameState
from tests.bot.conftest import ALICE, BOB, CAROL, GUILD, MOD

ES_CHANNEL, EH_CHANNEL, OTHER_CHANNEL = 701, 702, 703


async def finish(service: GameService, channel: int, players: tuple[Actor, ...], ancient_one: str, seed: int,
                 agent_seed: int = 7) -> tuple[GameState, GameState]:
    """An Elder Sign game opened and started through the service, played to its end by a seeded random player
    (engine only: seconds become milliseconds), its final state committed as the game's last step; (its state
    at the start, its final state)."""
    await service.new_game(channel, GUILD, players[0], "elder-sign", {"ancient_one": ancient_one}, seed=seed)
    for p in players[1:]:
        await service.join(channel, p)
    await service.start(channel, players[0])
    game = await service.store.open_game(channel)
    assert game is not None and game.id is not None
    state, _, _, _ = await service.command_state(channel, "elder-sign", players[0].user_id)
    start, state = state, state.model_copy(deep=True)
    agent = RandomAgent(agent_seed)
    while not state.over:
        state, _ = api.apply(state, agent.act(state, api.prompts(state)[0]), in_place=True)
    await service.store.commit_step(game.id, game.version, None, api.to_json(state), [], OVER, state.result,
                                    step=state.step, prompt_seq=None)
    service._forget_channel(channel)
    return start, state


def played_by_seat(start: GameState, end: GameState) -> set[tuple[int, str]]:
    """(seat, investigator) of the seats' investigators at the start and at the end of a game."""
    return {(i, seat.investigator.card) for state in (start, end)
            for i, seat in enumerate(state.table) if seat.investigator is not None}  # type: ignore[attr-defined]


@pytest.fixture
async def record(service: GameService) -> dict[str, GameState]:
    """Two finished Elder Sign games in one channel (a win and a loss, bob in one only), an Eldritch Horror game
    ended by a moderator, and a lobby that never started (not counted)."""
    won_start, won = await finish(service, ES_CHANNEL, (ALICE, BOB), "shub-niggurath", seed=119)
    lost_start, lost = await finish(service, ES_CHANNEL, (ALICE,), "azathoth", seed=7)
    await service.new_game(EH_CHANNEL, GUILD, CAROL, "eldritch", {"ancient_one": "azathoth"}, seed=3)
    await service.start(EH_CHANNEL, CAROL)
    eh_state, _, _, _ = await service.command_state(EH_CHANNEL, "eldritch", CAROL.user_id)
    await service.gm_end(EH_CHANNEL, MOD)
    await service.new_game(OTHER_CHANNEL, GUILD, BOB, "elder-sign", {})
    await service.gm_end(OTHER_CHANNEL, MOD)
    assert won.result == "win" and lost.result == "loss"
    return {"won": won, "lost": lost, "eh": eh_state, "won_start": won_start, "lost_start": lost_start}


def test_json_paths_compile_for_both_databases() -> None:
    """The facts are read by the database itself: json_extract on SQLite, #>> on the text cast to jsonb on
    PostgreSQL; a path is plain keys only (it is written into the SQL)."""
    expr = json_text(Snapshot.state, "table[2].investigator.card")
    assert "json_extract(snapshot.state, '$.table[2].investigator.card')" in str(
        expr.compile(dialect=sqlite.dialect()))
    assert "(CAST(snapshot.state AS jsonb) #>> '{table,2,investigator,card}')" in str(
        expr.compile(dialect=postgresql.dialect()))
    assert json_path("investigators[0].card") == ("investigators", "0", "card")
    with pytest.raises(ValueError):
        json_path("ao'); DROP TABLE game; --")


def test_every_manifest_with_stats_has_valid_paths() -> None:
    paths = fact_paths()
    assert {"elder-sign", "eldritch"} <= set(paths)
    for p in paths.values():
        assert isinstance(p, FactPaths) and p.scenario and p.rounds and p.characters and "[*]" in p.characters
        json_path(p.scenario), json_path(p.rounds)


async def test_tallies_by_game_and_by_ancient_one(service: GameService, record: dict[str, GameState]) -> None:
    won, lost = record["won"], record["lost"]
    by_game = {t.game_type: t for t in await tallies(service.store, fact_paths(), guild_id=GUILD)}
    es, eh = by_game["elder-sign"], by_game["eldritch"]
    assert (es.games, es.wins, es.losses) == (2, 1, 1)
    assert es.rounds == pytest.approx((won.day + lost.day) / 2)  # type: ignore[attr-defined]
    assert es.steps == pytest.approx((won.step + lost.step) / 2)
    assert (eh.games, eh.wins, eh.losses) == (1, 0, 0)  # ended by a moderator: neither won nor lost
    assert eh.rounds == record["eh"].round  # type: ignore[attr-defined]
    by_ao = await tallies(service.store, fact_paths(), guild_id=GUILD, by_scenario=True)
    assert {(t.game_type, t.scenario, t.wins, t.losses) for t in by_ao} == {
        ("elder-sign", "es.ao.shub-niggurath", 1, 0), ("elder-sign", "es.ao.azathoth", 0, 1),
        ("eldritch", "eh.ao.azathoth", 0, 0)}
    assert await tallies(service.store, fact_paths(), guild_id=GUILD + 1) == []


async def test_a_players_record_counts_only_their_games_and_seats(service: GameService,
                                                                  record: dict[str, GameState]) -> None:
    mine = await tallies(service.store, fact_paths(), guild_id=GUILD, user_id=BOB.user_id)
    assert [(t.game_type, t.games, t.wins) for t in mine] == [("elder-sign", 1, 1)]
    played = await characters_played(service.store, fact_paths(), guild_id=GUILD, user_id=BOB.user_id)
    bobs = {card for seat, card in played_by_seat(record["won_start"], record["won"]) if seat == 1}
    assert played == [("elder-sign", card, 1) for card in sorted(bobs)]


async def test_most_played_investigators_match_the_final_states(service: GameService,
                                                                record: dict[str, GameState]) -> None:
    """Those the seats began with and those at the table at the end (a devoured one leaves the final state)."""
    played = await characters_played(service.store, fact_paths(), guild_id=GUILD)
    expected = Counter(("elder-sign", card) for start, end in ((record["won_start"], record["won"]),
                                                               (record["lost_start"], record["lost"]))
                       for _, card in played_by_seat(start, end))
    expected.update(("eldritch", i.card) for i in record["eh"].investigators if i.card)  # type: ignore[attr-defined]
    assert Counter({(g, c): n for g, c, n in played}) == expected
    assert [n for _, _, n in played] == sorted((n for _, _, n in played), reverse=True)


async def test_game_history_lists_the_channels_finished_games(service: GameService,
                                                              record: dict[str, GameState]) -> None:
    games, pages = await finished_games(service.store, ES_CHANNEL, fact_paths())
    assert pages == 1 and [g.game.result for g in games] == ["loss", "win"]  # newest first
    assert [g.scenario for g in games] == ["es.ao.azathoth", "es.ao.shub-niggurath"]
    assert games[1].rounds == record["won"].day and games[1].players == ["alice", "bob"]  # type: ignore[attr-defined]
    reply = await service.history(ES_CHANNEL)
    text = "\n".join(reply.ephemeral)
    assert not reply.public and "page 1/1" in text
    assert "Elder Sign against Shub-Niggurath: **won**" in text and "Elder Sign against Azathoth: **lost**" in text
    assert f"{record['won'].day} days, {record['won'].step} steps. Players: alice, bob." in text  # type: ignore
    empty = await service.history(OTHER_CHANNEL)
    assert empty.ephemeral == ["No game has finished in this channel yet. /game new opens one."]
    with pytest.raises(UserError, match="The history has 1 page."):
        await service.history(ES_CHANNEL, page=2)


async def test_stats_in_words(service: GameService, record: dict[str, GameState]) -> None:
    text = "\n".join((await service.stats(ES_CHANNEL, GUILD)).ephemeral)
    assert "**Record of this server**: 3 finished games, 1 won." in text
    assert "**Elder Sign** — 2 games: 1 won, 1 lost; on average" in text
    assert "By Ancient One: " in text and "Shub-Niggurath 1–0" in text and "Azathoth 0–1" in text
    assert "**Eldritch Horror** — 1 game: 0 won, 0 lost, 1 unfinished" in text
    assert "Most played: " in text
    bob = "\n".join((await service.stats(ES_CHANNEL, GUILD, BOB.user_id, "bob")).ephemeral)
    assert "**Record of bob**: 1 finished game, 1 won." in bob and "Eldritch" not in bob
    nobody = await service.stats(ES_CHANNEL, GUILD, 424242, "dan")
    assert nobody.ephemeral == ["No finished games for dan yet."]
