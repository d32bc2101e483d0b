-- A version's texts in other languages than English (issue 27): { es?, fr?, pt?, ar? }, each with the title, the
-- description, the sections', questions', options', file instructions' and practice question's texts it
-- translates. Expand-only: {} (every version saved before) is English only.
ALTER TABLE assessment_versions ADD COLUMN translations jsonb NOT NULL DEFAULT '{}';
