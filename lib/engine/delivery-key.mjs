// The delivery key's header, where a process keeps it, and the check: shared by the engine's door (door.ts), the
// sealed world (sealed-world.mjs, which Node loads outside Next's bundles) and the guard of the engine's public
// routes (public-routes.ts, in the proxy).
import { timingSafeEqual } from 'node:crypto';

/** The header that carries the delivery key from the door to the engine's routes. */
export const ENGINE_KEY_HEADER = 'x-engine-delivery-key';
/** Where this process keeps its delivery key (made when the door opens). */
export const ENGINE_KEY = Symbol.for('agencia.engine.delivery-key');

/** True once this process's door has opened: the engine's messages then come through it, and only through it. */
export const doorOpen = () => typeof globalThis[ENGINE_KEY] === 'string';

/** True when `req` came through this process's door. No door opened in this process: nothing legitimate can arrive. */
export function fromEngine(req) {
  const key = globalThis[ENGINE_KEY];
  const given = req.headers.get(ENGINE_KEY_HEADER);
  if (typeof key !== 'string' || !given) return false;
  const [a, b] = [Buffer.from(given), Buffer.from(key)];
  return a.length === b.length && timingSafeEqual(a, b);
}
