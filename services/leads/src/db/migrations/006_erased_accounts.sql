-- Accounts whose data leads erased (account.deleted). A request let in just before the deletion can
-- still be on its way when the erasure runs; its write checks this table under the account's lock
-- (src/domain/erasedAccounts.ts), so nothing it would store outlives the erasure. Holds only ids.
CREATE TABLE erased_accounts (
  user_id text PRIMARY KEY,
  erased_at timestamptz NOT NULL DEFAULT now()
);
