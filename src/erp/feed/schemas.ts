import { z } from 'zod';
import { FEED_ENTRY_TYPES } from '../../store/values.js';

export const feedEntrySchema = z
  .object({
    id: z.int().min(1).meta({ description: 'Cursor of the entry: increasing, never reused', example: 42 }),
    type: z.enum(FEED_ENTRY_TYPES),
    createdAt: z.iso.datetime().meta({ example: '2026-11-20T10:00:00.000Z' }),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: 'Shape per type: see docs/webhooks.md, "Feed entries"' }),
  })
  .meta({ id: 'FeedEntry' });

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
