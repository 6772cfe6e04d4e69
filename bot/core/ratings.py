"""Skill ratings per game (issue 21): Weng-Lin ratings from openskill's Plackett-Luce model, which
rates 2-8 players with ties in one update. Discord-free: the core calls it when a match ends.

A rating is (mu, sigma); leaderboards sort by the cautious ``ordinal`` mu - 3 sigma. Every game has
its own ratings, kept in two scopes: the server the match was played in (its guild id) and across
servers (``GLOBAL_SCOPE``). People are rated as ``u<user id>``; AI seats as one pseudo-player per
level (``ai:random``, ``ai:easy``, ``ai:normal``, ``ai:strong``) in each game, so a person's rating
is on the same scale as the AI levels they beat or lost to. A seat played for a while by a
stand-in AI still belongs to its person.

A match is rated once: ``record`` hands the store (``Store.record_result``) the finished match and
:func:`rate_rows`, which the store runs inside its transaction with the players' stored rows, so
two matches ending at once never lose an update and a repeated call changes nothing. The same
rows carry the stored aggregates the statistics read (matches, wins, moves, time to act), so
``/partida stats`` and ``/partida leaderboard`` cost the same with 100,000 matches as with ten.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from ..store.base import GLOBAL_SCOPE, FinishedMatch, Job, RatingRow, Store
from . import faults
from . import jobs as declared

MODEL = PlackettLuce()  # mu 25, sigma 25/3: the model's defaults
MU, SIGMA = MODEL.mu, MODEL.sigma

# stored AI kinds that are the same level under another name
_LEVEL_ALIASES = {"heuristic": "easy"}


def person_key(user_id: int) -> str:
    return f"u{int(user_id)}"


def ai_key(level: str) -> str:
    return f"ai:{_LEVEL_ALIASES.get(level, level)}"


def user_of(player: str) -> int | None:
    """The user id of a person's key; None for an AI level."""
    return int(player[1:]) if player.startswith("u") else None


def seat_player(seat: Mapping[str, Any]) -> str:
    """Who a stored seat ({"user_id", "ai", "name"}) is for the ratings."""
    if seat.get("user_id") is not None:
        return person_key(seat["user_id"])
    return ai_key(seat.get("ai") or "easy")


def finished_match(
    match_id: int, game: str, guild_id: int | None, seats: Sequence[Mapping[str, Any]], ranking: Iterable[Iterable[int]]
) -> FinishedMatch:
    """The match as the ratings see it, from its stored seats and the engine's ``Result.ranking``
    (places of seats, best first, ties sharing a place)."""
    places = [[seat_player(seats[s]) for s in place] for place in ranking]
    return FinishedMatch(int(match_id), game, guild_id, [p for p in places if p])


@dataclass(frozen=True, slots=True)
class Acts:
    """A player's actions in the match: how many, how many were timed, and their seconds."""

    moves: int = 0
    timed: int = 0
    seconds: float = 0.0


def acts_from_timing(seats: Sequence[Mapping[str, Any]], timing: Mapping[tuple[int, int], tuple[int, int, float]], match_id: int) -> dict[str, Acts]:
    """Per person, their actions from ``Store.action_timing([match_id])`` (AI levels get none)."""
    out: dict[str, Acts] = {}
    for i, seat in enumerate(seats):
        if seat.get("user_id") is None:
            continue
        moves, timed, seconds = timing.get((match_id, i), (0, 0, 0.0))
        key = person_key(seat["user_id"])
        old = out.get(key, Acts())
        out[key] = Acts(old.moves + moves, old.timed + timed, old.seconds + max(0.0, seconds))
    return out


def update(places: Sequence[Sequence[str]], prior: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """New (mu, sigma) of every player of a finished match. ``places``: players best first, ties
    sharing a place; ``prior``: current ratings (a player missing starts at the model's default).

    Each seat is a one-player team. A player holding several seats (two AI seats of one level, a
    person playing two seats) gets the sum of their seats' mu changes and the smallest new sigma,
    so a level playing itself gains nothing from it."""
    players = [p for place in places for p in place]
    if len(players) < 2:
        return {p: prior.get(p, (MU, SIGMA)) for p in players}
    teams = [[MODEL.rating(*prior.get(p, (MU, SIGMA)), name=p)] for p in players]
    ranks = [float(i) for i, place in enumerate(places) for _ in place]
    rated = MODEL.rate(teams, ranks=ranks)
    out: dict[str, tuple[float, float]] = {}
    for p, team in zip(players, rated, strict=True):
        mu0 = prior.get(p, (MU, SIGMA))[0]
        new = team[0]
        if p in out:
            mu, sigma = out[p]
            out[p] = (mu + (new.mu - mu0), min(sigma, new.sigma))
        else:
            out[p] = (new.mu, new.sigma)
    return out


def rate_rows(finished: FinishedMatch, existing: list[RatingRow], acts: Mapping[str, Acts] | None = None) -> list[RatingRow]:
    """The rows to store for a finished match, in each of its scopes, from the stored ``existing``
    rows of its players (what ``Store.record_result`` passes). Winners: the first place (a shared
    first is a win for each)."""
    acts = acts or {}
    winners = set(finished.places[0]) if finished.places else set()
    out = []
    for scope in finished.scopes:
        mine = {r.player: r for r in existing if r.scope == scope and r.game == finished.game}
        new = update(finished.places, {p: (r.mu, r.sigma) for p, r in mine.items()})
        for player in finished.players:
            old = mine.get(player) or RatingRow(finished.game, scope, player, MU, SIGMA)
            done = acts.get(player, Acts())
            mu, sigma = new[player]
            out.append(
                RatingRow(
                    finished.game, scope, player, mu, sigma,
                    matches=old.matches + 1,
                    wins=old.wins + (player in winners),
                    moves=old.moves + done.moves,
                    timed=old.timed + done.timed,
                    seconds=old.seconds + done.seconds,
                )
            )
    return out


async def record(store: Store, finished: FinishedMatch, acts: Mapping[str, Acts] | None = None) -> list[RatingRow] | None:
    """Rate a finished match once (None: it was rated before). The core calls it when a match ends."""
    return await store.record_result(finished, functools.partial(rate_rows, finished, acts=dict(acts or {})))


class Rater:
    """The owner of the ``rate`` job (planned by ``bot/core/story.py`` with the move that finishes a
    match): it reads the finished match, asks its engine for the result and records it. Idempotent:
    a job run again, by this process after a restart or by another, rates nothing twice (the store's
    ``rated_matches`` key). ``service``: the ``MatchService`` (its store and its off-loop decoding)."""

    def __init__(self, service: Any) -> None:
        self.service = service

    def handlers(self) -> dict[str, Any]:
        return {declared.RATE: self.on_rate}

    async def backfill(self, batch: int = 1000) -> int:
        """Plan the ``rate`` job of every finished match not yet rated (those that ended before the
        ratings existed, oldest first); the client's start-up calls it. Returns how many were new
        (a job already planned is not planned again)."""
        store: Store = self.service.store
        planned, after = 0, 0
        while ids := await store.unrated_finished(after, batch):
            planned += await store.add_jobs([declared.rate(i) for i in ids])
            after = ids[-1]
        return planned

    async def on_rate(self, job: Job) -> None:
        store: Store = self.service.store
        if job.match_id is None or await store.rated(job.match_id):
            return
        rec = await store.get(job.match_id)
        if rec is None or rec.status != "finished" or rec.state is None:
            return  # gone, or not a finished match: nothing to rate
        loaded = await self.service.aload(rec)
        result = loaded.game.result(loaded.state)
        timing = await store.action_timing([rec.id])
        await record(
            store, finished_match(rec.id, rec.game, rec.guild_id, rec.seats, result.ranking),
            acts_from_timing(rec.seats, timing, rec.id),
        )
        faults.point("rate")  # crash tests: rated, the job not yet marked done


__all__ = [
    "GLOBAL_SCOPE",
    "MODEL",
    "Acts",
    "Rater",
    "acts_from_timing",
    "ai_key",
    "finished_match",
    "person_key",
    "rate_rows",
    "record",
    "seat_player",
    "update",
    "user_of",
]
