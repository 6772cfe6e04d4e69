-- Partida match store, schema 2: durable follow-up work (jobs), per-seat notes, people, the story.

-- Work that follows a committed move (tell the next seat, post the board, an AI step) and, later,
-- timers (reminders, deadlines). A move's commit inserts its jobs in the same transaction.
--   key     unique: inserting a job whose key exists does nothing (idempotent planning)
--   lane    jobs of one lane run one at a time in id order (e.g. 'm42:board', 'm42:seat1')
--   status  pending | done | failed (failed: gave up after N attempts, see last_error)
--   claimed_by / claimed_until   a lease: the process running it, until when
CREATE TABLE jobs (
    id             @ID@,
    match_id       BIGINT REFERENCES matches (id) ON DELETE CASCADE,
    kind           TEXT NOT NULL,
    key            TEXT NOT NULL,
    lane           TEXT NOT NULL,
    due_at         @TS@ NOT NULL,
    payload        @JSON@ NOT NULL,
    attempts       INTEGER NOT NULL DEFAULT 0,
    status         TEXT NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'done', 'failed')),
    claimed_by     TEXT,
    claimed_until  @TS@,
    last_error     TEXT,
    created_at     @TS@ NOT NULL,
    done_at        @TS@
);

CREATE UNIQUE INDEX jobs_by_key ON jobs (key);

CREATE INDEX jobs_pending_due ON jobs (due_at, id) WHERE status = 'pending';

CREATE INDEX jobs_pending_lane ON jobs (lane, id) WHERE status = 'pending';

CREATE INDEX jobs_by_match ON jobs (match_id, id);

-- Notes about one person in one match (standing orders, DMs closed, the last turn DM sent, the
-- last action they have seen...). user_id 0 holds the match's own notes (the last board posted).
-- Writing a note never touches matches.version, so nobody's buttons go stale because of it.
CREATE TABLE seat_notes (
    match_id    BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    data        @JSON@ NOT NULL,
    updated_at  @TS@ NOT NULL,
    PRIMARY KEY (match_id, user_id)
);

-- A person across all their matches: the language of their last interaction.
CREATE TABLE people (
    user_id     BIGINT PRIMARY KEY,
    locale      TEXT NOT NULL,
    updated_at  @TS@ NOT NULL
);

-- The public wording of each action ({"en": ..., "es": ...}), so the story since the last board
-- post is read from the log by any process, after any restart.
ALTER TABLE actions ADD COLUMN story @JSON@;
