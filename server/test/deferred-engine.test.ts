import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeferredMediaEngine } from '../src/media/deferred-engine.js';
import type { MediaEngine, RoomMember } from '../src/media/engine.js';

/** An engine that records what it was asked, standing in for werift. */
function recordingEngine(log: string[]): MediaEngine {
  return {
    async join(roomId, userId) {
      log.push(`join ${roomId} ${userId}`);
      return { userId, streamId: `u${userId}`, handle: async () => undefined, leave: () => undefined } satisfies RoomMember;
    },
    participants: (roomId) => new Map([[1, `in ${roomId}`]]),
    publishing: () => new Map(),
    closeRoom: (roomId) => void log.push(`closeRoom ${roomId}`),
    close: () => void log.push('close'),
  };
}

describe('the media engine loaded when first needed', () => {
  it('loads once, on warm-up (a call rings) or on the first join, and a join waits for the load', async () => {
    const log: string[] = [];
    let loads = 0;
    let finishLoad!: () => void;
    const loaded = new Promise<void>((resolve) => (finishLoad = resolve));
    const engine = new DeferredMediaEngine(async () => {
      loads += 1;
      await loaded;
      return recordingEngine(log);
    });
    // Before it has loaded there is no room: nothing to list or close, and nothing is loaded for asking.
    assert.deepEqual(engine.participants('r'), new Map());
    engine.closeRoom('r');
    assert.equal(loads, 0);

    engine.warmUp();
    const joining = engine.join('r', 7, () => undefined);
    assert.equal(loads, 1);
    assert.deepEqual(log, []); // waiting for the load
    finishLoad();
    assert.equal((await joining).userId, 7);
    await engine.join('r', 8, () => undefined);
    assert.equal(loads, 1);
    assert.deepEqual(log, ['join r 7', 'join r 8']);
    assert.deepEqual(engine.participants('r'), new Map([[1, 'in r']]));
    engine.close();
    assert.deepEqual(log.at(-1), 'close');
  });

  it('a failed load is reported to the call that needed it, and the next one tries again', async () => {
    let attempt = 0;
    const engine = new DeferredMediaEngine(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error('werift is missing');
      return recordingEngine([]);
    });
    await assert.rejects(engine.join('r', 7, () => undefined), /werift is missing/);
    assert.equal((await engine.join('r', 7, () => undefined)).userId, 7);
  });

  it('closed while loading, the engine that arrives is closed at once and no join, waiting or new, goes through', async () => {
    const log: string[] = [];
    let finishLoad!: () => void;
    const loaded = new Promise<void>((resolve) => (finishLoad = resolve));
    const failures: unknown[] = [];
    const engine = new DeferredMediaEngine(async () => {
      await loaded;
      return recordingEngine(log);
    }, (error) => failures.push(error));
    engine.warmUp();
    const waiting = engine.join('r', 7, () => undefined);
    engine.close();
    finishLoad();
    await assert.rejects(waiting, /closed/);
    assert.deepEqual(log, ['close']);
    await assert.rejects(engine.join('r', 8, () => undefined), /closed/);
    assert.deepEqual(failures, [], 'closing is not a failure to report');
  });

  it('a failed warm-up is reported', async () => {
    const failures: unknown[] = [];
    const engine = new DeferredMediaEngine(async () => {
      throw new Error('werift is missing');
    }, (error) => failures.push(error));
    engine.warmUp();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(failures.length, 1);
  });
});
