import { describe, expect, it } from 'vitest';
import { HANDLER_NAMES } from '../schemas.ts';
import { getHandler, handlerNames, registerStepHandlers } from './index.server.ts';

/** The registry holds the production handlers only; tests add theirs through the hook, never replacing a built-in one. */
describe('step handler registry', () => {
  it('knows exactly the production handlers until a test registers its own', () => {
    expect(handlerNames()).toEqual([...HANDLER_NAMES]);
    for (const name of HANDLER_NAMES) expect(getHandler(name)).toBeTypeOf('function');
    expect(getHandler('testEffect')).toBeUndefined();
    expect(getHandler('toString')).toBeUndefined();
  });

  it('adds a test handler under a new name and refuses to replace a built-in one', async () => {
    const probe = async () => ({ summary: 'probe' });
    expect(() => registerStepHandlers({ checkDocuments: probe })).toThrow(/built in/);
    expect(getHandler('checkDocuments')).not.toBe(probe);
    registerStepHandlers({ registryProbe: probe });
    expect(getHandler('registryProbe')).toBe(probe);
    expect(handlerNames()).toEqual([...HANDLER_NAMES, 'registryProbe']);
  });
});
