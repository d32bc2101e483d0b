-- The relay marks every row it publishes sent (`sent_at`, payload emptied): an update that can never be HOT while an
-- index names `sent_at`, as the pending index must (its predicate is what takes a sent row out of the relay's
-- reach). The index of sent rows by age served only the retention sweep, one DELETE a minute over at most an
-- hour of rows: a sequential scan reads them in a few milliseconds, where the index cost one more entry to write
-- and vacuum for every event published.
DROP INDEX IF EXISTS outbox_sent_idx;
