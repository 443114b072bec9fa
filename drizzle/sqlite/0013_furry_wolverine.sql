CREATE TABLE `audit_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`operator` text NOT NULL,
	`channel` text NOT NULL,
	`action` text NOT NULL,
	`connection` text,
	`target` text,
	`outcome` text NOT NULL,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `audit_entries_target` ON `audit_entries` (`target`,`id`);--> statement-breakpoint
CREATE INDEX `audit_entries_at` ON `audit_entries` (`at`);