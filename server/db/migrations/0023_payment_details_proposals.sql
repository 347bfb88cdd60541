CREATE TABLE "payment_details_proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"proposed_by_uid" text NOT NULL,
	"proposed_by_email" text NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"before" jsonb NOT NULL,
	"account_holder" text NOT NULL,
	"bank_name" text NOT NULL,
	"account_number" text NOT NULL,
	"bic" text DEFAULT '' NOT NULL,
	"decided_by_uid" text,
	"decided_by_email" text,
	"decided_at" timestamp with time zone,
	CONSTRAINT "payment_details_proposals_status" CHECK ("payment_details_proposals"."status" IN ('pending', 'approved', 'rejected', 'withdrawn', 'replaced')),
	CONSTRAINT "payment_details_proposals_four_eyes" CHECK ("payment_details_proposals"."status" <> 'approved' OR ("payment_details_proposals"."decided_by_uid" IS NOT NULL AND "payment_details_proposals"."decided_by_uid" <> "payment_details_proposals"."proposed_by_uid"))
);
--> statement-breakpoint
ALTER TABLE "business_settings" ADD COLUMN "payment_details_changed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_details_proposals_one_pending" ON "payment_details_proposals" USING btree ("status") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "payment_details_proposals_proposed_at" ON "payment_details_proposals" USING btree ("proposed_at");