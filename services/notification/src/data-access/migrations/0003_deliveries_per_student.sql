-- Which student a mail was about (invitations), so the Student Management table can show each student's latest
-- invitation delivery, and erasing a student erases their mail log.
ALTER TABLE deliveries ADD COLUMN student_id uuid;

CREATE INDEX deliveries_student ON deliveries (student_id, created_at DESC) WHERE student_id IS NOT NULL;
