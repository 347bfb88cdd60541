-- A delivery that becomes due to send (written, or queued again by an admin) wakes the workers of every instance.
-- NOTIFY in a trigger is delivered when the transaction commits and not at all when it rolls back, and the
-- notifications of one transaction are merged into one: a change's deliveries wake the workers once, after its
-- commit, whichever code path wrote them.
CREATE OR REPLACE FUNCTION wake_delivery_workers() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('portal_deliveries', '');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER deliveries_wake AFTER INSERT OR UPDATE OF state ON deliveries FOR EACH ROW WHEN (NEW.state = 'queued') EXECUTE FUNCTION wake_delivery_workers();
