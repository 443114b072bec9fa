import type { FieldIssue } from '../lib/zod-issues.js';
import type { PushEntity } from '../store/index.js';
import { DOT_SEGMENT_MESSAGE, type Document, isDotSegment } from '../wms/index.js';

/**
 * The codes of a payload that wms-sync will send in a URL path: its own externalCode (endpoints
 * 4, 11, 16) and, for a document, the products and delivery point it references (looked up in the
 * WMS before the document is pushed). `.` and `..` cannot travel there (src/wms/paths.ts), so a
 * payload holding one as such a code is refused at intake rather than failing, or reaching another
 * URL, at push time.
 */
export function dotSegmentIssues(entity: PushEntity, payload: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const check = (path: string, value: unknown) => {
    if (typeof value === 'string' && isDotSegment(value)) issues.push({ path, message: DOT_SEGMENT_MESSAGE });
  };
  check('externalCode', payload.externalCode);
  if (entity === 'document') {
    const doc = payload as Partial<Document>;
    for (const [i, line] of (doc.lines ?? []).entries())
      check(`lines[${i}].productExternalCode`, line.productExternalCode);
    check('deliveryPointExternalCode', doc.deliveryPointExternalCode);
  }
  return issues;
}
