ALTER TABLE "refunds" ADD COLUMN "ticket_type_id" uuid;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
-- Refunds made before types were of a booking's one type.
UPDATE "refunds" SET "ticket_type_id" = (SELECT "ticket_type_id" FROM "booking_items" WHERE "booking_items"."booking_ref" = "refunds"."booking_ref")
WHERE "booking_ref" IS NOT NULL AND (SELECT count(*) FROM "booking_items" WHERE "booking_items"."booking_ref" = "refunds"."booking_ref") = 1;
