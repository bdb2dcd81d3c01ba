-- The per-user view (GET /api/admin/users/:id) reads one user's searches and purchases, newest first.
CREATE INDEX rm_activity_by_user ON rm_activity (user_id, type, occurred_at DESC, event_id DESC);
CREATE INDEX rm_purchases_by_user ON rm_purchases (user_id, completed_at DESC, purchase_id DESC);
