import { getRecord } from '../../push/get-record.js';
import type { RecordView } from '../../push/record-view.js';
import { PUSH_ENTITIES, type PushEntity } from '../../store/index.js';
import { pageHref } from '../nav.js';
import { frameFor, type PageRegistrar, pathConnection, renderPage } from '../page.js';
import { ActionButton } from '../ui/actions.js';
import { Badge } from '../ui/badge.js';
import { Card, KeyValues } from '../ui/detail.js';
import { errorText, fmtTime } from '../ui/format.js';
import { JsonBlock } from '../ui/json.js';
import { PageHead } from '../ui/layout.js';
import { Time } from '../ui/time.js';
import { errorPage } from './errors.js';
import { ENTITY_LABELS } from './overview.js';
import { recordHref } from './pushes-list.js';

export function isEntity(value: string | undefined): value is PushEntity {
  return (PUSH_ENTITIES as readonly string[]).includes(value ?? '');
}

function StateCard(props: { record: RecordView }) {
  const r = props.record;
  return (
    <Card title="Sync state">
      <KeyValues
        items={[
          ['State', <Badge value={r.state} />],
          ['The WMS holds', r.inSync ? 'this payload' : 'an older payload, or nothing yet'],
          ['Attempts', String(r.attempts)],
          ['Last pushed (UTC)', <Time iso={r.lastPushedAt} />],
          ['Created (UTC)', <Time iso={r.createdAt} />],
          ['Updated (UTC)', <Time iso={r.updatedAt} />],
          [
            'Waiting for',
            r.waitingFor.length === 0
              ? 'nothing'
              : r.waitingFor.map((w) => `${w.entity} ${w.externalCode} (since ${fmtTime(w.since)})`).join(', '),
          ],
        ]}
      />
    </Card>
  );
}

/** GET …/pushes/{entity}/{code}: a record with its payload, state, last error and actions. */
export const registerPushDetail: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/pushes/:entity/:code', async (c) => {
    const connection = pathConnection(c, deps).name;
    const entity = c.req.param('entity');
    const code = c.req.param('code');
    if (!isEntity(entity)) return errorPage(c, deps, 404, 'Not found', `No record kind "${entity}"`);
    const record = await getRecord(deps.store, connection, entity, code);
    if (!record) return errorPage(c, deps, 404, 'Not found', `No ${entity} ${code} for connection ${connection}`);
    const cancel = entity === 'document' ? await getRecord(deps.store, connection, 'document-cancel', code) : undefined;
    const csrf = c.get('session').csrf;
    const href = recordHref(connection, entity, code);
    return renderPage(
      c,
      `${code} · ${ENTITY_LABELS[entity]}`,
      frameFor(c, deps, connection, 'pushes'),
      <>
        <PageHead
          crumbs={
            <>
              <a href={`${pageHref(connection, 'pushes')}?entity=${entity}`}>{ENTITY_LABELS[entity]}</a> /
            </>
          }
          title={code}
          subtitle={<Badge value={record.state} />}
          actions={
            <>
              {record.state !== 'synced' || (cancel && cancel.state === 'failed') ? (
                <ActionButton action={`${href}/retry`} csrf={csrf} label="Retry now" variant="primary" />
              ) : null}
              {entity === 'document' && !cancel ? (
                <a class="btn danger" href={`${href}/cancel`}>
                  Cancel document…
                </a>
              ) : null}
            </>
          }
        />
        <div class="grid cols-2">
          <StateCard record={record} />
          <Card title="Last error">
            {record.lastError ? (
              <>
                <p class="error-text">{errorText(record.lastError)}</p>
                <JsonBlock value={record.lastError} />
              </>
            ) : (
              <p class="muted">None.</p>
            )}
          </Card>
        </div>
        {cancel ? (
          <div class="grid cols-2">
            <Card title="Cancel of this document">
              <KeyValues
                items={[
                  ['State', <Badge value={cancel.state} />],
                  ['Attempts', String(cancel.attempts)],
                  ['Last pushed (UTC)', <Time iso={cancel.lastPushedAt} />],
                  ["WMS's error", errorText(cancel.lastError) || '—'],
                ]}
              />
            </Card>
          </div>
        ) : null}
        <Card title="Payload (as pushed to the WMS)">
          <JsonBlock value={record.payload} />
        </Card>
      </>,
    );
  });
};
