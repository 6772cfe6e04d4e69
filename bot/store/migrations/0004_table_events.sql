-- Partida match store, schema 4 (issue 9, the table): what happens to a match besides its moves.
-- Numbered 0004: 0003 belongs to the timers (deadlines) work and may be missing on this branch;
-- bot/store/migrate.py applies numbered files in order even with a gap.

-- Undo, a seat left or handed over, votes, abandon, rematch: the match's own history, shown with
-- the moves by /partida log. at_action: how many actions the log held when it happened (after an
-- undo, the count once the undone actions were removed), so it is placed between the right moves.
CREATE TABLE match_events (
    id          @ID@,
    match_id    BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    at_action   INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    user_id     BIGINT,
    data        @JSON@ NOT NULL,
    created_at  @TS@ NOT NULL
);

CREATE INDEX match_events_by_match ON match_events (match_id, id);

-- Per-server statistics read the finished matches of one guild.
CREATE INDEX matches_by_guild ON matches (guild_id, status, id);
