import { z } from 'zod';
import { badRequestObjectSchema, conflictObjectSchema } from '../../wms/index.js';

export const JSON_TYPE = 'application/json';

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { [JSON_TYPE]: { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T, description: string) => ({
  required: true,
  description,
  content: { [JSON_TYPE]: { schema } },
});

/** Both bearer schemes the spec declares: API client tokens (option A) and OAuth2 (option B). */
export const BOTH_SCHEMES: Record<string, string[]>[] = [{ apiClientToken: [] }, { oauth2: [] }];

/** The statuses every WMS operation may answer, with the spec's bodies. */
export const WMS_ERRORS = {
  400: json(badRequestObjectSchema, 'Invalid data (bad-request object)'),
  401: json(badRequestObjectSchema, 'Missing, expired, invalid or revoked token'),
  403: json(badRequestObjectSchema, 'Valid token without the needed permission'),
  409: json(conflictObjectSchema, 'Conflict'),
  500: json(conflictObjectSchema, 'Internal server error'),
};

export const NOT_FOUND = (what: string) => ({ 404: json(badRequestObjectSchema, `${what} not found`) });

export const externalCodeParams = z.object({ externalCode: z.string().min(1) });

/** Query documentation for list operations: the criteria members and pageable, form-exploded. */
export function listParameters(criteriaComponent: string) {
  return [
    {
      name: 'criteria',
      in: 'query' as const,
      required: true,
      style: 'form' as const,
      explode: true,
      description:
        'JHipster criteria, one `member.operator=value` per filter (e.g. `sku.contains=AB`, `id.in=1,2`); AND-combined.',
      schema: { $ref: `#/components/schemas/${criteriaComponent}` },
    },
    {
      name: 'pageable',
      in: 'query' as const,
      required: true,
      style: 'form' as const,
      explode: true,
      description: '`page` (0-based), `size` (default 20, at most 2000), `sort=property,asc|desc` (repeatable).',
      schema: { $ref: '#/components/schemas/Pageable' },
    },
  ];
}

export const LIST_HEADERS = {
  'X-Total-Count': { description: 'Number of matching items', schema: { type: 'integer' as const } },
  Link: { description: 'RFC 8288 links: next, prev, last, first', schema: { type: 'string' as const } },
};
