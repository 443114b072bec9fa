CREATE TABLE "wms_limit_holders" (
	"connection" text NOT NULL,
	"holder" text NOT NULL,
	"demand" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wms_limit_holders_connection_holder_pk" PRIMARY KEY("connection","holder")
);
--> statement-breakpoint
CREATE TABLE "wms_limits" (
	"connection" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
