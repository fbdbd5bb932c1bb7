import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { parse } from 'csv-parse';
import { messages } from '#shared/messages/index';
import { EmailSchema, LhmpIdSchema, requiredName } from '#shared/schemas/auth';
import { ROSTER_COLUMNS } from '#shared/schemas/enrolment';
import { AppError } from '../../lib/app-error';
import { nameMatchKey } from '../../lib/name-match-key';
import type { StagedRow } from './enrolment.repository';

const m = messages.enrolment;
const v = messages.auth.validation;

/**
 * A request body handed over unread (the text/csv content-type parser). The stream sits in a
 * private field, so generic walks over request bodies (input hygiene) see an empty object.
 */
export class CsvUpload {
  readonly #stream: Readable;
  constructor(stream: Readable) {
    this.#stream = stream;
  }
  get stream(): Readable {
    return this.#stream;
  }
}

/** Passes bytes through until `maxBytes`, then fails with a 413. */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) {
      callback(new AppError('payload_too_large', m.server.csvTooLarge(Math.round(this.maxBytes / (1024 * 1024)))));
      return;
    }
    callback(null, chunk);
  }
}

type Column = keyof typeof ROSTER_COLUMNS;
export type ColumnIndex = { [K in Column]: K extends 'email' ? number | undefined : number } & { width: number };

/** Header names as written by people and spreadsheets: "Programme ID", "program_id", "LHMP ID". */
const ALIASES: Record<string, Column> = {
  programme_id: 'programmeId',
  program_id: 'programmeId',
  lhmp_id: 'programmeId',
  first_name: 'firstName',
  last_name: 'lastName',
  email: 'email',
};

/** Finds the columns by name (any order, any case, spaces or hyphens for underscores); unknown columns are ignored. */
export function columnsFromHeader(header: readonly string[]): ColumnIndex {
  const found: Partial<Record<Column, number>> = {};
  header.forEach((raw, index) => {
    const column = ALIASES[raw.trim().toLowerCase().replace(/[\s-]+/g, '_')];
    if (!column) return;
    if (found[column] !== undefined) throw new AppError('validation', m.server.csvHeaderDuplicate(ROSTER_COLUMNS[column]));
    found[column] = index;
  });
  if (found.programmeId === undefined || found.firstName === undefined || found.lastName === undefined) {
    throw new AppError('validation', m.server.csvHeader);
  }
  return { programmeId: found.programmeId, firstName: found.firstName, lastName: found.lastName, email: found.email, width: header.length };
}

const FirstNameSchema = requiredName(v.firstNameRequired);
const LastNameSchema = requiredName(v.lastNameRequired);
const firstMessage = (result: { error?: { issues: readonly { message: string }[] } }) => result.error?.issues[0]?.message ?? '';

/**
 * One data row, checked with the registration rules (the shared LhmpIdSchema, the name rules,
 * EmailSchema; an empty email is none). A bad row keeps its programme ID when that alone is
 * valid, so its existing roster entry is neither updated nor removed.
 */
export function rowFromRecord(record: readonly string[], columns: ColumnIndex, line: number): StagedRow {
  const cell = (index: number | undefined) => (index === undefined ? '' : (record[index] ?? ''));
  const problems: string[] = [];
  const extra = record.slice(columns.width);
  if (extra.some((value) => value.trim() !== '')) problems.push(m.rows.columnCount(columns.width, record.length));
  if (record.some((value) => value.includes('\ufffd'))) problems.push(m.rows.notUtf8);

  const lhmp = LhmpIdSchema.safeParse(cell(columns.programmeId));
  if (!lhmp.success) problems.push(m.rows.field(ROSTER_COLUMNS.programmeId, firstMessage(lhmp)));
  const first = FirstNameSchema.safeParse(cell(columns.firstName));
  if (!first.success) problems.push(m.rows.field(ROSTER_COLUMNS.firstName, firstMessage(first)));
  const last = LastNameSchema.safeParse(cell(columns.lastName));
  if (!last.success) problems.push(m.rows.field(ROSTER_COLUMNS.lastName, firstMessage(last)));
  const rawEmail = cell(columns.email).trim();
  const email = rawEmail === '' ? undefined : EmailSchema.safeParse(rawEmail);
  if (email && !email.success) problems.push(m.rows.field(ROSTER_COLUMNS.email, firstMessage(email)));

  const lhmpId = lhmp.success ? lhmp.data : null;
  if (problems.length > 0 || !first.success || !last.success) {
    return { line, lhmpId, firstName: null, lastName: null, firstNameKey: null, lastNameKey: null, email: null, reason: problems.join('; ') };
  }
  return {
    line,
    lhmpId,
    firstName: first.data,
    lastName: last.data,
    firstNameKey: nameMatchKey(first.data),
    lastNameKey: nameMatchKey(last.data),
    email: email?.success ? email.data : null,
    reason: null,
  };
}

interface CsvParseError {
  code?: string;
  lines?: number;
}

function csvError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as CsvParseError;
  const line = typeof e.lines === 'number' ? e.lines : 1;
  if (e.code === 'CSV_QUOTE_NOT_CLOSED') return new AppError('validation', m.server.csvUnclosedQuote(line));
  if (e.code === 'CSV_MAX_RECORD_SIZE') return new AppError('validation', m.server.csvLineTooLong(line));
  return new AppError('validation', m.server.csvUnreadable(line));
}

/**
 * Reads a roster file as it arrives, one staged row at a time (the caller batches them), in
 * memory bounded by one record: BOM, CRLF or LF, spaces around values, blank lines and
 * columns in any order are all fine. A file that is not CSV at all (an unclosed quote, a
 * line over 10,000 characters, over `maxBytes`) fails as a whole with the line.
 */
export async function* readRosterRows(upload: Readable, maxBytes: number): AsyncGenerator<StagedRow> {
  const parser = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    relax_column_count: true,
    relax_quotes: true,
    info: true,
    max_record_size: 10_000,
  });
  const limit = new ByteLimit(maxBytes);
  // pipe() does not forward errors: a failing source or limit must end the parser too.
  upload.on('error', (err) => parser.destroy(err));
  limit.on('error', (err) => parser.destroy(err));
  upload.pipe(limit).pipe(parser);
  let columns: ColumnIndex | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!columns) {
        columns = columnsFromHeader(record);
        continue;
      }
      yield rowFromRecord(record, columns, info.lines);
    }
  } catch (err) {
    throw csvError(err);
  } finally {
    upload.unpipe(limit);
    limit.unpipe(parser);
  }
  if (!columns) throw new AppError('validation', m.server.csvHeader);
}
