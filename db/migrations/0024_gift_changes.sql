ALTER TABLE "regular_gifts" DROP CONSTRAINT "regular_gifts_status_known";--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD COLUMN "paused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD COLUMN "declaration_waiting" jsonb;--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD CONSTRAINT "regular_gifts_paused_until" CHECK (("regular_gifts"."status" = 'paused') = ("regular_gifts"."paused_until" is not null));--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD CONSTRAINT "regular_gifts_status_known" CHECK ("regular_gifts"."status" in ('incomplete', 'active', 'failing', 'paused', 'cancelled'));