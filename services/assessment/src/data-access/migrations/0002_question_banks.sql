-- Question banks and shuffling (issue 26), per version and off by default, so a version saved before them behaves as
-- before. A section's draw (how many of its questions each attempt is given) lives in the sections JSON.
--   shuffle_questions: each attempt gets its own order of the questions within each section.
--   shuffle_options:   each attempt gets its own order of every multiple-choice question's options.
ALTER TABLE assessment_versions
  ADD COLUMN shuffle_questions boolean NOT NULL DEFAULT false,
  ADD COLUMN shuffle_options boolean NOT NULL DEFAULT false;
