CREATE TABLE "donations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"amount_pence" integer NOT NULL,
	"donor_name" text NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"provider_payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "donations_provider_payment_id_unique" UNIQUE("provider_payment_id"),
	CONSTRAINT "donations_amount_range" CHECK ("donations"."amount_pence" between 100 and 1000000),
	CONSTRAINT "donations_status_known" CHECK ("donations"."status" in ('pending', 'paid', 'cancelled', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "gift_aid_declarations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"donation_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"surname" text NOT NULL,
	"house_name_or_number" text NOT NULL,
	"postcode" text NOT NULL,
	"scope" text NOT NULL,
	"wording" text NOT NULL,
	"declared_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "gift_aid_declarations_donation_id_unique" UNIQUE("donation_id"),
	CONSTRAINT "gift_aid_scope_known" CHECK ("gift_aid_declarations"."scope" in ('this-donation', 'this-and-past-four-years', 'past-four-years-and-future'))
);
--> statement-breakpoint
ALTER TABLE "gift_aid_declarations" ADD CONSTRAINT "gift_aid_declarations_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donations_created_at_idx" ON "donations" USING btree ("created_at");