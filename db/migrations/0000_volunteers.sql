CREATE TABLE "volunteers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "volunteers_name_length" CHECK (char_length("volunteers"."name") between 1 and 80),
	CONSTRAINT "volunteers_email_length" CHECK (char_length("volunteers"."email") between 3 and 100),
	CONSTRAINT "volunteers_reason_length" CHECK (char_length("volunteers"."reason") between 1 and 200)
);
--> statement-breakpoint
CREATE INDEX "volunteers_created_at_idx" ON "volunteers" USING btree ("created_at");