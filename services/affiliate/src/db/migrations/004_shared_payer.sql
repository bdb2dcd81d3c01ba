-- Who paid each purchase (hashes from billing's purchase.completed), and why a commission was refused:
-- a buyer who paid with the referrer's own PayPal account (its id or email) earns the referrer nothing.
ALTER TABLE purchases ADD COLUMN payer_keys jsonb;
ALTER TABLE commissions ADD COLUMN refused_reason text CHECK (refused_reason IN ('shared_payer'));
