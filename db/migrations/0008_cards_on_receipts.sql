-- The card a booking or donation was paid with (brand and last four digits, as the provider reports
-- them), so its receipt, and the receipt sent again later, can name it; the offline provider keeps the
-- same for its test payments.
ALTER TABLE "bookings" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "offline_payments" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "offline_payments" ADD COLUMN "card_last4" text;
