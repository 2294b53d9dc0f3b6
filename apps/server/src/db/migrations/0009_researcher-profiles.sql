ALTER TABLE "researchers" ADD COLUMN "github" text;--> statement-breakpoint
ALTER TABLE "researchers" ADD COLUMN "x" text;--> statement-breakpoint
ALTER TABLE "researchers" ADD COLUMN "mastodon" text;--> statement-breakpoint
ALTER TABLE "researchers" ADD COLUMN "linkedin" text;--> statement-breakpoint
ALTER TABLE "researchers" ADD COLUMN "profile_completed_at" timestamp with time zone;