-- What a search covered (the engine's `coverage`: area, sources, cells, places outside the boundary,
-- duplicates merged, exhausted), as its last progress or finish said. Null for searches from before.
ALTER TABLE lead_searches ADD COLUMN coverage jsonb;
