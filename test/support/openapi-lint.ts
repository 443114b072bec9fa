import { createConfig, lintFromString } from '@redocly/openapi-core';

export interface LintProblem {
  severity: string;
  rule: string;
  message: string;
  at: string | undefined;
}

/** Redocly's `recommended` rules on a document, every error and warning as one line each. */
export async function redoclyRecommended(doc: unknown, name: string): Promise<LintProblem[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: name, config });
  return problems.map((p) => ({
    severity: p.severity,
    rule: p.ruleId,
    message: p.message,
    at: p.location[0]?.pointer,
  }));
}
