-- Accounts whose jobs the scraper erased (account.deleted). A search requested just before the
-- deletion can reach the scraper after the erasure (two topics, no order between them): recording
-- it checks this table under the account's lock (the kit's erasedAccounts), so it is never stored
-- nor run. Holds only ids.
CREATE TABLE erased_accounts (
  user_id text PRIMARY KEY,
  erased_at timestamptz NOT NULL DEFAULT now()
);
