import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { messages } from '#shared/messages/index';
import { ROSTER_LIST_CAP } from '#shared/schemas/enrolment';
import { AppError } from '../../lib/app-error';
import type { StagedRow } from './enrolment.repository';
import { readRosterRows } from './roster-csv';

const m = messages.enrolment.server;

export interface UploadLimits {
  /** Bytes the body may have (413 past it). */
  maxBytes: number;
  /** The longest wait for the next bytes (408 past it): a stalled client lets go. */
  idleMs: number;
  /** The longest the whole body may take to arrive (408 past it). */
  totalMs: number;
}

/** A roster file read to its end and checked row by row; its rows wait in a private temporary file. */
export interface SpooledRoster {
  /** Data rows read (good and bad). */
  rows: number;
  /**
   * Bad rows counted but not spooled: past the first `reasonsKept` bad rows, one without a
   * valid programme ID matters to nothing but the count (it keeps no entry, duplicates none).
   */
  unspooledBadRows: number;
  /** Where the rows wait until `remove()`. */
  file: string;
  /** The rows again, in file order, `batchSize` at a time. */
  batches(): AsyncGenerator<StagedRow[]>;
  /** Deletes the temporary file (call in a finally). */
  remove(): Promise<void>;
}

type RowTuple = [number, string | null, string | null, string | null, string | null, string | null, string | null, string | null];

const toTuple = (r: StagedRow): RowTuple => [r.line, r.lhmpId, r.firstName, r.lastName, r.firstNameKey, r.lastNameKey, r.email, r.reason];
const fromTuple = ([line, lhmpId, firstName, lastName, firstNameKey, lastNameKey, email, reason]: RowTuple): StagedRow => ({
  line,
  lhmpId,
  firstName,
  lastName,
  firstNameKey,
  lastNameKey,
  email,
  reason,
});

/**
 * Passes an upload through, and fails it with a 408 when no bytes arrive for `idleMs` or the
 * whole of it takes longer than `totalMs`. The 408 closes the connection (a client that sends
 * nothing would otherwise keep it), and the request stream is let go of, not read further.
 */
class UploadWatch extends Transform {
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly total: ReturnType<typeof setTimeout>;

  constructor(
    private readonly upload: Readable,
    private readonly limits: UploadLimits,
  ) {
    super();
    this.total = setTimeout(() => this.fail(m.uploadTooSlow(Math.round(limits.totalMs / 60_000))), limits.totalMs);
    this.armIdle();
    // pipe() does not forward errors: a broken connection must end the read too.
    upload.on('error', (err) => this.destroy(err));
    upload.pipe(this);
  }

  private armIdle() {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.fail(m.uploadStalled(Math.round(this.limits.idleMs / 1000))), this.limits.idleMs);
  }

  private fail(message: string) {
    this.upload.unpipe(this);
    this.destroy(new AppError('request_timeout', message, undefined, { connection: 'close' }));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.armIdle();
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback) {
    this.stopTimers();
    callback();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void) {
    this.stopTimers();
    callback(err);
  }

  private stopTimers() {
    clearTimeout(this.idle);
    clearTimeout(this.total);
  }
}

/**
 * Reads a roster upload to its end, outside any transaction: the bytes are counted (413),
 * watched for stalls (408), parsed and checked as they arrive (readRosterRows), and the rows
 * written `batchSize` to a line into a file in a fresh private directory under the system's
 * temporary directory (mode 0700/0600). A file that is not a roster fails here, with nothing
 * written to the database. Memory stays one batch, whatever the file's size. Past the first
 * `reasonsKept` bad rows (the most an answer lists), bad rows keep an empty reason, and those
 * without a valid programme ID are only counted.
 */
export async function spoolRoster(upload: Readable, limits: UploadLimits, batchSize: number, reasonsKept = ROSTER_LIST_CAP): Promise<SpooledRoster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wellhaven-roster-'));
  const file = path.join(dir, 'rows.jsonl');
  const remove = () => rm(dir, { recursive: true, force: true });
  let rows = 0;
  let unspooledBadRows = 0;
  const watched = new UploadWatch(upload, limits);
  try {
    // eslint-disable-next-line security/detect-non-literal-fs-filename -- a path made above under mkdtemp, not input
    const out = createWriteStream(file, { mode: 0o600 });
    await pipeline(async function* () {
      let batch: RowTuple[] = [];
      let reasons = 0;
      for await (const row of readRosterRows(watched, limits.maxBytes)) {
        rows += 1;
        // Only the first bad rows are ever listed. Past them a bad row is counted, and spooled
        // (with an empty reason: still bad) only when its programme ID matters: so a file of a
        // million broken lines does not spool a million rows or sentences.
        if (row.reason !== null && ++reasons > reasonsKept) {
          if (row.lhmpId === null) {
            unspooledBadRows += 1;
            continue;
          }
          row.reason = '';
        }
        batch.push(toTuple(row));
        if (batch.length >= batchSize) {
          yield `${JSON.stringify(batch)}\n`;
          batch = [];
        }
      }
      if (batch.length > 0) yield `${JSON.stringify(batch)}\n`;
    }, out);
  } catch (err) {
    await remove();
    throw err;
  } finally {
    // Read to the end, or given up on (a bad header, a timeout): either way the watch's timers
    // stop and nothing more is read from the request here.
    upload.unpipe(watched);
    watched.destroy();
  }
  return {
    rows,
    unspooledBadRows,
    file,
    async *batches() {
      // eslint-disable-next-line security/detect-non-literal-fs-filename -- the file written above, not input
      const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
      for await (const line of lines) {
        if (line) yield (JSON.parse(line) as RowTuple[]).map(fromTuple);
      }
    },
    remove,
  };
}
