ALTER TABLE "file_chunks" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "client_key_part" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "files_client_key" ON "files" USING btree ("user_id","client_key","client_key_part") WHERE client_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX "files_stored_name" ON "files" USING btree ("stored_name");