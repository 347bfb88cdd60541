-- Hand-written in place of drizzle-kit's `ADD COLUMN "ref_no" serial NOT NULL`, which would number the
-- existing rows in whatever order the table rewrite meets them and without moving their seq. Here the
-- column is added empty, the existing requests are numbered by creation time (the oldest is 1) by an
-- UPDATE, whose triggers move each row's seq (0001) and updated_at (0007), so every device's delta pull
-- and the staff feed bring the numbered rows; then it becomes what serial makes: a sequence owned by the
-- column, set past the highest number, as the default, NOT NULL, unique.
ALTER TABLE "product_requests" ADD COLUMN "ref_no" integer;--> statement-breakpoint
UPDATE "product_requests" AS p SET "ref_no" = n.ref_no
FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS ref_no FROM "product_requests") AS n
WHERE p."id" = n."id";--> statement-breakpoint
CREATE SEQUENCE "product_requests_ref_no_seq" AS integer OWNED BY "product_requests"."ref_no";--> statement-breakpoint
SELECT setval('product_requests_ref_no_seq', COALESCE((SELECT max("ref_no") FROM "product_requests"), 0) + 1, false);--> statement-breakpoint
ALTER TABLE "product_requests" ALTER COLUMN "ref_no" SET DEFAULT nextval('product_requests_ref_no_seq');--> statement-breakpoint
ALTER TABLE "product_requests" ALTER COLUMN "ref_no" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "product_requests_ref_no" ON "product_requests" USING btree ("ref_no");
