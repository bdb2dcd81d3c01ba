-- The PayPal account an affiliate chose for payouts; until set, payouts go to the email of their latest
-- application, else of their account (docs/affiliate-and-contact.md).
ALTER TABLE affiliates ADD COLUMN paypal_email text;
