/**
 * The one catalogue of error codes (docs/contract.md, "Hosts and formats"); services throw
 * `AppError`s built from it. A code is never reused for another meaning.
 */
export const errorCatalogue = {
  VALIDATION_FAILED: { status: 400, message: 'The request is not valid' },
  CAPTCHA_REQUIRED: { status: 400, message: 'A CAPTCHA token is required' },
  UNKNOWN_PHOTO: { status: 400, message: 'The order names a photo that does not exist' },
  PRICE_MISMATCH: { status: 400, message: 'The amounts do not match the price list' },
  ADDRESS_INVALID: { status: 400, message: 'The shipping address is not deliverable' },
  EVENT_REQUIRED: { status: 400, message: 'The event could not be determined' },
  COUPON_INVALID: { status: 400, message: 'The coupon cannot be used on this order' },
  WEBHOOK_SIGNATURE_INVALID: { status: 400, message: 'The webhook signature is not valid' },
  UNAUTHORIZED: { status: 401, message: 'Admin credentials are missing or wrong' },
  CAPTCHA_FAILED: { status: 403, message: 'The CAPTCHA could not be verified' },
  FORBIDDEN: { status: 403, message: 'This admin token’s role may not do that' },
  VERIFICATION_FAILED: { status: 403, message: 'The confirmation link is not valid' },
  DOWNLOAD_UNAVAILABLE: { status: 403, message: 'This download link is not valid (any more)' },
  NOT_FOUND: { status: 404, message: 'No such route' },
  EVENT_NOT_FOUND: { status: 404, message: 'Event not found' },
  FOLDER_NOT_FOUND: { status: 404, message: 'Folder not found' },
  PHOTO_NOT_FOUND: { status: 404, message: 'Photo not found' },
  ORDER_NOT_FOUND: { status: 404, message: 'Order not found' },
  COUPON_NOT_FOUND: { status: 404, message: 'Coupon not found' },
  CODE_NOT_FOUND: { status: 404, message: 'No photos are known for this photo code' },
  TAKEDOWN_NOT_FOUND: { status: 404, message: 'No such takedown request' },
  PRINTER_NOT_FOUND: { status: 404, message: 'No printer of that name is configured (PRINTERS)' },
  FACE_SEARCH_OFF: { status: 404, message: 'Face search is not on for this event' },
  TOKEN_NOT_FOUND: { status: 404, message: 'No such admin token' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  NOT_ACCEPTABLE: { status: 406, message: 'Not acceptable' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request did not arrive in time' },
  ORDERING_CLOSED: { status: 409, message: 'Ordering is closed for this event' },
  INVALID_TRANSITION: { status: 409, message: 'The order cannot move to that status' },
  ORDER_NOT_SHIPPABLE: { status: 409, message: 'The order cannot be shipped' },
  ORDER_NOT_PICKUP: { status: 409, message: 'The order is not collected at the booth' },
  ORDER_FULFILLED: { status: 409, message: 'The order has been fulfilled and can no longer be edited' },
  ORDER_HELD: { status: 409, message: 'The order is waiting for the customer to confirm it by email' },
  NOTHING_TO_PRINT: { status: 409, message: 'Nothing to print: no order or order line matches' },
  NOT_PRINTED: { status: 409, message: 'Some prints of the order are not printed yet' },
  IDEMPOTENCY_CONFLICT: { status: 409, message: 'The Idempotency-Key was used with a different request' },
  IDEMPOTENCY_IN_PROGRESS: { status: 409, message: 'A request with this Idempotency-Key is still being processed' },
  COUPON_EXISTS: { status: 409, message: 'A coupon with this code exists already' },
  TAKEDOWN_DECIDED: { status: 409, message: 'The takedown request was decided otherwise already' },
  FEEDBACK_LIMIT: { status: 409, message: 'The order has all the feedback it can take' },
  SUBSCRIPTION_LIMIT: { status: 409, message: 'The order or photo code has all the subscriptions it can take' },
  PRINTER_LACKS_SIZE: { status: 409, message: 'No printer holds paper of that print size' },
  ALREADY_PRINTING: { status: 409, message: 'The line is being printed already' },
  VERIFICATION_EXPIRED: { status: 410, message: 'The confirmation link has expired' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type' },
  NO_FACE: { status: 422, message: 'No face was found in the picture' },
  RATE_LIMITED: { status: 429, message: 'Too many requests' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large' },
  INTERNAL: { status: 500, message: 'Internal server error' },
  IMAGE_UNAVAILABLE: { status: 503, message: 'The image cannot be rendered right now' },
  STORE_UNAVAILABLE: { status: 503, message: 'The order store is unreachable' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is not ready' },
  BUSY: { status: 503, message: 'The server is busy; try again shortly' },
  CAPTCHA_UNAVAILABLE: { status: 503, message: 'The CAPTCHA service cannot be reached right now' },
  PAYMENT_UNAVAILABLE: { status: 503, message: 'The payment provider cannot be reached right now' },
  PRINTER_UNAVAILABLE: { status: 503, message: 'The printer does not answer' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** `details` is a string in the body; objects are JSON-encoded (docs/contract.md, "Hosts and formats"). */
export type ErrorDetails = string | Record<string, unknown> | unknown[];

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: string;
  /** Extra response headers, e.g. `Retry-After` or `WWW-Authenticate`. */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    opts: { message?: string; details?: ErrorDetails; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    // A 4xx is the client's mistake, answered and logged without a stack; capturing one (tens
    // of microseconds) would cost more than the rest of a refusal. 5xx keep theirs.
    const status = errorCatalogue[code].status;
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    try {
      super(opts.message ?? errorCatalogue[code].message, { cause: opts.cause });
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.code = code;
    this.statusCode = status;
    this.details =
      opts.details === undefined ? '' : typeof opts.details === 'string' ? opts.details : JSON.stringify(opts.details);
    this.headers = opts.headers ?? {};
  }
}

export function appError(code: ErrorCode, opts?: ConstructorParameters<typeof AppError>[1]): AppError {
  return new AppError(code, opts);
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
