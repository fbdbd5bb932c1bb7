import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { columnsFromHeader, readRosterRows, rowFromRecord } from './roster-csv';

const read = async (text: string | Buffer, maxBytes = 1024 * 1024) => {
  const rows = [];
  for await (const row of readRosterRows(Readable.from([Buffer.from(text)]), maxBytes)) rows.push(row);
  return rows;
};

describe('columnsFromHeader', () => {
  it('finds the columns in any order, case and spelling people use, and ignores others', () => {
    expect(columnsFromHeader(['Email', 'Notes', 'Last Name', 'Programme ID', 'first-name'])).toEqual({ programmeId: 3, firstName: 4, lastName: 2, email: 0, width: 5 });
    expect(columnsFromHeader(['LHMP_ID', 'FIRST_NAME', 'LAST_NAME'])).toMatchObject({ programmeId: 0, email: undefined });
    expect(columnsFromHeader(['program_id', 'first_name', 'last_name'])).toMatchObject({ programmeId: 0 });
  });

  it('refuses a header without the three columns, or with one twice', () => {
    expect(() => columnsFromHeader(['programme_id', 'name'])).toThrow('The first line must name the columns');
    expect(() => columnsFromHeader(['programme_id', 'lhmp_id', 'first_name', 'last_name'])).toThrow('The column programme_id appears twice');
  });
});

describe('rowFromRecord', () => {
  const columns = columnsFromHeader(['programme_id', 'first_name', 'last_name', 'email']);

  it('keeps the display names and computes the match keys', () => {
    expect(rowFromRecord(['lq00001', ' José ', 'Núñez', ' Jose@Example.TEST '], columns, 2)).toEqual({
      line: 2,
      lhmpId: 'LQ00001',
      firstName: 'José',
      lastName: 'Núñez',
      firstNameKey: 'jose',
      lastNameKey: 'nunez',
      email: 'jose@example.test',
      reason: null,
    });
  });

  it('tolerates missing or empty trailing values, not extra ones', () => {
    expect(rowFromRecord(['LQ00001', 'Ann', 'Lee'], columns, 3).reason).toBeNull();
    expect(rowFromRecord(['LQ00001', 'Ann', 'Lee', '', ' '], columns, 3).reason).toBeNull();
    expect(rowFromRecord(['LQ00001', 'Ann', 'Lee', '', 'x'], columns, 3).reason).toBe('Expected 4 values, found 5 (a value that contains a comma must be in double quotes)');
  });

  it('gives every problem of a bad row, and keeps a valid programme ID so its entry is kept', () => {
    const row = rowFromRecord(['LQ00009', '', 'x'.repeat(51), 'nope'], columns, 7);
    expect(row).toMatchObject({ line: 7, lhmpId: 'LQ00009', firstName: null, firstNameKey: null });
    expect(row.reason).toBe('first_name: First name is required; last_name: Must be 50 characters or less; email: Valid email is required');
    expect(rowFromRecord(['LQ1', 'Ann', 'Lee'], columns, 8)).toMatchObject({ lhmpId: null, reason: 'programme_id: LHMP ID must be exactly 7 characters' });
    expect(rowFromRecord(['LQ00001', 'Ann\u202e', 'Lee'], columns, 9).reason).toBe('first_name: Must not contain control or invisible characters');
    expect(rowFromRecord(['LQ00001', 'Ann\u0000', 'Lee'], columns, 9).reason).toBe('first_name: Must not contain control or invisible characters');
    expect(rowFromRecord(['LQ00001', 'Ren\ufffde', 'Lee'], columns, 9).reason).toBe('The row is not UTF-8 text (save the file as "CSV UTF-8")');
  });
});

describe('readRosterRows', () => {
  it('reads BOM, CRLF, quotes and blank lines, numbering rows by their line in the file', async () => {
    const rows = await read('\ufeffprogramme_id,first_name,last_name\r\n\r\nLQ00001,"Mary, Ann","O""Neil"\r\n,,\r\nLQ00002,Bo,Li');
    expect(rows.map((r) => [r.line, r.lhmpId, r.firstName, r.lastName])).toEqual([
      [3, 'LQ00001', 'Mary, Ann', 'O"Neil'],
      [5, 'LQ00002', 'Bo', 'Li'],
    ]);
  });

  it('fails the whole file when it is too large or not CSV', async () => {
    await expect(read(`programme_id,first_name,last_name\n${'LQ00001,Ann,Lee\n'.repeat(100)}`, 500)).rejects.toThrow('The file is larger than 0 MB');
    await expect(read('programme_id,first_name,last_name\nLQ00001,"Ann,Lee\n')).rejects.toThrow('is never closed');
    await expect(read('')).rejects.toThrow('The first line must name the columns');
  });
});
