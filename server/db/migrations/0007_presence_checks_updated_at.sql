CREATE TABLE "user_presence" (
	"uid" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_presence_status_check" CHECK ("user_presence"."status" IN ('ACTIVE', 'IN_ACTIVE'))
);
--> statement-breakpoint
ALTER TABLE "user_presence" ADD CONSTRAINT "user_presence_uid_users_uid_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Hand-written, before the columns go: presence moves out of users (a presence write no longer
-- renumbers the profile). Only users who ever reported get a row; a missing row reads as IN_ACTIVE, as
-- the old column default did. A value other than ACTIVE was already served as IN_ACTIVE (serialize.ts),
-- so it is stored as that and passes the new CHECK. The user_presence table has no seq trigger.
INSERT INTO "user_presence" ("uid", "status", "last_seen_at", "updated_at")
SELECT "uid",
  CASE WHEN "activity_status" = 'ACTIVE' THEN 'ACTIVE' ELSE 'IN_ACTIVE' END,
  coalesce("last_seen_at", now()),
  coalesce("last_seen_at", now())
FROM "users"
WHERE "last_seen_at" IS NOT NULL OR "activity_status" <> 'IN_ACTIVE';--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "activity_status";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "last_seen_at";--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_type_check" CHECK ("deals"."product_request_type" IN ('TRACK_MASTER', 'WEB_INTELLIGENCE', 'BLOCKCHAIN_ANALYSIS', 'BANK_DISPUTE', 'EXCHANGE_DISPUTE'));--> statement-breakpoint
ALTER TABLE "product_requests" ADD CONSTRAINT "product_requests_status_check" CHECK ("product_requests"."status" IN ('Pending', 'Waiting for actions', 'In Progress', 'Rejected', 'Done'));--> statement-breakpoint
ALTER TABLE "product_requests" ADD CONSTRAINT "product_requests_type_check" CHECK ("product_requests"."product_request_type" IN ('TRACK_MASTER', 'WEB_INTELLIGENCE', 'BLOCKCHAIN_ANALYSIS', 'BANK_DISPUTE', 'EXCHANGE_DISPUTE'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_tool_check" CHECK ("refunds"."tool" IN ('TRACK_MASTER', 'WEB_INTELLIGENCE', 'BLOCKCHAIN_ANALYSIS', 'BANK_DISPUTE', 'EXCHANGE_DISPUTE'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_type_check" CHECK ("refunds"."refund_request_type" IN ('PARTIAL', 'FULL'));--> statement-breakpoint
-- The CHECKs above are validated against the rows already stored: a value outside the lists fails this
-- migration by its constraint name rather than being rewritten silently (every route validates these
-- columns with the same domain/ lists, so none is expected).
--
-- product_requests.updated_at was set on insert only. The database now moves it on every UPDATE, so no
-- write path can forget it, and the client (which keeps the copy with the later updatedAt) can tell a
-- late answer from a newer row. clock_timestamp(), not now(): now() is the start of the transaction, and
-- two writers of one request are serialized by its row lock, so the one that began first but wrote
-- second would stamp a time earlier than the write it follows. A BEFORE ROW trigger runs on the locked
-- row, after the previous writer committed, so clock_timestamp() follows the row's commit order; and
-- several updates of the row in one transaction each move it forward.
CREATE OR REPLACE FUNCTION set_updated_at() RETURNS trigger AS $$
BEGIN
  NEW.updated_at := clock_timestamp();
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER product_requests_updated_at BEFORE UPDATE ON product_requests FOR EACH ROW EXECUTE FUNCTION set_updated_at();
