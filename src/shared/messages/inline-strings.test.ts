import { globSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every word a member or an administrator reads comes from the catalogue (src/shared/messages),
 * so that it exists in every language: no text written inline in a component, neither between
 * JSX tags nor in the attributes people read or hear.
 */
const COMPONENTS = globSync('src/client/**/*.tsx').filter((file) => !/\.test\.tsx$|[\\/]test[\\/]/.test(file));

/**
 * Text with a letter in it after a JSX tag (an opening tag not glued to an identifier, as a
 * generic's `Promise<void>` is; a closing tag; a self-closing one) and before the next tag.
 */
// eslint-disable-next-line security/detect-unsafe-regex -- run over this repository's own source, not input
const JSX_TEXT = /(?:(?<![\w$.\])])<[A-Za-z][\w.]*(?:\s[^<>]*?)?>|<\/[\w.]*>|\/>)\s*([^<>{}`]*\p{L}[^<>{}`]*?)\s*</gu;
/** A quoted literal in an attribute that is read aloud or shown. */
const READ_ATTRIBUTE = /\b(aria-label|aria-description|aria-roledescription|title|placeholder|alt|label)="([^"]*\p{L}[^"]*)"/gu;

function inlineTextOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(JSX_TEXT)) {
    const text = match[1]!.trim();
    // Code between a tag and a later `<` (a comparison, an arrow function) is not text.
    if (/[;=()&|]|=>|\bconst\b|\breturn\b/.test(text)) continue;
    found.push(text);
  }
  for (const match of source.matchAll(READ_ATTRIBUTE)) found.push(`${match[1]}="${match[2]}"`);
  return found;
}

describe('components', () => {
  it('write no text inline: every string comes from the catalogue', () => {
    expect(COMPONENTS.length).toBeGreaterThan(50);
    const inline = COMPONENTS.flatMap((file) => inlineTextOf(readFileSync(file, 'utf8')).map((text) => `${file}: ${text}`));
    expect(inline).toEqual([]);
  });

  it('the check finds text written inline', () => {
    expect(inlineTextOf('return <p className="x">Hello there</p>;')).toEqual(['Hello there']);
    expect(inlineTextOf('<button aria-label="Close dialog" />')).toEqual(['aria-label="Close dialog"']);
    expect(inlineTextOf('<p>{t.home.title}</p>')).toEqual([]);
  });
});
