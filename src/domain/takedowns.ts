/** How a takedown request's reason reads to the photographer, in a mail or a push. */
const REASON_WORDS: Readonly<Record<string, string>> = {
  me: 'the person in the photo',
  copyright: 'copyright',
  other: 'other',
};

export function takedownReasonWords(reason: string): string {
  return REASON_WORDS[reason] ?? reason;
}

/** The dashboard's takedown queue, where the photographer decides (a mail's and a push's link). */
export function takedownQueueUrl(publicBaseUrl: string): string {
  return `${publicBaseUrl}/admin/takedowns`;
}
