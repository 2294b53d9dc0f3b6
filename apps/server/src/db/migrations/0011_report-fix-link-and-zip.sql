ALTER TABLE "reports" ADD COLUMN "fix_url" text;--> statement-breakpoint
ALTER TABLE "report_attachments" ADD COLUMN "kind" text DEFAULT 'proof' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_attachments" ADD CONSTRAINT "report_attachments_kind_check" CHECK ("report_attachments"."kind" in ('proof', 'fix'));