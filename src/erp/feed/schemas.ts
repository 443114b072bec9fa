import { z } from 'zod';
import { feedEntrySchema } from './entry-schemas.js';
import type { ErpFeedEntry } from './read.js';

/** The pull feed's item is the pushed delivery's body: one schema per type (entry-schemas.ts). */
export { feedEntrySchema };

/**
 * A stored entry as its type's schema describes it. Its data was built to that schema
 * (inbound/effects.ts and reconcile/write.ts check it as they build it); the store keeps it as an
 * untyped record.
 */
export const asWireEntry = (entry: ErpFeedEntry) => entry as z.output<typeof feedEntrySchema>;

export const feedPageSchema = z
  .object({
    entries: z.array(feedEntrySchema),
    next: z
      .int()
      .min(0)
      .meta({ description: 'Pass as `after` for the following page; unchanged when there is nothing new' }),
  })
  .meta({ id: 'FeedPage' });

const cursor = z.coerce.number({ error: 'expected a non-negative integer' }).int('expected a non-negative integer');

export const feedQuerySchema = z.object({
  after: cursor
    .min(0, 'expected a non-negative integer')
    .default(0)
    .meta({ description: 'Return entries with an id above this one', example: 0 }),
  limit: z.coerce
    .number({ error: 'expected an integer from 1 to 1000' })
    .int('expected an integer from 1 to 1000')
    .min(1, 'expected an integer from 1 to 1000')
    .max(1000, 'expected an integer from 1 to 1000')
    .default(100)
    .meta({ example: 100 }),
});

export const feedIdParamsSchema = z.object({
  id: cursor.min(1, 'expected a positive integer').meta({ example: 42 }),
});
