import { type Db, preparedQuery } from './client';

/** A placeholder `:name` (not the second colon of a `::type` cast). */
const PLACEHOLDER = /(?<![:\w]):([a-z][a-zA-Z0-9_]*)/g;

/**
 * A prepared statement written with named placeholders (`:cost::int`) and typed parameters and
 * rows: callers pass an object, so a 15-value statement cannot swap two positions. The names are
 * turned into `$n` once, here; a placeholder without its parameter fails at definition time.
 */
export function namedStatement<Params extends Record<string, unknown>, Row>(
  name: string,
  text: string,
  parameterNames: ReadonlyArray<keyof Params & string>,
): (db: Db, params: Params) => Promise<Row[]> {
  const order: string[] = [];
  const positional = text.replace(PLACEHOLDER, (_, param: string) => {
    if (!parameterNames.includes(param)) throw new Error(`statement ${name}: :${param} is not a declared parameter`);
    let index = order.indexOf(param);
    if (index < 0) index = order.push(param) - 1;
    return `$${index + 1}`;
  });
  const unused = parameterNames.filter((p) => !order.includes(p));
  if (unused.length > 0) throw new Error(`statement ${name}: ${unused.join(', ')} declared but not used`);
  return (db, params) =>
    preparedQuery<Row>(
      db,
      name,
      positional,
      order.map((p) => params[p] ?? null),
    );
}
