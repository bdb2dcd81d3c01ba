-- Who paid a purchase, as hashes of the PayPal payer's account id and email (never the values): the
-- affiliate service refuses a commission when the buyer paid with the referrer's own PayPal account.
ALTER TABLE purchases ADD COLUMN payer_keys jsonb;
