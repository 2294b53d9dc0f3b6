CREATE TABLE "attachment_pending_objects" (
	"object_key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_attachment_chunks" (
	"attachment_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "report_attachment_chunks_attachment_id_seq_pk" PRIMARY KEY("attachment_id","seq")
);
--> statement-breakpoint
-- Edited after drizzle-kit: the attachments stored before this migration are on disk (ATTACHMENTS_DIR);
-- the start moves them into the configured store (decision 022). New rows always name their store.
ALTER TABLE "report_attachments" ADD COLUMN "storage" text DEFAULT 'disk' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_attachments" ALTER COLUMN "storage" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "report_attachment_chunks" ADD CONSTRAINT "report_attachment_chunks_attachment_id_report_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."report_attachments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_attachments" ADD CONSTRAINT "report_attachments_storage_check" CHECK ("report_attachments"."storage" in ('database', 's3', 'disk'));