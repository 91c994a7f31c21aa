"""The Deluxe Memory AI (engine/memory/ai.py) and the engine queries it relies on: legal play at every seat
and in every variant, honesty (its choice depends only on what its seat has seen), a canonical resample,
no mutation, an independent copy, and a memory made only of what the seat saw."""

from __future__ import annotations

import random

import pytest

from engine.ai.core import GreedyPlayer, RandomPlayer
from engine.memory import DeluxeMemory, MemoryOptions, MemoryState, card_text, parse_position
from engine.memory.ai import (
    HIDE_CREDIT,
    KEPT_TEN_WORTH,
    MemoryPlayer,
    MemorySearchPlayer,
    evaluate,
    hard_player_for,
    player_for,
)
from engine.memory.cards import position_name, rank_of
from engine.memory.inference import left_alone
from engine.memory.playouts import playout, quick_code

RULES = DeluxeMemory()
VARIANTS = [
    {},
    {"simplicity": True},
    {"jokin_around": True},
    {"underdogs": True},
    {"jokin_around": True, "underdogs": True},
]


def play_game(state: MemoryState, players: dict[int, object], rng: random.Random, limit: int = 5000) -> int:
    """Play to the end; every seat not in ``players`` plays randomly. Returns the number of actions."""
    steps = 0
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        player = players.get(seat, RandomPlayer())
        code = player.choose(state, seat, rng)
        assert code in {action.code for action in state.legal_actions(seat)}
        state.apply(seat, code)
        steps += 1
        assert steps < limit, "the game did not end"
    return steps


def positions(seed: int, seats: int = 3, options: dict | None = None, count: int = 12):
    """Mid-game states from random legal play (one every few actions), for property tests."""
    state = RULES.new_game(seats, seed, options)
    picker = random.Random(seed)
    found = []
    while not state.is_terminal() and len(found) < count:
        seat = state.seats_to_act()[0]
        state.apply(seat, picker.choice(state.legal_actions(seat)).code)
        if picker.random() < 0.15 and not state.is_terminal():
            found.append(state.copy())
    return found


def views(state: MemoryState) -> list:
    return [state.view(seat) for seat in [None, *range(state.num_seats)]]


@pytest.mark.parametrize("options", VARIANTS)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_ai_tables_end_with_legal_moves_in_every_seat(seats: int, options: dict) -> None:
    """All-AI tables, and one AI in each seat among random players, always play legal moves and end."""
    ai = player_for("memory")
    state = RULES.new_game(seats, seats * 10 + len(options), options)
    play_game(state, dict.fromkeys(range(seats), ai), random.Random(1))
    for seat in range(seats):
        state = RULES.new_game(seats, 100 + seat, options)
        play_game(state, {seat: ai}, random.Random(seat))


def test_the_ai_beats_random_players() -> None:
    """Seeded check of strength: against two random players the AI wins most games (fair share 1/3)."""
    ai = player_for("memory")
    wins = 0
    for seed in range(12):
        state = RULES.new_game(3, seed)
        play_game(state, {seed % 3: ai}, random.Random(seed))
        wins += next(s.rank for s in state.standings() if s.seat == seed % 3) == 1
    assert wins >= 9


@pytest.mark.parametrize("options", VARIANTS[:3])
def test_the_choice_depends_only_on_what_the_seat_has_seen(options: dict) -> None:
    """Honesty: redrawing what the seat has not seen leaves the AI's choice unchanged."""
    ai = MemoryPlayer()
    for seed in range(6):
        for state in positions(seed, 3, options):
            seat = state.seats_to_act()[0]
            for k in range(2):
                expected = ai.choose(state, seat, random.Random(k))
                for j in range(3):
                    world = state.resample_hidden(seat, random.Random(j))
                    assert ai.choose(world, seat, random.Random(k)) == expected


def test_the_honesty_check_catches_a_player_that_peeks() -> None:
    """The property above has teeth: a player that looks where the highest face-down card truly lies
    changes its choice when what it has not seen is redrawn."""

    def peek_code(state: MemoryState, seat: int) -> str:
        codes = [action.code for action in state.legal_actions(seat)]
        cards = [(state.card_at(name), index) for index, name in enumerate(_names()) if state.card_at(name)]
        return codes[max(cards)[1] % len(codes)]

    caught = 0
    for state in positions(2, 3):
        seat = state.seats_to_act()[0]
        caught += peek_code(state, seat) != peek_code(state.resample_hidden(seat, random.Random(1)), seat)
    assert caught >= 3


def test_resampling_is_canonical() -> None:
    """A resample depends only on what the seat has seen and the generator: resampling a resample gives the
    same world as resampling the true state, now and after the same moves."""
    for seed in range(3):
        for state in positions(seed, 3, {"jokin_around": seed % 2 == 1}, count=5):
            seat = state.seats_to_act()[0]
            for viewer in (seat, (seat + 1) % 3, None):
                one = state.resample_hidden(viewer, random.Random(7))
                two = state.resample_hidden(viewer, random.Random(3))
                two = two.resample_hidden(viewer, random.Random(7))
                assert views(one) == views(two)
                assert [one.card_at(name) for name in _names()] == [two.card_at(name) for name in _names()]
                picker = random.Random(seed)
                for _ in range(8):
                    if one.is_terminal():
                        break
                    actor = one.seats_to_act()[0]
                    code = picker.choice(one.legal_actions(actor)).code
                    one.apply(actor, code)
                    two.apply(actor, code)
                    assert one.view(viewer) == two.view(viewer)
                assert views(one) == views(two)


def test_resampling_redraws_what_the_seat_has_not_seen() -> None:
    """The canonical resample is not a copy: some unseen card moves, and no known card does."""
    moved = 0
    for state in positions(3, 3):
        seat = state.seats_to_act()[0]
        world = state.resample_hidden(seat, random.Random(11))
        assert world.known_cards(seat) == state.known_cards(seat)
        moved += any(world.card_at(name) != state.card_at(name) for name in _names())
    assert moved >= 1


def test_choosing_changes_nothing() -> None:
    ai = MemoryPlayer()
    for state in positions(5, 4, {"jokin_around": True}):
        seat = state.seats_to_act()[0]
        before = (list(state.history), views(state), [state.card_at(name) for name in _names()])
        ai.choose(state, seat, random.Random(0))
        evaluate(state, seat)
        assert (list(state.history), views(state), [state.card_at(name) for name in _names()]) == before


def test_copy_is_exact_and_independent() -> None:
    for state in positions(8, 3):
        copied = state.copy()
        assert views(copied) == views(state) and copied.history == state.history
        before = views(state)
        seat = copied.seats_to_act()[0]
        copied.apply(seat, copied.legal_actions(seat)[0].code)
        assert views(state) == before and len(state.history) == len(copied.history) - 1


def test_known_cards_hold_only_what_the_seat_saw() -> None:
    """Every card in ``known_cards(seat)`` was shown face-up on that seat's own board at some time, and it
    lies where the seat's board last showed it unless a public swap moved it; a private look by another seat
    is not in it."""
    for seed in range(2):
        state = RULES.new_game(3, seed, {"jokin_around": seed % 2 == 1})
        picker = random.Random(seed)
        seen: list[set[str]] = [set() for _ in range(3)]
        steps = 0
        while not state.is_terminal() and steps < 250:
            for seat in range(3):
                board = state.view(seat).board
                assert board is not None
                for row in board.cells:
                    for cell in row:
                        if cell is not None and cell.face_up:
                            seen[seat].add(cell.text)
                for card in state.known_cards(seat).values():
                    assert card_text(card) in seen[seat]
            actor = state.seats_to_act()[0]
            state.apply(actor, picker.choice(state.legal_actions(actor)).code)
            steps += 1


def test_a_private_look_is_known_to_the_looker_only_and_remembered() -> None:
    state = MemoryState.scripted(3, {"B2": "7♥", "B3": "9♠", "B4": "7♦"})
    state.apply(0, "look.B2")
    state.apply(0, "look.B3")
    b2, b3 = parse_position("B2"), parse_position("B3")
    assert b3 in state.known_cards(0) and b3 not in state.known_cards(1)
    state.apply(0, "hide.both")
    assert state.known_cards(0) == {b2: state.card_at("B2"), b3: state.card_at("B3")}
    assert state.known_cards(1) == {} and state.known_cards(None) == {}


def test_the_ai_remembers_and_takes_a_known_match() -> None:
    """Perfect memory: a card it saw turns by turns ago is the partner it picks at its second look, and a
    known pair is its first look."""
    ai = MemoryPlayer()
    state = MemoryState.scripted(2, {"B2": "7♥", "B3": "9♠", "B4": "7♦", "C2": "4♣", "C3": "J♦"})
    for code in ("look.B2", "look.B3", "hide.both"):
        state.apply(0, code)
    for code in ("look.C2", "look.C3", "show"):
        state.apply(1, code)
    state.apply(0, "look.B4")
    assert ai.choose(state, 0, random.Random(0)) == "look.B2"
    state = MemoryState.scripted(2, {"B2": "7♥", "B3": "9♠", "B4": "7♦", "C2": "4♣", "C3": "J♦"})
    for code in ("look.B2", "look.B4"):
        state.apply(0, code)  # a red pair of 7s
    assert ai.choose(state, 0, random.Random(0)) == "target.0"  # it gains the 7 itself


def test_a_match_for_another_players_kept_ten_is_made_once_all_is_known() -> None:
    """With kept 10s in front of both other players every match of seat 0 would go to one of them; it
    waits while cards are left to learn, but once every card on the table is known it matches anyway, so
    the game cannot stall (a table of such players would otherwise look at the same cards forever)."""
    ai = MemoryPlayer()
    kept = [(1, 10, "10♥", "10♠"), (2, 10, "10♦", "10♣")]
    state = MemoryState.scripted(3, {"B2": "7♥", "B3": "7♦", "B4": "8♠"}, fill=False, kept=kept)
    _leave_face_up(state, [(0, "B2", "B4"), (1, "B3", "B4"), (2, "B2", "B4")])
    assert state.seats_to_act() == (0,) and len(state.known_cards(0)) == 3
    first = ai.choose(state, 0, random.Random(0))
    assert first in ("look.B2", "look.B3")
    state.apply(0, first)
    assert ai.choose(state, 0, random.Random(0)) == ("look.B3" if first == "look.B2" else "look.B2")


def test_the_ai_makes_the_richest_other_player_pay_for_a_black_pair() -> None:
    ai = MemoryPlayer()
    state = MemoryState.scripted(3, {"B2": "8♠", "B3": "8♣"}, tokens={1: 25, 2: 15})
    state.apply(0, "look.B2")
    state.apply(0, "look.B3")
    assert ai.choose(state, 0, random.Random(0)) == "target.1"


def test_greedy_with_this_evaluation_beats_random() -> None:
    """The evaluation is a sensible one: the one-move lookahead player built on it beats random players."""
    greedy = GreedyPlayer(evaluate)
    wins = 0
    for seed in range(5):
        state = RULES.new_game(3, seed)
        play_game(state, {seed % 3: greedy}, random.Random(seed))
        wins += next(s.rank for s in state.standings() if s.seat == seed % 3) == 1
    assert wins >= 4


def test_a_table_of_greedy_players_ends() -> None:
    """The evaluation breaks ties towards a match, so even a table of one-move-lookahead players (which
    see no worth in looking at the same face-up non-match again and again) ends."""
    greedy = GreedyPlayer(evaluate)
    placed = {"B2": "2♦", "C7": "5♦", "D6": "A♥", "F3": "5♣", "F8": "A♣", "G2": "9♠"}
    state = MemoryState.scripted(3, placed, fill=False)
    # All but G2 now face-up: two mixed pairs to make, 2♦ first in order.
    _leave_face_up(state, [(0, "B2", "C7"), (1, "D6", "F3"), (2, "F8", "B2")])
    play_game(state, dict.fromkeys(range(3), greedy), random.Random(0), limit=300)


def _leave_face_up(state: MemoryState, turns: list[tuple[int, str, str]]) -> MemoryState:
    """Plays ``turns`` on ``state`` (changed and returned), each ``(seat, first, second)``: two looks by
    name, a non-match left face-up ("show" where the hide-or-show is offered; ruling 9 may leave nothing to
    decide)."""
    for seat, first, second in turns:
        state.apply(seat, f"look.{first}")
        state.apply(seat, f"look.{second}")
        if state.seats_to_act() == (seat,):
            state.apply(seat, "show")
    return state


def _names() -> list[str]:
    return [f"{row}{column}" for row in "ABCDEFG" for column in range(1, 9)]


def test_options_model_is_unchanged() -> None:
    assert MemoryOptions().model_dump() == {"simplicity": False, "jokin_around": False, "underdogs": False}


def test_resampling_the_unseen_keeps_every_card_some_seat_has_seen() -> None:
    """The benchmark's ceiling world (``resample_unseen``): every card some seat has seen stays where it
    is, the cards are conserved, every view is unchanged, each seat's memory is the pooled one, some
    card no seat has seen moves, and the state itself is not changed."""
    moved = 0
    for seed in range(3):
        for state in positions(seed, 3, {"jokin_around": seed == 2}, count=6):
            before = (views(state), [state.card_at(name) for name in _names()])
            pooled = dict(state.known_cards(None))
            for seat in range(3):
                pooled.update(state.known_cards(seat))
            world = state.resample_unseen(random.Random(seed))
            assert (views(state), [state.card_at(name) for name in _names()]) == before
            assert views(world) == views(state)
            assert sorted(world.all_cards()) == sorted(state.all_cards())
            for seat in [None, 0, 1, 2]:
                assert world.known_cards(seat).items() >= state.known_cards(seat).items()
            for seat in range(3):
                assert world.known_cards(seat) == pooled
            moved += any(world.card_at(name) != state.card_at(name) for name in _names())
    assert moved >= 3


def rule_positions(seed: int, count: int = 8) -> list[MemoryState]:
    """Mid-game states of three rule players (the normal level: they take the pairs they know and pay to
    hide non-matches), one every few actions."""
    state = RULES.new_game(3, seed)
    ai, rng, found = player_for("memory"), random.Random(seed), []
    while not state.is_terminal() and len(found) < count:
        seat = state.seats_to_act()[0]
        state.apply(seat, ai.choose(state, seat, rng))
        if rng.random() < 0.1 and not state.is_terminal():
            found.append(state.copy())
    return found


def _pairs(state: MemoryState, group: set[int], fixed: dict[int, int]) -> int:
    """Pairs of one rank among ``group``'s cards in ``state`` with at least one card not in ``fixed``."""
    cards = sorted((p, rank_of(state.card_at(position_name(p)))) for p in group)  # type: ignore[arg-type]
    return sum(
        1
        for index, (p, rank) in enumerate(cards)
        for q, other in cards[index + 1 :]
        if rank == other and not (p in fixed and q in fixed)
    )


def test_a_world_gives_every_other_seat_the_positions_it_saw_and_keeps_the_groups_apart() -> None:
    """A seat's honest world (``resample_hidden``, plain and with the hard level's inferred groups,
    ``left_alone``): every other seat knows exactly the positions the public record says it saw (what it
    looked at and what was revealed), with the world's cards there; the seat's own knowledge and view and
    the cards are unchanged. Rule players leave no pair among a group's cards (the inference is true of
    them); plain worlds often put one there, worlds drawn with the groups never."""
    plain = grouped = truth = 0
    for seed in range(2):
        for state in rule_positions(seed):
            for viewer in range(3):
                mine = state.known_cards(viewer)
                groups = left_alone(state, viewer)
                truth += sum(_pairs(state, group, mine) for group in groups)
                for apart in ([], groups):
                    world = state.resample_hidden(viewer, random.Random(seed), apart)
                    assert world.known_cards(viewer) == mine
                    assert world.view(viewer) == state.view(viewer)
                    assert sorted(world.all_cards()) == sorted(state.all_cards())
                    for other in range(3):
                        assert world.known_cards(other).keys() == state.known_cards(other).keys()
                    found = sum(_pairs(world, group, mine) for group in groups)
                    plain += found if not apart else 0
                    grouped += found if apart else 0
    assert truth == 0
    assert grouped == 0
    assert plain >= 5


def test_the_hard_level_takes_a_red_king_pair_it_knows() -> None:
    """A scripted position: seat 0 saw K♦ go back face-up at A2 and now looks at K♥; the search's choice
    of a second look is A2 (a red pair: 13 tokens for itself), not an unseen card or a known 5."""
    state = MemoryState.scripted(3, {"A2": "K♦", "A3": "5♠", "B2": "K♥", "C4": "2♣", "C5": "8♦"})
    _leave_face_up(state, [(0, "A2", "A3"), (1, "C5", "D4"), (2, "D5", "D6")])
    state.apply(0, "look.B2")
    assert hard_player_for("memory").choose(state, 0, random.Random(0)) == "look.A2"


def test_the_hard_level_credits_each_card_it_puts_back_face_down() -> None:
    """At a non-match the search adds ``hide_credit`` tokens per card a candidate puts back face-down to
    what its playouts rated: a large credit makes it hide both cards (two credits beat one), a large
    negative one makes it leave both face-up, and the default's choice is one of the legal four."""
    state = MemoryState.scripted(3, {"B2": "7♥", "B3": "9♠", "B4": "7♣", "C2": "9♦"})
    state.apply(0, "look.B2")
    state.apply(0, "look.B3")
    legal = {action.code for action in state.legal_actions(0)}
    assert legal == {"show", "hide.B2", "hide.B3", "hide.both"}
    assert MemorySearchPlayer(hide_credit=100.0).choose(state, 0, random.Random(0)) == "hide.both"
    assert MemorySearchPlayer(hide_credit=-100.0).choose(state, 0, random.Random(0)) == "show"
    assert 0 < HIDE_CREDIT < 1  # less than the token a card costs: a card nobody can match stays face-up
    assert MemorySearchPlayer().choose(state, 0, random.Random(0)) in legal


def test_a_playout_takes_the_best_of_the_pairs_a_seat_knows() -> None:
    """In the hard level's playouts a seat that knows one pair takes it (the cheap rule), and one that knows
    two takes the best as the rule player at the table does: with the 2s and the Kings of clubs and spades
    face-up, seat 1 takes the Kings (its choice makes another player lose 13 tokens, not 2), where the first
    pair found would have been the 2s."""
    placed = {"B2": "2♣", "B3": "K♣", "B4": "2♠", "B5": "K♠"}
    looks = [(0, "B2", "B3"), (1, "A2", "D2"), (2, "E2", "F2"), (0, "B4", "B5")]
    state = _leave_face_up(MemoryState.scripted(3, placed), looks)
    assert quick_code(state, 1, random.Random(0)) is None  # two pairs: the rule player picks
    playout(state, MemoryPlayer(), 1, random.Random(0))
    taken = [code for seat, code in state.history[-8:] if seat == 1 and code.startswith("look.")]
    assert taken == ["look.B3", "look.B5"]
    other_cards = {"B2": "2♣", "B3": "7♥", "B4": "2♠", "B5": "9♦"}
    one_pair = _leave_face_up(MemoryState.scripted(3, other_cards), looks)
    assert quick_code(one_pair, 1, random.Random(0)) in {"look.B2", "look.B4"}


def test_a_playout_leaves_a_pair_alone_while_another_player_keeps_a_ten() -> None:
    """In the hard level's playouts a seat that knows a pair leaves it alone while another player keeps a
    10 and it has cards to learn, as the rule player at the table does (ruling 14: the match's effect would
    go to the 10's keeper): its looks are then the rule player's, the first at a card it has not seen. The
    same position without the kept 10: it takes the pair."""
    placed = {"B2": "2♣", "B3": "7♥", "B4": "2♠", "B5": "9♦", "A2": "A♠", "D2": "8♣", "E2": "Q♦", "F2": "K♣"}
    placed |= {"C2": "3♦", "C3": "4♠", "C4": "5♣", "C5": "6♥", "D3": "J♠"}  # cards nobody has seen
    looks = [(0, "B2", "B3"), (1, "A2", "D2"), (2, "E2", "F2"), (0, "B4", "B5")]
    free = _leave_face_up(MemoryState.scripted(3, placed, fill=False), looks)
    assert quick_code(free, 1, random.Random(0)) in {"look.B2", "look.B4"}
    assert not free.match_goes_to_a_kept_ten(1)
    kept = [(0, 10, "10♥", "10♠")]
    waiting = _leave_face_up(MemoryState.scripted(3, placed, fill=False, kept=kept), looks)
    assert waiting.match_goes_to_a_kept_ten(1) and not waiting.match_goes_to_a_kept_ten(0)
    assert quick_code(waiting, 1, random.Random(0)) is None  # the rule player decides
    playout(waiting, MemoryPlayer(), 1, random.Random(0))
    first = next(code for seat, code in waiting.history[-8:] if seat == 1 and code.startswith("look."))
    assert first in {"look.C2", "look.C3", "look.C4", "look.C5", "look.D3"}


def test_the_hard_level_keeps_a_mixed_king_pair_as_a_ten() -> None:
    """A mixed pair of Kings copies any effect (ruling 23); the rule player copies the Queen (six tokens
    now), the hard level keeps the pair as a 10, which its search weighs at ``own_ten`` tokens: with the
    greedy evaluation's 3 tokens it copies the Queen too."""
    state = MemoryState.scripted(3, {"B2": "K♥", "B3": "K♠"})
    state.apply(0, "look.B2")
    state.apply(0, "look.B3")
    assert MemoryPlayer().choose(state, 0, random.Random(0)) == "copy.Q"
    assert hard_player_for("memory").choose(state, 0, random.Random(0)) == "copy.10"
    at_three = MemorySearchPlayer(own_ten=KEPT_TEN_WORTH, their_ten=KEPT_TEN_WORTH)
    assert at_three.choose(state, 0, random.Random(0)) == "copy.Q"


def test_the_search_weighs_a_kept_ten_more_than_the_greedy_evaluation() -> None:
    """``evaluate`` counts a kept 10 of the seat's own 3 tokens for the greedy and easy players and the
    hard level's weights when given: a 10 kept by seat 0 is worth 17 more to it at 20 than at 3, and one
    kept by seat 1 costs it 7 more at 10 than at 3."""
    placed = {"B2": "2♣", "B3": "5♦"}
    mine = MemoryState.scripted(3, placed, fill=False, kept=[(0, 10, "10♥", "10♠")])
    theirs = MemoryState.scripted(3, placed, fill=False, kept=[(1, 10, "10♥", "10♠")])
    assert evaluate(mine, 0, 20.0, 10.0) - evaluate(mine, 0) == pytest.approx(17.0)
    assert evaluate(theirs, 0) - evaluate(theirs, 0, 20.0, 10.0) == pytest.approx(7.0)
