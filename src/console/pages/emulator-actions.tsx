import { errorMessage } from '../../lib/errors.js';
import { type ActionResult, type ReceptionInput, receive, regularize, ship } from '../emulator/actions.js';
import { ControlCallError, controlClient } from '../emulator/control.js';
import { connectionBase } from '../nav.js';
import { type ConsoleContext, type PageRegistrar, renderFragment, setFlash } from '../page.js';
import { panelLink } from './emulator.js';
import { LineRows, linesOfDocument } from './emulator-lines.js';

type Form = Record<string, string | File | (string | File)[]>;

const text = (form: Form, name: string): string => {
  const v = form[name];
  return typeof v === 'string' ? v.trim() : '';
};
const all = (form: Form, name: string): string[] => {
  const v = form[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => (typeof x === 'string' ? x.trim() : ''));
};

class FormError extends Error {}

function number(raw: string, what: string): number {
  const n = Number(raw);
  if (raw === '' || !Number.isFinite(n)) throw new FormError(`${what}: expected a number, got "${raw}"`);
  return n;
}

function receptionInput(form: Form): ReceptionInput {
  const document = text(form, 'document');
  if (!document) throw new FormError('Name the document to receive');
  const [products, quantities, lots, expiries] = ['line_product', 'line_quantity', 'line_lot', 'line_expiry'].map((n) =>
    all(form, n),
  );
  const lines = products!.flatMap((product, i) => {
    if (!product) return [];
    const lot = lots![i] ?? '';
    const expiry = expiries![i] ?? '';
    return [
      {
        productExternalCode: product,
        quantity: number(quantities![i] ?? '', `quantity of ${product}`),
        ...(lot ? { lotCode: lot } : {}),
        ...(expiry ? { expirationDate: expiry } : {}),
      },
    ];
  });
  if (lines.length === 0) throw new FormError('Give at least one line (or fill them from the document)');
  return { document, lines };
}

/** POST …/emulator/{reception|shipment|regularization}, and GET …/emulator/lines (a document's lines, for the form). */
export const registerEmulatorActions: PageRegistrar = (app, deps) => {
  const act = (name: string, run: (call: ReturnType<typeof controlClient>, form: Form) => Promise<ActionResult>) =>
    app.post(`/console/connections/:connection/emulator/${name}`, async (c: ConsoleContext) => {
      const panel = panelLink(c, deps);
      if (panel instanceof Response) return panel;
      const base = `${connectionBase(panel.connection)}/emulator`;
      try {
        const result = await run(controlClient(panel.link), (await c.req.parseBody({ all: true })) as Form);
        setFlash(c, { tone: 'ok', message: `${result.summary}. Watch its webhooks below.` });
        return c.redirect(result.webhookIds.length > 0 ? `${base}?watch=${result.webhookIds.join(',')}` : base, 303);
      } catch (err) {
        if (!(err instanceof FormError || err instanceof ControlCallError)) throw err;
        setFlash(c, { tone: 'bad', message: errorMessage(err) });
        return c.redirect(base, 303);
      }
    });

  act('reception', (call, form) => receive(call, receptionInput(form)));
  act('shipment', (call, form) => {
    const document = text(form, 'document');
    if (!document) throw new FormError('Name the document to ship');
    return ship(call, document);
  });
  act('regularization', (call, form) => {
    const product = text(form, 'product');
    if (!product) throw new FormError('Name the product');
    const quantity = number(text(form, 'quantity'), 'quantity');
    if (quantity === 0) throw new FormError('quantity: a regularization adds or removes something (not 0)');
    const lot = text(form, 'lot');
    const expiry = text(form, 'expiry');
    return regularize(call, {
      productExternalCode: product,
      quantity,
      ...(lot ? { lotCode: lot } : {}),
      ...(expiry ? { expirationDate: expiry } : {}),
    });
  });

  app.get('/console/connections/:connection/emulator/lines', async (c) => {
    const panel = panelLink(c, deps);
    if (panel instanceof Response) return panel;
    const document = (c.req.query('document') ?? '').trim();
    const lines = document ? await linesOfDocument(deps.store, deps.clock, panel.connection, document) : undefined;
    if (!lines)
      return renderFragment(
        c,
        <LineRows
          lines={[]}
          notice={document ? `wms-sync holds no document ${document} for this connection.` : 'Name a document first.'}
        />,
      );
    return renderFragment(c, <LineRows lines={lines} />);
  });
};
