/**
 * The words of the messages that are not about an order: new photos for a photo code, and
 * takedown requests (the requester's answer, the photographer's notice).
 */
import { takedownQueueUrl, takedownReasonWords } from '../../../domain/takedowns.js';
import { escapeHtml } from '../../../lib/escape.js';
import { headerText } from '../sanitize.js';
import { button, letter, type MessageContent, type Part, page, type TemplateContext } from './letter.js';

/** New photos for a photo code (docs/contract.md, "Finding one's photos, and intake"). */
export function photosContent(code: string, added: number, url: string, ctx: TemplateContext): MessageContent {
  const what = added === 1 ? '1 new photo' : `${added} new photos`;
  const subject = headerText(`${what} for photo code ${code}`);
  const why = 'You get this because you asked to be told when photos of this code arrive.';
  const parts: Part[] = [
    {
      text: [
        `The photographer's latest card brought ${what} of you (photo code ${code}).`,
        `See them, and order prints: ${url}`,
      ],
      html: [
        `<p>The photographer's latest card brought <strong>${escapeHtml(what)}</strong> of you (photo code ${escapeHtml(code)}).</p>`,
        `<p><a href="${escapeHtml(url)}">See them, and order prints</a></p>`,
      ].join('\n'),
    },
    { text: [why], html: `<p>${why}</p>` },
  ];
  return letter(subject, null, parts, ctx);
}

/**
 * The first and only mail to an address subscribed to a photo code until its owner confirms
 * (docs/contract.md, "Hardening, round 2"): what was asked, the link to confirm, and that
 * nothing more comes without it.
 */
export function codeConfirmContent(code: string, confirmUrl: string, ctx: TemplateContext): MessageContent {
  const subject = headerText(`Confirm: email me new photos of code ${code}`);
  const lines = [
    `Someone (we hope you) asked us to email this address when new photos of photo code ${code} arrive.`,
    'If that was you, confirm it with the button. If not, ignore this mail: you will not hear from us again.',
  ];
  const part: Part = {
    text: [...lines, `Confirm: ${confirmUrl}`],
    html: [...lines.map((l) => `<p>${escapeHtml(l)}</p>`), button(confirmUrl, 'Yes, email me new photos')].join('\n'),
  };
  return letter(subject, null, [part], ctx);
}

/** What a takedown decision mail says (`takedown` jobs: payload `{ email, decision, eventName, photoNumber }`). */
export type TakedownMail = { decision: 'remove' | 'restore'; eventName: string; photoNumber: string };

/** The requester hears the owner's decision on their takedown request (docs/contract.md, "Takedown requests"). */
export function takedownContent(mail: TakedownMail, ctx: TemplateContext): MessageContent {
  const photo = `photo #${headerText(mail.photoNumber, 20)} of ${headerText(mail.eventName, 100)}`;
  const subject =
    mail.decision === 'remove' ? `Your removal request: ${photo} was removed` : `Your removal request: ${photo}`;
  const lines =
    mail.decision === 'remove'
      ? [
          `You asked us to take down ${photo}.`,
          'We have removed it: it is no longer shown in the gallery, offered for sale or printed.',
        ]
      : [
          `You asked us to take down ${photo}.`,
          'We have reviewed your request and decided to keep the photo in the gallery.',
          'If you think we got this wrong, reply to this message and tell us why.',
        ];
  return letter(subject, null, [{ text: lines, html: lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n') }], ctx);
}

/** What the photographer's notice of a new takedown request says (`operator` jobs with `about: 'takedown'`). */
export type TakedownNoticeMail = {
  eventName: string;
  photoNumber: string;
  reason: string;
  email: string;
  message: string;
  hidden: boolean;
};

/**
 * The photographer hears of a new takedown request at once, with a link to the dashboard's
 * queue, where one tap decides it (docs/contract.md, "Takedown requests").
 */
export function takedownNoticeContent(mail: TakedownNoticeMail, ctx: TemplateContext): MessageContent {
  const photo = `photo #${headerText(mail.photoNumber, 20)} of ${headerText(mail.eventName, 100)}`;
  const subject = `Takedown request: ${photo}`;
  const queueUrl = takedownQueueUrl(ctx.publicBaseUrl);
  const lines = [
    `Someone asked for ${photo} to come down.`,
    `Reason: ${takedownReasonWords(mail.reason)}. From: ${mail.email}.`,
    ...(mail.message ? [`Message: ${mail.message}`] : []),
    mail.hidden
      ? 'The photo is hidden from the gallery until you decide.'
      : 'The photo is still shown in the gallery until you decide.',
  ];
  const text = `${lines.join('\n')}\n\nDecide: ${queueUrl}\n`;
  const html = page(
    subject,
    [...lines.map((l) => `<p>${escapeHtml(l)}</p>`), button(queueUrl, 'Open the takedown queue')].join('\n'),
  );
  return { subject, text, html };
}
