CREATE TABLE `erp_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection` text NOT NULL,
	`confirmation_id` integer NOT NULL,
	`type` text NOT NULL,
	`order_key` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_owner` text,
	`lease_until` integer,
	`last_status` integer,
	`last_error` text,
	`feed_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `erp_deliveries_event` ON `erp_deliveries` (`connection`,`confirmation_id`);--> statement-breakpoint
CREATE INDEX `erp_deliveries_due` ON `erp_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `erp_deliveries_key` ON `erp_deliveries` (`connection`,`order_key`,`status`,`confirmation_id`);--> statement-breakpoint
CREATE INDEX `erp_deliveries_list` ON `erp_deliveries` (`connection`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `erp_deliveries_age` ON `erp_deliveries` (`updated_at`);--> statement-breakpoint
CREATE TABLE `erp_delivery_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` integer NOT NULL,
	`connection` text NOT NULL,
	`at` integer NOT NULL,
	`outcome` text NOT NULL,
	`status` integer,
	`latency_ms` integer NOT NULL,
	`response` text,
	`error` text,
	`probe` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `erp_delivery_attempts_delivery` ON `erp_delivery_attempts` (`delivery_id`,`id`);--> statement-breakpoint
CREATE INDEX `erp_delivery_attempts_age` ON `erp_delivery_attempts` (`at`);--> statement-breakpoint
CREATE TABLE `erp_delivery_breakers` (
	`connection` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`opened_at` integer,
	`next_probe_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `erp_delivery_cursors` (
	`connection` text PRIMARY KEY NOT NULL,
	`last_confirmation_id` integer NOT NULL,
	`updated_at` integer NOT NULL
);
