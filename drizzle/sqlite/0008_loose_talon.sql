DROP INDEX `jobs_fetch`;--> statement-breakpoint
CREATE INDEX `jobs_fetch` ON `jobs` (`name`,`start_after`,`id`) WHERE state IN ('created', 'retry');