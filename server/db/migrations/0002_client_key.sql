ALTER TABLE "contact_requests" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "product_requests" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "client_key" text;