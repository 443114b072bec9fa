CREATE TABLE `alert_groups` (
	`connection` text NOT NULL,
	`kind` text NOT NULL,
	`firing` integer DEFAULT false NOT NULL,
	`sticky` integer DEFAULT false NOT NULL,
	`cleared` integer DEFAULT false NOT NULL,
	`pending` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`first_at` integer NOT NULL,
	`last_at` integer NOT NULL,
	`notified_at` integer,
	`detail` text NOT NULL,
	PRIMARY KEY(`connection`, `kind`)
);
--> statement-breakpoint
CREATE TABLE `alert_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection` text NOT NULL,
	`kind` text NOT NULL,
	`phase` text NOT NULL,
	`url` text NOT NULL,
	`format` text NOT NULL,
	`body` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_owner` text,
	`lease_until` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE INDEX `alert_messages_pending` ON `alert_messages` (`next_attempt_at`,`id`) WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX `alert_messages_age` ON `alert_messages` (`created_at`);