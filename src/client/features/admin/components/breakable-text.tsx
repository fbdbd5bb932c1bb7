import { Fragment } from 'react';

/**
 * An email or an id on a narrow screen: it may wrap after an "@", a dot, a hyphen or an
 * underscore (a <wbr> each), so it breaks between its parts instead of inside a word.
 * `break-words` on the container stays the last resort for a part longer than the line.
 */
export function BreakableText({ text }: { text: string }) {
  const parts = text.split(/(?<=[@._-])/);
  return (
    <>
      {parts.map((part, i) => (
        // The parts of one string never reorder: the index is their identity.
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
