-- Question banks and shuffling (issue 26): the questions an attempt was given and their order, drawn once when it
-- starts from a random seed kept with it, so a reload or another device shows the same. Expand-only: null (every
-- attempt started before, and every attempt of a version without a draw or shuffle) is the whole version in order.
--   paper: { "seed": n, "questionIds": [ids in the order shown], "options": { questionId: [option ids in order] } }
ALTER TABLE attempts ADD COLUMN paper jsonb;
