// The delivery key's header and where a process keeps it: shared by the engine's door (door.ts)
// and the sealed world (sealed-world.mjs), which Node loads outside Next's bundles.

/** The header that carries the delivery key from the door to the engine's routes. */
export const ENGINE_KEY_HEADER = 'x-engine-delivery-key';
/** Where this process keeps its delivery key (made when the door opens). */
export const ENGINE_KEY = Symbol.for('agencia.engine.delivery-key');
