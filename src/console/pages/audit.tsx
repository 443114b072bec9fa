import { auditPage, auditQuerySchema } from '../../admin/audit-views.js';
import { issuesMessage } from '../../lib/zod-issues.js';
import { AUDIT_OUTCOMES } from '../../store/values.js';
import { pageHref } from '../nav.js';
import { frameFor, type PageRegistrar, pathConnection, renderPage } from '../page.js';
import { Badge } from '../ui/badge.js';
import { Card } from '../ui/detail.js';
import { FilterBar } from '../ui/filters.js';
import { fmtTime } from '../ui/format.js';
import { PageHead } from '../ui/layout.js';
import { DataTable, Pager, withQuery } from '../ui/table.js';
import { errorPage } from './errors.js';
import { nonEmpty } from './events-query.js';

const TARGET = /^event:(\d+)$/;

/**
 * GET …/audit?operator=&action=&outcome=&before=: the connection's audit trail, newest first (the
 * admin API's GET /admin/v1/audit, scoped to the connection): who did what, on what, and how it ended.
 */
export const registerAudit: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/audit', async (c) => {
    const connection = pathConnection(c, deps).name;
    const raw = nonEmpty(c.req.query());
    const parsed = auditQuerySchema.safeParse({ ...raw, connection });
    if (!parsed.success) return errorPage(c, deps, 400, 'Bad request', issuesMessage(parsed.error));
    const f = parsed.data;
    const page = await auditPage(deps.store, f);
    const base = pageHref(connection, 'audit');
    const keep = { operator: f.operator, action: f.action, outcome: f.outcome };
    return renderPage(
      c,
      'Audit trail',
      frameFor(c, deps, connection, 'audit'),
      <>
        <PageHead
          title="Audit trail"
          subtitle="Every change an operator made on this connection, through the console or the admin API: who, when, what, and how it ended."
        />
        <FilterBar
          action={base}
          selects={[
            {
              name: 'outcome',
              label: 'Outcome',
              value: f.outcome,
              options: [{ value: '', label: 'any' }, ...AUDIT_OUTCOMES.map((o) => ({ value: o, label: o }))],
            },
          ]}
          inputs={[
            { name: 'operator', label: 'Operator', value: f.operator, type: 'text', placeholder: 'alice' },
            { name: 'action', label: 'Action', value: f.action, type: 'text', placeholder: 'event.override' },
          ]}
        />
        <Card>
          <DataTable
            columns={[
              { header: 'When (UTC)', class: 'nowrap', cell: (e) => fmtTime(e.at) },
              { header: 'Who', class: 'nowrap', cell: (e) => `${e.operator} (${e.channel})` },
              { header: 'Action', class: 'nowrap', cell: (e) => <span class="mono">{e.action}</span> },
              {
                header: 'Target',
                class: 'nowrap',
                cell: (e) => {
                  const event = e.target ? TARGET.exec(e.target) : null;
                  return event ? (
                    <a href={`${pageHref(connection, 'events')}/${event[1]}`}>{e.target}</a>
                  ) : (
                    (e.target ?? '—')
                  );
                },
              },
              { header: 'Outcome', cell: (e) => <Badge value={e.outcome} /> },
              { header: 'Reason / detail', cell: (e) => <span data-audit-detail="">{e.detail ?? ''}</span> },
            ]}
            rows={page.entries}
            rowId={(e) => e.id}
            empty="No operator action recorded."
          />
          <Pager
            newestHref={f.before ? withQuery(base, keep) : undefined}
            nextHref={page.nextBefore ? withQuery(base, { ...keep, before: page.nextBefore }) : undefined}
          />
        </Card>
      </>,
    );
  });
};
