import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEPTH_MESSAGE, MAX_PAYLOAD_DEPTH, mayNeedPayloadCheck, NUL_MESSAGE, payloadIssue } from '../../src/lib/nul.js';

/** `{"a":{"a":…{"a":leaf}}}` with `levels` objects. */
function nested(levels: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('payloadIssue: U+0000 and nesting depth, without recursion', () => {
  it('finds U+0000 in a string or a key and names its path', () => {
    expect(payloadIssue({ lines: [{ description: 'ok' }, { description: 'x\u0000' }] })).toEqual({
      path: 'lines[1].description',
      message: NUL_MESSAGE,
    });
    expect(payloadIssue({ lines: [{ 'k\u0000': 1 }] })).toEqual({ path: 'lines[0].k\\u0000', message: NUL_MESSAGE });
    expect(payloadIssue('\u0000')).toEqual({ path: '(body)', message: NUL_MESSAGE });
    expect(payloadIssue({ a: [1, null, true, 'fine'] })).toBeUndefined();
  });

  it('reports the first problem in document order', () => {
    expect(payloadIssue({ a: 'x\u0000', b: 'y\u0000' })?.path).toBe('a');
    expect(payloadIssue([['\u0000'], '\u0000'])?.path).toBe('[0][0]');
  });

  it(`accepts ${MAX_PAYLOAD_DEPTH} levels of nesting and refuses one more, naming the limit`, () => {
    expect(payloadIssue(nested(MAX_PAYLOAD_DEPTH))).toBeUndefined();
    const issue = payloadIssue(nested(MAX_PAYLOAD_DEPTH + 1));
    expect(issue?.message).toBe(DEPTH_MESSAGE);
    expect(issue?.message).toContain(String(MAX_PAYLOAD_DEPTH));
  });

  it('a hostile depth (100,000 levels, U+0000 at the bottom) is refused without a stack overflow; the path named stays short', () => {
    const deep = nested(100_000, 'x\u0000');
    const issue = payloadIssue(deep)!;
    expect(issue.message).toBe(DEPTH_MESSAGE);
    expect(issue.path).toBe('a.a.a.a.a.a.a.a…');
    // U+0000 within the limit but far down: the message names at most 8 segments
    expect(payloadIssue(nested(40, '\u0000'))).toEqual({ path: 'a.a.a.a.a.a.a.a…', message: NUL_MESSAGE });
  });

  it('a deep array (as JSON.parse gives it) is refused too', () => {
    const text = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    expect(mayNeedPayloadCheck(text)).toBe(true);
    expect(payloadIssue(JSON.parse(text))?.message).toBe(DEPTH_MESSAGE);
  });

  it('property: any JSON value without U+0000 and within the depth is accepted; adding U+0000 anywhere is found', () => {
    const json = fc.jsonValue({ maxDepth: 6 }).filter((v) => !JSON.stringify(v).includes('\\u0000'));
    fc.assert(
      fc.property(json, (v) => {
        expect(payloadIssue(v)).toBeUndefined();
        expect(payloadIssue({ wrapped: [v, 'a\u0000'] })).toEqual({ path: 'wrapped[1]', message: NUL_MESSAGE });
      }),
    );
  });

  it('mayNeedPayloadCheck is a sound shortcut: false only for texts whose value payloadIssue accepts', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (v) => {
        const text = JSON.stringify(v);
        if (!mayNeedPayloadCheck(text)) expect(payloadIssue(JSON.parse(text))).toBeUndefined();
      }),
    );
    expect(mayNeedPayloadCheck('{"a":"\\u0000"}')).toBe(true);
    expect(mayNeedPayloadCheck(JSON.stringify(nested(MAX_PAYLOAD_DEPTH)))).toBe(false);
    expect(mayNeedPayloadCheck(JSON.stringify(nested(MAX_PAYLOAD_DEPTH + 1)))).toBe(true);
  });
});
