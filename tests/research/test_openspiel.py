"""The OpenSpiel game: OpenSpiel's own API checks on the toy game and on Cataclysm, chance nodes with
the kernel's probabilities, and information states that hide another seat's private draw."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from core.toy_game import PIG  # noqa: E402
from grandstrategy.core.chance import sample_index  # noqa: E402
from grandstrategy.core.errors import UserInputError  # noqa: E402
from grandstrategy.core.rng import Rng  # noqa: E402
from grandstrategy.research.encoding import research_spec  # noqa: E402
from grandstrategy.research.openspiel_game import KernelGame, spec_from_parameters  # noqa: E402

from .toy import PIG_VOCABULARY  # noqa: E402

EUROPE_1939 = {"ruleset": "cataclysm", "options": '{"scenario": "europe-1939"}'}


def pig_game(*, vocabulary: bool = True) -> KernelGame:
    actions = PIG_VOCABULARY if vocabulary else None
    return KernelGame(spec=research_spec(PIG, {}, actions=actions, zero_sum=True))


@pytest.mark.parametrize("vocabulary", [True, False], ids=["vocabulary", "legal-index"])
def test_toy_game_passes_openspiels_random_simulation_checks(vocabulary: bool) -> None:
    game = pig_game(vocabulary=vocabulary)
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 2
    assert game.num_distinct_actions() == (6 if vocabulary else 64)


def test_chance_nodes_carry_the_kernels_outcomes_and_probabilities() -> None:
    state = pig_game().new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in (0, 1)] == [
        "who goes first: north",
        "who goes first: south",
    ]
    state.apply_action(1)  # south goes first
    assert state.current_player() == 1
    assert state.legal_actions() == [0, 1, 2]  # roll, hold, draw (vocabulary order)
    state.apply_action(0)  # roll
    assert state.chance_outcomes() == [(i, pytest.approx(1 / 6)) for i in range(6)]


def after_private_draw(outcome: int) -> object:
    """North goes first, draws from the cup, and the draw comes out as outcome ``outcome``."""
    state = pig_game().new_initial_state()
    state.apply_action(0)  # north first
    state.apply_action(2)  # draw
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in range(3)] == [
        "north draws: copper",
        "north draws: gold",
        "north draws: silver",
    ]
    state.apply_action(outcome)
    return state


def test_another_seats_private_draw_is_hidden_from_information_state_and_observation() -> None:
    copper, gold = after_private_draw(0), after_private_draw(1)
    # south (player 1) cannot tell the two histories apart; north (player 0) can
    assert copper.information_state_string(1) == gold.information_state_string(1)
    assert copper.observation_tensor(1) == gold.observation_tensor(1)
    assert copper.observation_string(1) == gold.observation_string(1)
    assert copper.information_state_string(0) != gold.information_state_string(0)
    assert copper.observation_tensor(0) != gold.observation_tensor(0)
    assert '"copper"' in copper.observation_string(0) and '"copper"' not in copper.observation_string(1)


def test_a_clone_is_independent_of_its_original() -> None:
    state = after_private_draw(0)
    copy = state.clone()
    copy.apply_action(1)  # hold
    assert state.current_player() == 0 and str(state) != str(copy)
    assert state.history() == copy.history()[:-1]


def test_cataclysm_loads_by_name_with_one_player_per_power() -> None:
    game = pyspiel.load_game(
        "grandstrategy", {"ruleset": "cataclysm", "options": '{"scenario": "europe-1939"}'}
    )
    assert game.num_players() == 6
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.observation_tensor_shape() == [game.spec.encoder.size]


def play_seeded(state: object, seed: int, limit: int | None = None) -> int:
    """Play uniformly random legal actions and kernel-sampled chance (seeded); return the plies played."""
    rng, plies = Rng(seed), 0
    while not state.is_terminal() and (limit is None or plies < limit):
        if state.is_chance_node():
            node = state.kernel.chance_node()
            index = sample_index(rng, [p for _, p in node.outcomes])
            state.apply_action(state.chance_outcomes()[index][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
        plies += 1
    return plies


def test_cataclysm_passes_openspiels_random_simulation_checks_near_its_end() -> None:
    """A whole game observed by six seats at every step is slow (the views), so OpenSpiel's checks
    run from the position 30 plies before the end of a seeded random game."""
    game = pyspiel.load_game(
        "grandstrategy", {"ruleset": "cataclysm", "options": '{"scenario": "europe-1939"}'}
    )
    whole = game.new_initial_state()
    length = play_seeded(whole, seed=7)
    assert whole.is_terminal() and sorted(set(whole.returns())) == [-1.0, 1.0]
    state = game.new_initial_state()
    play_seeded(state, seed=7, limit=length - 30)
    assert not state.is_terminal()
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False, specific_initial_state=state)


def test_bad_parameters_are_one_clear_error() -> None:
    with pytest.raises(UserInputError, match="options must be a JSON object"):
        spec_from_parameters({"ruleset": "cataclysm", "options": "[1]"})
    with pytest.raises(UserInputError, match="unknown rule set"):
        spec_from_parameters({"ruleset": "chess", "options": "{}"})


def test_a_public_observer_sees_the_spectators_view() -> None:
    from open_spiel.python.observation import make_observation

    state = after_private_draw(0)
    public = make_observation(
        state.get_game(),
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE),
    )
    public.set_from(state, 0)
    assert '"copper"' not in public.string_from(state, 0)
    assert public.dict["seat"].tolist() == [0.0, 0.0]  # no seat's point of view
    with pytest.raises(ValueError, match="every seat's private information"):
        make_observation(
            state.get_game(),
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            ),
        )


def test_a_secret_answer_reads_as_hidden_in_the_other_seats_information_state() -> None:
    """AARHE's convoy route (S3:L214) is a secret decision: two different routes leave the
    enemy's information state and observation the same, the owner's not."""
    from grandstrategy.axis_allies.aarhe import turns
    from grandstrategy.axis_allies.aarhe.ruleset import AA_AARHE

    game = KernelGame(spec=research_spec(AA_AARHE, {"max_rounds": 0}))
    state = game.new_initial_state()
    kernel = state.kernel
    for zone in list(kernel.d["units"]):
        if kernel.is_sea(zone):
            del kernel.d["units"][zone]
    kernel.d["aarhe"]["queue"], kernel.d["aarhe"]["waiting"], kernel.d["battle"] = [], {}, None
    turns.begin_turn(kernel, "british")
    kernel.d["phase"] = "income"
    kernel.settle()
    assert kernel.private_decision()
    seats = [str(s) for s in game.spec.seats]
    british, germans = seats.index("british"), seats.index("germans")
    first, last = state.clone(), state.clone()
    actions = state.legal_actions()
    first.apply_action(actions[1])  # the first zone offered
    last.apply_action(actions[-1])  # the last one
    assert first.information_state_string(germans) == last.information_state_string(germans)
    assert first.information_state_string(british) != last.information_state_string(british)
    assert first.observation_string(germans) == last.observation_string(germans)
    assert first.observation_string(british) != last.observation_string(british)
