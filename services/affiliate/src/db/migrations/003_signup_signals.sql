-- Where and on which device each account was registered (user.registered): a referral between two
-- accounts of one device, or of one client address within a day, is the referrer's own second account.
CREATE TABLE signups (
  user_id text PRIMARY KEY,
  signup_address text,
  device_id text,
  registered_at timestamptz NOT NULL
);
CREATE INDEX signups_device ON signups (device_id) WHERE device_id IS NOT NULL;

ALTER TABLE referrals DROP CONSTRAINT referrals_rejection_reason_check;
ALTER TABLE referrals ADD CONSTRAINT referrals_rejection_reason_check
  CHECK (rejection_reason IN ('self_referral', 'same_device', 'same_signup_address', 'expired', 'bad_signature', 'unknown_code', 'malformed'));
