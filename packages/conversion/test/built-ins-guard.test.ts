import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtInsChange, settleLazyGlobals, snapshotBuiltIns } from '../src/isolation/built-ins-guard';

/** Runs `pollute`, reports what the guard saw, and undoes it so later tests see clean built-ins. */
function changeSeenAfter(pollute: () => void, undo: () => void): string | undefined {
  const snapshot = snapshotBuiltIns();
  pollute();
  try {
    return builtInsChange(snapshot);
  } finally {
    undo();
  }
}

describe('the built-ins guard', () => {
  it('When a conversion calls an endpoint with fetch after the snapshot (enhanced mode), then that is no change', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await settleLazyGlobals();
      const snapshot = snapshotBuiltIns();
      const { port } = server.address() as AddressInfo;
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
      expect(builtInsChange(snapshot)).toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('When nothing changes the built-ins, then the check finds no change', () => {
    const snapshot = snapshotBuiltIns();
    expect(builtInsChange(snapshot)).toBeUndefined();
    expect(builtInsChange(snapshot)).toBeUndefined();
  });

  it('When a property is added to Object.prototype, then the check names it', () => {
    const proto = Object.prototype as Record<string, unknown>;
    expect(
      changeSeenAfter(
        () => (proto.polluted = 'yes'),
        () => delete proto.polluted,
      ),
    ).toBe('Object.prototype: property polluted added');
  });

  it('When a built-in method is replaced, then the check finds it', () => {
    const original = Array.prototype.join;
    expect(
      changeSeenAfter(
        () => (Array.prototype.join = () => 'x'),
        () => (Array.prototype.join = original),
      ),
    ).toBe('Array.prototype: property join changed');
  });

  it('When a prototype gets another [[Prototype]], then the check finds it', () => {
    const was = Object.getPrototypeOf(Map.prototype) as object;
    expect(
      changeSeenAfter(
        () => Object.setPrototypeOf(Map.prototype, { polluted: true }),
        () => Object.setPrototypeOf(Map.prototype, was),
      ),
    ).toBe('Map.prototype: [[Prototype]] replaced');
  });

  it('When an intrinsic no global names changes (the array iterator), then the check finds it', () => {
    const iteratorProto = Object.getPrototypeOf([][Symbol.iterator]()) as Record<string, unknown>;
    expect(
      changeSeenAfter(
        () => (iteratorProto.polluted = 1),
        () => delete iteratorProto.polluted,
      ),
    ).toMatch(/property polluted added/);
  });

  it('When a global is added or a namespace method replaced, then the check finds it', () => {
    const g = globalThis as Record<string, unknown>;
    expect(
      changeSeenAfter(
        () => (g.window = {}),
        () => delete g.window,
      ),
    ).toBe('globalThis: property window added');
    const parse = JSON.parse;
    expect(
      changeSeenAfter(
        () => (JSON.parse = () => ({})),
        () => (JSON.parse = parse),
      ),
    ).toBe('JSON: property parse changed');
  });

  it('When a prototype is made non-extensible, then the check finds it', () => {
    // Not undoable, so on a built-in nothing else in this file needs afterwards.
    const proto = Object.getPrototypeOf(new WeakRef({})) as object;
    const snapshot = snapshotBuiltIns();
    Object.preventExtensions(proto);
    expect(builtInsChange(snapshot)).toBe('WeakRef.prototype: extensibility changed');
  });
});
