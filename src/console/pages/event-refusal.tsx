import type { EventDetail } from '../../inbound/event-views.js';
import { ActionButton } from '../ui/actions.js';
import { Badge } from '../ui/badge.js';
import { Card, Notice } from '../ui/detail.js';
import { fmtTime } from '../ui/format.js';
import { DataTable } from '../ui/table.js';

/** The ERP's latest refusal of the event: its message and when (from the attempts, else the event's error). */
export function latestRefusal(detail: EventDetail): { message: string; at: string | null } | undefined {
  const refusals = detail.attempts.filter((a) => a.outcome === 'rejected_by_erp');
  const last = refusals[refusals.length - 1];
  if (last) return { message: last.error ?? '', at: last.at };
  return detail.event.status === 'rejected_by_erp' ? { message: detail.event.error ?? '', at: null } : undefined;
}

/** The two answers to an ERP refusal: ask the ERP again (Retry), or override it with a reason (a page of its own). */
export function RefusalActions(props: { href: string; csrf: string }) {
  return (
    <>
      <ActionButton action={`${props.href}/retry`} csrf={props.csrf} label="Ask the ERP again" variant="primary" />
      <a class="btn danger" href={`${props.href}/override`}>
        Override the ERP's refusal…
      </a>
    </>
  );
}

/** Says the ERP refused it, and what to do; the event's page shows it above everything else. */
export function RefusalNotice(props: { detail: EventDetail }) {
  const refusal = latestRefusal(props.detail);
  if (props.detail.event.status !== 'rejected_by_erp' || !refusal) return null;
  return (
    <Notice tone="bad">
      The ERP refused this document: <span data-refusal="">{refusal.message}</span>. Fix the cause in the ERP, then ask
      it again; override the refusal only if the document must count anyway.
    </Notice>
  );
}

const ACTION_LABELS: Record<string, string> = {
  'event.retry': 'Retry',
  'event.override': "Override of the ERP's refusal",
  'event.edit': 'Payload edit',
};

/**
 * Every refusal the ERP gave (kept after an override or a later acceptance) and everything
 * operators did to the event, with who and why: nothing here is erased by what came after.
 */
export function RefusalHistory(props: { detail: EventDetail }) {
  const refusals = props.detail.attempts.filter((a) => a.outcome === 'rejected_by_erp');
  const actions = props.detail.operatorActions;
  if (refusals.length === 0 && actions.length === 0) return null;
  return (
    <Card title="ERP refusals and operator actions" id="operator-actions">
      {refusals.length > 0 ? (
        <DataTable
          columns={[
            { header: 'Refused at (UTC)', class: 'nowrap', cell: (a) => fmtTime(a.at) },
            { header: "The ERP's message", cell: (a) => <span data-refusal-history="">{a.error ?? ''}</span> },
          ]}
          rows={refusals}
          rowId={(a) => a.id}
          empty=""
        />
      ) : null}
      <DataTable
        columns={[
          { header: 'When (UTC)', class: 'nowrap', cell: (a) => fmtTime(a.at) },
          { header: 'Who', class: 'nowrap', cell: (a) => `${a.operator} (${a.channel})` },
          { header: 'Action', cell: (a) => ACTION_LABELS[a.action] ?? a.action },
          { header: 'Outcome', cell: (a) => <Badge value={a.outcome} /> },
          { header: 'Reason / detail', cell: (a) => <span data-audit-detail="">{a.detail ?? ''}</span> },
        ]}
        rows={actions}
        rowId={(a) => a.id}
        empty="No operator action yet."
      />
    </Card>
  );
}
