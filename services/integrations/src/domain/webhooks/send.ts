import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { payloadOf, timestampFromDate } from '@readiness/contracts';
import type { Database, Tx } from '@readiness/kit/db';
import type { Logger } from '@readiness/kit/logger';
import { enqueue, type SecretBox } from '@readiness/kit/outbox';
import { Webhook } from 'standardwebhooks';
import {
  disableIfFailingThroughout,
  recordTry,
  takeDueDelivery,
  type DueDelivery,
  type EndpointRecord,
  type TryOutcome,
} from '../../data-access/webhooks-repository';
import type { EventRoutes } from '../event-routes';
import { retryWait } from '../grades';
import { refusedAddress, safeLookup, type HostResolver } from './safe-target';

export interface WebhookSenderDeps {
  database: Database;
  logger: Logger;
  /** Seals and opens the endpoints' secrets. */
  secrets: SecretBox;
  allowPrivateNetworks: boolean;
  /** Where a host name leads: each connection checks the addresses it answers (DNS rebinding). */
  resolve: HostResolver;
  /** How long a delivery is tried, and an endpoint may fail, before it is given up (disabled), in milliseconds. */
  giveUpMs: number;
  retryBaseMs: number;
  /** The webhook queue's bindings: an endpoint disabled here no longer takes its events (docs/events.md). */
  routes: Pick<EventRoutes, 'settleOnCommit'>;
}

export const ENDPOINT_DISABLED = 'integrations.webhook-endpoint.disabled.v1' as const;

const ANSWER_KEPT = 1024;
const ANSWER_READ = 64 * 1024;
const TIMEOUT_MS = 10_000;

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of id.timestamp.body>` with the endpoint's secret, and with
 * its previous one too while a rotation lets it sign (Standard Webhooks: signatures separated by spaces).
 */
export function signatures(
  deps: Pick<WebhookSenderDeps, 'secrets'>,
  d: Pick<DueDelivery, 'id' | 'body' | 'secrets'>,
  at: Date,
): string {
  const keys = [d.secrets.sealedSecret];
  if (d.secrets.sealedPreviousSecret && d.secrets.previousSecretUntil && d.secrets.previousSecretUntil > at) {
    keys.push(d.secrets.sealedPreviousSecret);
  }
  return keys.map((sealed) => new Webhook(deps.secrets.open(sealed)).sign(d.id, at, d.body)).join(' ');
}

/** One POST with a deadline, no redirects followed, the answer read up to a limit. */
function post(
  deps: Pick<WebhookSenderDeps, 'allowPrivateNetworks' | 'resolve'>,
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // An address written in the URL is never looked up: it is checked here instead.
    const literal = isIP(host) ? refusedAddress(host, deps.allowPrivateNetworks) : undefined;
    if (literal) return reject(new Error(`refused: the URL leads to ${literal}`));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      lookup: safeLookup(deps.allowPrivateNetworks, deps.resolve) as never,
      timeout: TIMEOUT_MS,
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      let answer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        answer += chunk;
        if (answer.length > ANSWER_READ) res.destroy();
      });
      const done = () => resolve({ status: res.statusCode ?? 0, answer: answer.slice(0, ANSWER_KEPT) });
      res.on('end', done);
      res.on('close', done);
    });
    req.end(body);
  });
}

/** One try of a delivery: sent on 2xx; tried again later on anything else, until it is given up. */
async function tryDelivery(deps: WebhookSenderDeps, d: DueDelivery): Promise<TryOutcome> {
  const at = new Date();
  const started = performance.now();
  let status: number | null = null;
  let answer: string;
  try {
    const res = await post(
      deps,
      new URL(d.url),
      {
        'content-type': 'application/json',
        'user-agent': 'Readiness-Webhooks/1',
        'webhook-id': d.id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signatures(deps, d, at),
      },
      d.body,
    );
    status = res.status;
    answer = res.answer;
  } catch (err) {
    answer = err instanceof Error ? err.message : String(err);
  }
  const latencyMs = Math.round(performance.now() - started);
  if (status !== null && status >= 200 && status < 300) return { state: 'sent', status, answer, latencyMs };
  const nextTryAt = new Date(Date.now() + retryWait(deps.retryBaseMs, d.tries));
  if (nextTryAt.getTime() - d.createdAt.getTime() > deps.giveUpMs)
    return { state: 'failed', status, answer, latencyMs };
  return { state: 'pending', status, answer, latencyMs, nextTryAt };
}

/**
 * The product's disabling of an endpoint into the outbox, in the transaction that disabled it: the audit log keeps
 * it and every active super admin is mailed (the auth service knows who they are).
 */
const announceDisabled = (tx: Tx, endpoint: EndpointRecord, outcome: TryOutcome) =>
  enqueue(tx, {
    name: ENDPOINT_DISABLED,
    payload: payloadOf(ENDPOINT_DISABLED, {
      endpointId: endpoint.id,
      url: endpoint.url,
      description: endpoint.description,
      failingSince: endpoint.failingSince ? timestampFromDate(endpoint.failingSince) : undefined,
      disabledAt: timestampFromDate(endpoint.updatedAt),
      lastStatus: outcome.status ?? 0,
      lastAnswer: outcome.answer,
      reason: endpoint.disabledReason ?? '',
    }),
  });

/**
 * One pass of the webhook sender: due deliveries one at a time, each in a transaction that holds its row while the
 * endpoint answers (other replicas skip it) and records the outcome with it. An endpoint that has failed for the
 * give-up time is disabled. Returns how many were tried.
 */
export async function sendDueWebhooks(deps: WebhookSenderDeps, limit = 100): Promise<number> {
  let tried = 0;
  while (tried < limit) {
    const taken = await deps.database.transaction(async (tx) => {
      const due = await takeDueDelivery(tx);
      if (!due) return undefined;
      const result = await tryDelivery(deps, due);
      await recordTry(tx, due, result);
      // A delivery given up while its endpoint answered nothing but failures since its first try: the endpoint has
      // failed for the give-up time, and is disabled (an admin enables it again on the Webhooks screen); the
      // super admins hear of it from the event written with it.
      if (result.state === 'failed') {
        const reason =
          `Failed for ${deps.giveUpMs >= 3_600_000 ? `${Math.round(deps.giveUpMs / 3_600_000)} h` : 'the give-up time'}; ` +
          `last answer: ${result.status ?? 'none'} ${result.answer}`;
        const disabled = await disableIfFailingThroughout(tx, due, reason.slice(0, 500));
        if (disabled) {
          await announceDisabled(tx, disabled, result);
          deps.routes.settleOnCommit(tx);
          deps.logger.warn(
            { endpointId: due.endpointId },
            'webhook endpoint disabled after failing too long',
          );
        }
      }
      return due;
    });
    if (!taken) break;
    tried++;
  }
  return tried;
}
