ALTER TABLE "events" ADD COLUMN "reminder_hours" integer DEFAULT 48;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "what_to_bring" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_reminder_hours_range" CHECK ("events"."reminder_hours" is null or "events"."reminder_hours" between 1 and 336);