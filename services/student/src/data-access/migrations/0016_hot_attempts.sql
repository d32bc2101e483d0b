-- Room on the page for an updated row to stay on it (a HOT update: no new index entry, less to vacuum).
-- An attempt is written at about 250 bytes and grows to about 1.6 KB at its first autosave (the answers, and the
-- answers that count at the deadline); its later autosaves, its file and its clock's page-seen marks rewrite it
-- whole. At the default fillfactor its page is full of newly started attempts and the grown row moves to another
-- page, with a new entry in every index: 15 % leaves four attempts to a page, room for them grown and one more
-- version. Grown attempts fill their pages as they did before. Submit and scoring change `status`, which the
-- partial unique index of the attempt in progress and the Live screen's deadline index name: those stay non-HOT.
ALTER TABLE attempts SET (fillfactor = 15);

-- A result copy is updated once, when its certificate's link arrives: room for one more version a page.
ALTER TABLE results SET (fillfactor = 80);
