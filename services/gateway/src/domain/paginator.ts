import type { ConversionPage } from '@markwright/contracts';

/** A Laravel length-aware paginator body, with every key the contract lists. */
export function renderPaginator<T>(input: {
  items: T[];
  total: number;
  page: number;
  perPage: number;
  path: string;
  query: Record<string, string>;
}): Omit<ConversionPage, 'data'> & { data: T[] } {
  const { items, total, page, perPage, path, query } = input;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const url = (p: number): string => {
    const params = new URLSearchParams({ ...query, page: String(p) });
    return `${path}?${params.toString()}`;
  };
  const from = items.length > 0 ? (page - 1) * perPage + 1 : null;
  const to = items.length > 0 ? (page - 1) * perPage + items.length : null;
  const links = [
    { url: page > 1 ? url(page - 1) : null, label: '&laquo; Previous', active: false },
    ...pageWindow(page, lastPage).map((p) =>
      p === null ? { url: null, label: '...', active: false } : { url: url(p), label: String(p), active: p === page },
    ),
    { url: page < lastPage ? url(page + 1) : null, label: 'Next &raquo;', active: false },
  ];
  return {
    current_page: page,
    data: items,
    first_page_url: url(1),
    from,
    last_page: lastPage,
    last_page_url: url(lastPage),
    links,
    next_page_url: page < lastPage ? url(page + 1) : null,
    path,
    per_page: perPage,
    prev_page_url: page > 1 ? url(page - 1) : null,
    to,
    total,
  };
}

const ON_EACH_SIDE = 3;

/** Laravel's URL window: every page when few, otherwise the ends and a slider around the current page. */
function pageWindow(page: number, lastPage: number): Array<number | null> {
  const range = (a: number, b: number): number[] => Array.from({ length: Math.max(0, b - a + 1) }, (_, i) => a + i);
  if (lastPage < ON_EACH_SIDE * 2 + 8) return range(1, lastPage);
  const window = ON_EACH_SIDE + 4;
  if (page <= window) return [...range(1, window + ON_EACH_SIDE), null, ...range(lastPage - 1, lastPage)];
  if (page > lastPage - window) return [1, 2, null, ...range(lastPage - (window + ON_EACH_SIDE) + 1, lastPage)];
  return [1, 2, null, ...range(page - ON_EACH_SIDE, page + ON_EACH_SIDE), null, lastPage - 1, lastPage];
}
