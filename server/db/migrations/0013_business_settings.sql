CREATE TABLE "business_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"account_holder" text NOT NULL,
	"bank_name" text NOT NULL,
	"account_number" text NOT NULL,
	"bic" text DEFAULT '' NOT NULL,
	"payment_note" text DEFAULT '' NOT NULL,
	"official_emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"official_domains" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"official_phones" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "business_settings_one_row" CHECK ("business_settings"."id" = 'business')
);
--> statement-breakpoint
-- Hand-written: the settings are a synced row (every user's feed carries them), so they draw their seq like the others (0001_change_seq.sql).
CREATE TRIGGER business_settings_seq BEFORE INSERT OR UPDATE ON business_settings FOR EACH ROW EXECUTE FUNCTION set_change_seq();
