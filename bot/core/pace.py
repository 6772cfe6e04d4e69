"""Pace forecast (issue 21): when will this match end? Pure, Discord-free: the core feeds it.

Inputs, per seat: the person's times to act (seconds of *their own clock*: quiet hours and away
days left out, as ``timers.active_between`` counts them), in this match and across their matches;
their pauses ahead (quiet hours and away, as ``timers.pauses(person, now, now + HORIZON)`` lists
them); and the engine's estimate of the turns left (``engines.progress.progress``).

Model: a person's time to act is drawn from their own past turns: from this match's with weight
n / (n + ``SHRINK``) (n: this match's turns timed), else from their turns across matches, each draw
spread a little (log-normal jitter); someone never timed gets a log-normal around
``DEFAULT_TURN``. Drawing from the turns themselves keeps their long tail (a weekend away, a turn
that waited for the deadline), which a sum of many turns depends on; their median and quartiles
are what ``/partida stats`` shows. The forecast plays the rest of the match ``runs`` times (seeded,
so it is reproducible): the number of turns drawn around the engine's estimate, the turns taken in
the engine's order, each time to act laid on the person's own clock (a turn that would start in a
pause waits for its end). The answer is the median finish and the 10%-90% range of the runs.

Given when the match started, a share of the runs (the share of the match already played, at most
``TEMPO_WEIGHT``) instead go on at the match's own tempo so far (wall time per turn, jittered):
what the people's own turns do not show (a seat that waited for its deadline, the bot's own
delays) is in the match's tempo, and the simulated 30 days (bench/days.py) showed it matters.
"""

from __future__ import annotations

import bisect
import math
import random
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from engines.progress import Progress

DEFAULT_TURN = 4 * 3600.0  # a person never timed: four hours of their own clock a turn
DEFAULT_SPREAD = 1.0  # log-spread (sigma of the log) without enough samples
MIN_SPREAD = 0.3
SHRINK = 5.0  # how many samples of this match the person's turns across matches are worth
JITTER = 0.25  # log-spread added to a time drawn from the person's past turns
AI_TURN = 30.0  # an AI seat's turn (it thinks in a worker, the scheduler picks it up)
HORIZON = timedelta(days=120)  # pauses are listed this far ahead
RUNS = 200
TEMPO_WEIGHT = 0.8
TEMPO_SPREAD = 0.3  # log-spread of a run at the match's tempo


@dataclass(frozen=True, slots=True)
class PersonPace:
    """A person's time to act: median seconds of their own clock, log-spread, samples used, and
    the samples the forecast draws from (this match's, across matches')."""

    median: float
    spread: float
    samples: int
    in_match: tuple[float, ...] = ()
    across: tuple[float, ...] = ()

    def draw(self, rng: random.Random) -> float:
        """One time to act, in seconds of their own clock."""
        n = len(self.in_match)
        pool = self.in_match if n and (not self.across or rng.random() < n / (n + SHRINK)) else self.across
        if not pool:
            return self.median * math.exp(rng.gauss(0.0, self.spread))
        return pool[int(rng.random() * len(pool))] * math.exp(rng.gauss(0.0, JITTER))

    @property
    def low(self) -> float:
        """The first quartile (a quick turn for them)."""
        return self.median * math.exp(-0.674 * self.spread)

    @property
    def high(self) -> float:
        """The third quartile (a slow turn for them)."""
        return self.median * math.exp(0.674 * self.spread)


def _spread(samples: Sequence[float]) -> float | None:
    if len(samples) < 4:
        return None
    q = statistics.quantiles([math.log(max(s, 1.0)) for s in samples], n=4)
    return max(MIN_SPREAD, (q[2] - q[0]) / 1.349)


def person_pace(in_match: Sequence[float], across: Sequence[float] = ()) -> PersonPace:
    """A person's pace from their act times in this match and across their matches (seconds of
    their own clock; ``across`` may include this match's)."""
    base = math.log(max(statistics.median(across), 1.0)) if across else math.log(DEFAULT_TURN)
    n = len(in_match)
    if n:
        w = n / (n + SHRINK)
        log_median = w * math.log(max(statistics.median(in_match), 1.0)) + (1 - w) * base
    else:
        log_median = base
    spread = _spread(in_match) if n >= 8 else None
    spread = spread or _spread(across) or DEFAULT_SPREAD
    return PersonPace(math.exp(log_median), spread, n + len(across), tuple(in_match), tuple(across))


def turn_times(actions: Sequence[tuple[int, datetime]], start: datetime) -> list[tuple[int, datetime, datetime]]:
    """The turns of an action log: (seat, when it could act, when its turn ended). A turn is a run
    of consecutive actions of one seat; it could act from the previous run's last action (or
    ``start``). The core records one act time per turn from these, in the person's own clock."""
    out: list[tuple[int, datetime, datetime]] = []
    since = start
    for i, (seat, at) in enumerate(actions):
        if i + 1 < len(actions) and actions[i + 1][0] == seat:
            continue
        out.append((seat, since, at))
        since = at
    return out


@dataclass(frozen=True, slots=True)
class Forecast:
    """When the match should end: the median of the runs and the 10%-90% range; ``turns``: the
    turns left the engine expects."""

    expected: datetime
    early: datetime
    late: datetime
    turns: float

    @property
    def uncertainty(self) -> timedelta:
        """Half the 10%-90% range."""
        return (self.late - self.early) / 2


class _Clock:
    """A person's own clock: pauses (sorted, merged) that time to act does not run through."""

    __slots__ = ("ends", "starts")

    def __init__(self, pauses: Sequence[tuple[datetime, datetime]], origin: datetime) -> None:
        spans = sorted((lo, hi) for lo, hi in pauses if hi > lo)
        merged: list[list[float]] = []
        for lo, hi in spans:
            a, b = (lo - origin).total_seconds(), (hi - origin).total_seconds()
            if merged and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        self.starts = [a for a, _ in merged]
        self.ends = [b for _, b in merged]

    def after(self, t: float, seconds: float) -> float:
        """The instant (seconds from the origin) when ``seconds`` of own time have passed from t."""
        i = bisect.bisect_right(self.ends, t)
        left = seconds
        while i < len(self.starts):
            lo, hi = self.starts[i], self.ends[i]
            if lo > t:
                if lo - t >= left:
                    return t + left
                left -= lo - t
            t = max(t, hi)
            i += 1
        return t + left


def forecast(
    now: datetime,
    progress: Progress,
    paces: Mapping[int, PersonPace | None],
    pauses: Mapping[int, Sequence[tuple[datetime, datetime]]] | None = None,
    waited: float = 0.0,
    runs: int = RUNS,
    seed: int = 0,
    started: datetime | None = None,
) -> Forecast:
    """The match's expected finish. ``paces``: per seat, the person's pace (None or missing: an
    AI seat); ``pauses``: per seat, their quiet hours and away spans ahead; ``waited``: own-clock
    seconds the seat to move has already been waiting; ``started``: when the match started (its
    tempo so far joins in, see the module's notes)."""
    pauses = pauses or {}
    left = progress.turns_left
    if left <= 0:
        return Forecast(now, now, now, 0.0)
    clocks = {s: _Clock(pauses.get(s, ()), now) for s in progress.order}
    order = progress.order
    shares = [max(0.0, progress.remaining[s]) / left for s in range(len(progress.remaining))]
    rng = random.Random(seed)
    tempo, share = None, 0.0
    if started is not None and 0.0 < progress.done < 1.0:
        turns_done = left * progress.done / (1.0 - progress.done)
        tempo = max((now - started).total_seconds(), 0.0) / turns_done
        share = min(TEMPO_WEIGHT, progress.done)
    ends: list[float] = []
    for _ in range(runs):
        turns = max(0, round(rng.gauss(left, progress.spread))) if progress.spread else round(left)
        if tempo is not None and rng.random() < share:
            ends.append(turns * tempo * math.exp(rng.gauss(0.0, TEMPO_SPREAD)))
            continue
        quota = [shares[s] * turns for s in range(len(shares))]
        t = 0.0
        i = 0
        taken = 0
        first = True
        while taken < turns:
            seat = order[i % len(order)]
            i += 1
            if quota[seat] < 0.5 and any(q >= 0.5 for q in quota):
                continue  # this seat's turns are used up (shares need not be equal: Citadels, Cities)
            quota[seat] -= 1
            taken += 1
            pace = paces.get(seat)
            if pace is None:
                t += AI_TURN
                first = False
                continue
            d = pace.draw(rng)
            if first and waited > 0:
                d = max(d - waited, 0.25 * d)  # they have been at it a while already
            first = False
            t = clocks[seat].after(t, d)
        ends.append(t)
    ends.sort()

    def at(q: float) -> datetime:
        return now + timedelta(seconds=ends[min(len(ends) - 1, int(q * len(ends)))])

    return Forecast(at(0.5), at(0.1), at(0.9), left)
