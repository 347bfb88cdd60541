CREATE TABLE "cases" (
	"uid" text PRIMARY KEY NOT NULL,
	"owner_uid" text,
	"assigned_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deadlines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"subject_uid" text NOT NULL,
	"entity_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"target_minutes" integer NOT NULL,
	"warn_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"stopped_by_uid" text,
	"met" boolean,
	"seq" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "deadlines_kind_check" CHECK ("deadlines"."kind" IN ('firstReply', 'nextReply', 'pricing', 'approval'))
);
--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_uid_users_uid_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deadlines" ADD CONSTRAINT "deadlines_subject_uid_users_uid_fk" FOREIGN KEY ("subject_uid") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cases_owner" ON "cases" USING btree ("owner_uid","uid");--> statement-breakpoint
CREATE UNIQUE INDEX "deadlines_one_running" ON "deadlines" USING btree ("kind","entity_id") WHERE stopped_at IS NULL;--> statement-breakpoint
CREATE INDEX "deadlines_running_due" ON "deadlines" USING btree ("kind","due_at","entity_id") WHERE stopped_at IS NULL;--> statement-breakpoint
CREATE INDEX "deadlines_subject_seq" ON "deadlines" USING btree ("subject_uid","seq");--> statement-breakpoint
CREATE INDEX "deadlines_stopped" ON "deadlines" USING btree ("stopped_at") WHERE stopped_at IS NOT NULL;--> statement-breakpoint
-- Staff-feed rows: numbered from change_seq like every other row a replica holds (0001_change_seq.sql).
CREATE TRIGGER cases_seq BEFORE INSERT OR UPDATE ON cases FOR EACH ROW EXECUTE FUNCTION set_change_seq();--> statement-breakpoint
CREATE TRIGGER deadlines_seq BEFORE INSERT OR UPDATE ON deadlines FOR EACH ROW EXECUTE FUNCTION set_change_seq();
