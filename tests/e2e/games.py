"""A test-only game that asks one decision of every shape the bot must render: many options (select menus),
several choices (a multi-select), small and large amounts (buttons, a typed form), an order (a form), a
yes/no, and option ids too long for a custom_id. Each answer is narrated, so a test can check that what was
clicked is what the engine received."""

from __future__ import annotations

from typing import Any

from engine.core.events import Event
from engine.core.game import GameRules, GameState, SeatSpec, Summary
from engine.core.prompt import Action, Option, Prompt, PromptKind

LONG = "x" * 90  # option ids this long cannot ride in a button's custom_id


def _options(ids: list[str], labels: list[str] | None = None) -> list[Option]:
    return [Option(id=i, label=(labels or ids)[n]) for n, i in enumerate(ids)]


STAGES: list[Prompt] = [
    Prompt(seq=0, seats=[0], kind=PromptKind.ONE, title="Pick one of thirty",
           options=_options([f"opt-{n:02d}" for n in range(30)], [f"Option {n}" for n in range(30)])),
    Prompt(seq=0, seats=[0], kind=PromptKind.MANY, title="Pick one to three", min_choices=1, max_choices=3,
           options=_options(["red", "green", "blue", "gold", "gray", "jade"])),
    Prompt(seq=0, seats=[0], kind=PromptKind.AMOUNT, title="How many (0-5)?", min_amount=0, max_amount=5),
    Prompt(seq=0, seats=[0], kind=PromptKind.AMOUNT, title="How many (0-100)?", min_amount=0, max_amount=100),
    Prompt(seq=0, seats=[0], kind=PromptKind.ORDER, title="Put them in order",
           options=_options(["first", "second", "third"])),
    Prompt(seq=0, seats=[0], kind=PromptKind.CONFIRM, title="Sure?", options=_options(["yes", "no"], ["Yes", "No"])),
    Prompt(seq=0, seats=[0], kind=PromptKind.ONE, title="Long ids",
           options=_options([f"{LONG}-{n}" for n in range(3)], ["Long A", "Long B", "Long C"])),
    Prompt(seq=0, seats=[0], kind=PromptKind.MANY, title="Pick two of thirty", min_choices=2, max_choices=2,
           options=_options([f"many-{n:02d}" for n in range(30)], [f"Many {n}" for n in range(30)])),
]


class SamplerState(GameState):
    stage: int = 0
    current_seq: int = 0
    answers: list[str] = []


class SamplerRules(GameRules):
    id = "sampler"
    name = "Sampler"
    min_players = 1
    max_players = 1
    state_type = SamplerState

    def new_game(self, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> tuple[GameState, list[Event]]:
        state = SamplerState(game=self.id, content_version="1", seed=seed, options=options, seats=seats)
        state.current_seq = state.next_seq()
        return state, [Event(kind="game.started", text="The sampler begins.", render=True)]

    def prompts(self, state: GameState) -> list[Prompt]:
        assert isinstance(state, SamplerState)
        if state.over:
            return []
        return [STAGES[state.stage].model_copy(update={"seq": state.current_seq})]

    def apply(self, state: GameState, action: Action, prompt: Prompt) -> list[Event]:
        assert isinstance(state, SamplerState)
        answer = str(action.amount) if action.amount is not None else ",".join(action.choice)
        state.answers.append(answer)
        events = [Event(kind="answered", text=f"Stage {state.stage + 1} answered: {answer}", render=True)]
        state.stage += 1
        state.current_seq = state.next_seq()
        if state.stage == len(STAGES):
            state.over, state.result = True, "win"
        return events

    def view(self, state: GameState, seat: int | None) -> dict[str, Any]:
        assert isinstance(state, SamplerState)
        return {"stage": state.stage, "answers": list(state.answers)}

    def summary(self, state: GameState) -> Summary:
        assert isinstance(state, SamplerState)
        return Summary(phase="sampling", round=state.stage + 1, waiting_for=[] if state.over else [0],
                       headline=f"Stage {state.stage + 1}", over=state.over, result=state.result)


SAMPLER = SamplerRules()


class DuetState(GameState):
    round: int = 0
    answered: dict[int, str] = {}
    seqs: dict[int, int] = {}


class DuetRules(GameRules):
    """Every seat is asked at once (as Elder Sign's Ancient One attack asks every investigator), answered in
    any order; when all have answered, the round ends. Three rounds win."""

    id = "duet"
    name = "Duet"
    min_players = 1
    max_players = 4
    state_type = DuetState

    def new_game(self, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> tuple[GameState, list[Event]]:
        state = DuetState(game=self.id, content_version="1", seed=seed, options=options, seats=seats)
        events = self._next_round(state)
        return state, events

    def _next_round(self, state: DuetState) -> list[Event]:
        state.round += 1
        state.answered = {}
        state.seqs = {s.seat: state.next_seq() for s in state.seats}
        return [Event(kind="turn.started", text=f"Round {state.round}: everyone chooses at once.")]

    def prompts(self, state: GameState) -> list[Prompt]:
        assert isinstance(state, DuetState)
        if state.over:
            return []
        return [Prompt(seq=seq, seats=[seat], kind=PromptKind.ONE, title=f"{state.seat_name(seat)}: high or low?",
                       options=_options(["high", "low"], ["High", "Low"]), default=["low"])
                for seat, seq in state.seqs.items() if seat not in state.answered]

    def apply(self, state: GameState, action: Action, prompt: Prompt) -> list[Event]:
        assert isinstance(state, DuetState)
        state.answered[action.seat] = action.choice[0]
        events = [Event(kind="answered", text=f"{state.seat_name(action.seat)} has chosen.")]
        if len(state.answered) == len(state.seats):
            events.append(Event(kind="turn.ended", text=f"Round {state.round} is over.", render=True))
            if state.round == 3:
                state.over, state.result = True, "win"
            else:
                events += self._next_round(state)
        return events

    def view(self, state: GameState, seat: int | None) -> dict[str, Any]:
        assert isinstance(state, DuetState)
        return {"round": state.round, "answered": len(state.answered)}

    def summary(self, state: GameState) -> Summary:
        assert isinstance(state, DuetState)
        waiting = [s for s in state.seqs if s not in state.answered] if not state.over else []
        return Summary(phase="duet", round=state.round, waiting_for=waiting, headline=f"Round {state.round}",
                       over=state.over, result=state.result)


DUET = DuetRules()
