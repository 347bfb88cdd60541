CREATE TABLE "notification_reads" (
	"user_id" text PRIMARY KEY NOT NULL,
	"read_up_to" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_user_id_users_uid_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written: the marker is a synced row, so it draws its seq like the others (0001_change_seq.sql).
CREATE TRIGGER notification_reads_seq BEFORE INSERT OR UPDATE ON notification_reads FOR EACH ROW EXECUTE FUNCTION set_change_seq();--> statement-breakpoint
-- Every user has a marker from the start, set just before the account existed (feed times are in milliseconds:
-- one millisecond earlier keeps a notification sent in the account's own millisecond unread rather than hidden).
-- General notifications sent before are therefore listed but never unread for a new user.
CREATE OR REPLACE FUNCTION create_notification_read() RETURNS trigger AS $$
BEGIN
  INSERT INTO notification_reads (user_id, read_up_to)
  VALUES (NEW.uid, date_trunc('milliseconds', NEW.created_at) - interval '1 millisecond')
  ON CONFLICT (user_id) DO NOTHING;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER users_notification_read AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION create_notification_read();--> statement-breakpoint
-- Existing users: the same starting point; what arrived since their account is unread until they open the bell.
INSERT INTO notification_reads (user_id, read_up_to)
SELECT uid, date_trunc('milliseconds', created_at) - interval '1 millisecond' FROM users
ON CONFLICT (user_id) DO NOTHING;
