/**
 * The one error handler: every error leaves as an error body (docs/contract.md, "Hosts and
 * formats"). A 5xx's message is replaced, so no internal detail or stack reaches a client.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { securityHeaders } from '../lib/security-headers.js';
import { AppError, type ErrorCode, isAppError } from './catalogue.js';

/** Fastify's own error codes that are the client's fault, mapped to ours. */
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_FAILED',
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_FAILED',
  FST_ERR_VALIDATION: 'VALIDATION_FAILED',
  FST_ERR_BAD_URL: 'VALIDATION_FAILED',
  FST_ERR_ASYNC_CONSTRAINT: 'VALIDATION_FAILED',
};

/** Fallback by status for 4xx errors from plugins that carry no code we know. */
const statusCodes: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

export function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  if (hasZodFastifySchemaValidationErrors(err)) {
    const issues = err.validation.map((v) => ({
      in: err.validationContext ?? 'body',
      field: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: v.message ?? 'invalid',
    }));
    return new AppError('VALIDATION_FAILED', { details: issues, cause: err });
  }
  if (isResponseSerializationError(err)) return new AppError('INTERNAL', { cause: err });
  const fe = err as Partial<FastifyError> | undefined;
  const mapped = fe?.code ? fastifyCodes[fe.code] : undefined;
  if (mapped) {
    const message = mapped === 'VALIDATION_FAILED' ? fe?.message : undefined;
    return new AppError(mapped, { details: message ?? '', cause: err });
  }
  const status = fe?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = statusCodes[status] ?? 'VALIDATION_FAILED';
    return new AppError(code, { details: fe?.message ?? '', cause: err });
  }
  if (fe instanceof SyntaxError) return new AppError('VALIDATION_FAILED', { details: 'Malformed JSON', cause: err });
  return new AppError('INTERNAL', { cause: err });
}

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  if (err.code === 'UNAUTHORIZED' && !reply.hasHeader('www-authenticate')) {
    reply.header('WWW-Authenticate', 'Bearer realm="admin"');
  }
  // An error must never be cached, even on routes whose successes are (images).
  reply.header('Cache-Control', 'no-store');
  reply.removeHeader('etag');
  reply.removeHeader('content-disposition');
  return reply
    .code(err.statusCode)
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send({ error: err.message, code: err.code, details: err.details });
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (malformed, headers too large,
 * slowloris) get the error body and CORS too. Fastify's `clientErrorHandler`; `this` is the instance.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'REQUEST_TIMEOUT'
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? 'HEADERS_TOO_LARGE'
        : 'VALIDATION_FAILED';
  const appErr = new AppError(code, { details: code === 'VALIDATION_FAILED' ? 'Malformed HTTP request' : '' });
  // Debug, not info: a scanner or a slowloris attack would otherwise fill the log.
  this.log.debug({ code, err: err.code }, 'client error');
  // As Node does: never write into a response that has already begun.
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !pending?.headersSent) {
    const body = JSON.stringify({ error: appErr.message, code: appErr.code, details: appErr.details });
    socket.write(
      `HTTP/1.1 ${appErr.statusCode} ${STATUS_CODES[appErr.statusCode]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Access-Control-Allow-Origin: *\r\n' +
        'Cache-Control: no-store\r\n' +
        securityHeaders(this.config)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('') +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}

function errorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appErr = toAppError(err);
  if (appErr.statusCode < 500) {
    request.log.info({ code: appErr.code, details: appErr.details }, appErr.message);
  } else if (appErr.code === 'INTERNAL' || appErr.cause !== undefined) {
    request.log.error({ err: appErr.cause ?? appErr, code: appErr.code }, 'request failed');
  } else {
    // A 503 a service chose (still indexing, render queue full) is a state, not a fault:
    // else a first start would log one error per visitor while it indexes.
    request.log.warn({ code: appErr.code, details: appErr.details }, appErr.message);
  }
  return sendError(reply, appErr);
}

export default fp(
  async function errorHandlerPlugin(fastify: FastifyInstance) {
    fastify.setErrorHandler(errorHandler);
    fastify.setNotFoundHandler((request, reply) => {
      const err = new AppError('NOT_FOUND', { details: `${request.method} ${request.url.split('?')[0]}` });
      request.log.info({ code: err.code }, err.message);
      return sendError(reply, err);
    });
  },
  { name: 'error-handler' },
);
