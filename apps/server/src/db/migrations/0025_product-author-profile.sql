ALTER TABLE "products" ADD COLUMN "author_profile" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "contributors" text[];