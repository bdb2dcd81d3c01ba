-- The email verdict as two labels (issue 44): deliverability (deliverable / undeliverable /
-- accept_all / unknown) beside the type (role / personal / free_mail / disposable), when it was
-- reached, and its evidence (the mail host asked, the SMTP reply code that decided).
ALTER TABLE leads
  ADD COLUMN email_deliverability text,
  ADD COLUMN email_checked_at timestamptz,
  ADD COLUMN email_mx_host text,
  ADD COLUMN email_smtp_code integer;

-- Earlier verdicts looked at the domain's MX only. `invalid` (malformed, no mail host, disposable)
-- was a definite no; `valid` and `risky` never asked for the mailbox, so whether it exists is unknown.
UPDATE leads SET email_deliverability = CASE email_status WHEN 'invalid' THEN 'undeliverable' ELSE 'unknown' END
  WHERE email_status IS NOT NULL;

ALTER TABLE leads DROP COLUMN email_status;
