import type { Db } from '#db/client';
import { messages } from '#shared/messages/index';
import {
  type CreateEmployerResponse,
  type EnrolmentMode,
  type EnrolmentStatusResponse,
  type EmployerSuggestResponse,
  ROSTER_LIST_CAP,
  ROSTER_MAX_BYTES,
  type RosterImportSummary,
  SUGGEST_MAX_RESULTS,
} from '#shared/schemas/enrolment';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import type { CounterStore } from '../../lib/counter-store';
import { IP_WINDOW_MS, enforceLimit, perIpKey } from '../../lib/rate-limit';
import { recordEvent } from '../audit/audit.repository';
import { findCompanyByName, insertCompany } from '../auth/auth.repository';
import * as repo from './enrolment.repository';
import type { CsvUpload } from './roster-csv';
import { type SpooledRoster, spoolRoster } from './roster-spool';

const m = messages.enrolment.server;
/** Rows per staging statement: 8 array parameters each, a few hundred kB of SQL text. */
const STAGE_BATCH = 2_000;
/**
 * How long a roster upload may go without a byte, and take in all, before it is refused with a
 * 408: a phone on a weak link sends 20 MB in well under 5 minutes, a stalled one never finishes.
 */
export const ROSTER_UPLOAD_TIMEOUTS = { idleMs: 30_000, totalMs: 5 * 60_000 } as const;

export interface EnrolmentDeps {
  db: Db;
  clock: Clock;
  counters: CounterStore;
  /** Employer suggestions per IP per minute (AUTH_RATE_LIMIT_PER_IP). */
  suggestLimitPerMinute: number;
  /** The enrolment mode of employers created from now on (ENROLMENT_MODE). */
  newEmployerMode: EnrolmentMode;
  /** The administrators' own employer (ADMIN_COMPANY): never suggested to people registering. */
  hiddenEmployer: string;
}

export interface EnrolmentActor {
  id: string;
}

/** Thrown inside the import transaction to roll a dry run back, carrying what it found. */
class DryRunFinished {
  constructor(readonly summary: RosterImportSummary) {}
}

/** Enrolment modes, roster imports, administrator-created employers and employer suggestions. */
export function createEnrolmentService(deps: EnrolmentDeps) {
  const { db, clock, counters } = deps;

  async function employerOr404(companyId: string) {
    const company = await repo.findCompany(db, companyId);
    if (!company) throw new AppError('not_found', messages.admin.server.employerNotFound);
    return company;
  }

  async function status(companyId: string): Promise<EnrolmentStatusResponse> {
    const company = await employerOr404(companyId);
    return { enrolmentMode: company.enrolmentMode, rosterEntries: await repo.countRosterEntries(db, companyId) };
  }

  /** Step 2 of an import: lock, stage, apply, summarise; a dry run rolls it all back. */
  async function applyRoster(actor: EnrolmentActor, companyId: string, mode: 'dry-run' | 'import', spooled: SpooledRoster): Promise<RosterImportSummary> {
    const now = clock();
    let previousMode: EnrolmentMode = 'open';
    try {
      return await db.transaction(async (tx) => {
        const company = await repo.lockCompany(tx, companyId);
        if (!company) throw new AppError('not_found', messages.admin.server.employerNotFound);
        previousMode = company.enrolmentMode;
        await repo.createStage(tx);
        for await (const batch of spooled.batches()) await repo.stageRows(tx, batch);
        await repo.markDuplicates(tx);
        const counts = await repo.applyStage(tx, companyId, now);
        const bad = await repo.badRows(tx, ROSTER_LIST_CAP);
        const notListed = await repo.membersNotListed(tx, companyId, ROSTER_LIST_CAP);
        const result: RosterImportSummary = {
          mode,
          applied: mode === 'import',
          rows: spooled.rows,
          ...counts,
          badRows: {
            total: bad.total + spooled.unspooledBadRows,
            shown: bad.shown.map((r) => ({
              line: r.line,
              reason: r.reason ?? messages.enrolment.rows.duplicate(r.lhmpId ?? '', r.duplicateOf ?? 0),
            })),
          },
          membersNotListed: notListed,
          enrolmentMode: mode === 'import' ? 'roster' : company.enrolmentMode,
        };
        if (mode === 'dry-run') throw new DryRunFinished(result);
        await repo.setEnrolmentMode(tx, companyId, 'roster');
        await recordEvent(tx, { type: 'admin.roster.imported', actorUserId: actor.id, companyId, payload: auditPayload(result, previousMode), at: now });
        return result;
      });
    } catch (err) {
      if (!(err instanceof DryRunFinished)) throw err;
      // The dry run's transaction is gone; that an admin saw this list is not.
      await recordEvent(db, { type: 'admin.roster.checked', actorUserId: actor.id, companyId, payload: auditPayload(err.summary, previousMode), at: now });
      return err.summary;
    }
  }

  return {
    status,

    /** Switches an employer between open and roster enrolment (audited). The roster is kept either way. */
    async setMode(actor: EnrolmentActor, companyId: string, mode: EnrolmentMode): Promise<EnrolmentStatusResponse> {
      await db.transaction(async (tx) => {
        const company = await repo.lockCompany(tx, companyId);
        if (!company) throw new AppError('not_found', messages.admin.server.employerNotFound);
        if (company.enrolmentMode === mode) return;
        await repo.setEnrolmentMode(tx, companyId, mode);
        await recordEvent(tx, {
          type: 'admin.enrolment_mode.changed',
          actorUserId: actor.id,
          companyId,
          payload: { from: company.enrolmentMode, to: mode },
          at: clock(),
        });
      });
      return status(companyId);
    },

    /** An employer added by an administrator, in the ENROLMENT_MODE of new employers; 409 for a near-duplicate. */
    async createEmployer(actor: EnrolmentActor, name: string): Promise<CreateEmployerResponse> {
      const created = await db.transaction(async (tx) => {
        const row = await insertCompany(tx, name, deps.newEmployerMode);
        if (row) await recordEvent(tx, { type: 'admin.employer.created', actorUserId: actor.id, companyId: row.id, payload: { name: row.name }, at: clock() });
        return row;
      });
      if (!created) {
        const existing = await findCompanyByName(db, name);
        const shown = existing?.name ?? name;
        throw new AppError('conflict', m.employerExists(shown), { name: m.employerExists(shown) });
      }
      return { employer: created };
    },

    /**
     * Imports (or dry-runs) a roster file in two steps, so that no transaction waits on a client:
     * 1. The body is read to its end outside any transaction (spoolRoster): counted (413),
     *    watched for stalls (408 after 30 s without bytes or 5 minutes in all), parsed and
     *    checked as it arrives, its rows spooled to a private temporary file.
     * 2. One short transaction locks the employer, stages the spooled rows in a temporary table
     *    and makes the employer's roster equal to it with a few set-based statements.
     * A dry run does exactly the same and rolls back, so its counts are the import's. The file
     * replaces the roster: entries not in it are removed; registered members no longer on it
     * are reported, never touched. An import switches the employer to roster mode. Both are
     * audited (the answer lists members).
     */
    async importRoster(actor: EnrolmentActor, companyId: string, mode: 'dry-run' | 'import', upload: CsvUpload): Promise<RosterImportSummary> {
      // Nobody uploads 20 MB to an employer that is not there (checked again under the lock).
      await employerOr404(companyId);
      const spooled = await spoolRoster(upload.stream, { maxBytes: ROSTER_MAX_BYTES, ...ROSTER_UPLOAD_TIMEOUTS }, STAGE_BATCH);
      try {
        if (spooled.rows === 0) throw new AppError('validation', m.csvEmpty);
        return await applyRoster(actor, companyId, mode, spooled);
      } finally {
        await spooled.remove();
      }
    },

    /** Up to 5 employer names for at least 3 typed characters (never ADMIN_COMPANY's); rate limited per IP. */
    async suggest(typed: string, ip: string): Promise<EmployerSuggestResponse> {
      await enforceLimit(counters, perIpKey('suggest', ip), deps.suggestLimitPerMinute, IP_WINDOW_MS, messages.auth.server.rateLimited);
      const names = await repo.suggestEmployers(db, typed, SUGGEST_MAX_RESULTS, deps.hiddenEmployer);
      return { employers: names.map((name) => ({ name })) };
    },
  };
}

function auditPayload(summary: RosterImportSummary, previousMode: EnrolmentMode) {
  return {
    rows: summary.rows,
    added: summary.added,
    updated: summary.updated,
    unchanged: summary.unchanged,
    removed: summary.removed,
    badRows: summary.badRows.total,
    membersNotListed: summary.membersNotListed.total,
    previousMode,
  };
}

export type EnrolmentService = ReturnType<typeof createEnrolmentService>;
