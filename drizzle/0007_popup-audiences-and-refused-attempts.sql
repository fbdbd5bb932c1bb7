ALTER TABLE "login_audits" ADD COLUMN "dedup_key" text;--> statement-breakpoint
ALTER TABLE "login_audits" ADD COLUMN "attempts" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "login_audits" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "popups" ADD COLUMN "action_label" text DEFAULT 'Take Vital Scan' NOT NULL;--> statement-breakpoint
ALTER TABLE "popups" ADD COLUMN "action_target" text;--> statement-breakpoint
ALTER TABLE "popups" ADD COLUMN "audience_company_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "popups" ADD COLUMN "audience_enrolled_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "popups" ADD COLUMN "audience_with_family_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "popups" ADD COLUMN "daily_cap" integer;--> statement-breakpoint
ALTER TABLE "popups" ADD COLUMN "quiet_hours_start" text;--> statement-breakpoint
ALTER TABLE "popups" ADD COLUMN "quiet_hours_end" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "user_popup_states" ADD COLUMN "shown_session_id" uuid;--> statement-breakpoint
CREATE INDEX "participants_with_family_idx" ON "participants" USING btree ("user_id") WHERE "participants"."family_member_count" > 0;--> statement-breakpoint
ALTER TABLE "login_audits" ADD CONSTRAINT "login_audits_dedup_key_unique" UNIQUE("dedup_key");