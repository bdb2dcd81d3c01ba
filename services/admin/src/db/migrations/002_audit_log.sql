-- The admin audit log: admin's own record of every admin action (who, what, target, when, result).
-- Append-only, enforced here: no row is ever changed or removed, and a rebuild of the read models
-- leaves it alone.
CREATE TABLE admin_audit_log (
  id text PRIMARY KEY,
  actor_id text NOT NULL,
  actor_email text NOT NULL,
  action text NOT NULL,
  target_id text,
  request jsonb NOT NULL DEFAULT '{}'::jsonb,
  result text NOT NULL CHECK (result IN ('ok', 'refused', 'failed')),
  detail text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX admin_audit_log_recent ON admin_audit_log (at DESC, id DESC);

CREATE FUNCTION admin_audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'admin_audit_log is append-only';
END
$$;
CREATE TRIGGER admin_audit_log_no_change BEFORE UPDATE OR DELETE ON admin_audit_log
  FOR EACH ROW EXECUTE FUNCTION admin_audit_log_is_append_only();
CREATE TRIGGER admin_audit_log_no_truncate BEFORE TRUNCATE ON admin_audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_log_is_append_only();
