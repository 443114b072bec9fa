import { expect, it } from 'vitest';
import { openQueue } from '../../src/queue/index.js';
import { openStore } from '../../src/store/index.js';
import { createTestSchema } from '../support/pg.js';

// A `serve` and a `worker` started at the same moment on a new database (Fly starts its process
// groups at once) each migrate the store, then install pg-boss's schema. Neither may fail on the
// other's half-made install. Each opening has a pool of its own, so the race is between database
// sessions, as between processes.
it('openings started at once on a new database each start their queue', async () => {
  for (let round = 0; round < 3; round++) {
    const db = await createTestSchema('queue_start_race');
    const openings = [0, 1, 2].map(() => {
      const store = openStore({ kind: 'postgres', url: db.url, schema: db.schema, poolSize: 3 });
      return { store, queue: openQueue(store) };
    });
    try {
      const outcomes = await Promise.allSettled(
        openings.map(async ({ store, queue }) => {
          await store.migrate();
          await queue.start();
        }),
      );
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
      expect(failures, `round ${round}`).toEqual([]);
    } finally {
      for (const { store, queue } of openings) {
        await queue.stop({ graceMs: 0 }).catch(() => undefined);
        await store.close();
      }
      await db.drop();
    }
  }
});
