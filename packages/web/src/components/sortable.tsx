/**
 * Sortable tables: a column header is a button that sorts by it (again: the other way; a third time: back to the
 * service's order), and says so through `aria-sort`, as screen readers expect.
 */

import { useMemo, useState } from 'preact/hooks';

type SortDirection = 'ascending' | 'descending';

interface SortState<K extends string> {
  readonly key: K | null;
  readonly direction: SortDirection;
}

/** A value to sort by; null sorts last whatever the direction (unknown is never "smallest"). */
export type SortValue = string | number | null;

/** Rows in the chosen order (stable: ties keep the service's order). */
export function useSorted<T, K extends string>(
  rows: readonly T[],
  sort: SortState<K>,
  sortValueOf: (row: T, key: K) => SortValue,
): readonly T[] {
  return useMemo(() => {
    const { key, direction } = sort;
    if (key === null) return rows;
    const sign = direction === 'ascending' ? 1 : -1;
    return rows
      .map((row, index) => ({ row, index, value: sortValueOf(row, key) }))
      .sort((a, b) => {
        if (a.value === null || b.value === null) {
          if (a.value === b.value) return a.index - b.index;
          return a.value === null ? 1 : -1;
        }
        const order =
          typeof a.value === 'number' && typeof b.value === 'number'
            ? a.value - b.value
            : String(a.value).localeCompare(String(b.value), 'en', { numeric: true });
        return order === 0 ? a.index - b.index : sign * order;
      })
      .map((entry) => entry.row);
    // sortValueOf is a pure function of its arguments; callers pass a module-level or stable function.
  }, [rows, sort]);
}

/** The table's sort: none at first; choosing a column sorts ascending, again descending, a third time unsorted. */
export function useSort<K extends string>(): [SortState<K>, (key: K) => void] {
  const [sort, setSort] = useState<SortState<K>>({ key: null, direction: 'ascending' });
  const toggle = (key: K) =>
    setSort((current) => {
      if (current.key !== key) return { key, direction: 'ascending' };
      if (current.direction === 'ascending') return { key, direction: 'descending' };
      return { key: null, direction: 'ascending' };
    });
  return [sort, toggle];
}

/** A column header that sorts the table by its column, saying the current order (`aria-sort`). */
export function SortHeader<K extends string>(props: {
  label: string;
  sortKey: K;
  sort: SortState<K>;
  onSort: (key: K) => void;
  numeric?: boolean;
}) {
  const { label, sortKey, sort, onSort } = props;
  const active = sort.key === sortKey;
  return (
    <th scope="col" class={props.numeric ? 'num' : undefined} aria-sort={active ? sort.direction : undefined}>
      <button type="button" class="sort-button" onClick={() => onSort(sortKey)}>
        {label}
        <span class="sort-mark" aria-hidden="true">
          {active ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}
