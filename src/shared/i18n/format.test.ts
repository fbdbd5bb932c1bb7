import { describe, expect, it } from 'vitest';
import { formatterFor } from './format';

describe('formatterFor', () => {
  const en = formatterFor('en');
  const es = formatterFor('es');

  it('chooses the plural form by the language’s CLDR rules, # being the formatted count', () => {
    const forms = { one: '# employee', other: '# employees' };
    expect([0, 1, 2, 1234].map((n) => en.plural(n, forms))).toEqual(['0 employees', '1 employee', '2 employees', '1,234 employees']);
    const spanish = { one: '# empleado', other: '# empleados' };
    expect([1, 2, 1234].map((n) => es.plural(n, spanish))).toEqual(['1 empleado', '2 empleados', `${es.number(1234)} empleados`]);
  });

  it('uses the exact-zero form only for zero', () => {
    const forms = { '=0': 'None left.', one: '# left.', other: '# left.' };
    expect([0, 1, 3].map((n) => en.plural(n, forms))).toEqual(['None left.', '1 left.', '3 left.']);
  });

  it('writes numbers and dates in each language’s format', () => {
    expect(en.number(1234567)).toBe('1,234,567');
    expect(es.number(1234567)).toBe(new Intl.NumberFormat('es-US').format(1234567));
    const noon = '2026-02-10T12:00:00.000Z';
    expect(en.date(noon)).toMatch(/^Feb 1[01], 2026$/);
    expect(es.date(noon)).toMatch(/^1[01] feb 2026$/);
  });

  it('is built once per language', () => {
    expect(formatterFor('es')).toBe(es);
  });
});
