/**
 * Every environment variable the service reads, validated once at start-up.
 *
 * `.env.example` documents the same list; `test/config/env.test.ts` fails when the
 * two drift apart. Nothing else in `src/` reads `process.env`.
 */
import path from 'node:path';
import { z } from 'zod';
import { type PrinterEntry, parsePrinters } from '../domain/printers.js';
import { parseTokenEntry } from '../domain/roles.js';

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
/**
 * The longest delay Node's timers take (about 24.8 days). A longer one is not an error to
 * Node: it warns and fires after 1 ms, so an interval of 30 days would run every millisecond.
 */
const MAX_TIMER_MS = 2_147_483_647;
/** A duration in ms that ends up in a timer: bounded by MAX_TIMER_MS. */
const ms = (min: number, max = MAX_TIMER_MS) => int(min, max);

/** Dollar text ("100", "100.00") to integer cents: money is never a float here. */
const dollarsToCents = z
  .string()
  .regex(/^\d{1,7}(\.\d{1,2})?$/, 'must be a dollar amount such as 100.00')
  .transform((v) => {
    const [whole = '0', frac = ''] = v.split('.');
    return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  });

const url = z.url({ protocol: /^https?$/ });

/** Empty strings in an env file mean "not set". */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const envSchema = z.object({
  // --- process -----------------------------------------------------------------
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: int(0, 65535).default(3000),
  PUBLIC_BASE_URL: optional(url),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: optional(z.string()),
  REQUEST_TIMEOUT_MS: ms(1000).default(30_000),
  /** Open connections at most; unset: derived from the descriptor limit (lib/descriptors.ts). */
  MAX_CONNECTIONS: optional(int(1)),
  SHUTDOWN_GRACE_MS: ms(0).default(10_000),

  // --- folders -----------------------------------------------------------------
  DATA_DIR: z.string().min(1).default('./data'),
  PHOTOS_DIR: optional(z.string().min(1)),
  DEMO_LIBRARY: z.enum(['auto', 'off']).default('auto'),

  // --- gallery -----------------------------------------------------------------
  WATERMARK_TEXT: z.string().min(1).max(80).default('PROOF'),
  THUMBNAIL_SIZE: int(64, 2000).default(400),
  PREVIEW_SIZE: int(256, 4000).default(1600),
  IMAGE_MEMORY_CACHE_MB: int(0, 4096).default(64),
  IMAGE_DISK_CACHE_MB: int(0).default(0),
  IMAGE_CACHE_SWEEP_INTERVAL_MS: ms(0).default(3_600_000),
  LIBRARY_RESCAN_INTERVAL_MS: ms(0).default(60_000),
  /** How often the photo catalogue is read for other server processes' changes. */
  LIBRARY_SYNC_INTERVAL_MS: ms(100).default(1_000),
  /** A new file is indexed once its size and mtime have not changed for this long. */
  INTAKE_SETTLE_MS: ms(0).default(2_000),
  /** A pause longer than this between consecutive frames ends a photo code's group. */
  FINDER_GAP_MS: ms(0).default(600_000),
  /**
   * Photo code subscribers are told of new photos once the library has been quiet this long
   * (an arrival batch: a card copied in), and at least every five times this during a long one.
   */
  FINDER_NOTIFY_QUIET_MS: ms(0).default(60_000),
  /** Takedown requests: hide the photo at once (`hide-first`) or only once the owner decides (`review-first`). */
  TAKEDOWN_MODE: z.enum(['hide-first', 'review-first']).default('hide-first'),
  /** A visitor's image render that cannot start within this long gets 503 BUSY (0: waits). */
  IMAGE_QUEUE_TIMEOUT_MS: ms(0).default(10_000),
  /** Thumbnails of new photos rendered as they arrive, and photo codes read from them. */
  INTAKE_INSPECT: z.enum(['on', 'off']).default('on'),
  /** The built browser app (default: dist/web of the package, written by `npm run build`). */
  WEB_DIR: optional(z.string().min(1)),

  // --- order store -------------------------------------------------------------
  ORDER_STORE: z.enum(['sqlite', 'sheets', 'postgres']).default('sqlite'),
  ORDER_CACHE_TTL_MS: ms(0).default(30_000),
  SQLITE_CHECKPOINT_INTERVAL_MS: ms(0, 60_000).default(200),
  /** Unset: REQUEST_TIMEOUT_MS + 60 s (services/orders/plugin.ts). */
  IDEMPOTENCY_STALE_MS: optional(ms(1000)),
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')),
  DATABASE_POOL_SIZE: int(1, 1000).default(10),
  GOOGLE_SHEETS_ID: optional(z.string().min(1)),
  GOOGLE_SHEETS_TAB: z.string().min(1).default('Orders'),
  GOOGLE_APPLICATION_CREDENTIALS: optional(z.string().min(1)),
  GOOGLE_SHEETS_ROOT_URL: optional(url),
  /** How often the spreadsheet mirror looks for new and changed orders to write (docs/mirror.md). */
  MIRROR_FLUSH_MS: ms(50, 5_000).default(500),
  /** How long the first start waits for the sheet's orders to be imported before serving. */
  MIRROR_IMPORT_WAIT_MS: ms(0).default(15_000),

  // --- admin -------------------------------------------------------------------
  ADMIN_TOKENS: optional(z.string()),
  ADMIN_AUTH_MAX_FAILURES: int(1).default(30),
  ADMIN_AUTH_WINDOW_MS: ms(1000).default(15 * 60_000),

  // --- captcha -----------------------------------------------------------------
  CAPTCHA_PROVIDER: z.enum(['altcha', 'turnstile', 'hcaptcha', 'recaptcha', 'off']).default('altcha'),
  CAPTCHA_SECRET: optional(z.string().min(1)),
  CAPTCHA_SITE_KEY: optional(z.string().min(1)),
  CAPTCHA_VERIFY_URL: optional(url),
  CAPTCHA_VERIFY_TIMEOUT_MS: ms(100, 60_000).default(5000),
  ALTCHA_HMAC_KEY: optional(z.string().min(16)),
  ALTCHA_MAX_NUMBER: int(1000).default(100_000),
  ALTCHA_EXPIRES_S: int(10).default(600),

  // --- rate limits (per client address, per minute) ----------------------------
  RATE_LIMIT_ORDERS_PER_MIN: int(1).default(10),
  RATE_LIMIT_FEEDBACK_PER_MIN: int(1).default(10),
  RATE_LIMIT_CAPTCHA_PER_MIN: int(1).default(30),
  RATE_LIMIT_PUSH_PER_MIN: int(1).default(10),
  RATE_LIMIT_LOOKUP_PER_MIN: int(1).default(10),
  RATE_LIMIT_CODES_PER_MIN: int(1).default(10),
  RATE_LIMIT_QUOTE_PER_MIN: int(1).default(60),
  RATE_LIMIT_FACE_SEARCH_PER_MIN: int(1).default(10),

  // --- high-value confirmation -------------------------------------------------
  HIGH_VALUE_THRESHOLD: dollarsToCents.default(10_000),
  VERIFY_LINK_SECRET: optional(z.string().min(16)),
  VERIFY_LINK_TTL_HOURS: int(1).default(48),

  // --- mail --------------------------------------------------------------------
  MAIL_FROM: z.string().min(3).default('Convention Photos <photos@localhost>'),
  OPERATOR_EMAIL: optional(z.email()),
  SENDGRID_API_KEY: optional(z.string().min(1)),
  SENDGRID_BASE_URL: optional(url),
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')),
  MAIL_RETRY_BASE_MS: ms(100).default(30_000),
  MAIL_RETRY_MAX_MS: ms(1000).default(60 * 60_000),

  // --- push --------------------------------------------------------------------
  VAPID_PUBLIC_KEY: optional(z.string().min(1)),
  VAPID_PRIVATE_KEY: optional(z.string().min(1)),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/)
    .default('mailto:photos@localhost'),
  /** Push service hosts exempt from the public-address check (services/push/egress.ts). */
  PUSH_ALLOW_HOSTS: optional(z.string()),

  // --- address check -----------------------------------------------------------
  ADDRESS_VERIFIER: z.enum(['local', 'usps', 'smarty', 'off']).default('local'),
  ADDRESS_VERIFY_TIMEOUT_MS: ms(100).default(3000),
  USPS_CLIENT_ID: optional(z.string().min(1)),
  USPS_CLIENT_SECRET: optional(z.string().min(1)),
  USPS_BASE_URL: url.default('https://apis.usps.com'),
  SMARTY_AUTH_ID: optional(z.string().min(1)),
  SMARTY_AUTH_TOKEN: optional(z.string().min(1)),
  SMARTY_BASE_URL: url.default('https://us-street.api.smarty.com'),

  // --- selling: online payment and digital downloads -----------------------------
  PAYMENT_PROVIDER: z.enum(['none', 'stripe']).default('none'),
  STRIPE_SECRET_KEY: optional(
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_\S{8,}$/, 'must be a Stripe secret key (sk_live_..., sk_test_... or rk_...)'),
  ),
  STRIPE_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_\S{8,}$/, 'must be a webhook signing secret (whsec_...)')),
  STRIPE_API_URL: optional(url),
  DOWNLOAD_TTL_DAYS: int(1, 3650).default(30),
  DOWNLOAD_MAX: int(1, 1000).default(10),
  DOWNLOAD_LINK_SECRET: optional(z.string().min(16)),

  // --- printing at the booth (docs/contract.md, "Printing at the booth") -------------
  PRINTERS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const { printers, problems } = parsePrinters(value);
      for (const message of problems) ctx.addIssue({ code: 'custom', message });
      return printers as PrinterEntry[];
    }),
  /** How long a printer may take to answer a status read or accept a connection. */
  PRINTER_TIMEOUT_MS: ms(200, 60_000).default(3000),
  /** How often the jobs sent are asked about while they print. */
  PRINT_JOB_POLL_MS: ms(100, 60_000).default(1000),

  // --- labels ------------------------------------------------------------------
  RETURN_ADDRESS: z
    .string()
    .default('Convention Photos\\n123 Main St\\nSpringfield, IL 62701')
    .transform((v) => v.replace(/\\n/g, '\n')),

  // --- face search -------------------------------------------------------------
  /** on: events whose setting `faceSearch` is true can be searched by selfie (the optional face packages needed). */
  FACE_SEARCH: z.enum(['on', 'off']).default('off'),
  /** How alike (cosine, 0-1) a face of a photo must be to the selfie's to match. */
  FACE_MATCH_MIN_SIMILARITY: z.coerce.number().min(0.5).max(0.99).default(0.7),
  /** Threads that index photos and read selfies, each a core while busy and about 150 MB. */
  FACE_THREADS: int(1, 8).default(1),
  // --- business settings (defaults; the owner's saved values in the dashboard win) ---
  /** The name mail is signed with and pages show; unset: the name in MAIL_FROM. */
  BUSINESS_NAME: optional(z.string().trim().min(1).max(100)),
  /** What an unpaid order's customer is told about paying (page and mail); lines separated by `\n`. */
  PAYMENT_INSTRUCTIONS: optional(
    z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .transform((v) => v.replace(/\\n/g, '\n')),
  ),
});

type Env = z.infer<typeof envSchema>;

/** Env plus values derived from it: resolved folders and the public URL. */
export type Config = Env & {
  dataDir: string;
  photosDir: string;
  publicBaseUrl: string;
  adminTokens: string[];
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates `source` (normally `process.env`) into a typed Config.
 * Throws a ConfigError whose message names every bad variable.
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const adminTokens = (env.ADMIN_TOKENS ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const problems = crossFieldProblems(env, adminTokens);
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    ...env,
    dataDir,
    photosDir: path.resolve(env.PHOTOS_DIR ?? path.join(dataDir, 'photos')),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    adminTokens,
  };
}

/** Rules that involve more than one variable; each message starts with the variable's name. */
function crossFieldProblems(env: Env, adminTokens: string[]): string[] {
  const out: string[] = [];
  // An entry may carry a role prefix (owner:, staff:, viewer:); the token is what follows it.
  if (adminTokens.some((t) => parseTokenEntry(t).token.length < 24)) {
    out.push('ADMIN_TOKENS: every token must be at least 24 characters (after its role prefix, if any)');
  }
  if (adminTokens.some((t) => parseTokenEntry(t).photographer === '')) {
    out.push('ADMIN_TOKENS: a photographer entry is photographer:<name>:<token>, with the name their photos carry');
  }
  if (env.CAPTCHA_PROVIDER === 'off' && env.NODE_ENV === 'production') {
    out.push('CAPTCHA_PROVIDER: "off" is refused when NODE_ENV=production');
  }
  if (['turnstile', 'hcaptcha', 'recaptcha'].includes(env.CAPTCHA_PROVIDER) && !env.CAPTCHA_SECRET) {
    out.push(`CAPTCHA_SECRET: required when CAPTCHA_PROVIDER=${env.CAPTCHA_PROVIDER}`);
  }
  if (env.ORDER_STORE === 'sheets') {
    if (!env.GOOGLE_SHEETS_ID) out.push('GOOGLE_SHEETS_ID: required when ORDER_STORE=sheets');
    if (!env.GOOGLE_APPLICATION_CREDENTIALS) {
      out.push('GOOGLE_APPLICATION_CREDENTIALS: required when ORDER_STORE=sheets');
    }
  } else if (env.GOOGLE_SHEETS_ID && !env.GOOGLE_APPLICATION_CREDENTIALS) {
    out.push('GOOGLE_APPLICATION_CREDENTIALS: required when GOOGLE_SHEETS_ID is set (the spreadsheet mirror)');
  }
  if (env.ORDER_STORE === 'postgres' && !env.DATABASE_URL) {
    out.push('DATABASE_URL: required when ORDER_STORE=postgres');
  }
  if (env.ADDRESS_VERIFIER === 'usps' && !(env.USPS_CLIENT_ID && env.USPS_CLIENT_SECRET)) {
    out.push('USPS_CLIENT_ID: USPS_CLIENT_ID and USPS_CLIENT_SECRET are required when ADDRESS_VERIFIER=usps');
  }
  if (env.ADDRESS_VERIFIER === 'smarty' && !(env.SMARTY_AUTH_ID && env.SMARTY_AUTH_TOKEN)) {
    out.push('SMARTY_AUTH_ID: SMARTY_AUTH_ID and SMARTY_AUTH_TOKEN are required when ADDRESS_VERIFIER=smarty');
  }
  if (env.PAYMENT_PROVIDER === 'stripe') {
    if (!env.STRIPE_SECRET_KEY) out.push('STRIPE_SECRET_KEY: required when PAYMENT_PROVIDER=stripe');
    if (!env.STRIPE_WEBHOOK_SECRET) out.push('STRIPE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER=stripe');
  }
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
    out.push('VAPID_PUBLIC_KEY: set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither');
  }
  return out;
}
