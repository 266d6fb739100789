/**
 * The one adapter over the IPP library (`@sealsystems/ipp`); nothing else imports it. Why
 * this library: docs/fulfilment.md, "The IPP client"; it ships no types, so
 * sealsystems-ipp.d.ts declares the part used here.
 * Errors: no connection, no answer within the timeout, or not IPP is `PrinterUnreachable`
 * (`maybeReceived`: only a refused connection or unknown host rule out that a Print-Job
 * arrived); an IPP error status is `PrinterRefused`. The library is loaded on the first request
 * to a printer, not at start-up (about 0.1 s of CPU).
 */
import http from 'node:http';
import https from 'node:https';
import type { IppGroup, IppMessage, IppResponse, IppValue } from '@sealsystems/ipp';
import type { PrinterEntry } from '../../domain/printers.js';

export type PrinterState = 'idle' | 'processing' | 'stopped';

export type PrinterReport = {
  state: PrinterState;
  /** `printer-state-reasons` keywords without their severity suffix (`media-empty`), `none` left out. */
  stateReasons: string[];
  stateMessage: string;
  queuedJobs: number;
  acceptingJobs: boolean;
  /** PWG media names loaded (`media-ready`) and printable (`media-supported`). */
  mediaReady: string[];
  mediaSupported: string[];
};

/** IPP `job-state` keywords (RFC 8011 §5.3.7). */
export type IppJobState =
  | 'pending'
  | 'pending-held'
  | 'processing'
  | 'processing-stopped'
  | 'canceled'
  | 'aborted'
  | 'completed';

export type JobReport = { jobId: number; state: IppJobState; reasons: string[]; message: string; name: string };

export type PrintRequest = {
  document: Buffer;
  documentFormat: 'image/jpeg';
  media: string;
  copies: number;
  /** Unique per attempt: how a job is found again after a crash (Get-Jobs by name). */
  jobName: string;
  user: string;
};

export class PrinterUnreachable extends Error {
  override name = 'PrinterUnreachable';
  constructor(
    message: string,
    /** False only when the request certainly never reached the printer. */
    readonly maybeReceived: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class PrinterRefused extends Error {
  override name = 'PrinterRefused';
  constructor(
    /** The IPP status keyword (`client-error-attributes-or-values-not-supported`) or `http-<code>`. */
    readonly status: string,
    message: string,
    /** Attributes the printer named as unsupported (`media`, ...). */
    readonly unsupported: string[] = [],
  ) {
    super(message);
  }
}

export interface IppClient {
  status(): Promise<PrinterReport>;
  /** Print-Job; resolves with the job the printer created. */
  print(request: PrintRequest): Promise<JobReport>;
  /** The job's state; null when the printer does not know the job (any more). */
  job(jobId: number): Promise<JobReport | null>;
  /** The newest job of that name among every job the printer still lists; null when none. */
  findJob(jobName: string): Promise<JobReport | null>;
  cancel(jobId: number): Promise<void>;
  close(): void;
}

/** Connection failures that prove nothing was sent. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const SEVERITY = /-(error|warning|report)$/;
const JOB_ATTRIBUTES = ['job-id', 'job-state', 'job-state-reasons', 'job-state-message', 'job-name'];
const PRINTER_ATTRIBUTES = [
  'printer-state',
  'printer-state-reasons',
  'printer-state-message',
  'queued-job-count',
  'printer-is-accepting-jobs',
  'media-ready',
  'media-supported',
];

const list = (v: IppValue | undefined): string[] =>
  v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => String(x)).filter((x) => x !== '');
const text = (v: IppValue | undefined): string => (v === undefined || Array.isArray(v) ? '' : String(v));

function jobReport(group: IppGroup): JobReport {
  return {
    jobId: Number(group['job-id']),
    state: text(group['job-state']) as IppJobState,
    reasons: list(group['job-state-reasons']).filter((r) => r !== 'none'),
    message: text(group['job-state-message']),
    name: text(group['job-name']),
  };
}

function firstJob(res: IppResponse): IppGroup | undefined {
  const jobs = res['job-attributes-tag'];
  return Array.isArray(jobs) ? jobs[0] : jobs;
}

export function ippClient(printer: PrinterEntry, opts: { timeoutMs: number }): IppClient {
  const url = new URL(printer.url);
  const auth = url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined;
  url.username = '';
  url.password = '';
  const address = url.toString();
  const secure = url.protocol === 'ipps:';
  const agentOptions = { keepAlive: true, maxSockets: 4 };
  // Status reads and job polls reuse their connections; a Print-Job gets a fresh one (a reused
  // socket the printer closed meanwhile would fail it half-sent, with its outcome unknown).
  const agent = secure
    ? new https.Agent({ ...agentOptions, rejectUnauthorized: printer.tls === 'verify' })
    : new http.Agent(agentOptions);
  const freshAgent = secure
    ? new https.Agent({ keepAlive: false, rejectUnauthorized: printer.tls === 'verify' })
    : new http.Agent({ keepAlive: false });

  async function execute(operation: string, message: IppMessage, fresh = false): Promise<IppResponse> {
    const { default: ipp } = await import('@sealsystems/ipp');
    const target = ipp.Printer(address, {
      timeout: opts.timeoutMs,
      agent: fresh ? freshAgent : agent,
      ...(auth ? { auth } : {}),
    });
    return new Promise((resolve, reject) => {
      target.execute(operation, message, (err, res) => {
        if (!err) return resolve(res);
        const code = (err as NodeJS.ErrnoException).code ?? '';
        const status = /unexpected response status (\d+)/.exec(err.message)?.[1];
        if (status) {
          reject(new PrinterRefused(`http-${status}`, `${printer.name} answered HTTP ${status} (is the URL right?)`));
          return;
        }
        const why = code === 'ETIMEDOUT' ? `no answer within ${opts.timeoutMs} ms` : err.message;
        reject(new PrinterUnreachable(`${printer.name} (${address}): ${why}`, !NEVER_SENT.has(code), { cause: err }));
      });
    });
  }

  /** An IPP error status as a PrinterRefused; `allow` statuses pass (client-error-not-found for a job). */
  function checked(res: IppResponse, allow: string[] = []): IppResponse {
    if (res.statusCode.startsWith('successful') || allow.includes(res.statusCode)) return res;
    const message = text(res['operation-attributes-tag']?.['status-message']) || res.statusCode;
    throw new PrinterRefused(
      res.statusCode,
      `${printer.name}: ${message}`,
      Object.keys(res['unsupported-attributes-tag'] ?? {}),
    );
  }

  /** Idempotent reads: once more on a connection reset (a kept-alive socket the printer had closed). */
  async function read(operation: string, message: IppMessage): Promise<IppResponse> {
    try {
      return await execute(operation, message);
    } catch (err) {
      const reset = err instanceof PrinterUnreachable && (err.cause as NodeJS.ErrnoException)?.code === 'ECONNRESET';
      if (!reset) throw err;
      return execute(operation, message);
    }
  }

  return {
    async status() {
      const res = checked(
        await read('Get-Printer-Attributes', {
          'operation-attributes-tag': { 'requested-attributes': PRINTER_ATTRIBUTES },
        }),
      );
      const p = res['printer-attributes-tag'] ?? {};
      const reasons = new Set(list(p['printer-state-reasons']).map((r) => r.replace(SEVERITY, '')));
      reasons.delete('none');
      const state = text(p['printer-state']);
      return {
        state: state === 'processing' || state === 'stopped' ? state : 'idle',
        stateReasons: [...reasons],
        stateMessage: text(p['printer-state-message']),
        queuedJobs: Number(p['queued-job-count'] ?? 0) || 0,
        acceptingJobs: p['printer-is-accepting-jobs'] !== false,
        mediaReady: list(p['media-ready']),
        mediaSupported: list(p['media-supported']),
      };
    },

    async print(request) {
      const res = checked(
        await execute(
          'Print-Job',
          {
            'operation-attributes-tag': {
              'requesting-user-name': request.user,
              'job-name': request.jobName,
              'document-format': request.documentFormat,
            },
            'job-attributes-tag': { copies: request.copies, media: request.media },
            data: request.document,
          },
          true,
        ),
      );
      const job = firstJob(res);
      if (!job || !Number.isInteger(Number(job['job-id']))) {
        throw new PrinterUnreachable(`${printer.name} accepted the job without a job id`, true);
      }
      return { ...jobReport(job), name: request.jobName };
    },

    async job(jobId) {
      const res = checked(
        await read('Get-Job-Attributes', {
          'operation-attributes-tag': { 'job-id': jobId, 'requested-attributes': JOB_ATTRIBUTES },
        }),
        ['client-error-not-found'],
      );
      const job = firstJob(res);
      return res.statusCode === 'client-error-not-found' || !job ? null : { ...jobReport(job), jobId };
    },

    async findJob(jobName) {
      const res = checked(
        await read('Get-Jobs', {
          'operation-attributes-tag': { 'which-jobs': 'all', 'requested-attributes': JOB_ATTRIBUTES },
        }),
      );
      const raw = res['job-attributes-tag'];
      const jobs = (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]).map(jobReport);
      const named = jobs.filter((j) => j.name === jobName).sort((a, b) => b.jobId - a.jobId);
      return named[0] ?? null;
    },

    async cancel(jobId) {
      checked(await read('Cancel-Job', { 'operation-attributes-tag': { 'job-id': jobId } }));
    },

    close() {
      agent.destroy();
      freshAgent.destroy();
    },
  };
}
