import assert from "node:assert/strict";
import { Semaphore } from "../../lib/run/pool.ts";

Deno.test("Semaphore hands out at most `size` slots, FIFO", async () => {
  const s = new Semaphore(2);
  const r1 = await s.acquire();
  const r2 = await s.acquire();
  assert.equal(s.free, 0);
  const order: number[] = [];
  const p3 = s.acquire().then((r) => (order.push(3), r));
  const p4 = s.acquire().then((r) => (order.push(4), r));
  r1!();
  r1!(); // idempotent
  const r3 = await p3;
  assert.deepEqual(order, [3]);
  r2!();
  const r4 = await p4;
  assert.deepEqual(order, [3, 4]);
  r3!();
  r4!();
  assert.equal(s.free, 2);
});

Deno.test("Semaphore.acquire() resolves undefined when its signal aborts", async () => {
  const s = new Semaphore(1);
  const held = await s.acquire();
  const controller = new AbortController();
  const waiting = s.acquire(controller.signal);
  controller.abort();
  assert.equal(await waiting, undefined);
  held!();
  assert.equal(s.free, 1);
  assert.equal(await s.acquire(controller.signal), undefined);
});
