-- Substring search on name or e-mail stays fast at tens of thousands of students: trigram indexes serve
-- `ILIKE '%…%'`. pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX students_name_trgm ON students USING gin (name gin_trgm_ops);
CREATE INDEX students_email_trgm ON students USING gin (email gin_trgm_ops);
