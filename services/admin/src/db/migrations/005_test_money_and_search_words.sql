-- Purchases through the built-in test checkout moved no money: they are kept apart from revenue.
ALTER TABLE rm_purchases ADD COLUMN test boolean NOT NULL DEFAULT false;
ALTER TABLE rm_daily ADD COLUMN test_purchases integer NOT NULL DEFAULT 0;
ALTER TABLE rm_daily ADD COLUMN test_amount numeric(14, 2) NOT NULL DEFAULT 0;
ALTER TABLE rm_daily ADD COLUMN test_refunded numeric(14, 2) NOT NULL DEFAULT 0;
-- What a finished search looked for, as search.completed says (null from before it said so).
ALTER TABLE rm_activity ADD COLUMN industry text;
ALTER TABLE rm_activity ADD COLUMN location text;
