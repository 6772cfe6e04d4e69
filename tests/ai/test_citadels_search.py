"""The searching Citadels players: they decide from what the seat may know, never the hidden rest."""

import random

import pytest

from engines import ai
from engines.citadels import GAME
from engines.citadels.ai import CitadelsSearch, HeuristicPlayer, StrongPlayer
from engines.search import ISMCTS
from tests.ai.helpers import checked_moves


def position(n, seed, steps):
    st = GAME.new_state(n, GAME.parse_options({}), seed, None)
    p, rng = HeuristicPlayer(), random.Random(seed)
    for _ in range(steps):
        seat = GAME.to_move(st)[0]
        GAME.step(st, seat, p.choose(GAME, st, seat, rng))
    return st


def scramble_hidden(st, seat, salt):
    """Another state that `seat` cannot tell from st: the cards it cannot see dealt again (other
    hands, deck), the face-down and the unrevealed characters of the others exchanged, another
    seed. Built by hand so the test does not share the AI's sampling code."""
    rng = random.Random(salt)
    d = GAME.clone(st)
    others = [s for s in range(d.n) if s != seat]
    cards = list(d.deck) + [c for s in others for c in d.hands[s]]
    rng.shuffle(cards)
    for s in others:
        k = len(d.hands[s])
        d.hands[s], cards = cards[:k], cards[k:]
    d.deck = cards
    # characters: swap an unrevealed pick of another seat with a face-down one, when the seat
    # never saw the face-down one during the draft (so nothing it knows tells them apart)
    seen = {c for step in d.seen[seat] for c in step}
    for s in others:
        for i, ch in enumerate(d.picks[s]):
            if ch in d.revealed or ch in seen:
                continue
            swap = [c for c in d.face_down if c not in seen and c not in d.revealed]
            if swap and d.phase == "turn":
                new = swap[0]
                d.face_down[d.face_down.index(new)] = ch
                d.picks[s][i] = new
                del d.owner[ch]
                d.owner[new] = s
                d.seen[s] = []
    d.rng.seed += 1000 + salt
    return d


@pytest.mark.parametrize(("n", "seed", "steps"), [(4, 1, 0), (4, 2, 9), (5, 3, 30), (2, 4, 12), (3, 5, 25)])
def test_the_decision_does_not_change_when_the_hidden_state_does(n, seed, steps):
    st = position(n, seed, steps)
    seat = GAME.to_move(st)[0]
    others = [scramble_hidden(st, seat, salt) for salt in (1, 2)]
    assert all(GAME.view(o, seat) == GAME.view(st, seat) for o in others)
    assert all(GAME.dump(o) != GAME.dump(st) for o in others)
    choices = []
    for s in (st, *others):
        p = StrongPlayer(seconds=None, iterations=10)
        choices.append((p.choose(GAME, s, seat, random.Random(5)), p.stats.visits))
    assert choices[0] == choices[1] == choices[2]


@pytest.mark.parametrize("n", [2, 3, 4, 7])
def test_determinisations_show_the_seat_exactly_its_view(n):
    st = GAME.new_state(n, GAME.parse_options({}), 11, None)
    p, rng = HeuristicPlayer(), random.Random(2)
    checked = 0
    for i in range(160):
        if not GAME.to_move(st):
            break
        seat = GAME.to_move(st)[0]
        if i % 4 == 0:
            view = GAME.view(st, seat)
            d = CitadelsSearch().determiniser(GAME, view, seat, st)(random.Random(i))
            assert GAME.view(d, seat) == view
            assert sorted(map(repr, GAME.legal(d, seat))) == sorted(map(repr, GAME.legal(st, seat)))
            checked += 1
        GAME.step(st, seat, p.choose(GAME, st, seat, rng))
    assert checked >= 10


def test_levels_registered_and_a_short_match_is_reproducible():
    kinds = ai.players_for("citadels")
    assert {"easy", "normal", "strong", "heuristic", "random"} <= set(kinds)
    assert isinstance(ai.player("citadels", "strong"), ISMCTS)

    def run():
        st = GAME.new_state(4, GAME.parse_options({}), 21, None)
        return checked_moves(GAME, st, [StrongPlayer(seconds=None, iterations=3)] + [HeuristicPlayer()] * 3, 40)

    assert run() == run()


def test_the_light_view_leads_the_heuristic_to_the_same_choices():
    from engines.citadels.ai import _light_view

    p = HeuristicPlayer()
    for seed, n, opts in ((31, 4, {}), (32, 5, {}), (33, 4, {"dark_city": True})):
        st = GAME.new_state(n, GAME.parse_options(opts), seed, None)
        rng, k = random.Random(seed), 0
        while GAME.to_move(st) and k < 400:
            seat = GAME.to_move(st)[0]
            legal = GAME.legal(st, seat)
            full = p.choose_from(GAME, st, seat, legal, random.Random(k))
            light = p.choose_from(GAME, st, seat, legal, random.Random(k), _light_view(GAME, st, seat))
            assert full == light
            GAME.step(st, seat, p.choose(GAME, st, seat, rng))
            k += 1


def test_the_quick_score_is_the_engine_score():
    from engines.citadels.ai import _score_now

    p = HeuristicPlayer()
    for seed, opts in ((41, {}), (42, {"dark_city": True})):
        st = GAME.new_state(4, GAME.parse_options(opts), seed, None)
        rng = random.Random(seed)
        while GAME.to_move(st):
            fr = st.final_round or st.round + 1
            assert [_score_now(GAME, st, s, fr) for s in range(st.n)] == GAME._scores(st)
            seat = GAME.to_move(st)[0]
            GAME.step(st, seat, p.choose(GAME, st, seat, rng))


def after_the_draft(seed, rounds):
    st = GAME.new_state(4, GAME.parse_options({}), seed, None)
    p, rng = HeuristicPlayer(), random.Random(seed)
    while st.phase == "draft" or st.round < rounds:
        seat = GAME.to_move(st)[0]
        GAME.step(st, seat, p.choose(GAME, st, seat, rng))
    return st


def test_the_draft_model_guesses_the_next_drafters_pick_better_than_chance():
    """Seats drafting like the heuristic (the usual opponent) are guessed from what they were
    offered: the second drafter's hidden pick is found more often than by a uniform replay."""
    hits = {0: [], 30: []}
    for seed in range(51, 63):
        st = after_the_draft(seed, 4)
        first, second = st.steps[0][0], st.steps[1][0]
        if st.picks[second][0] in st.revealed:
            continue
        view = GAME.view(st, first)
        for tries in (0, 30):
            sample = CitadelsSearch(draft_tries=tries).determiniser(GAME, view, first, st)
            rng = random.Random(seed)
            ds = [sample(rng) for _ in range(40)]
            for d in ds:  # never a character the seat knows is elsewhere
                assert d.picks[first] == st.picks[first]
                assert not set(d.face_up) & {c for s in range(4) for c in d.picks[s]}
                assert all(d.owner[c] == s for c, s in view["revealed"].items())
            hits[tries].append(sum(d.picks[second][0] == st.picks[second][0] for d in ds) / len(ds))
    assert len(hits[0]) >= 4
    model, uniform = sum(hits[30]) / len(hits[30]), sum(hits[0]) / len(hits[0])
    assert model > uniform + 0.15, (model, uniform)
