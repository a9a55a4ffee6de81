-- The door (check-ins, part of a group at a time) and pictures staff upload, kept in the database.
CREATE TABLE "check_ins" (
	"id" uuid PRIMARY KEY NOT NULL,
	"booking_ref" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"count" integer NOT NULL,
	"staff_user_id" uuid,
	"staff_email" text NOT NULL,
	"device" text NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	CONSTRAINT "check_ins_count_positive" CHECK ("check_ins"."count" >= 1),
	CONSTRAINT "check_ins_outcome_known" CHECK ("check_ins"."outcome" in ('checked-in', 'conflict', 'refunded'))
);
--> statement-breakpoint
CREATE TABLE "uploaded_image_files" (
	"image_id" uuid NOT NULL,
	"width" integer NOT NULL,
	"format" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "uploaded_image_files_image_id_width_format_pk" PRIMARY KEY("image_id","width","format")
);
--> statement-breakpoint
CREATE TABLE "uploaded_images" (
	"id" uuid PRIMARY KEY NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"original_name" text NOT NULL,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "checked_in_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A ticket checked in before groups could be checked in part at a time was checked in whole.
UPDATE "tickets" SET "checked_in_count" = "quantity" WHERE "checked_in_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_booking_ref_tickets_booking_ref_fk" FOREIGN KEY ("booking_ref") REFERENCES "public"."tickets"("booking_ref") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploaded_image_files" ADD CONSTRAINT "uploaded_image_files_image_id_uploaded_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."uploaded_images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploaded_images" ADD CONSTRAINT "uploaded_images_uploaded_by_staff_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_ins_event_recorded_idx" ON "check_ins" USING btree ("event_id","recorded_at");--> statement-breakpoint
CREATE INDEX "check_ins_booking_ref_idx" ON "check_ins" USING btree ("booking_ref");--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_checked_in_count_range" CHECK ("tickets"."checked_in_count" between 0 and "tickets"."quantity");