-- Partida match store, schema 3: what a person sets for every match at once (issue 9, play over days).

-- One row per person: time zone and quiet hours, /away, when their last reminder digest was sent.
-- A JSON document merged like the seat notes (a key set to null is removed); it never touches a
-- match, so nobody's buttons go stale because of it.
CREATE TABLE person_settings (
    user_id     BIGINT PRIMARY KEY,
    data        @JSON@ NOT NULL,
    updated_at  @TS@ NOT NULL
);
