import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { isOutOfSpace, serviceFaultOf } from './service-faults.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** How drizzle hands a driver's error to the route: wrapped, the driver's error as `cause`. */
const fromQuery = (cause: unknown) => new DrizzleQueryError('insert into t values ($1)', [1], cause as Error);

describe('serviceFaultOf', () => {
  it.each([
    ['ECONNREFUSED (the server is down)', withCode('ECONNREFUSED')],
    ['ECONNRESET', fromQuery(withCode('ECONNRESET'))],
    ['57P01 admin_shutdown (pg_terminate_backend, a fast shutdown)', fromQuery(withCode('57P01', 'terminating connection due to administrator command'))],
    ['57P03 cannot_connect_now (starting up)', withCode('57P03', 'the database system is starting up')],
    ['08006 connection_failure', fromQuery(withCode('08006'))],
    ['57014 the statement timeout', fromQuery(withCode('57014', 'canceling statement due to statement timeout'))],
    ['"Connection terminated unexpectedly"', fromQuery(new Error('Connection terminated unexpectedly'))],
    ['"Connection terminated due to connection timeout"', new Error('Connection terminated due to connection timeout')],
    ['"timeout exceeded when trying to connect" (no free connection in time)', new Error('timeout exceeded when trying to connect')],
    ['"Query read timeout" (no answer at all)', fromQuery(new Error('Query read timeout'))],
    ['an AggregateError of refused addresses', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect')],
  ])('%s is the database unavailable', (_name, err) => {
    expect(serviceFaultOf(err)).toBe('database-unavailable');
  });

  it.each([
    ['ENOSPC from the disk', withCode('ENOSPC', 'ENOSPC: no space left on device, write')],
    ['EDQUOT (a quota)', withCode('EDQUOT')],
    ['SQLSTATE 53100 disk_full from a query', fromQuery(withCode('53100', 'could not extend file "base/5/16385": No space left on device'))],
    // What PGlite's file system (emscripten) throws when it cannot write its files, e.g. on a first start.
    ['PGlite\'s ErrnoError 51', { name: 'ErrnoError', errno: 51 }],
  ])('%s is storage full', (_name, err) => {
    expect(serviceFaultOf(err)).toBe('storage-full');
    expect(isOutOfSpace(err)).toBe(true);
  });

  it.each([
    ['a unique violation', fromQuery(withCode('23505'))],
    ['a programming error', new TypeError('x is undefined')],
    ['the caller hanging up mid-body (Node\'s "aborted")', withCode('ECONNRESET', 'aborted')],
    ['another emscripten errno (ENOENT is 44)', { name: 'ErrnoError', errno: 44 }],
    ['a Node errno of 51 that is not emscripten\'s', Object.assign(new Error('x'), { errno: 51 })],
    ['nothing', undefined],
  ])('%s is neither', (_name, err) => {
    expect(serviceFaultOf(err)).toBeNull();
  });
});
