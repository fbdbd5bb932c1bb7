import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { completionRate, csvField, formatDay, formatRate, resultsCsv, resultsFileName, totals } from './popup-results';

const days = [
  { date: '2026-03-01', shows: 10, snoozes: 3, completions: 4 },
  { date: '2026-03-02', shows: 5, snoozes: 0, completions: 1 },
];

describe('results figures', () => {
  it('adds the days up', () => {
    expect(totals(days)).toEqual({ shows: 15, snoozes: 3, completions: 5 });
    expect(totals([])).toEqual({ shows: 0, snoozes: 0, completions: 0 });
  });

  it('completion rate is completions over shows, and none without shows', () => {
    expect(completionRate(5, 15)).toBeCloseTo(1 / 3);
    expect(completionRate(0, 0)).toBeNull();
    expect(completionRate(3, 0)).toBeNull();
    expect(formatRate(1 / 3, '—')).toBe('33.3%');
    expect(formatRate(0.4, '—')).toBe('40%');
    expect(formatRate(0, '—')).toBe('0%');
    expect(formatRate(null, '—')).toBe('—');
  });

  it('a calendar day is read as that day whatever the browser zone', () => {
    expect(formatDay('2026-03-01')).toBe('Mar 1, 2026');
    expect(formatDay('2026-12-31')).toBe('Dec 31, 2026');
  });
});

describe('CSV', () => {
  it('writes the header and one row a day', () => {
    expect(resultsCsv(days)).toBe('date,shows,snoozes,completions\r\n2026-03-01,10,3,4\r\n2026-03-02,5,0,1\r\n');
    expect(resultsCsv([])).toBe('date,shows,snoozes,completions\r\n');
  });

  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['+1', "'+1"],
    ['@sum', "'@sum"],
    [12, '12'],
    [Number.NaN, ''],
  ])('escapes %j as %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('any text survives a round trip through a CSV parser (less the formula guard)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (fields) => {
        // A first fixed column, so a row of one empty field is still a row.
        const line = ['row', ...fields.map(csvField)].join(',');
        const [row] = parse(line) as string[][];
        expect(row?.slice(1).map((f, i) => (/^[=+\-@\t\r]/.test(fields[i]!) ? f.slice(1) : f))).toEqual(fields);
      }),
    );
  });

  it('names the file after the popup', () => {
    expect(resultsFileName('Flu shot: book now!')).toBe('popup-results-flu-shot-book-now.csv');
    expect(resultsFileName('Café été')).toBe('popup-results-cafe-ete.csv');
    expect(resultsFileName('!!!')).toBe('popup-results-popup.csv');
    expect(resultsFileName('x'.repeat(200))).toBe(`popup-results-${'x'.repeat(60)}.csv`);
  });
});
