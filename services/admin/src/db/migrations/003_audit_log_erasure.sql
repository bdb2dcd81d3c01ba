-- The audit log stays append-only, with one exception: when an account is deleted, the entries that
-- name it (an action's detail, e.g. "Added 30 credits to Ada Lovelace", and an admin's own address)
-- are redacted to fixed markers. Who did what to which id, when and with what result stays.
CREATE OR REPLACE FUNCTION admin_audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND NEW.id = OLD.id AND NEW.actor_id = OLD.actor_id AND NEW.action = OLD.action
     AND NEW.target_id IS NOT DISTINCT FROM OLD.target_id AND NEW.request = OLD.request
     AND NEW.result = OLD.result AND NEW.at = OLD.at
     AND (NEW.detail = OLD.detail OR NEW.detail = 'Details erased: the account was deleted.')
     AND (NEW.actor_email = OLD.actor_email OR NEW.actor_email = 'deleted-' || NEW.actor_id || '@deleted.invalid') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'admin_audit_log is append-only';
END
$$;
