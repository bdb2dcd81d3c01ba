-- Why a failed search failed, as the engine's code (location_not_found, provider_unreachable, ...), and
-- the places the geocoder offered instead (did you mean; the places an ambiguous name names). Null for
-- searches that did not fail, or failed before codes.
ALTER TABLE lead_searches ADD COLUMN error_code text;
ALTER TABLE lead_searches ADD COLUMN error_candidates jsonb;
