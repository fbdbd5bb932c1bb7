/** The two directions every sortable admin list accepts. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** Query-string preprocessing: an empty value (`?status=`) means "not set", so defaults apply. */
export const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

/**
 * As `emptyAsUndefined`, and `null` means "not set" too. The employer and employee list
 * queries take this one; the popup queries keep refusing `null`.
 */
export const emptyOrNullAsUndefined = (value: unknown) => (value === null ? undefined : emptyAsUndefined(value));
