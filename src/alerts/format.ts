import { type AlertKind, SERVICE_WIDE } from '../lib/alert-signals.js';
import type { AlertFormat } from '../lib/alert-targets.js';
import type { AlertPhase } from '../store/values.js';
import { KIND_TEXT } from './kinds.js';

/** What one notification tells, whatever its form. */
export interface AlertNotice {
  phase: AlertPhase;
  kind: AlertKind;
  /** '' for the service as a whole. */
  connection: string;
  /** Occurrences since the last message (firing), or since the alert started (resolved). */
  count: number;
  /** Occurrences since the alert started firing. */
  total: number;
  firstAt: Date;
  lastAt: Date;
  /** The last occurrence, in a line. */
  detail: string;
  at: Date;
  /** The console page an operator acts from. */
  link: string;
}

/** The console page of an alert, under the service's public URL. */
export function consoleLink(baseUrl: string, connection: string, kind: AlertKind): string {
  if (connection === SERVICE_WIDE) return `${baseUrl}/console`;
  return `${baseUrl}/console/connections/${encodeURIComponent(connection)}/${KIND_TEXT[kind].page}`;
}

/** The signed JSON form: `type` is `alert.firing` or `alert.resolved`, times in ISO 8601. */
export function jsonBody(n: AlertNotice): string {
  return JSON.stringify({
    type: `alert.${n.phase}`,
    kind: n.kind,
    connection: n.connection === SERVICE_WIDE ? null : n.connection,
    title: n.phase === 'firing' ? KIND_TEXT[n.kind].title : KIND_TEXT[n.kind].resolved,
    count: n.count,
    total: n.total,
    firstAt: n.firstAt.toISOString(),
    lastAt: n.lastAt.toISOString(),
    detail: n.detail,
    link: n.link,
    at: n.at.toISOString(),
  });
}

/** Slack's mrkdwn wants these three escaped; everything else is shown as written. */
const mrkdwn = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * An incoming-webhook body: `text` (what Mattermost, Teams' workflows and notifications show) and
 * the same in one mrkdwn section block with the console link.
 */
export function slackBody(n: AlertNotice): string {
  const where = n.connection === SERVICE_WIDE ? 'wms-sync' : `wms-sync · ${n.connection}`;
  const title = n.phase === 'firing' ? KIND_TEXT[n.kind].title : KIND_TEXT[n.kind].resolved;
  const what =
    n.phase === 'firing'
      ? `${n.count} since the last message (${n.total} since ${n.firstAt.toISOString()}); last: ${n.detail}`
      : `${n.total} in all, from ${n.firstAt.toISOString()} to ${n.lastAt.toISOString()}`;
  const icon = n.phase === 'firing' ? ':rotating_light:' : ':white_check_mark:';
  const text = `${icon} [${where}] ${title}: ${what}`;
  return JSON.stringify({
    text: mrkdwn(text),
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `${icon} *${mrkdwn(title)}*\n${mrkdwn(where)}\n${mrkdwn(what)}\n<${n.link}|Open the console>`,
        },
      },
    ],
  });
}

export function renderNotice(format: AlertFormat, n: AlertNotice): string {
  return format === 'json' ? jsonBody(n) : slackBody(n);
}
