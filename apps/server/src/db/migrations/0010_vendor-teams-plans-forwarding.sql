CREATE TABLE "forward_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"target_id" integer NOT NULL,
	"event_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"manual" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "forward_deliveries_status_check" CHECK ("forward_deliveries"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "forward_delivery_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status_code" smallint,
	"latency_ms" integer NOT NULL,
	"succeeded" boolean NOT NULL,
	"response_excerpt" text
);
--> statement-breakpoint
CREATE TABLE "forward_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"vendor_id" integer NOT NULL,
	"type" text NOT NULL,
	"report_id" uuid,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "forward_events_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "forward_targets" (
	"id" serial PRIMARY KEY NOT NULL,
	"vendor_id" integer NOT NULL,
	"kind" text NOT NULL,
	"email" text,
	"url" text,
	"format" text DEFAULT 'json' NOT NULL,
	"secret" text,
	"events" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirmation_token_hash" text,
	"confirmed_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "forward_targets_confirmation_token_hash_unique" UNIQUE("confirmation_token_hash"),
	CONSTRAINT "forward_targets_kind_check" CHECK ("forward_targets"."kind" in ('email', 'webhook')),
	CONSTRAINT "forward_targets_format_check" CHECK ("forward_targets"."format" in ('json', 'slack', 'discord')),
	CONSTRAINT "forward_targets_status_check" CHECK ("forward_targets"."status" in ('pending', 'active', 'disabled')),
	CONSTRAINT "forward_targets_kind_fields_check" CHECK (("forward_targets"."kind" = 'email' and "forward_targets"."email" is not null) or ("forward_targets"."kind" = 'webhook' and "forward_targets"."url" is not null and "forward_targets"."secret" is not null))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"vendor_id" integer NOT NULL,
	"plan" text NOT NULL,
	"description" text NOT NULL,
	"amount" numeric(10, 2) NOT NULL,
	"currency" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'paid' NOT NULL,
	"provider" text NOT NULL,
	"provider_reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_number_unique" UNIQUE("number"),
	CONSTRAINT "invoices_status_check" CHECK ("invoices"."status" in ('paid', 'open', 'void'))
);
--> statement-breakpoint
CREATE TABLE "vendor_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"vendor_id" integer NOT NULL,
	"email" text NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" integer,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "vendor_invitations_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "vendor_invitations_role_check" CHECK ("vendor_invitations"."role" in ('admin', 'member')),
	CONSTRAINT "vendor_invitations_email_lower_check" CHECK ("vendor_invitations"."email" = lower("vendor_invitations"."email"))
);
--> statement-breakpoint
CREATE TABLE "vendor_plan_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"vendor_id" integer NOT NULL,
	"from_plan" text NOT NULL,
	"to_plan" text NOT NULL,
	"changed_by" integer,
	"via" text NOT NULL,
	"provider" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vendor_plan_changes_via_check" CHECK ("vendor_plan_changes"."via" in ('vendor', 'staff'))
);
--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "plan" text DEFAULT 'free' NOT NULL;--> statement-breakpoint
ALTER TABLE "forward_deliveries" ADD CONSTRAINT "forward_deliveries_target_id_forward_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."forward_targets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_deliveries" ADD CONSTRAINT "forward_deliveries_event_id_forward_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."forward_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_delivery_attempts" ADD CONSTRAINT "forward_delivery_attempts_delivery_id_forward_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."forward_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_events" ADD CONSTRAINT "forward_events_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_targets" ADD CONSTRAINT "forward_targets_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_targets" ADD CONSTRAINT "forward_targets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_invitations" ADD CONSTRAINT "vendor_invitations_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_invitations" ADD CONSTRAINT "vendor_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_invitations" ADD CONSTRAINT "vendor_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_plan_changes" ADD CONSTRAINT "vendor_plan_changes_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_plan_changes" ADD CONSTRAINT "vendor_plan_changes_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forward_deliveries_due_idx" ON "forward_deliveries" USING btree ("next_attempt_at") WHERE "forward_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "forward_deliveries_target_idx" ON "forward_deliveries" USING btree ("target_id","created_at");--> statement-breakpoint
CREATE INDEX "forward_delivery_attempts_delivery_idx" ON "forward_delivery_attempts" USING btree ("delivery_id","attempted_at");--> statement-breakpoint
CREATE INDEX "forward_events_vendor_idx" ON "forward_events" USING btree ("vendor_id","created_at");--> statement-breakpoint
CREATE INDEX "forward_targets_vendor_idx" ON "forward_targets" USING btree ("vendor_id");--> statement-breakpoint
CREATE INDEX "invoices_vendor_idx" ON "invoices" USING btree ("vendor_id","created_at");--> statement-breakpoint
CREATE INDEX "vendor_invitations_vendor_idx" ON "vendor_invitations" USING btree ("vendor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_invitations_open_key" ON "vendor_invitations" USING btree ("vendor_id","email") WHERE "vendor_invitations"."accepted_at" is null and "vendor_invitations"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "vendor_plan_changes_vendor_idx" ON "vendor_plan_changes" USING btree ("vendor_id","created_at");--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_plan_check" CHECK ("vendors"."plan" in ('free', 'premium'));