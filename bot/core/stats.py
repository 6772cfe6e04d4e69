"""Per-server statistics, read from the store: finished matches per game, and per person matches
played, won (a shared first place is a win for each), actions and the average time to act.

Time to act is measured on the log's timestamps: each action by a person counts the time since the
action before it (the first action of a match has nothing before it and is not timed). Undone
actions were removed from the log, so they are not counted; AI seats are not people and have no
row. A finished match's result is computed once per process from its final state and cached.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from engines import registry

from ..i18n import game_name, t
from ..store import MatchRecord, Store

_RESULTS: dict[int, tuple[list[int], list[int]] | None] = {}  # match id -> (scores, winning seats)


@dataclass
class PlayerStats:
    user_id: int
    name: str
    played: int = 0
    wins: int = 0
    moves: int = 0
    seconds: float = 0.0  # time taken over the timed moves
    timed: int = 0

    @property
    def rate(self) -> int:
        return round(100 * self.wins / self.played) if self.played else 0

    @property
    def average(self) -> float | None:
        return self.seconds / self.timed if self.timed else None


@dataclass
class GuildStats:
    matches: dict[str, int] = field(default_factory=dict)  # game -> finished matches
    players: dict[int, PlayerStats] = field(default_factory=dict)

    def leaderboard(self, limit: int = 10) -> list[PlayerStats]:
        rows = sorted(self.players.values(), key=lambda p: (-p.wins, -p.rate, -p.played, p.name.lower()))
        return rows[:limit]


def _result(rec: MatchRecord) -> tuple[list[int], list[int]] | None:
    if rec.id not in _RESULTS:
        try:
            game = registry.get(rec.game)
            res = game.result(game.load(rec.state)) if rec.state is not None else None
        except Exception:  # a game no longer in this build: the match still counts, without a winner
            res = None
        _RESULTS[rec.id] = None if res is None else (list(res.scores), list(res.ranking[0]))
    return _RESULTS[rec.id]


async def guild_stats(store: Store, guild_id: int, game: str | None = None) -> GuildStats:
    """The server's figures: the rows are read by the store (its big snapshots decoded off the
    event loop), and the results and sums computed in one worker thread, so a server with a
    thousand finished matches does not stall every other click while it is counted."""
    recs = [rec for rec in await store.finished_in_guild(guild_id) if game is None or rec.game == game]
    timing = await store.action_timing([rec.id for rec in recs])
    return await asyncio.to_thread(_aggregate, recs, timing)


def _aggregate(recs: list[MatchRecord], timing: dict[tuple[int, int], tuple[int, int, float]]) -> GuildStats:
    out = GuildStats()
    for rec in recs:
        out.matches[rec.game] = out.matches.get(rec.game, 0) + 1
        result = _result(rec)
        winners = set(result[1]) if result else set()
        seats_of: dict[int, list[int]] = {}
        for i, seat in enumerate(rec.seats):
            uid = seat.get("user_id")
            if uid:
                seats_of.setdefault(uid, []).append(i)
                p = out.players.setdefault(uid, PlayerStats(uid, seat["name"]))
                p.name = seat["name"]
        for uid, seats in seats_of.items():
            p = out.players[uid]
            p.played += 1
            p.wins += 1 if winners & set(seats) else 0
            for seat in seats:
                moves, timed, seconds = timing.get((rec.id, seat), (0, 0, 0.0))
                p.moves += moves
                p.timed += timed
                p.seconds += max(0.0, seconds)
    return out


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    if s < 86400:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 86400} d {s % 86400 // 3600} h"


def stats_text(stats: GuildStats, lang: str, me: int | None = None, limit: int = 10) -> str:
    if not stats.matches:
        return t("stats.none", lang)
    lines = [t("stats.title", lang)]
    for key, n in sorted(stats.matches.items()):
        lines.append("• " + t("stats.game", lang, game=_game(key, lang), n=n))
    rows = stats.leaderboard(limit)
    mine = stats.players.get(me) if me is not None else None
    if mine is not None and mine not in rows:
        rows.append(mine)
    for p in rows:
        lines.append("• " + player_line(p, lang))
    return "\n".join(lines)


def player_line(p: PlayerStats, lang: str) -> str:
    return t(
        "stats.player", lang, player=p.name, played=t("stats.played", lang, n=p.played), wins=t("stats.won", lang, n=p.wins),
        rate=p.rate, moves=t("stats.moves", lang, n=p.moves), avg=duration(p.average),
    )


def leaderboard_text(stats: GuildStats, lang: str, game: str | None = None, limit: int = 10) -> str:
    if not stats.matches:
        return t("stats.none", lang)
    title = t("stats.leaderboard", lang, game=f" · {_game(game, lang)}" if game else "")
    rows = [
        t("stats.row", lang, rank=i, player=p.name, wins=t("stats.wins", lang, n=p.wins), played=t("stats.matches", lang, n=p.played), rate=p.rate)
        for i, p in enumerate(stats.leaderboard(limit), start=1)
    ]
    return "\n".join([title, *rows])


def _game(key: Any, lang: str) -> str:
    try:
        return game_name(registry.get(key), lang)
    except Exception:
        return str(key)
