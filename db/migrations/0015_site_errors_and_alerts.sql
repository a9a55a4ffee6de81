CREATE TABLE "alerts_sent" (
	"kind" text PRIMARY KEY NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL,
	"held_back" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_errors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"ref" text NOT NULL,
	"request_id" text,
	"where" text NOT NULL,
	"message" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "site_errors_at_idx" ON "site_errors" USING btree ("at");