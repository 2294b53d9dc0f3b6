CREATE TABLE "data_sources" (
	"source" text PRIMARY KEY NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"last_counts" jsonb,
	"etag" text,
	"last_modified" text,
	"next_attempt_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"claimed_until" timestamp with time zone,
	"claimed_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "directory_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vulnerabilities" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vulnerabilities" ADD COLUMN "known_exploited" jsonb;--> statement-breakpoint
ALTER TABLE "vulnerabilities" ADD COLUMN "epss" jsonb;