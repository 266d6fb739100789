/**
 * One way to talk to the API: a client generated from the OpenAPI document (openapi-fetch over
 * api-schema.ts, so every path's params, body and answer are the server's), JSON in and out, error bodies (`{ error, code, details }`, docs/contract.md, "Hosts and formats")
 * turned into ApiError, the admin token added when asked for, and network failures reported
 * in words a customer understands.
 */

import createClient, {
  type ClientPathsWithMethod,
  createFinalURL,
  createQuerySerializer,
  defaultPathSerializer,
} from 'openapi-fetch';
import type { paths } from './api-schema.js';

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

/**
 * The one fetch under both clients: the admin token when asked for, network failures in a
 * customer's words, and any answer but a success thrown as ApiError, so a call's result is
 * always the success body its path declares.
 */
async function send(request: Request, admin: boolean): Promise<Response> {
  if (!request.headers.has('Accept')) request.headers.set('Accept', 'application/json');
  if (admin && !request.headers.has('Authorization')) {
    const token = tokenSource();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
  }
  let res: Response;
  try {
    res = await fetch(request);
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

// The same URL answers HTML to a navigation and JSON here: never mix them up in a cache.
const shared = { cache: 'no-cache' } as const;

/** The API as the document declares it: each call's params, body and answer typed by its path. */
export const api = createClient<paths>({ ...shared, fetch: (request) => send(request, false) });
/** The same, sending the admin token (`Authorization: Bearer`, from setAdminTokenSource). */
export const adminApi = createClient<paths>({ ...shared, fetch: (request) => send(request, true) });
export type ApiClient = typeof api;

/**
 * The success body of a call made with `api` or `adminApi`. Their fetch throws ApiError for
 * every other answer, so the error half of openapi-fetch's result never happens here.
 */
export async function ok<T>(pending: Promise<{ data?: T; response: Response }>): Promise<T> {
  return (await pending).data as T;
}

/** The raw response of a call (a file to save, a picture to show), read with `parseAs: 'stream'`. */
export async function raw(pending: Promise<{ response: Response }>): Promise<Response> {
  return (await pending).response;
}

/** The init of a GET whose answer is a file: any type accepted, the body left for the caller. */
export const asFile = { parseAs: 'stream', headers: { Accept: '*/*' } } as const;

export type GetPath = ClientPathsWithMethod<ApiClient, 'get'>;
export type GetParams<P extends GetPath> = paths[P]['get'] extends { parameters: infer X } ? X : never;
/**
 * A GET's 200 body exactly as the document declares it. (openapi-fetch's own result type widens
 * tuples such as `printSizes`' `[width, height]` to arrays; the loading hook keeps them.)
 */
export type GetAnswer<P extends GetPath> = paths[P]['get'] extends {
  responses: { 200: { content: { 'application/json': infer J } } };
}
  ? J
  : never;

const querySerializer = createQuerySerializer();

/**
 * The URL a GET with these params asks for, built as the client builds it: the key of the
 * page's own answers (page-data.ts) and of the loaded answers kept for "back" (hooks.ts).
 */
export function apiUrl<P extends GetPath>(path: P, params?: GetParams<P>): string {
  const p = (params ?? {}) as { query?: Record<string, unknown>; path?: Record<string, unknown> };
  return createFinalURL(path, { baseUrl: '', params: p, querySerializer, pathSerializer: defaultPathSerializer });
}

/** A GET by path and params, for code generic over paths (the loading hook). */
export function getAnswer<P extends GetPath>(
  path: P,
  params: GetParams<P> | undefined,
  opts: { admin?: boolean; signal?: AbortSignal } = {},
): Promise<GetAnswer<P>> {
  const client = opts.admin ? adminApi : api;
  // The init's type is openapi-fetch's own per-path union; `params` is that path's, by GetParams.
  const get = client.GET as (path: string, init: object) => Promise<{ data?: GetAnswer<P>; response: Response }>;
  return ok(get(path, { params: params ?? {}, signal: opts.signal ?? null }));
}

/**
 * POSTs a picture (a selfie) as the body, its type as the Content-Type: the document declares
 * such bodies as raw bytes, which openapi-fetch would otherwise send as JSON.
 */
export const pictureBody = (picture: Blob) => ({
  body: picture as never,
  bodySerializer: (b: unknown) => b as Blob,
  headers: { 'Content-Type': picture.type },
});

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
