CREATE TABLE IF NOT EXISTS "server_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "signed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "sessions_unsigned_idx" ON "sessions" USING btree ("expires_at") WHERE not "sessions"."signed" and "sessions"."revoked_at" is null;