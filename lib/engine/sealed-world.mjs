// The engine's world on the servers we run ourselves (local files, or PostgreSQL), sealed.
//
// Why: the self-hosted worlds do not authenticate their queue's routes (vercel/workflow#3908,
// "Document Postgres World auth/security limitations"): a POST to /.well-known/workflow/v1/flow or
// /step with the queue's three x-vqs-* headers starts, resumes or replays a run, or runs a step,
// for anyone who can reach the site. Vercel's world signs its deliveries; these two do not.
// Here each handler runs a message only when it carries this process's delivery key, a random
// secret that lives in this process's memory and that only the engine's private door adds
// (lib/engine/door.ts): the world delivers to the door on 127.0.0.1, the door to the site.
// The check reads headers only, never the body, and answers a stranger as if nothing were there.
//
// Plain JavaScript because the Workflow SDK itself loads this file, with Node's require, at run
// time (@workflow/core's createWorld: WORKFLOW_TARGET_WORLD names it, lib/engine/choose-world.ts): every world
// the SDK makes in this process, whenever and in whichever of Next's bundles, is this one.
import { createRequire } from 'node:module';
import { createLocalWorld } from '@workflow/world-local';
import { fromEngine } from './delivery-key.mjs';

const require = createRequire(import.meta.url);

function innerWorld() {
  if (process.env.ENGINE_WORLD === '@workflow/world-postgres')
    return require('@workflow/world-postgres').createWorld();
  return createLocalWorld({ dataDir: process.env.WORKFLOW_LOCAL_DATA_DIR });
}

/** The world the SDK asks for, with its queue handlers sealed; everything else is the inner world's own. */
export function createWorld() {
  const world = innerWorld();
  const createQueueHandler = (prefix, handler) => {
    const open = world.createQueueHandler(prefix, handler);
    return async (req) => (fromEngine(req) ? open(req) : new Response(null, { status: 404 }));
  };
  return new Proxy(world, {
    get: (target, property, receiver) =>
      property === 'createQueueHandler'
        ? createQueueHandler
        : Reflect.get(target, property, receiver),
  });
}
