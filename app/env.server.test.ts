import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.server.ts';

describe('TRUST_PROXY', () => {
  it('defaults to the loopback proxy and takes addresses, subnets and the named ranges', () => {
    expect(parseEnv({ NODE_ENV: 'test' }).TRUST_PROXY).toBe('loopback');
    for (const value of ['10.0.0.1', '10.0.0.0/8, 192.168.1.0/24', 'loopback,uniquelocal', 'linklocal', '::1', 'fd00::/8']) {
      expect(parseEnv({ NODE_ENV: 'test', TRUST_PROXY: value }).TRUST_PROXY, value).toBe(value);
    }
  });

  it('takes a number as how many proxies in front are believed', () => {
    expect(parseEnv({ NODE_ENV: 'test', TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ NODE_ENV: 'test', TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
  });

  it('stops the start with one line for anything Express would refuse when the first request came', () => {
    for (const value of ['-1', '1.5', 'true', 'nginx', '10.0.0.1/33', '10.0.0.1,,10.0.0.2']) {
      expect(() => parseEnv({ NODE_ENV: 'test', TRUST_PROXY: value }), value).toThrow(
        `Invalid environment: TRUST_PROXY must be a number of proxies, or addresses or subnets separated by commas, or loopback, linklocal, uniquelocal (got ${JSON.stringify(value)})`,
      );
    }
  });
});

describe('DB_POOL_MAX', () => {
  it('is unset by default (the pool is sized by the cores) and takes a whole number of connections', () => {
    expect(parseEnv({ NODE_ENV: 'test' }).DB_POOL_MAX).toBeUndefined();
    expect(parseEnv({ NODE_ENV: 'test', DB_POOL_MAX: '12' }).DB_POOL_MAX).toBe(12);
  });

  it('stops the start for anything that is not a number of connections', () => {
    expect(() => parseEnv({ NODE_ENV: 'test', DB_POOL_MAX: 'many' })).toThrow('Invalid environment: DB_POOL_MAX must be a number (got "many")');
    expect(() => parseEnv({ NODE_ENV: 'test', DB_POOL_MAX: '2.5' })).toThrow('Invalid environment: DB_POOL_MAX must be a whole number (got "2.5")');
    expect(() => parseEnv({ NODE_ENV: 'test', DB_POOL_MAX: '0' })).toThrow('Invalid environment: DB_POOL_MAX must be between 1 and 1000 (got "0")');
  });
});

describe('DB_LOCK_TIMEOUT_MS', () => {
  it('bounds the web process’s lock waits at 5 seconds unless set; 0 waits as long as it takes', () => {
    expect(parseEnv({ NODE_ENV: 'test' }).DB_LOCK_TIMEOUT_MS).toBe(5000);
    expect(parseEnv({ NODE_ENV: 'test', DB_LOCK_TIMEOUT_MS: '1500' }).DB_LOCK_TIMEOUT_MS).toBe(1500);
    expect(parseEnv({ NODE_ENV: 'test', DB_LOCK_TIMEOUT_MS: '0' }).DB_LOCK_TIMEOUT_MS).toBe(0);
  });

  it('stops the start for anything that is not a number of milliseconds', () => {
    expect(() => parseEnv({ NODE_ENV: 'test', DB_LOCK_TIMEOUT_MS: '5s' })).toThrow('Invalid environment: DB_LOCK_TIMEOUT_MS must be a number (got "5s")');
    expect(() => parseEnv({ NODE_ENV: 'test', DB_LOCK_TIMEOUT_MS: '-1' })).toThrow('Invalid environment: DB_LOCK_TIMEOUT_MS must be between 0 and 600000 (got "-1")');
    expect(() => parseEnv({ NODE_ENV: 'test', DB_LOCK_TIMEOUT_MS: '1.5' })).toThrow('Invalid environment: DB_LOCK_TIMEOUT_MS must be a whole number (got "1.5")');
  });
});
