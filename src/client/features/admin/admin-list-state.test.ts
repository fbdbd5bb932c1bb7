import { describe, expect, it } from 'vitest';
import { chooseSortField, toggleSortOrder, withSearch } from '../../lib/list-state';
import {
  type EmployerListState,
  employeeListQuery,
  employerFooter,
  employerListQuery,
  isRecordId,
  readEmployeeListState,
  readEmployerListState,
  withStatus,
  writeEmployeeListState,
  writeEmployerListState,
} from './admin-list-state';

const params = (s: string) => new URLSearchParams(s);

describe('employer list state in the URL', () => {
  it('reads defaults from an empty query and writes none of them back', () => {
    const state = readEmployerListState(params(''));
    expect(state).toEqual({ search: '', sortBy: 'name', sortOrder: 'asc' });
    expect(writeEmployerListState(state).toString()).toBe('');
  });

  it('round-trips every non-default value', () => {
    const state = { search: '100% natural & co', sortBy: 'lastActivity' as const, sortOrder: 'desc' as const };
    expect(readEmployerListState(writeEmployerListState(state))).toEqual(state);
  });

  it('falls back to the default for values it does not know', () => {
    expect(readEmployerListState(params('sortBy=employees&sortOrder=up'))).toEqual({ search: '', sortBy: 'name', sortOrder: 'asc' });
  });

  it('resets the direction to ascending when the field changes, and toggles it otherwise', () => {
    const desc: EmployerListState = { search: 'x', sortBy: 'name', sortOrder: 'desc' };
    expect(chooseSortField(desc, 'lastActivity')).toEqual({ search: 'x', sortBy: 'lastActivity', sortOrder: 'asc' });
    expect(chooseSortField(desc, 'name')).toBe(desc);
    expect(toggleSortOrder(desc).sortOrder).toBe('asc');
    expect(toggleSortOrder(toggleSortOrder(desc))).toEqual(desc);
  });

  it('sends a trimmed search', () => {
    expect(employerListQuery({ search: '  acme ', sortBy: 'name', sortOrder: 'asc' })).toEqual({ search: 'acme', sortBy: 'name', sortOrder: 'asc' });
  });

  it('writes the footer with the search term only while searching', () => {
    expect(employerFooter(3, '')).toBe('Showing 3 employers');
    expect(employerFooter(1, ' acme ')).toBe('Showing 1 employer matching "acme"');
  });
});

describe('employee list state in the URL', () => {
  it('reads defaults and round-trips values', () => {
    expect(readEmployeeListState(params(''))).toEqual({ search: '', status: '', page: 1 });
    const state = { search: 'smith', status: 'enrolled' as const, page: 3 };
    expect(readEmployeeListState(writeEmployeeListState(state))).toEqual(state);
    expect(writeEmployeeListState({ search: '', status: '', page: 1 }).toString()).toBe('');
  });

  it.each(['0', '-2', '1.5', 'abc', '1000001', ''])('treats page=%s as page 1', (page) => {
    expect(readEmployeeListState(params(`page=${page}`)).page).toBe(1);
  });

  it('reads and writes the Not Enrolled filter', () => {
    expect(readEmployeeListState(params('status=not_enrolled')).status).toBe('not_enrolled');
    expect(writeEmployeeListState({ search: '', status: 'not_enrolled', page: 1 }).toString()).toBe('status=not_enrolled');
  });

  it('ignores an unknown status', () => {
    expect(readEmployeeListState(params('status=active')).status).toBe('');
  });

  it('starts again at page 1 after a new search or status, and keeps the page otherwise', () => {
    const state = { search: 'a', status: '' as const, page: 4 };
    expect(withSearch(state, 'ab')).toEqual({ search: 'ab', status: '', page: 1 });
    expect(withSearch(state, 'a')).toBe(state);
    expect(withStatus(state, 'verified')).toEqual({ search: 'a', status: 'verified', page: 1 });
    expect(withStatus(state, '')).toBe(state);
  });

  it('asks for pages of 25 and leaves out an empty status', () => {
    expect(employeeListQuery({ search: ' x ', status: '', page: 2 })).toEqual({ search: 'x', status: undefined, page: 2, size: 25 });
  });
});

describe('record ids', () => {
  it('recognises record ids', () => {
    expect(isRecordId('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(true);
    expect(isRecordId('not-an-id')).toBe(false);
    expect(isRecordId(undefined)).toBe(false);
  });
});
