CREATE TABLE "alert_groups" (
	"connection" text NOT NULL,
	"kind" text NOT NULL,
	"firing" boolean DEFAULT false NOT NULL,
	"sticky" boolean DEFAULT false NOT NULL,
	"cleared" boolean DEFAULT false NOT NULL,
	"pending" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"notified_at" timestamp with time zone,
	"detail" text NOT NULL,
	CONSTRAINT "alert_groups_connection_kind_pk" PRIMARY KEY("connection","kind")
);
--> statement-breakpoint
CREATE TABLE "alert_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"connection" text NOT NULL,
	"kind" text NOT NULL,
	"phase" text NOT NULL,
	"url" text NOT NULL,
	"format" text NOT NULL,
	"body" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "alert_messages_pending" ON "alert_messages" USING btree ("next_attempt_at","id") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "alert_messages_age" ON "alert_messages" USING btree ("created_at");