/**
 * Renders `.env.example` as docs/configuration.md's table: one row per variable with
 * its default (or "unset" and an example) and the comment above it, grouped by section.
 */
const START = '<!-- config:start (generated from .env.example by `npm run docs:config`) -->';
const END = '<!-- config:end -->';

export function renderConfigTable(envExample: string): string {
  const out: string[] = [];
  let comments: string[] = [];
  for (const raw of envExample.split('\n')) {
    const line = raw.trim();
    const section = /^# -{8,}\s*(.+)$/.exec(line);
    if (section) {
      out.push('', `**${section[1]}**`, '', '| Variable | Default | Meaning |', '| --- | --- | --- |');
      comments = [];
      continue;
    }
    const variable = /^(#\s*)?([A-Z][A-Z0-9_]+)=(.*)$/.exec(line);
    if (variable && out.length > 0) {
      const [, commented, name, value] = variable;
      const shown = commented ? `unset (e.g. \`${value}\`)` : value ? `\`${value}\`` : 'empty';
      out.push(
        `| \`${name}\` | ${value ? shown.replaceAll('|', '\\|') : 'unset'} | ${comments.join(' ').replaceAll('|', '\\|')} |`,
      );
      comments = [];
      continue;
    }
    if (line.startsWith('#')) comments.push(line.replace(/^#\s?/, ''));
    else comments = [];
  }
  return out.join('\n').trim();
}

export function replaceConfigTable(readme: string, table: string): string {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/configuration.md has no ${START} … ${END} block`);
  return `${readme.slice(0, a + START.length)}\n${table}\n${readme.slice(b)}`;
}
