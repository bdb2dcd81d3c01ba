-- An opt-out request proves nothing about who sent it: an email is suppressed only once its owner
-- opens the link mailed to it ('unconfirmed' until then; only the SHA-256 of the link's token is kept),
-- a phone waits for an administrator as a website does.
ALTER TABLE opt_outs DROP CONSTRAINT opt_outs_status_check;
ALTER TABLE opt_outs ADD CONSTRAINT opt_outs_status_check
  CHECK (status IN ('unconfirmed', 'applied', 'pending', 'approved', 'rejected', 'lifted'));
ALTER TABLE opt_outs ADD COLUMN confirmation_hash text;
ALTER TABLE opt_outs ADD COLUMN confirm_by timestamptz;
CREATE UNIQUE INDEX opt_outs_confirmation ON opt_outs (confirmation_hash) WHERE confirmation_hash IS NOT NULL;

-- A pending or rejected website used to suppress the email and phone given with it at once; now such a
-- row suppresses nothing, so those contacts move to a row of their own that stays applied, as they were.
INSERT INTO opt_outs (id, email, phone, reason, status, created_at, decided_at)
SELECT gen_random_uuid(), email, phone, reason, 'applied', created_at, created_at
FROM opt_outs WHERE website IS NOT NULL AND status IN ('pending', 'rejected') AND (email IS NOT NULL OR phone IS NOT NULL);
UPDATE opt_outs SET email = NULL, phone = NULL
WHERE website IS NOT NULL AND status IN ('pending', 'rejected') AND (email IS NOT NULL OR phone IS NOT NULL);
