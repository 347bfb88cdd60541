-- One sequence orders every change a user can pull. The trigger takes a transaction-level advisory
-- lock before drawing the number, so writers that touch synced rows commit in seq order and a pull
-- "seq > cursor" can never miss a row that was numbered earlier but committed later.
CREATE SEQUENCE IF NOT EXISTS change_seq;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION set_change_seq() RETURNS trigger AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(4242);
  NEW.seq := nextval('change_seq');
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_seq BEFORE INSERT OR UPDATE ON users FOR EACH ROW EXECUTE FUNCTION set_change_seq();
--> statement-breakpoint
CREATE TRIGGER product_requests_seq BEFORE INSERT OR UPDATE ON product_requests FOR EACH ROW EXECUTE FUNCTION set_change_seq();
--> statement-breakpoint
CREATE TRIGGER deals_seq BEFORE INSERT OR UPDATE ON deals FOR EACH ROW EXECUTE FUNCTION set_change_seq();
--> statement-breakpoint
CREATE TRIGGER refunds_seq BEFORE INSERT OR UPDATE ON refunds FOR EACH ROW EXECUTE FUNCTION set_change_seq();
--> statement-breakpoint
CREATE TRIGGER notifications_seq BEFORE INSERT OR UPDATE ON notifications FOR EACH ROW EXECUTE FUNCTION set_change_seq();
--> statement-breakpoint
CREATE TRIGGER contact_requests_seq BEFORE INSERT OR UPDATE ON contact_requests FOR EACH ROW EXECUTE FUNCTION set_change_seq();
--> statement-breakpoint
CREATE TRIGGER files_seq BEFORE INSERT OR UPDATE ON files FOR EACH ROW EXECUTE FUNCTION set_change_seq();
