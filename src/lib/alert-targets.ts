import { z } from 'zod';

/** Where notifications go and in which form (docs/operations.md#notifications). */
export interface AlertTarget {
  url: string;
  /** `slack`: an incoming-webhook body (Slack, Mattermost, Teams workflows); `json`: our own body, signed. */
  format: AlertFormat;
}

export const ALERT_FORMATS = ['slack', 'json'] as const;
export type AlertFormat = (typeof ALERT_FORMATS)[number];

const url = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });

/** `a,b` in the environment, or a list in CONNECTIONS_FILE: one or more http(s) URLs. */
export const alertUrlList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((u) => u.trim()).filter((u) => u !== ''))
  .pipe(z.array(url).min(1, 'expected at least one URL'));

/** The targets of one URL setting, all in one format; a URL named twice is sent to once. */
export function alertTargets(urls: readonly string[] | undefined, format: AlertFormat): AlertTarget[] {
  return [...new Set(urls ?? [])].map((u) => ({ url: u, format }));
}
