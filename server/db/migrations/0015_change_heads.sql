CREATE TABLE "change_heads" (
	"scope" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
-- Hand-written from here. The latest seq of each scope of the client feed (GET /api/sync): a uid for that
-- user's rows, '*' for what every user's feed carries. Kept by AFTER triggers, so only rows really written
-- count (an INSERT … ON CONFLICT DO NOTHING that stored nothing moves no head), in the writing transaction,
-- which already holds the change_seq advisory lock (0001): head writes are serialised with the rows they
-- follow, and a row and its head commit together. Only rows the feed carries: files of the synced kinds
-- (SYNCED_FILE_KINDS in server/routes/sync.ts, 'general'), no staff notes or watches.
CREATE FUNCTION change_head_of_uid() RETURNS trigger AS $$
BEGIN
  INSERT INTO change_heads (scope, seq) VALUES (NEW.uid, NEW.seq)
    ON CONFLICT (scope) DO UPDATE SET seq = greatest(change_heads.seq, excluded.seq);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- user_id NULL (a general notification) is everyone's.
CREATE FUNCTION change_head_of_user_id() RETURNS trigger AS $$
BEGIN
  INSERT INTO change_heads (scope, seq) VALUES (coalesce(NEW.user_id, '*'), NEW.seq)
    ON CONFLICT (scope) DO UPDATE SET seq = greatest(change_heads.seq, excluded.seq);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION change_head_of_everyone() RETURNS trigger AS $$
BEGIN
  INSERT INTO change_heads (scope, seq) VALUES ('*', NEW.seq)
    ON CONFLICT (scope) DO UPDATE SET seq = greatest(change_heads.seq, excluded.seq);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_change_head AFTER INSERT OR UPDATE ON users FOR EACH ROW EXECUTE FUNCTION change_head_of_uid();
--> statement-breakpoint
CREATE TRIGGER product_requests_change_head AFTER INSERT OR UPDATE ON product_requests FOR EACH ROW EXECUTE FUNCTION change_head_of_user_id();
--> statement-breakpoint
CREATE TRIGGER deals_change_head AFTER INSERT OR UPDATE ON deals FOR EACH ROW EXECUTE FUNCTION change_head_of_user_id();
--> statement-breakpoint
CREATE TRIGGER refunds_change_head AFTER INSERT OR UPDATE ON refunds FOR EACH ROW EXECUTE FUNCTION change_head_of_user_id();
--> statement-breakpoint
CREATE TRIGGER notifications_change_head AFTER INSERT OR UPDATE ON notifications FOR EACH ROW EXECUTE FUNCTION change_head_of_user_id();
--> statement-breakpoint
CREATE TRIGGER contact_requests_change_head AFTER INSERT OR UPDATE ON contact_requests FOR EACH ROW EXECUTE FUNCTION change_head_of_user_id();
--> statement-breakpoint
CREATE TRIGGER contact_replies_change_head AFTER INSERT OR UPDATE ON contact_replies FOR EACH ROW EXECUTE FUNCTION change_head_of_user_id();
--> statement-breakpoint
CREATE TRIGGER files_change_head AFTER INSERT OR UPDATE ON files FOR EACH ROW WHEN (NEW.kind IN ('general')) EXECUTE FUNCTION change_head_of_user_id();
--> statement-breakpoint
CREATE TRIGGER tracking_links_change_head AFTER INSERT OR UPDATE ON tracking_links FOR EACH ROW EXECUTE FUNCTION change_head_of_user_id();
--> statement-breakpoint
CREATE TRIGGER notification_reads_change_head AFTER INSERT OR UPDATE ON notification_reads FOR EACH ROW EXECUTE FUNCTION change_head_of_user_id();
--> statement-breakpoint
CREATE TRIGGER business_settings_change_head AFTER INSERT OR UPDATE ON business_settings FOR EACH ROW EXECUTE FUNCTION change_head_of_everyone();
--> statement-breakpoint
-- The rows already stored, after the triggers: creating a trigger locks its table against writes until this
-- migration commits, so no row can commit between this snapshot and the first head a trigger writes.
INSERT INTO change_heads (scope, seq)
SELECT scope, max(seq) FROM (
  SELECT uid AS scope, seq FROM users
  UNION ALL SELECT user_id, seq FROM product_requests
  UNION ALL SELECT user_id, seq FROM deals
  UNION ALL SELECT user_id, seq FROM refunds
  UNION ALL SELECT coalesce(user_id, '*'), seq FROM notifications
  UNION ALL SELECT user_id, seq FROM contact_requests
  UNION ALL SELECT user_id, seq FROM contact_replies
  UNION ALL SELECT user_id, seq FROM files WHERE kind IN ('general')
  UNION ALL SELECT user_id, seq FROM tracking_links
  UNION ALL SELECT user_id, seq FROM notification_reads
  UNION ALL SELECT '*', seq FROM business_settings
) AS feed
GROUP BY scope
ON CONFLICT (scope) DO UPDATE SET seq = greatest(change_heads.seq, excluded.seq);
