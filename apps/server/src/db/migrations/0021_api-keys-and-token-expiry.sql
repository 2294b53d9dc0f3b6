ALTER TABLE "personal_access_tokens" ADD COLUMN "kind" text DEFAULT 'login' NOT NULL;--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ADD COLUMN "scopes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- Edited after drizzle-kit: the tokens issued before this migration get the lifetime of decision 028
-- (14 days after their last use, 30 days after their issue at most), then the column is required.
ALTER TABLE "personal_access_tokens" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "personal_access_tokens" SET "expires_at" = least("created_at" + interval '30 days', coalesce("last_used_at", "created_at") + interval '14 days');--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_kind_check" CHECK ("personal_access_tokens"."kind" in ('login', 'api_key'));
