CREATE TABLE "tracking_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"slug" text NOT NULL,
	"label" text NOT NULL,
	"destination" text,
	"disabled" boolean DEFAULT false NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"previews" integer DEFAULT 0 NOT NULL,
	"last_visit_at" timestamp with time zone,
	"created_by" text,
	"client_key" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "tracking_links_counts_check" CHECK ("tracking_links"."visits" >= 0 AND "tracking_links"."previews" >= 0)
);
--> statement-breakpoint
DROP INDEX "visits_request";--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "link_id" uuid;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "browser" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "os" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "device" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "referrer" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "preview" text;--> statement-breakpoint
ALTER TABLE "tracking_links" ADD CONSTRAINT "tracking_links_request_id_product_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."product_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_links" ADD CONSTRAINT "tracking_links_user_id_users_uid_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_links_slug" ON "tracking_links" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "tracking_links_user_seq" ON "tracking_links" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "tracking_links_request" ON "tracking_links" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_links_client_key" ON "tracking_links" USING btree ("created_by","client_key") WHERE client_key IS NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_link_id_tracking_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."tracking_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visits_link" ON "visits" USING btree ("link_id");--> statement-breakpoint
CREATE INDEX "visits_request" ON "visits" USING btree ("request_id","time");--> statement-breakpoint
-- Hand-written: tracking links are synced rows, so they draw their seq like the others
-- (0001_change_seq.sql). A capture bumps the link's counters in the visit's transaction, which moves
-- this seq: that is how the client's delta pull and the staff feed learn of a new visit (visits carry
-- no seq of their own). updated_at moves on every UPDATE, as product_requests' does (0007).
CREATE TRIGGER tracking_links_seq BEFORE INSERT OR UPDATE ON tracking_links FOR EACH ROW EXECUTE FUNCTION set_change_seq();--> statement-breakpoint
CREATE TRIGGER tracking_links_updated_at BEFORE UPDATE ON tracking_links FOR EACH ROW EXECUTE FUNCTION set_updated_at();
