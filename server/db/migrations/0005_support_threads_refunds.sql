CREATE TABLE "contact_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thread_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"author" text NOT NULL,
	"author_uid" text NOT NULL,
	"message" text NOT NULL,
	"client_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "contact_replies_author_check" CHECK ("contact_replies"."author" IN ('client', 'staff'))
);
--> statement-breakpoint
CREATE TABLE "staff_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_uid" text NOT NULL,
	"request_id" uuid,
	"author_uid" text NOT NULL,
	"author_email" text NOT NULL,
	"body" text NOT NULL,
	"client_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_watches" (
	"staff_uid" text NOT NULL,
	"kind" text NOT NULL,
	"entity_id" text NOT NULL,
	"subject_uid" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "staff_watches_staff_uid_kind_entity_id_pk" PRIMARY KEY("staff_uid","kind","entity_id"),
	CONSTRAINT "staff_watches_kind_check" CHECK ("staff_watches"."kind" IN ('client', 'request'))
);
--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "status" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "awaiting_since" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "status" text DEFAULT 'requested' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "decided_amount" double precision;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "decision_note" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "decided_by" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_replies" ADD CONSTRAINT "contact_replies_thread_id_contact_requests_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."contact_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_replies" ADD CONSTRAINT "contact_replies_user_id_users_uid_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_notes" ADD CONSTRAINT "staff_notes_subject_uid_users_uid_fk" FOREIGN KEY ("subject_uid") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_notes" ADD CONSTRAINT "staff_notes_request_id_product_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."product_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_watches" ADD CONSTRAINT "staff_watches_staff_uid_users_uid_fk" FOREIGN KEY ("staff_uid") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_watches" ADD CONSTRAINT "staff_watches_subject_uid_users_uid_fk" FOREIGN KEY ("subject_uid") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_replies_user_seq" ON "contact_replies" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "contact_replies_thread" ON "contact_replies" USING btree ("thread_id","created_at");--> statement-breakpoint
CREATE INDEX "staff_notes_subject_seq" ON "staff_notes" USING btree ("subject_uid","seq");--> statement-breakpoint
CREATE INDEX "staff_notes_request" ON "staff_notes" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "staff_watches_subject" ON "staff_watches" USING btree ("subject_uid");--> statement-breakpoint
CREATE INDEX "contact_requests_awaiting" ON "contact_requests" USING btree ("awaiting_since","id") WHERE awaiting_since IS NOT NULL;--> statement-breakpoint
CREATE INDEX "refunds_queue" ON "refunds" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_undecided" ON "refunds" USING btree ("request_id") WHERE status = 'requested';--> statement-breakpoint
ALTER TABLE "contact_requests" ADD CONSTRAINT "contact_requests_status_check" CHECK ("contact_requests"."status" IN ('open', 'closed'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" IN ('requested', 'approved', 'declined'));--> statement-breakpoint
-- Threads written before replies existed all wait for their first answer since they were sent.
UPDATE "contact_requests" SET "awaiting_since" = "created_at";--> statement-breakpoint
-- The new synced tables draw their seq like the others (0001_change_seq.sql): replies reach the client's
-- feed; notes and watches only the staff feed, which reads the same sequence.
CREATE TRIGGER contact_replies_seq BEFORE INSERT OR UPDATE ON contact_replies FOR EACH ROW EXECUTE FUNCTION set_change_seq();--> statement-breakpoint
CREATE TRIGGER staff_notes_seq BEFORE INSERT OR UPDATE ON staff_notes FOR EACH ROW EXECUTE FUNCTION set_change_seq();--> statement-breakpoint
CREATE TRIGGER staff_watches_seq BEFORE INSERT OR UPDATE ON staff_watches FOR EACH ROW EXECUTE FUNCTION set_change_seq();
