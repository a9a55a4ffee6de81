-- Every time is written by the site from its one clock (docs/decisions/009-one-clock.md), never left to
-- the database's now(), which can disagree with it.
ALTER TABLE "booking_history" ALTER COLUMN "at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "created_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "updated_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "donations" ALTER COLUMN "created_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "donations" ALTER COLUMN "updated_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "created_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "updated_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "gift_aid_declarations" ALTER COLUMN "declared_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "offline_payments" ALTER COLUMN "created_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "next_attempt_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "created_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "processed_webhook_events" ALTER COLUMN "received_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "staff_sessions" ALTER COLUMN "created_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "staff_users" ALTER COLUMN "created_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "tickets" ALTER COLUMN "date_sold" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "volunteers" ALTER COLUMN "created_at" DROP DEFAULT;