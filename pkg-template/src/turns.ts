// Applies through one host take turns (SPEC §3.7 rule 24).

/**
 * Applies through one host take turns (SPEC §3.7 rule 24): the re-check,
 * the writes, the verify and a rollback of one apply are never interleaved
 * with another's, so two applies sent together (an agent's parallel tool
 * calls) cannot each overwrite what the other just wrote and verified.
 * SPEC asks this per document; an apply learns its documents only from
 * its first read, so a host's applies take turns whatever they edit (one
 * apply on a live kernel takes tens of milliseconds). A host view that
 * stands for another host (a tool call's guarded view) names it under
 * `SAME_HOST`.
 */
export const SAME_HOST: unique symbol = Symbol.for('editkit.sameHost');
const turns = new WeakMap<object, Promise<void>>();

/** Runs `run` when the applies before it through `host` are done. */
export async function inTurn<T>(host: object, run: () => Promise<T>): Promise<T> {
  const named = (host as { [SAME_HOST]?: unknown })[SAME_HOST];
  const key = typeof named === 'object' && named !== null ? named : host;
  const before = turns.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const queue = before.then(() => mine);
  turns.set(key, queue);
  try {
    await before;
    return await run();
  } finally {
    done();
    if (turns.get(key) === queue) turns.delete(key);
  }
}
