-- Money in whole cents (docs/decisions/027). Every amount was stored as double precision dollars, entered with at most
-- two decimals. The cast to numeric keeps 15 significant digits, which drops a double's binary noise
-- (0.30000000000000004 is 0.300000000000000) and keeps every cent below ten trillion dollars; the multiplication and
-- the rounding (half away from zero) are then decimal, so each two-decimal amount becomes its exact count of cents.
ALTER TABLE "product_requests" ALTER COLUMN "paid" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "product_requests" ALTER COLUMN "total_amount" SET DATA TYPE bigint USING round("total_amount"::numeric * 100)::bigint;--> statement-breakpoint
ALTER TABLE "product_requests" ALTER COLUMN "paid" SET DATA TYPE bigint USING round("paid"::numeric * 100)::bigint;--> statement-breakpoint
ALTER TABLE "product_requests" ALTER COLUMN "paid" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "product_requests" RENAME COLUMN "total_amount" TO "total_cents";--> statement-breakpoint
ALTER TABLE "product_requests" RENAME COLUMN "paid" TO "paid_cents";--> statement-breakpoint
ALTER TABLE "deals" ALTER COLUMN "amount" SET DATA TYPE bigint USING round("amount"::numeric * 100)::bigint;--> statement-breakpoint
ALTER TABLE "deals" RENAME COLUMN "amount" TO "amount_cents";--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "decided_amount" SET DATA TYPE bigint USING round("decided_amount"::numeric * 100)::bigint;--> statement-breakpoint
ALTER TABLE "refunds" RENAME COLUMN "decided_amount" TO "decided_cents";
