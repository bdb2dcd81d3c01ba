-- The people a lead's website names as running the business (name, role, role as written, page),
-- the decision-maker first; null for leads stored before the engine found people.
ALTER TABLE leads ADD COLUMN IF NOT EXISTS people jsonb;
