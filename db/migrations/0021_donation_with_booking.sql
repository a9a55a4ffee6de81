ALTER TABLE "donations" ADD COLUMN "booking_ref" uuid;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_booking_ref_bookings_booking_ref_fk" FOREIGN KEY ("booking_ref") REFERENCES "public"."bookings"("booking_ref") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_booking_ref_unique" UNIQUE("booking_ref");