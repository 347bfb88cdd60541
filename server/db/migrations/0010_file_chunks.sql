CREATE TABLE "file_chunks" (
	"stored_name" text NOT NULL,
	"part" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "file_chunks_stored_name_part_pk" PRIMARY KEY("stored_name","part")
);
