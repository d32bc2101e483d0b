-- A count of the changes to an attempt's answer files: every upload and removal adds one in the statement that
-- writes the file, and a submit ends the attempt only if the count is the one it read with the files it sends in
-- its event. A file recorded between a submit's read and its write (another tab, a slow upload) then makes the
-- submit read again instead of leaving that file out of the submitted event. Expand-only: an older replica
-- neither reads nor writes it.
ALTER TABLE attempts
  ADD COLUMN files_seq integer NOT NULL DEFAULT 0;
