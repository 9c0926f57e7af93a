// Preloaded into a child process: any outbound connection or DNS lookup is refused and counted.
const net = require('node:net');
const dns = require('node:dns');
const attempts = [];
globalThis.__networkAttempts = attempts;
const refuse = (what) => {
  attempts.push(what);
  throw new Error(`network access refused: ${what}`);
};
const originalConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function connect(...args) {
  const target = Array.isArray(args[0]) ? args[0][0] : args[0];
  // Local IPC (a Unix socket path, used by tsx itself) is not the network.
  if (target && typeof target === 'object' && target.path) return originalConnect.apply(this, args);
  if (typeof target === 'string' && target.startsWith('/')) return originalConnect.apply(this, args);
  return refuse(`connect ${JSON.stringify(target)}`);
};
dns.lookup = (host) => refuse(`dns ${host}`);
dns.promises.lookup = async (host) => refuse(`dns ${host}`);
globalThis.fetch = async (url) => refuse(`fetch ${url}`);
