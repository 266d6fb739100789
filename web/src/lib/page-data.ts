/**
 * Answers the server put into the page's HTML, so the gallery shows its first photos without
 * one more round trip (src/routes/gallery/page-document.ts): `<meta name="gallery-data"
 * data-url="/event/…?limit=48" content="…JSON…">`, the very bytes the URL answers to a fetch.
 * Each is used once, by the first load of its URL; anything later asks the server.
 */
const answers = new Map<string, string>();

for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="gallery-data"]')) {
  const url = meta.dataset.url;
  if (url) answers.set(url, meta.content);
  // Read once: a navigation inside the app must not find a stale copy in the document.
  meta.remove();
}

/** Whether the page carries an answer to `url` not yet taken. */
export function carriesPageData(url: string): boolean {
  return answers.has(url);
}

/** The answer to `url` carried by the page, once; undefined when it carries none. */
export function takePageData<T>(url: string): T | undefined {
  const text = answers.get(url);
  if (text === undefined) return undefined;
  answers.delete(url);
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
