/** Printing at the booth (docs/contract.md, "Printing at the booth"), staff. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';
import { PrintJobRecord } from '../../services/store/ports/print-jobs.js';
import { ADMIN_BODY_ERRORS } from '../common/errors.js';

const MAX_ITEMS = 1000;

const Printer = z
  .object({
    name: z.string(),
    url: z.string().describe('The printer’s IPP URL (without credentials)'),
    sizes: z.array(z.string()).describe('The print sizes it holds paper for (PRINTERS)'),
    state: z
      .enum(['idle', 'processing', 'stopped', 'unreachable'])
      .describe('`printer-state` as the printer reports it; `unreachable`: no answer within PRINTER_TIMEOUT_MS'),
    stateReasons: z
      .array(z.string())
      .describe('`printer-state-reasons` without their severity suffix: `media-empty`, `marker-supply-low`, ...'),
    message: z.string().describe('The printer’s `printer-state-message`, or why it could not be read'),
    queuedJobs: z.number().int().nullable().describe('Jobs waiting in the printer (`queued-job-count`)'),
    acceptingJobs: z.boolean().nullable(),
    mediaReady: z.array(z.string()).describe('PWG names of the paper loaded (`media-ready`)'),
  })
  .meta({ id: 'Printer' });

/** A job as the booth sees it: the record's fields (an allow-list: not its run id or job name). */
const PrintJob = PrintJobRecord.pick({
  id: true,
  itemId: true,
  orderNumber: true,
  printer: true,
  size: true,
  copies: true,
  jobId: true,
  state: true,
  printerState: true,
  reason: true,
  auto: true,
  by: true,
  createdAt: true,
  finishedAt: true,
}).meta({ id: 'PrintJob' });

const Printers = z
  .object({
    printers: z.array(Printer).describe('In PRINTERS order'),
    jobs: z.array(PrintJob).describe('Jobs in flight, oldest first'),
    recent: z.array(PrintJob).describe('The latest jobs that ended, newest first'),
  })
  .meta({ id: 'Printers' });

const PrintRequest = z
  .strictObject({
    itemIds: z.array(z.string().max(40)).min(1).max(MAX_ITEMS).describe('Print-queue lines, printed in this order'),
    printer: z
      .string()
      .min(1)
      .max(40)
      .optional()
      .describe('A printer’s name; absent: for each size, the first idle printer holding it'),
  })
  .meta({ id: 'PrintRequest' });

const PrintResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    jobs: z
      .array(
        z.object({
          itemId: z.string(),
          printer: z.string(),
          jobId: z
            .number()
            .int()
            .nullable()
            .describe('The printer’s job id; null: the printer did not answer in time, the job is looked for'),
        }),
      )
      .describe('The lines sent, in order'),
    notSent: z
      .array(z.object({ itemId: z.string(), reason: z.string() }))
      .describe('Lines not sent (printed already, being printed, refused by the printer, no print file): still queued'),
  })
  .meta({ id: 'PrintResponse' });

const printingRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { printing } = fastify;
  // Booth helpers run the printer (docs/contract.md, "Roles").
  const staff = { config: { access: 'staff' } } as const;
  const security = [{ adminToken: [] }];

  fastify.get(
    '/api/printers',
    {
      ...staff,
      schema: {
        tags: ['fulfilment'],
        summary: 'The booth’s printers, their state, and the print jobs in flight',
        description: [
          'Each printer of PRINTERS, asked now over IPP (Get-Printer-Attributes, all at once, each within',
          'PRINTER_TIMEOUT_MS): its state (`idle`, `processing`, `stopped`), state reasons (`media-empty`,',
          '`marker-supply-low`, ...), jobs queued in it and paper loaded. A printer that does not answer is',
          '`unreachable` (with why in `message`), never an error. `jobs`: the lines sent and not yet ended.',
        ].join('\n'),
        security,
        response: { 200: Printers, ...errorResponses('UNAUTHORIZED', 'RATE_LIMITED', 'STORE_UNAVAILABLE') },
      },
    },
    async () => {
      const [printers, jobs] = await Promise.all([printing.printers(), printing.jobs()]);
      return { printers, jobs: jobs.inFlight, recent: jobs.recent };
    },
  );

  fastify.post(
    '/api/print-queue/print',
    {
      ...staff,
      schema: {
        tags: ['fulfilment'],
        summary: 'Print lines of the print queue on the booth’s printer',
        description: [
          'Sends each line’s print file (as `GET /api/print-files` makes it, crop included) to a printer as an',
          'IPP Print-Job with the size’s paper (`media`: `na_index-4x6_4x6in`, `na_5x7_5x7in`,',
          '`na_govt-letter_8x10in`, ...) and `copies` = the line’s quantity, in the order given. `printer` names',
          'one; without it each size goes to the first idle printer holding it. The line is marked printed when',
          'the printer reports the job `completed`; `canceled` or `aborted` leaves it in the queue with the',
          'reason in the order’s history. A line already being printed is not sent again.',
          'An item id that names no line of a paid order: 400 `VALIDATION_FAILED`. Every line printed already:',
          '409 `NOTHING_TO_PRINT`; every line being printed: 409 `ALREADY_PRINTING`. An unknown printer: 404',
          '`PRINTER_NOT_FOUND`; a printer (or none) that does not hold a line’s size: 409 `PRINTER_LACKS_SIZE`.',
          'The printer does not answer: 503 `PRINTER_UNAVAILABLE`, and nothing is sent or marked.',
        ].join('\n'),
        security,
        body: PrintRequest,
        response: {
          200: PrintResponse,
          ...errorResponses(
            'PRINTER_UNAVAILABLE',
            ...ADMIN_BODY_ERRORS,
            'PRINTER_NOT_FOUND',
            'NOTHING_TO_PRINT',
            'ALREADY_PRINTING',
            'PRINTER_LACKS_SIZE',
          ),
        },
      },
    },
    async (request) => {
      const { jobs, notSent } = await printing.printNamed(request.body.itemIds, {
        printer: request.body.printer,
        by: fastify.adminAuth.actor(request),
      });
      return {
        success: true as const,
        message: `${jobs.length} line(s) sent to the printer${notSent.length ? `, ${notSent.length} not sent` : ''}`,
        jobs,
        notSent,
      };
    },
  );
};

export default printingRoutes;
