/**
 * A small MIME reader, enough for what nodemailer writes (multipart/alternative, quoted-printable,
 * base64, RFC 2047 encoded headers). Shared by the API SMTP catcher (./smtp.ts) and the E2E mail
 * helpers (tests/e2e/support/mail.ts). No dependencies.
 */

export interface ParsedMail {
  subject: string;
  /** The From header as written. */
  fromHeader: string;
  text: string;
  html: string;
  /** Header names lower-cased; values unfolded, encoded words decoded. */
  headers: Record<string, string>;
}

/** The first absolute http(s) link in a text body (the way a member would follow it). */
export function linkIn(text: string): string {
  const match = /https?:\/\/[^\s<>"')]+/.exec(text);
  if (!match) throw new Error(`no link in: ${text.slice(0, 200)}`);
  return match[0];
}

interface Part {
  headers: Record<string, string>;
  body: string;
}

function splitHeaders(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const body = end < 0 ? '' : normalized.slice(end + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function param(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const match = new RegExp(`${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(header);
  return match ? (match[1] ?? match[2]) : undefined;
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const charset = (param(part.headers['content-type'], 'charset') ?? 'utf-8').toLowerCase();
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable') bytes = decodeQuotedPrintable(part.body);
  else bytes = Buffer.from(part.body, 'utf8');
  const text = charset === 'utf-8' || charset === 'us-ascii' ? bytes.toString('utf8') : bytes.toString('latin1');
  return text.replace(/\r\n/g, '\n').replace(/\n$/, '');
}

function decodeQuotedPrintable(body: string): Buffer {
  const soft = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`), adjacent words joined. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

function leaves(part: Part): Part[] {
  const type = part.headers['content-type'] ?? 'text/plain';
  if (!/^multipart\//i.test(type)) return [part];
  const boundary = param(type, 'boundary');
  if (!boundary) return [];
  const sections = part.body.split(`--${boundary}`);
  // sections[0] is the preamble; the last one starts with "--" (the closing delimiter).
  return sections
    .slice(1)
    .filter((s) => !s.startsWith('--'))
    .flatMap((s) => leaves(splitHeaders(s.replace(/^\n/, ''))));
}

export function parseMessage(raw: string): ParsedMail {
  const top = splitHeaders(raw);
  let text = '';
  let html = '';
  for (const leaf of leaves(top)) {
    const type = (leaf.headers['content-type'] ?? 'text/plain').toLowerCase();
    if (type.startsWith('text/plain') && !text) text = decodeBody(leaf);
    else if (type.startsWith('text/html') && !html) html = decodeBody(leaf);
  }
  return { subject: top.headers.subject ?? '', fromHeader: top.headers.from ?? '', text, html, headers: top.headers };
}
