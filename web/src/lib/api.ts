/**
 * One way to talk to the API: JSON in and out, error bodies (`{ error, code, details }`, docs/contract.md, "Hosts and formats")
 * turned into ApiError, the admin token added when asked for, and network failures reported
 * in words a customer understands.
 */

export type FieldErrors = Record<string, string>;

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string,
    /** Seconds, from `Retry-After` (429, 409 in progress, 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  /** `details` parsed as JSON when it is JSON (field lists, figures), else undefined. */
  detailsJson(): unknown {
    try {
      return JSON.parse(this.details);
    } catch {
      return undefined;
    }
  }

  /**
   * Field → message, from VALIDATION_FAILED's `[{ in, field, message }]` and ADDRESS_INVALID's
   * `{ field, reason }`. Field names are the request body's (`customerEmail`, `shippingAddress.zip`).
   */
  fieldErrors(): FieldErrors {
    const out: FieldErrors = {};
    const d = this.detailsJson();
    if (Array.isArray(d)) {
      for (const item of d) {
        if (item && typeof item === 'object' && typeof item.field === 'string' && item.field !== '') {
          out[item.field] ??= String(item.message ?? 'is not valid');
        }
      }
    } else if (d && typeof d === 'object' && typeof (d as { field?: unknown }).field === 'string') {
      const { field, reason } = d as { field: string; reason?: string };
      out[field] = reason ?? this.message;
    }
    return out;
  }
}

const NETWORK_ERROR = 'NETWORK';

let tokenSource: () => string | null = () => null;

/** The admin area registers where its token lives (sessionStorage). */
export function setAdminTokenSource(source: () => string | null): void {
  tokenSource = source;
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  body?: unknown;
  /** A picture sent as the body instead of JSON (its type is the Content-Type). */
  picture?: Blob;
  headers?: Record<string, string>;
  /** Send the admin token (`Authorization: Bearer`). */
  admin?: boolean;
  signal?: AbortSignal;
};

export async function request(path: string, opts: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.picture) headers['Content-Type'] = opts.picture.type;
  if (opts.admin) {
    const token = tokenSource();
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  let res: Response;
  try {
    res = await fetch(path, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.picture ?? (opts.body === undefined ? null : JSON.stringify(opts.body)),
      signal: opts.signal ?? null,
      // The same URL answers HTML to a navigation and JSON here: never mix them up in a cache.
      cache: 'no-cache',
    });
  } catch (err) {
    if ((err as { name?: string }).name === 'AbortError') throw err;
    throw new ApiError(
      0,
      NETWORK_ERROR,
      'The server could not be reached. Check your connection and try again.',
      String((err as Error).message ?? err),
    );
  }
  if (!res.ok && res.status !== 304) throw await toApiError(res);
  return res;
}

async function toApiError(res: Response): Promise<ApiError> {
  const retry = Number(res.headers.get('Retry-After'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : undefined;
  try {
    const body = (await res.json()) as { error?: unknown; code?: unknown; details?: unknown };
    if (typeof body.code === 'string') {
      return new ApiError(
        res.status,
        body.code,
        typeof body.error === 'string' ? body.error : `Request failed (${res.status})`,
        typeof body.details === 'string' ? body.details : '',
        retryAfter,
      );
    }
  } catch {
    // not JSON: fall through
  }
  return new ApiError(res.status, `HTTP_${res.status}`, `Request failed (${res.status})`, '', retryAfter);
}

export async function getJson<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await request(path, opts);
  return (await res.json()) as T;
}

export async function sendJson<T>(
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
  opts: RequestOptions = {},
): Promise<T> {
  const res = await request(path, { ...opts, method, body });
  return (await res.json()) as T;
}

/**
 * Image and page URLs in API answers are absolute (PUBLIC_BASE_URL). The app is served by the
 * same process, so their path is always right here, while their host may not be: a booth
 * laptop reached on its LAN address still says `localhost` when PUBLIC_BASE_URL is unset.
 */
export function localUrl(url: string): string {
  try {
    const u = new URL(url, location.href);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

export const enc = encodeURIComponent;
