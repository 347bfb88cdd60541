CREATE TABLE "deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_kind" text NOT NULL,
	"event_key" text NOT NULL,
	"recipient_uid" text,
	"channel" text NOT NULL,
	"facts" jsonb NOT NULL,
	"notification_id" uuid,
	"seen_kind" text,
	"seen_id" text,
	"state" text DEFAULT 'queued' NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"claimed_by" text,
	"digest_of" uuid,
	"cursor" text,
	"skip_reason" text,
	"last_status" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "deliveries_event_recipient_channel" UNIQUE NULLS NOT DISTINCT("event_key","recipient_uid","channel")
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" text PRIMARY KEY NOT NULL,
	"general_updates" boolean DEFAULT true NOT NULL,
	"personal_updates" boolean DEFAULT true NOT NULL,
	"email" boolean DEFAULT true NOT NULL,
	"push" boolean DEFAULT true NOT NULL,
	"lock_screen_details" boolean DEFAULT false NOT NULL,
	"staff_leads" boolean DEFAULT true NOT NULL,
	"staff_requests" boolean DEFAULT true NOT NULL,
	"staff_messages" boolean DEFAULT true NOT NULL,
	"staff_refunds" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_sends" (
	"delivery_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_sends_delivery_id_subscription_id_pk" PRIMARY KEY("delivery_id","subscription_id")
);
--> statement-breakpoint
CREATE TABLE "seen_marks" (
	"user_id" text NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"seen_up_to" timestamp with time zone NOT NULL,
	CONSTRAINT "seen_marks_user_id_subject_kind_subject_id_pk" PRIMARY KEY("user_id","subject_kind","subject_id")
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_recipient_uid_users_uid_fk" FOREIGN KEY ("recipient_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_uid_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_sends" ADD CONSTRAINT "push_sends_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_sends" ADD CONSTRAINT "push_sends_subscription_id_push_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."push_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seen_marks" ADD CONSTRAINT "seen_marks_user_id_users_uid_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deliveries_due" ON "deliveries" USING btree ("due_at","id") WHERE state = 'queued';--> statement-breakpoint
CREATE INDEX "deliveries_lease" ON "deliveries" USING btree ("lease_until") WHERE state = 'sending';--> statement-breakpoint
CREATE INDEX "deliveries_recipient_email" ON "deliveries" USING btree ("recipient_uid","due_at") WHERE state = 'queued' AND channel = 'email';--> statement-breakpoint
CREATE INDEX "deliveries_trouble" ON "deliveries" USING btree ("finished_at") WHERE state IN ('failed', 'unknown');--> statement-breakpoint
CREATE INDEX "deliveries_created" ON "deliveries" USING btree ("created_at");--> statement-breakpoint
-- Hand-written below: the closed lists, and the preferences as a synced row made for every user.
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_channel" CHECK (channel IN ('push', 'email', 'fanout'));--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_state" CHECK (state IN ('queued', 'sending', 'sent', 'skipped', 'failed', 'unknown'));--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_recipient" CHECK ((channel = 'fanout') = (recipient_uid IS NULL));--> statement-breakpoint
CREATE TRIGGER notification_preferences_seq BEFORE INSERT OR UPDATE ON notification_preferences FOR EACH ROW EXECUTE FUNCTION set_change_seq();--> statement-breakpoint
CREATE TRIGGER notification_preferences_change_head AFTER INSERT OR UPDATE ON notification_preferences FOR EACH ROW EXECUTE FUNCTION change_head_of_user_id();--> statement-breakpoint
CREATE OR REPLACE FUNCTION create_notification_preferences() RETURNS trigger AS $$
BEGIN
  INSERT INTO notification_preferences (user_id) VALUES (NEW.uid) ON CONFLICT (user_id) DO NOTHING;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER users_notification_preferences AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION create_notification_preferences();--> statement-breakpoint
INSERT INTO notification_preferences (user_id) SELECT uid FROM users ON CONFLICT (user_id) DO NOTHING;
