CREATE TABLE "card_declines" (
	"id" uuid PRIMARY KEY NOT NULL,
	"attempt" text NOT NULL,
	"client_key" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "first_held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "client_key" text;--> statement-breakpoint
CREATE INDEX "card_declines_attempt_idx" ON "card_declines" USING btree ("attempt");--> statement-breakpoint
CREATE INDEX "card_declines_client_key_idx" ON "card_declines" USING btree ("client_key","at");--> statement-breakpoint
CREATE INDEX "card_declines_at_idx" ON "card_declines" USING btree ("at");--> statement-breakpoint
CREATE INDEX "bookings_client_key_idx" ON "bookings" USING btree ("client_key");--> statement-breakpoint
CREATE INDEX "bookings_created_at_idx" ON "bookings" USING btree ("created_at");