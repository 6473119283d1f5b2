import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_NODE_FLAGS, WORKER_NODE_FLAGS } from './node-flags.ts';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The node command lines (JSON exec form) that start `entry` in a Dockerfile or compose file. */
function commandsFor(text: string, entry: string): string[][] {
  return [...text.matchAll(/\["node",[^\]]*\]/g)].map((match) => JSON.parse(match[0]) as string[]).filter((command) => command.at(-1) === entry);
}

describe('V8 flags', () => {
  // The image and compose do not go through npm start: a flag added there only would be measured and never shipped.
  it('are the same in the image and in compose as in npm start', () => {
    const dockerfile = read('Dockerfile');
    const compose = read('docker-compose.yml');
    expect(commandsFor(dockerfile, 'build/server.js')).toEqual([['node', ...WEB_NODE_FLAGS, 'build/server.js']]);
    expect(commandsFor(compose, 'build/server.js')).toEqual([['node', ...WEB_NODE_FLAGS, 'build/server.js']]);
    expect(commandsFor(compose, 'build/worker.js')).toEqual([['node', ...WORKER_NODE_FLAGS, 'build/worker.js']]);
  });
});
