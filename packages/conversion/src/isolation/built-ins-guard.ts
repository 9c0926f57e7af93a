/**
 * Notices prototype pollution in a conversion worker: a snapshot of the built-ins every parser
 * shares (globalThis's own properties, each built-in constructor, its prototype, their
 * [[Prototype]] chains and the intrinsics only reachable through instances, such as the iterator
 * prototypes), compared after each conversion. Only own property names, descriptors,
 * [[Prototype]] and extensibility are compared, so the check costs a fraction of a millisecond
 * and, unlike freezing, leaves V8's fast paths for the built-ins untouched.
 */

// Taken once when this module loads (before any parser runs), so a polluted built-in cannot
// change how the check itself works. Snapshots are only taken while the built-ins are clean.
const { apply, ownKeys, getOwnPropertyDescriptor, getPrototypeOf, isExtensible } = Reflect;
const same = Object.is;

/** Where Node's fetch (undici) keeps its connection pool, created on the first fetch. */
const FETCH_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/**
 * Creates what Node's built-ins add to globalThis on first use rather than at start-up (fetch's
 * connection pool), so the snapshot already holds it and a document whose conversion calls an
 * endpoint (enhanced speech, the text model) is not taken for one that polluted the worker.
 */
export async function settleLazyGlobals(): Promise<void> {
  await (await fetch('data:,')).arrayBuffer();
}

let lazyGlobalsSettled = false;

/**
 * settleLazyGlobals once per worker, for the first task that may call an endpoint: it loads undici
 * (~30 ms of CPU), which the tasks that never call one (standard mode, most of them) do not pay.
 * True when it ran now, so the caller takes the snapshot again (a guard's `prepare` step, run while
 * the built-ins are clean). Until then the pool is no part of the snapshot, so a task that creates
 * it (or puts its own in its place) counts as a change.
 */
export async function settleLazyGlobalsOnce(): Promise<boolean> {
  if (lazyGlobalsSettled) return false;
  lazyGlobalsSettled = true;
  await settleLazyGlobals();
  return true;
}

/** One watched object as it was: its [[Prototype]], extensibility, and each own property. */
interface WatchedObject {
  target: object;
  label: string;
  proto: object | null;
  extensible: boolean;
  keys: Array<string | symbol>;
  /** Per key: value (or getter), setter, and the attribute bits. */
  values: unknown[];
  setters: unknown[];
  bits: number[];
}

export interface BuiltInsSnapshot {
  readonly objects: readonly WatchedObject[];
}

const WRITABLE = 1;
const ENUMERABLE = 2;
const CONFIGURABLE = 4;
const ACCESSOR = 8;

function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

function dataValue(target: object, key: PropertyKey): unknown {
  const desc = getOwnPropertyDescriptor(target, key);
  return desc && 'value' in desc ? desc.value : undefined;
}

/** Intrinsics no global names: reachable only through instances of generators, iterators, async functions. */
function hiddenIntrinsics(): object[] {
  const generator = function* () {};
  const asyncGenerator = async function* () {};
  const asyncFunction = async function () {};
  return [
    getPrototypeOf(generator),
    getPrototypeOf(generator()),
    getPrototypeOf(asyncGenerator),
    getPrototypeOf(asyncGenerator()),
    getPrototypeOf(asyncFunction),
    getPrototypeOf([][Symbol.iterator]()),
    getPrototypeOf(new Map().entries()),
    getPrototypeOf(new Set().values()),
    getPrototypeOf(''[Symbol.iterator]()),
    getPrototypeOf(/a/[Symbol.matchAll]('')),
  ].filter(isObjectLike);
}

/** The objects to watch: globalThis, what it holds, constructors' prototypes, and every [[Prototype]] on the way. */
function collectWatched(): Array<{ target: object; label: string }> {
  const seen = new Set<object>();
  const found: Array<{ target: object; label: string }> = [];
  const add = (value: unknown, label: string): void => {
    if (!isObjectLike(value) || seen.has(value)) return;
    seen.add(value);
    found[found.length] = { target: value, label };
  };
  const addConstructor = (value: unknown, label: string): void => {
    add(value, label);
    const prototype = typeof value === 'function' ? dataValue(value, 'prototype') : undefined;
    add(prototype, `${label}.prototype`);
  };
  add(globalThis, 'globalThis');
  for (const key of ownKeys(globalThis)) {
    const value = dataValue(globalThis, key);
    // Host objects whose own properties change by design (process.exitCode, listeners; fetch's
    // connection pool) are not built-ins.
    if (typeof process !== 'undefined' && value === process) continue;
    if (key === FETCH_DISPATCHER) continue;
    addConstructor(value, String(key));
  }
  // Node defines Buffer on globalThis through a getter, so it is named here.
  addConstructor(Buffer, 'Buffer');
  for (const target of hiddenIntrinsics())
    add(target, `%${String(getOwnPropertyDescriptor(target, Symbol.toStringTag)?.value ?? 'intrinsic')}%`);
  // Every [[Prototype]] on the way, and constructors inside what is watched (Intl.Collator, WebAssembly.Module).
  for (let i = 0; i < found.length; i++) {
    const { target, label } = found[i]!;
    add(getPrototypeOf(target), `[[Prototype]] of ${label}`);
    for (const key of ownKeys(target)) {
      const value = dataValue(target, key);
      if (typeof value === 'function' && isObjectLike(dataValue(value, 'prototype'))) {
        addConstructor(value, `${label}.${String(key)}`);
      }
    }
  }
  return found;
}

function attributeBits(desc: PropertyDescriptor, accessor: boolean): number {
  return (
    (desc.writable ? WRITABLE : 0) |
    (desc.enumerable ? ENUMERABLE : 0) |
    (desc.configurable ? CONFIGURABLE : 0) |
    (accessor ? ACCESSOR : 0)
  );
}

function record(target: object, label: string): WatchedObject {
  const keys = ownKeys(target);
  const values: unknown[] = [];
  const setters: unknown[] = [];
  const bits: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    const desc = getOwnPropertyDescriptor(target, keys[i]!)!;
    const accessor = !('value' in desc) && !('writable' in desc);
    values[i] = accessor ? desc.get : desc.value;
    setters[i] = accessor ? desc.set : undefined;
    bits[i] = attributeBits(desc, accessor);
  }
  return {
    target,
    label,
    proto: getPrototypeOf(target),
    extensible: isExtensible(target),
    keys,
    values,
    setters,
    bits,
  };
}

/** Takes the snapshot; call it once the worker has loaded what installs polyfills, before any document. */
export function snapshotBuiltIns(): BuiltInsSnapshot {
  return { objects: collectWatched().map(({ target, label }) => record(target, label)) };
}

/**
 * Whether a getter replaced itself with the value it returns, as Node's lazily loaded globals
 * (atob, fetch, the web streams) do when first read: asked again, the getter returns that value.
 */
function resolvedLazily(target: object, was: WatchedObject, index: number, value: unknown): boolean {
  const getter = was.values[index];
  if (!(was.bits[index]! & ACCESSOR) || typeof getter !== 'function') return false;
  return same(apply(getter, target, []), value);
}

/** What differs in one watched object from its snapshot, or undefined (compares in place, allocating only ownKeys's list). */
function difference(was: WatchedObject): string | undefined {
  const { target, label } = was;
  if (getPrototypeOf(target) !== was.proto) return `${label}: [[Prototype]] replaced`;
  if (isExtensible(target) !== was.extensible) return `${label}: extensibility changed`;
  const keys = ownKeys(target);
  if (keys.length !== was.keys.length) {
    const added = keys.length > was.keys.length;
    const key = added ? keys.find((k) => !was.keys.includes(k)) : was.keys.find((k) => !keys.includes(k));
    return `${label}: property ${String(key)} ${added ? 'added' : 'removed'}`;
  }
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== was.keys[i]) return `${label}: property ${String(key)} added`;
    const desc = getOwnPropertyDescriptor(target, key)!;
    const accessor = !('value' in desc) && !('writable' in desc);
    const bits = attributeBits(desc, accessor);
    const value = accessor ? desc.get : desc.value;
    const setter = accessor ? desc.set : undefined;
    if (bits !== was.bits[i] || !same(value, was.values[i]) || !same(setter, was.setters[i])) {
      if (!accessor && resolvedLazily(target, was, i, value)) continue;
      return `${label}: property ${String(key)} changed`;
    }
  }
  return undefined;
}

/**
 * The first change to the built-ins since the snapshot, described for the log (never shown to a
 * user), or undefined when they are as they were. A check that throws counts as a change.
 */
export function builtInsChange(snapshot: BuiltInsSnapshot): string | undefined {
  try {
    const { objects } = snapshot;
    for (let i = 0; i < objects.length; i++) {
      const change = difference(objects[i]!);
      if (change !== undefined) return change;
    }
    return undefined;
  } catch {
    return 'the check itself failed';
  }
}
