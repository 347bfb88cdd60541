CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_uid" text NOT NULL,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"subject_uid" text,
	"request_id" uuid,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "method" text;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "paid_at" text;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "invoice_number" text;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "recorded_by" text;--> statement-breakpoint
ALTER TABLE "product_requests" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
ALTER TABLE "product_requests" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_staff" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_subject" ON "audit_log" USING btree ("subject_uid","id");--> statement-breakpoint
CREATE INDEX "audit_request" ON "audit_log" USING btree ("request_id","id");--> statement-breakpoint
CREATE INDEX "product_requests_queue" ON "product_requests" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "users_leads_queue" ON "users" USING btree ("is_client","created_at","uid");