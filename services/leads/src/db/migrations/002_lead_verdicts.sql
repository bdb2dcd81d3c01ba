-- Verdicts on a lead's contacts and where each came from (issue 15): the email's status
-- (valid / risky / invalid / unknown) and type (personal / role), the phone's type and its
-- international display form, and for each the page it was found on and when that page was fetched.
ALTER TABLE leads
  ADD COLUMN email_status text,
  ADD COLUMN email_type text,
  ADD COLUMN email_source text,
  ADD COLUMN email_fetched_at timestamptz,
  ADD COLUMN phone_type text,
  ADD COLUMN phone_display text,
  ADD COLUMN phone_source text,
  ADD COLUMN phone_fetched_at timestamptz;
