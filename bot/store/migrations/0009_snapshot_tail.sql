-- Partida match store, schema 9 (issue 18): a move writes its action, not the whole state.
-- Numbered 0009: 0008 is left to other work in progress; bot/store/migrate.py applies numbered
-- files in order even with a gap.

-- state_at: NULL when matches.state is the state after every action of the log (as before); else
-- the number of actions the stored snapshot includes: the state now is that snapshot with the
-- actions idx >= state_at stepped on it (a marathon move writes its action row and, every few
-- moves, a new snapshot). A store read returns the snapshot with that tail of the log.
ALTER TABLE matches ADD COLUMN state_at INTEGER;
